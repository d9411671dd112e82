//! The value lists of attendance, check-in, stored moves and the event log
//! ([decision 0306](../../../../docs/decisions/0306-attendance-and-event-vocabulary.md)).

use crate::value_list;

value_list! {
    /// A recorded attendance change: `sign_up`, `sign_off`, `force_majeure`, `present`, `absent` or `check_in` (a self check-in with the venue's code).
    pub ChangeAction, "attendance action" {
        /// Signed up for the round.
        SignUp = "sign_up",
        /// Signed off for the round.
        SignOff = "sign_off",
        /// A sign-off with force majeure (leader or arbiter only): absent with notice.
        ForceMajeure = "force_majeure",
        /// Marked present on the night.
        Present = "present",
        /// Marked absent on the night.
        Absent = "absent",
        /// A member's own check-in with the venue's code.
        CheckIn = "check_in",
    }
}

impl ChangeAction {
    /// Whether the change is a sign-off (with or without force majeure).
    pub fn is_sign_off(self) -> bool {
        matches!(self, ChangeAction::SignOff | ChangeAction::ForceMajeure)
    }
}

value_list! {
    /// How an attendance change reached the club: `account`, `email`, `phone`, `in_person`, or `venue_code` (a self check-in with the code shown at the venue).
    pub ChangeChannel, "attendance channel" {
        /// The member's own account.
        Account = "account",
        /// By e-mail to the leader.
        Email = "email",
        /// By phone to the leader.
        Phone = "phone",
        /// In person.
        InPerson = "in_person",
        /// A self check-in with the code shown at the venue.
        VenueCode = "venue_code",
    }
}

value_list! {
    /// The capacity a change was recorded in: `member`, `leader` or `arbiter`.
    pub Capacity, "capacity" {
        /// A member for themselves.
        Member = "member",
        /// The competition leader.
        Leader = "leader",
        /// The arbiter.
        Arbiter = "arbiter",
    }
}

value_list! {
    /// A sign-up or sign-off: `sign_up` or `sign_off`.
    pub AttendanceAction, "sign-up action" {
        /// Sign up.
        SignUp = "sign_up",
        /// Sign off.
        SignOff = "sign_off",
    }
}

impl From<AttendanceAction> for ChangeAction {
    fn from(a: AttendanceAction) -> ChangeAction {
        match a {
            AttendanceAction::SignUp => ChangeAction::SignUp,
            AttendanceAction::SignOff => ChangeAction::SignOff,
        }
    }
}

value_list! {
    /// How a sign-up or sign-off reached the leader: `email`, `phone` or `in_person`.
    pub AttendanceChannel, "leader's channel" {
        /// By e-mail.
        Email = "email",
        /// By phone.
        Phone = "phone",
        /// In person.
        InPerson = "in_person",
    }
}

impl From<AttendanceChannel> for ChangeChannel {
    fn from(c: AttendanceChannel) -> ChangeChannel {
        match c {
            AttendanceChannel::Email => ChangeChannel::Email,
            AttendanceChannel::Phone => ChangeChannel::Phone,
            AttendanceChannel::InPerson => ChangeChannel::InPerson,
        }
    }
}

value_list! {
    /// An arbiter's mark: `present`, `absent` or `force_majeure`.
    pub MarkKind, "mark" {
        /// Present (rapid and blitz: checked in).
        Present = "present",
        /// Absent.
        Absent = "absent",
        /// A sign-off with force majeure: absent with notice.
        ForceMajeure = "force_majeure",
    }
}

impl From<MarkKind> for ChangeAction {
    fn from(m: MarkKind) -> ChangeAction {
        match m {
            MarkKind::Present => ChangeAction::Present,
            MarkKind::Absent => ChangeAction::Absent,
            MarkKind::ForceMajeure => ChangeAction::ForceMajeure,
        }
    }
}

value_list! {
    /// What a self check-in did for one competition: `checked_in`, `already_checked_in` or `refused` (the reason given).
    pub CheckInOutcome, "check-in outcome" {
        /// Checked in now.
        CheckedIn = "checked_in",
        /// Checked in earlier.
        AlreadyCheckedIn = "already_checked_in",
        /// Refused; the reason is given.
        Refused = "refused",
    }
}

value_list! {
    /// The notation of a game's stored moves: `pgn` (chess PGN movetext), `san` (chess, a JSON list of SAN moves) or `pdn` (draughts).
    pub MoveFormat, "move format" {
        /// Chess: PGN movetext.
        Pgn = "pgn",
        /// Chess: a JSON list of SAN moves.
        San = "san",
        /// Draughts: PDN movetext.
        Pdn = "pdn",
    }
}

value_list! {
    /// The kind of an event
    pub EventType, "event type" {
        /// A round's pairing was generated or entered by hand (not yet public).
        PairingGenerated = "pairing.generated",
        /// A round's pairing was published.
        PairingPublished = "pairing.published",
        /// An unpublished pairing was taken back (the round is planned again).
        PairingWithdrawn = "pairing.withdrawn",
        /// A game's first result.
        ResultEntered = "result.entered",
        /// A game's result was changed.
        ResultCorrected = "result.corrected",
        /// The two players of a game reported different results (who reported what is
        /// not in it).
        ResultDisputed = "result.disputed",
        /// A round was completed.
        RoundCompleted = "round.completed",
        /// A competition's version changed: its standings may read differently (new ETag).
        StandingsChanged = "standings.changed",
        /// A sign-up, sign-off or check-in was recorded.
        AttendanceChanged = "attendance.changed",
        /// A claim was filed with the arbiter.
        ClaimFiled = "claim.filed",
        /// The arbiter decided a claim.
        ClaimDecided = "claim.decided",
        /// A competition's prize list was finalized.
        PrizesFinalized = "prizes.finalized",
        /// A player's record was changed.
        PlayerChanged = "player.changed",
        /// A player's rating was changed by a rating list.
        RatingChanged = "rating.changed",
    }
}

value_list! {
    /// Who may see an event of the log: `public`, `arbiter`, `leader` or `admin`.
    pub EventVisibility, "event visibility" {
        /// Anyone, without a token.
        Public = "public",
        /// Arbiters, leaders and admins.
        Arbiter = "arbiter",
        /// Leaders and admins.
        Leader = "leader",
        /// Admins only.
        Admin = "admin",
    }
}

impl EventVisibility {
    /// The visibilities a reader cleared for `self` may see (each role sees what those
    /// below it see: arbiter < leader < admin, as the API's role sets).
    pub fn seen_by(self) -> Vec<EventVisibility> {
        EventVisibility::ALL
            .iter()
            .copied()
            .filter(|v| *v <= self)
            .collect()
    }
}
