//! Reminders before an evening's sign-up deadline, with signed one-click links
//! ([decision 0329](../../../../docs/decisions/0329-reminders-with-attendance-links.md)).
//!
//! A pass ([`remind`], run once a minute by the server, with the clock as a parameter) looks at the
//! rounds still open for attendance whose deadline (the one the attendance service computes,
//! docs/rules/keizer.md#attendance-and-deadlines) falls within `REMINDER_HOURS_BEFORE` of
//! now: each flexible player not signed up gets a link to sign up, each fixed player not
//! signed off a link to sign off, once per player and round (the mail's event names both).
//!
//! A link's token is `<round>.<player>.<up|off>.<expiry>.<mac>`: the expiry the deadline in
//! Unix seconds, the mac the first 16 bytes of `HMAC-SHA256(key, "<round>.<player>.<action>.
//! <expiry>")` in unpadded base64url, the key derived from the server's secret. Opening the
//! link changes nothing ([`describe`]); the page's button posts it ([`follow`]), which records
//! the change as the member's own, by mail, under every rule of a member's change.

use crate::error::{ApiError, ApiResult, FieldError};
use crate::ids::{PlayerId, RoundId};
use crate::mail_config::MailSettings;
use crate::services::mail::templates::Language;
use crate::services::notifications::{Notice, language_of, long_date, notify};
use crate::services::unsubscribe::UnsubscribeKey;
use crate::services::{attendance, competitions};
use crate::store::DbConn;
use crate::store::models::competition::Round;
use crate::store::models::players;
use crate::store::schema::rounds;
use crate::vocab::{NotifyKind, RoundStatus};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chrono::{DateTime, NaiveDate, Utc};
use clubcomp_engine::attendance::{EveningType, Status as EngineStatus};
use diesel::prelude::*;

/// The longest token a request may send.
pub const TOKEN_MAX: usize = 100;
/// The bytes of the mac a token carries.
const MAC_BYTES: usize = 16;
/// The most rounds one pass looks at.
const MAX_ROUNDS: i64 = 500;
/// The path of the page a link opens.
pub const PAGE: &str = "/mail/attendance";

use crate::services::secrets::hmac_sha256 as hmac;

/// What a link does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkAction {
    /// A flexible player signs up.
    SignUp,
    /// A fixed player signs off.
    SignOff,
}

impl LinkAction {
    fn code(self) -> &'static str {
        match self {
            LinkAction::SignUp => "up",
            LinkAction::SignOff => "off",
        }
    }

    fn stored(self) -> crate::vocab::ChangeAction {
        match self {
            LinkAction::SignUp => crate::vocab::ChangeAction::SignUp,
            LinkAction::SignOff => crate::vocab::ChangeAction::SignOff,
        }
    }
}

/// A link a key signed: who, which round, what, until when.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Link {
    /// The round.
    pub round: RoundId,
    /// The player.
    pub player: PlayerId,
    /// Sign up or off.
    pub action: LinkAction,
    /// The link works before this instant (the deadline when it was mailed).
    pub expires: DateTime<Utc>,
}

/// The key the attendance links are signed with.
#[derive(Clone)]
pub struct AttendanceLinkKey([u8; 32]);

impl std::fmt::Debug for AttendanceLinkKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("AttendanceLinkKey(..)")
    }
}

impl AttendanceLinkKey {
    /// The key of a server secret (the JWT secret): a key of its own, as the unsubscribe
    /// links have theirs.
    pub fn from_secret(secret: &[u8]) -> AttendanceLinkKey {
        AttendanceLinkKey(hmac(secret, b"clubcomp attendance link v1"))
    }

    fn mac(&self, body: &str) -> String {
        URL_SAFE_NO_PAD.encode(&hmac(&self.0, body.as_bytes())[..MAC_BYTES])
    }

    /// The token of `link`.
    pub fn token(&self, link: &Link) -> String {
        let body = format!(
            "{}.{}.{}.{}",
            link.round.0,
            link.player.0,
            link.action.code(),
            link.expires.timestamp()
        );
        format!("{body}.{}", self.mac(&body))
    }

    /// The link of a token this key signed, if it has not expired at `now`; 422 naming
    /// `token` and why otherwise.
    pub fn verify(&self, token: &str, now: DateTime<Utc>) -> Result<Link, FieldError> {
        let bad = || FieldError::new("token", "is not a sign-up or sign-off link of this club");
        if token.len() > TOKEN_MAX {
            return Err(FieldError::new(
                "token",
                format!("must be at most {TOKEN_MAX} characters"),
            ));
        }
        let (body, mac) = token.rsplit_once('.').ok_or_else(bad)?;
        let expected = self.mac(body);
        // compared in constant time: the mac is a secret until it is right
        let same = expected.len() == mac.len()
            && expected
                .bytes()
                .zip(mac.bytes())
                .fold(0u8, |acc, (a, b)| acc | (a ^ b))
                == 0;
        if !same {
            return Err(bad());
        }
        let parts: Vec<&str> = body.split('.').collect();
        let [round, player, action, expires] = parts[..] else {
            return Err(bad());
        };
        let action = match action {
            "up" => LinkAction::SignUp,
            "off" => LinkAction::SignOff,
            _ => return Err(bad()),
        };
        let round = RoundId(round.parse().map_err(|_| bad())?);
        let player = PlayerId(player.parse().map_err(|_| bad())?);
        let expires = expires
            .parse::<i64>()
            .ok()
            .and_then(|s| DateTime::from_timestamp(s, 0))
            .ok_or_else(bad)?;
        if now >= expires {
            return Err(FieldError::new(
                "token",
                format!(
                    "this link expired at the sign-up deadline, {}; ask the competition leader",
                    expires.format("%Y-%m-%d %H:%M UTC")
                ),
            ));
        }
        Ok(Link {
            round,
            player,
            action,
            expires,
        })
    }
}

/// What a reminder pass needs of the server.
#[derive(Debug, Clone, Copy)]
pub struct Keys<'a> {
    /// The mail settings (the lead time `REMINDER_HOURS_BEFORE` among them).
    pub settings: &'a MailSettings,
    /// The key of the unsubscribe links.
    pub unsubscribe: &'a UnsubscribeKey,
    /// The key of the attendance links.
    pub links: &'a AttendanceLinkKey,
}

/// A deadline written out in the club's time zone: "donderdag 9 december 2026 om 18:00".
pub fn deadline_text(lang: Language, deadline: DateTime<Utc>, time_zone: &str) -> String {
    let local = time_zone
        .parse::<chrono_tz::Tz>()
        .map(|tz| deadline.with_timezone(&tz).naive_local())
        .unwrap_or_else(|_| deadline.naive_utc());
    let day = long_date(lang, local.date());
    let time = local.format("%H:%M");
    match lang {
        Language::Nl => format!("{day} om {time}"),
        Language::En => format!("{day} at {time}"),
    }
}

/// What a reminder is about.
#[derive(Debug, Clone)]
pub struct Evening {
    /// The competition's name.
    pub competition: String,
    /// The round's number.
    pub number: i32,
    /// The evening's date.
    pub date: NaiveDate,
    /// The deadline, written out.
    pub deadline: String,
}

/// The words of a reminder with its link.
pub fn reminder_words(lang: Language, e: &Evening, action: LinkAction, url: &str) -> Notice {
    let day = long_date(lang, e.date);
    let (c, n, d) = (&e.competition, e.number, &e.deadline);
    let (subject, line, label) = match (lang, action) {
        (Language::Nl, LinkAction::SignUp) => (
            format!("Herinnering: aanmelden voor ronde {n} van {c} ({day})"),
            format!(
                "Je bent nog niet aangemeld voor ronde {n} van {c} op {day}. Aanmelden kan tot \
                 {d}, met de knop hieronder (zonder in te loggen)."
            ),
            "Aanmelden voor deze avond",
        ),
        (Language::Nl, LinkAction::SignOff) => (
            format!("Herinnering: ronde {n} van {c} ({day})"),
            format!(
                "Je wordt verwacht in ronde {n} van {c} op {day}. Kun je niet komen, meld je \
                 dan af vóór {d}, met de knop hieronder (zonder in te loggen)."
            ),
            "Afmelden voor deze avond",
        ),
        (Language::En, LinkAction::SignUp) => (
            format!("Reminder: sign up for round {n} of {c} ({day})"),
            format!(
                "You have not signed up for round {n} of {c} on {day} yet. You can sign up \
                 until {d} with the button below (no login needed)."
            ),
            "Sign up for this evening",
        ),
        (Language::En, LinkAction::SignOff) => (
            format!("Reminder: round {n} of {c} ({day})"),
            format!(
                "You are expected in round {n} of {c} on {day}. If you cannot come, sign off \
                 before {d} with the button below (no login needed)."
            ),
            "Sign off for this evening",
        ),
    };
    Notice {
        subject,
        paragraphs: vec![line],
        link: Some((label.to_string(), url.to_string())),
    }
}

/// The rounds still open for attendance (planned), oldest first.
fn open_rounds(c: &mut DbConn) -> ApiResult<Vec<Round>> {
    Ok(rounds::table
        .filter(rounds::status.eq(RoundStatus::Planned))
        .order(rounds::id)
        .limit(MAX_ROUNDS)
        .select(Round::as_select())
        .load(c)?)
}

/// One reminder pass at `now` in the caller's transaction: queues the reminders of every
/// round whose deadline is after `now` and at most `REMINDER_HOURS_BEFORE` away. A reminder
/// queued before is not queued again. How many were queued.
pub fn remind(
    c: &mut DbConn,
    keys: Keys<'_>,
    now: DateTime<Utc>,
    time_zone: &str,
) -> ApiResult<usize> {
    let mut queued = 0;
    for round in open_rounds(c)? {
        let comp = competitions::load(c, round.competition_id)?;
        if attendance::evening_type(&comp) != EveningType::Keizer {
            continue;
        }
        let a = attendance::evening(c, &comp, &round, time_zone)?;
        if a.deadline <= now || a.deadline - now > keys.settings.reminder_lead {
            continue;
        }
        let ctx = attendance::round_context(c, &comp, &round, time_zone)?;
        for pa in &a.players {
            let action = match pa.status {
                EngineStatus::NotSignedUp => LinkAction::SignUp,
                EngineStatus::Expected => LinkAction::SignOff,
                _ => continue,
            };
            let id = PlayerId::from_engine(&pa.player)?;
            let Some(player) = players::by_id(c, id)? else {
                continue;
            };
            let link = Link {
                round: round.id,
                player: id,
                action,
                expires: a.deadline,
            };
            let url = format!(
                "{}{PAGE}?token={}",
                keys.settings.public_url,
                keys.links.token(&link)
            );
            let words = |lang| {
                let e = Evening {
                    competition: comp.name.clone(),
                    number: round.number,
                    date: ctx.date,
                    deadline: deadline_text(lang, a.deadline, time_zone),
                };
                reminder_words(lang, &e, action, &url)
            };
            let event = format!("round:{}:player:{}", round.id, id);
            if notify(
                c,
                (keys.settings, keys.unsubscribe),
                &player,
                (NotifyKind::Reminder, event),
                words,
            )? {
                queued += 1;
            }
        }
    }
    Ok(queued)
}

/// What a link's page shows.
#[derive(Debug, Clone)]
pub struct LinkView {
    /// The player's language.
    pub lang: Language,
    /// The player's name.
    pub name: String,
    /// Sign up or off.
    pub action: LinkAction,
    /// The evening.
    pub evening: Evening,
}

fn load_round(c: &mut DbConn, id: RoundId) -> ApiResult<Round> {
    rounds::table
        .find(id)
        .select(Round::as_select())
        .first(c)
        .optional()?
        .ok_or_else(|| ApiError::invalid("token", "the evening of this link no longer exists"))
}

/// The page of a link at `now`, without changing anything (422 naming `token` for a link
/// this club did not sign, one that expired, or one of a round or player that is gone).
pub fn describe(
    c: &mut DbConn,
    key: &AttendanceLinkKey,
    token: &str,
    now: DateTime<Utc>,
    time_zone: &str,
) -> ApiResult<LinkView> {
    let link = key
        .verify(token, now)
        .map_err(|e| ApiError::validation(vec![e]))?;
    let round = load_round(c, link.round)?;
    let comp = competitions::load(c, round.competition_id)?;
    let player = players::by_id(c, link.player)?
        .ok_or_else(|| ApiError::invalid("token", "the player of this link no longer exists"))?;
    let ctx = attendance::round_context(c, &comp, &round, time_zone)?;
    let lang = language_of(c, player.id)?;
    Ok(LinkView {
        lang,
        name: player.name,
        action: link.action,
        evening: Evening {
            competition: comp.name,
            number: round.number,
            date: ctx.date,
            deadline: deadline_text(lang, link.expires, time_zone),
        },
    })
}

/// Follows a link at `now` in the caller's transaction: records the player's sign-up or
/// sign-off for the link's round as their own change, made by mail, under every rule of such
/// a change (the deadline, a withdrawal, a completed round refuse it, naming why); what the
/// page shows. Following it twice records the same state twice, which changes nothing.
pub fn follow(
    c: &mut DbConn,
    key: &AttendanceLinkKey,
    token: &str,
    now: DateTime<Utc>,
    time_zone: &str,
) -> ApiResult<LinkView> {
    let view = describe(c, key, token, now, time_zone)?;
    let link = key
        .verify(token, now)
        .map_err(|e| ApiError::validation(vec![e]))?;
    let round = load_round(c, link.round)?;
    let comp = competitions::load(c, round.competition_id)?;
    let entrants = attendance::entrant_memberships(c, comp.id)?;
    if !entrants.iter().any(|(p, _)| *p == link.player) {
        return Err(ApiError::invalid(
            "token",
            "the player of this link is no longer an entrant of the competition",
        ));
    }
    let change = attendance::NewChange {
        player_id: link.player,
        action: link.action.stored(),
        channel: crate::vocab::ChangeChannel::Email,
        capacity: crate::vocab::Capacity::Member,
        account: format!("player:{}", link.player),
        note: None,
    };
    attendance::record(
        c, &comp, &round, &entrants, &change, now, time_zone, "token",
    )?;
    Ok(view)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> DateTime<Utc> {
        s.parse().unwrap()
    }

    /// The token computed outside the program (Python's hmac module): key =
    /// HMAC-SHA256("secret", "clubcomp attendance link v1"), then the first 16 bytes of
    /// HMAC-SHA256(key, "12.42.up.1765386000") in unpadded base64url.
    #[test]
    fn a_link_names_round_player_action_and_deadline_and_only_this_key_signs_it() {
        let key = AttendanceLinkKey::from_secret(b"secret");
        let link = Link {
            round: RoundId(12),
            player: PlayerId(42),
            action: LinkAction::SignUp,
            expires: at("2025-12-10T17:00:00Z"),
        };
        let t = key.token(&link);
        assert_eq!(t, "12.42.up.1765386000.9qxhGiN1QsHW6ZVHAH8tBg");
        assert_eq!(key.verify(&t, at("2025-12-10T16:59:59Z")), Ok(link));
        assert!(
            AttendanceLinkKey::from_secret(b"other")
                .verify(&t, at("2025-12-09T00:00:00Z"))
                .is_err()
        );
        let mac = t.rsplit('.').next().unwrap();
        for forged in [
            format!("12.43.up.1765386000.{mac}"),
            format!("12.42.off.1765386000.{mac}"),
            format!("12.42.up.1765389600.{mac}"),
            "12.42.up.1765386000".to_string(),
            "x".repeat(101),
        ] {
            assert!(
                key.verify(&forged, at("2025-12-09T00:00:00Z")).is_err(),
                "{forged}"
            );
        }
    }

    #[test]
    fn a_link_expires_at_the_deadline_and_says_so() {
        let key = AttendanceLinkKey::from_secret(b"secret");
        let link = Link {
            round: RoundId(1),
            player: PlayerId(2),
            action: LinkAction::SignOff,
            expires: at("2026-12-09T17:00:00Z"),
        };
        let t = key.token(&link);
        // decision 0105: at the deadline itself it is too late
        let e = key.verify(&t, at("2026-12-09T17:00:00Z")).unwrap_err();
        assert_eq!(e.field, "token");
        assert!(e.message.contains("expired"), "{}", e.message);
        assert!(e.message.contains("2026-12-09 17:00 UTC"), "{}", e.message);
    }

    #[test]
    fn the_deadline_is_written_in_club_time() {
        // 17:00 UTC on 9 December is 18:00 in Amsterdam (winter time)
        let d = at("2026-12-09T17:00:00Z");
        assert_eq!(
            deadline_text(Language::Nl, d, "Europe/Amsterdam"),
            "woensdag 9 december 2026 om 18:00"
        );
        assert_eq!(
            deadline_text(Language::En, d, "Europe/Amsterdam"),
            "Wednesday 9 December 2026 at 18:00"
        );
    }
}
