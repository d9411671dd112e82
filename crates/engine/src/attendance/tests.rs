//! Attendance tests: deadlines across DST changes and the status rules, worked by hand.

use super::*;

fn date(s: &str) -> NaiveDate {
    NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
}

fn utc(s: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
}

fn hm(h: u32, m: u32) -> NaiveTime {
    NaiveTime::from_hms_opt(h, m, 0).unwrap()
}

#[test]
fn deadline_across_dst_in_spring() {
    let r = DeadlineRule::default();
    // DST starts Sunday 28 March 2027. Friday 26 March: deadline Thursday 25 March 18:00
    // CET (UTC+1) = 17:00 UTC.
    assert_eq!(
        deadline(date("2027-03-26"), &r).unwrap(),
        utc("2027-03-25T17:00:00Z")
    );
    // Friday 2 April: Thursday 1 April 18:00 CEST (UTC+2) = 16:00 UTC.
    assert_eq!(
        deadline(date("2027-04-02"), &r).unwrap(),
        utc("2027-04-01T16:00:00Z")
    );
    // A deadline at 02:30 on 28 March 2027 does not exist (02:00 → 03:00): 03:30 CEST = 01:30 UTC.
    let gap = DeadlineRule {
        time: hm(2, 30),
        ..r
    };
    assert_eq!(
        deadline(date("2027-03-29"), &gap).unwrap(),
        utc("2027-03-28T01:30:00Z")
    );
}

#[test]
fn deadline_across_dst_in_autumn() {
    let r = DeadlineRule::default();
    // DST ends Sunday 25 October 2026. Friday 23 Oct: Thursday 22 Oct 18:00 CEST = 16:00 UTC.
    assert_eq!(
        deadline(date("2026-10-23"), &r).unwrap(),
        utc("2026-10-22T16:00:00Z")
    );
    // Friday 30 Oct: Thursday 29 Oct 18:00 CET = 17:00 UTC.
    assert_eq!(
        deadline(date("2026-10-30"), &r).unwrap(),
        utc("2026-10-29T17:00:00Z")
    );
    // A Monday evening, 26 Oct: Sunday 25 Oct 18:00, after the switch at 03:00 → CET, 17:00 UTC.
    assert_eq!(
        deadline(date("2026-10-26"), &r).unwrap(),
        utc("2026-10-25T17:00:00Z")
    );
    // 02:30 on 25 Oct 2026 happens twice (CEST, then CET): the earlier, 00:30 UTC.
    let fold = DeadlineRule {
        time: hm(2, 30),
        ..r.clone()
    };
    assert_eq!(
        deadline(date("2026-10-26"), &fold).unwrap(),
        utc("2026-10-25T00:30:00Z")
    );
    // configurable: two days before at 12:00, Tuesday 27 Oct 12:00 CET = 11:00 UTC
    let two = DeadlineRule {
        days_before: 2,
        time: hm(12, 0),
        ..r
    };
    assert_eq!(
        deadline(date("2026-10-29"), &two).unwrap(),
        utc("2026-10-27T11:00:00Z")
    );
    let bad = DeadlineRule {
        time_zone: "Mars/Olympus".into(),
        ..DeadlineRule::default()
    };
    assert!(matches!(
        deadline(date("2026-10-29"), &bad),
        Err(AttendanceError::UnknownTimeZone { .. })
    ));
}

fn change(player: &str, at: &str, action: Action, by: Recorder) -> Change {
    Change {
        player: player.into(),
        at: utc(at),
        action,
        recorded_by: by,
        channel: match by {
            Recorder::Member => Channel::Account,
            _ => Channel::Phone,
        },
        force_majeure: false,
        evenings: vec![date("2026-10-30")],
    }
}

fn keizer_evening(players: &[(&str, Membership)], changes: Vec<Change>) -> AttendanceInput {
    AttendanceInput {
        date: date("2026-10-30"),
        start_time: hm(20, 15),
        kind: EveningType::Keizer,
        deadline: DeadlineRule::default(),
        check_in_minutes: 15,
        players: players
            .iter()
            .map(|(id, m)| Attendee {
                id: (*id).into(),
                membership: *m,
            })
            .collect(),
        changes,
    }
}

fn statuses(a: &Attendance) -> Vec<Status> {
    a.players.iter().map(|p| p.status).collect()
}

// Friday 30 Oct 2026: deadline Thursday 29 Oct 18:00 CET = 17:00 UTC.
const ON_TIME: &str = "2026-10-29T16:59:00Z";
const ONE_SECOND_BEFORE: &str = "2026-10-29T16:59:59Z";
const AT_DEADLINE: &str = "2026-10-29T17:00:00Z";
const LATE: &str = "2026-10-29T17:01:00Z";

#[test]
fn fixed_players() {
    use Membership::Fixed;
    let mut fm = change("e", LATE, Action::SignOff, Recorder::Leader);
    fm.force_majeure = true;
    let mut fm_member = change("f", LATE, Action::SignOff, Recorder::Member);
    fm_member.force_majeure = true;
    let inp = keizer_evening(
        &[
            ("a", Fixed),
            ("b", Fixed),
            ("c", Fixed),
            ("d", Fixed),
            ("e", Fixed),
            ("f", Fixed),
        ],
        vec![
            // a: nothing → expected
            change("b", ON_TIME, Action::SignOff, Recorder::Member), // on time → excused
            // "vóór 18.00": at 18:00:00 exactly it is late → unexcused
            change("c", AT_DEADLINE, Action::SignOff, Recorder::Member),
            change("d", LATE, Action::SignOff, Recorder::Member), // late → unexcused
            fm,                                                   // late + force majeure
            fm_member, // force majeure claimed by the member himself: ignored → unexcused
        ],
    );
    let a = attendance(&inp).unwrap();
    assert_eq!(a.deadline, utc(AT_DEADLINE));
    assert_eq!(
        statuses(&a),
        [
            Status::Expected,
            Status::Excused,
            Status::Unexcused,
            Status::Unexcused,
            Status::Excused,
            Status::Unexcused
        ]
    );
    assert_eq!(
        a.players.iter().map(|p| p.paired).collect::<Vec<_>>(),
        [true, false, false, false, false, false]
    );
    assert!(Status::Unexcused.without_notice() && !Status::Excused.without_notice());
}

#[test]
fn flexible_players() {
    use Membership::Flexible;
    let inp = keizer_evening(
        &[
            ("a", Flexible),
            ("b", Flexible),
            ("c", Flexible),
            ("d", Flexible),
            ("e", Flexible),
            ("f", Flexible),
            ("g", Flexible),
        ],
        vec![
            // a: nothing → not signed up (absent without notice, not paired)
            change("b", ON_TIME, Action::SignUp, Recorder::Member), // → signed up
            change("c", LATE, Action::SignUp, Recorder::Member),    // late → refused
            change("d", LATE, Action::SignUp, Recorder::Leader),    // late, by the leader → ok
            change(
                "e",
                "2026-10-28T10:00:00Z",
                Action::SignUp,
                Recorder::Member,
            ),
            change("e", ON_TIME, Action::SignOff, Recorder::Member), // signs off again → excused
            // 17:59:59 local is before 18.00; 18:00:00 is not
            change("f", ONE_SECOND_BEFORE, Action::SignUp, Recorder::Member),
            change("g", AT_DEADLINE, Action::SignUp, Recorder::Member),
        ],
    );
    let a = attendance(&inp).unwrap();
    assert_eq!(
        statuses(&a),
        [
            Status::NotSignedUp,
            Status::SignedUp,
            Status::NotSignedUp,
            Status::SignedUp,
            Status::Excused,
            Status::SignedUp,
            Status::NotSignedUp
        ]
    );
    assert!(a.players[6].refused[0].reason.contains("deadline"));
    assert_eq!(a.players[2].refused.len(), 1);
    assert_eq!(a.players[2].refused[0].change, 1);
    assert!(a.players[2].refused[0].reason.contains("deadline"));
    assert!(Status::NotSignedUp.without_notice());
}

#[test]
fn changes_apply_in_time_order_and_to_their_evenings_only() {
    use Membership::Fixed;
    // Given out of order: the sign-up (Wed) comes after the sign-off (Tue) in time, so the
    // player ends up expected again. A change for another evening is ignored. A sign-off
    // covering several evenings, this one included, applies.
    let mut other = change("b", ON_TIME, Action::SignOff, Recorder::Member);
    other.evenings = vec![date("2026-11-06")];
    let mut several = change(
        "c",
        "2026-10-20T09:00:00Z",
        Action::SignOff,
        Recorder::Leader,
    );
    several.channel = Channel::Email;
    several.evenings = vec![date("2026-10-23"), date("2026-10-30"), date("2026-11-06")];
    let inp = keizer_evening(
        &[("a", Fixed), ("b", Fixed), ("c", Fixed)],
        vec![
            change(
                "a",
                "2026-10-28T10:00:00Z",
                Action::SignUp,
                Recorder::Member,
            ),
            change(
                "a",
                "2026-10-27T10:00:00Z",
                Action::SignOff,
                Recorder::Member,
            ),
            other,
            several,
        ],
    );
    let a = attendance(&inp).unwrap();
    assert_eq!(
        statuses(&a),
        [Status::SignedUp, Status::Expected, Status::Excused]
    );
    assert_eq!(a.players[0].decided_by, Some(0));
    assert_eq!(a.players[2].decided_by, Some(3));
    // a late sign-up of a player who is expected anyway changes nothing and is not refused
    let inp = keizer_evening(
        &[("a", Fixed)],
        vec![change("a", LATE, Action::SignUp, Recorder::Member)],
    );
    let a = attendance(&inp).unwrap();
    assert_eq!(statuses(&a), [Status::Expected]);
    assert!(a.players[0].refused.is_empty());
}

#[test]
fn no_show_and_unknown_player() {
    use Membership::Fixed;
    let inp = keizer_evening(
        &[("a", Fixed), ("b", Fixed)],
        vec![
            change(
                "a",
                "2026-10-30T19:30:00Z",
                Action::MarkAbsent,
                Recorder::Arbiter,
            ),
            change(
                "b",
                "2026-10-30T19:00:00Z",
                Action::MarkPresent,
                Recorder::Arbiter,
            ),
            change(
                "b",
                "2026-10-30T19:05:00Z",
                Action::MarkAbsent,
                Recorder::Member,
            ),
        ],
    );
    let a = attendance(&inp).unwrap();
    assert_eq!(statuses(&a), [Status::NoShow, Status::Present]);
    assert_eq!(a.players[1].refused.len(), 1);
    let bad = keizer_evening(
        &[("a", Fixed)],
        vec![change("zz", ON_TIME, Action::SignOff, Recorder::Member)],
    );
    assert_eq!(
        attendance(&bad),
        Err(AttendanceError::UnknownPlayer {
            change: 0,
            player: "zz".into()
        })
    );
}

#[test]
fn rapid_check_in_before_the_cut_off() {
    use Membership::{Fixed, Flexible};
    // Rapid Friday 9 April 2027, round at 20:30 CEST = 18:30 UTC; check in by 18:15 UTC.
    let ev = date("2027-04-09");
    let ci = |p: &str, at: &str, by: Recorder| Change {
        evenings: vec![ev],
        ..change(p, at, Action::CheckIn, by)
    };
    let inp = AttendanceInput {
        date: ev,
        start_time: hm(20, 30),
        kind: EveningType::Rapid,
        deadline: DeadlineRule::default(),
        check_in_minutes: 15,
        players: ["a", "b", "c", "d"]
            .iter()
            .map(|id| Attendee {
                id: (*id).into(),
                membership: if *id == "d" { Flexible } else { Fixed },
            })
            .collect(),
        changes: vec![
            ci("a", "2027-04-09T18:14:00Z", Recorder::Arbiter), // 20:14 local → in
            ci("b", "2027-04-09T18:16:00Z", Recorder::Arbiter), // 20:16 → too late
            ci("d", "2027-04-09T18:15:00Z", Recorder::Member),  // not by the arbiter
                                                                // c: not checked in → absent for the round
        ],
    };
    let a = attendance(&inp).unwrap();
    assert_eq!(a.check_in_by, Some(utc("2027-04-09T18:15:00Z")));
    assert_eq!(
        statuses(&a),
        [
            Status::CheckedIn,
            Status::NotCheckedIn,
            Status::NotCheckedIn,
            Status::NotCheckedIn
        ]
    );
    assert_eq!(
        a.players.iter().map(|p| p.paired).collect::<Vec<_>>(),
        [true, false, false, false]
    );
    assert_eq!(a.players[1].refused.len(), 1);
    assert_eq!(a.players[3].refused.len(), 1);
}

/// A rapid round at 20:00 (club time, CET in November: 19:00 UTC) checks players in by 19:45;
/// that minute counts as a whole (docs/rules/rapid-blitz.md#self-check-in).
fn rapid_at_eight(changes: Vec<Change>, players: &[&str]) -> Attendance {
    let ev = date("2026-11-27");
    let inp = AttendanceInput {
        date: ev,
        start_time: hm(20, 0),
        kind: EveningType::Rapid,
        deadline: DeadlineRule::default(),
        check_in_minutes: 15,
        players: players
            .iter()
            .map(|id| Attendee {
                id: (*id).into(),
                membership: Membership::Fixed,
            })
            .collect(),
        changes: changes
            .into_iter()
            .map(|c| Change {
                evenings: vec![ev],
                ..c
            })
            .collect(),
    };
    attendance(&inp).unwrap()
}

fn self_check_in(player: &str, at: &str) -> Change {
    Change {
        channel: Channel::VenueCode,
        ..change(player, at, Action::CheckIn, Recorder::Member)
    }
}

#[test]
fn a_rapid_check_in_during_the_cut_off_minute_is_on_time_and_one_a_minute_later_is_not() {
    // 19:45:00, 19:45:59 and 19:45:59.999 club time are on time; 19:46:00 is late
    let a = rapid_at_eight(
        vec![
            self_check_in("a", "2026-11-27T18:45:00Z"),
            self_check_in("b", "2026-11-27T18:45:59Z"),
            self_check_in("c", "2026-11-27T18:45:59.999Z"),
            self_check_in("d", "2026-11-27T18:46:00Z"),
            change(
                "e",
                "2026-11-27T18:46:00Z",
                Action::CheckIn,
                Recorder::Arbiter,
            ),
        ],
        &["a", "b", "c", "d", "e"],
    );
    assert_eq!(a.check_in_by, Some(utc("2026-11-27T18:45:00Z")));
    assert_eq!(
        a.players.iter().map(|p| p.paired).collect::<Vec<_>>(),
        [true, true, true, false, false]
    );
    assert_eq!(
        a.players[3].refused[0].reason,
        "checked in after the cut-off: not paired this round"
    );
    assert_eq!(a.players[4].refused.len(), 1);
}

#[test]
fn a_member_checks_in_only_with_the_venue_code() {
    let a = rapid_at_eight(
        vec![
            change(
                "a",
                "2026-11-27T18:30:00Z",
                Action::CheckIn,
                Recorder::Member,
            ),
            self_check_in("b", "2026-11-27T18:30:00Z"),
            Change {
                channel: Channel::VenueCode,
                ..change(
                    "c",
                    "2026-11-27T18:30:00Z",
                    Action::MarkPresent,
                    Recorder::Member,
                )
            },
        ],
        &["a", "b", "c"],
    );
    assert_eq!(
        statuses(&a),
        [
            Status::NotCheckedIn,
            Status::CheckedIn,
            Status::NotCheckedIn
        ]
    );
    assert_eq!(a.players[0].refused.len(), 1);
    assert_eq!(a.players[2].refused.len(), 1);
}

#[test]
fn the_check_in_minute_boundary_is_the_start_of_the_next_minute() {
    let by = utc("2026-11-27T18:45:00Z");
    assert!(on_time_for_check_in(utc("2026-11-27T18:44:00Z"), by));
    assert!(on_time_for_check_in(utc("2026-11-27T18:45:59.999Z"), by));
    assert!(!on_time_for_check_in(utc("2026-11-27T18:46:00Z"), by));
}
