//! Notification mails to players ([decision 0324](../../../../docs/decisions/0324-pairing-mails.md)):
//! queued in the transaction of the change that causes them, one mail per player with an
//! address and the kind turned on (their choice, else the club's `NOTIFY_DEFAULTS`), in their
//! language. The event of each mail names the round and the player, so a change told twice
//! mails once. Each mail carries its one-click unsubscribe link ([`crate::services::unsubscribe`]).

use crate::error::ApiResult;
use crate::ids::PlayerId;
use crate::mail_config::MailSettings;
use crate::services::mail::templates::{self, Content, Language};
use crate::services::mail::{self, Mail};
use crate::services::unsubscribe::UnsubscribeKey;
use crate::services::{attendance, competitions, preferences, rounds};
use crate::store::DbConn;
use crate::store::models::competition::Round;
use crate::store::models::players::{self, Player};
use crate::vocab::NotifyKind;
use chrono::{Datelike, NaiveDate, NaiveTime};
use std::collections::{HashMap, HashSet};

/// What a player's pairing mail tells: their game, a bye, or that they were not paired.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seat {
    /// A game: the board, whether they play white, the opponent's name.
    Game {
        /// The board.
        board: i32,
        /// White (else black).
        white: bool,
        /// The opponent.
        opponent: String,
    },
    /// A bye.
    Bye,
    /// Present, but not paired.
    NotPaired,
}

/// What a pairing mail is about.
#[derive(Debug, Clone)]
pub struct PairingNotice {
    /// The competition's name.
    pub competition: String,
    /// The round's number.
    pub number: i32,
    /// The evening's date.
    pub date: Option<NaiveDate>,
    /// The start, in club time.
    pub start: NaiveTime,
    /// The page the mail links to.
    pub url: String,
}

/// A date written out: "donderdag 3 december 2026" / "Thursday 3 December 2026".
pub fn long_date(lang: Language, d: NaiveDate) -> String {
    crate::calendar_names::long_date(lang == Language::En, d)
}

/// The subject and both bodies of a pairing mail (as [`notify`] lays it out, without the
/// link that stops these mails).
pub fn pairing_mail(
    lang: Language,
    club: &str,
    name: &str,
    r: &PairingNotice,
    seat: &Seat,
) -> (String, String, String) {
    let n = pairing_words(lang, r, seat);
    let content = Content {
        name: name.to_string(),
        paragraphs: n.paragraphs,
        link: n.link,
        footer: Some(why(lang, NotifyKind::Pairing)),
    };
    let (text, html) = templates::layout(lang, club, &content);
    (n.subject, text, html)
}

/// The words of a pairing mail.
pub fn pairing_words(lang: Language, r: &PairingNotice, seat: &Seat) -> Notice {
    let when = r.date.map(|d| long_date(lang, d));
    let start = r.start.format("%H:%M").to_string();
    let nl = lang == Language::Nl;
    let subject = match (nl, &when) {
        (true, Some(w)) => format!("Indeling ronde {} van {} ({w})", r.number, r.competition),
        (true, None) => format!("Indeling ronde {} van {}", r.number, r.competition),
        (false, Some(w)) => format!("Pairing of round {} of {} ({w})", r.number, r.competition),
        (false, None) => format!("Pairing of round {} of {}", r.number, r.competition),
    };
    let mut paragraphs = vec![if nl {
        format!(
            "De indeling van ronde {} van {} is gepubliceerd.",
            r.number, r.competition
        )
    } else {
        format!(
            "The pairing of round {} of {} has been published.",
            r.number, r.competition
        )
    }];
    paragraphs.push(match (seat, nl) {
        (
            Seat::Game {
                board,
                white,
                opponent,
            },
            true,
        ) => format!(
            "Je speelt aan bord {board} met {} tegen {opponent}.",
            if *white { "wit" } else { "zwart" }
        ),
        (
            Seat::Game {
                board,
                white,
                opponent,
            },
            false,
        ) => format!(
            "You play on board {board} with {} against {opponent}.",
            if *white { "white" } else { "black" }
        ),
        (Seat::Bye, true) => "Je hebt deze ronde een bye (je bent vrij).".into(),
        (Seat::Bye, false) => "You have a bye this round.".into(),
        (Seat::NotPaired, true) => "Je bent deze ronde niet ingedeeld.".into(),
        (Seat::NotPaired, false) => "You are not paired this round.".into(),
    });
    if !matches!(seat, Seat::Bye | Seat::NotPaired) {
        paragraphs.push(match (nl, &when) {
            (true, Some(w)) => format!("Aanvang: {w} om {start}."),
            (true, None) => format!("Aanvang: {start}."),
            (false, Some(w)) => format!("Start: {w} at {start}."),
            (false, None) => format!("Start: {start}."),
        });
    }
    Notice {
        subject,
        paragraphs,
        link: Some((
            if nl {
                "De indeling bekijken".into()
            } else {
                "See the pairing".into()
            },
            r.url.clone(),
        )),
    }
}

/// The language of `player`'s mails: their choice, else Dutch.
pub fn language_of(c: &mut DbConn, player: PlayerId) -> ApiResult<Language> {
    Ok(Language::parse(
        preferences::language(c, player)?.as_deref(),
    ))
}

/// Queues the pairing mails of published round `round` in the caller's transaction: one to
/// each paired player with an address and pairing mails on, naming board, colour and
/// opponent; a player with the bye, or present and not paired, gets that line. How many were
/// queued. `key` signs each mail's unsubscribe link.
pub fn pairing_published(
    c: &mut DbConn,
    settings: &MailSettings,
    key: &UnsubscribeKey,
    round: &Round,
) -> ApiResult<usize> {
    let comp = competitions::load(c, round.competition_id)?;
    let ctx = attendance::round_context(c, &comp, round, &attendance::default_time_zone())?;
    let url = match round.evening_id {
        Some(e) => format!("{}/club/evenings/{e}", settings.public_url),
        None => format!("{}/club/competitions/{}", settings.public_url, comp.id),
    };
    let about = PairingNotice {
        competition: comp.name.clone(),
        number: round.number,
        date: round.date.or((ctx.date.year() < 9999).then_some(ctx.date)),
        start: ctx.start,
        url,
    };
    let mut seats: Vec<(PlayerId, Seat)> = Vec::new();
    let games = rounds::games_of(c, round.id)?;
    let entrants: Vec<(PlayerId, bool)> = attendance::entrant_memberships(c, comp.id)?
        .into_iter()
        .map(|(p, m)| (p, m == clubcomp_engine::Membership::Flexible))
        .collect();
    let mut ids: Vec<PlayerId> = entrants.iter().map(|(p, _)| *p).collect();
    ids.extend(
        games
            .iter()
            .flat_map(|g| [g.white_id, g.black_id])
            .flatten(),
    );
    ids.sort_unstable();
    ids.dedup();
    // a mail names the opponent in full (decision 0326), whoever's write queues it
    let people: HashMap<PlayerId, Player> =
        crate::publication::as_club(|| players::by_ids(c, &ids))?
            .into_iter()
            .map(|p| (p.id, p))
            .collect();
    let name = |p: PlayerId| people.get(&p).map(|p| p.name.clone()).unwrap_or_default();
    for g in &games {
        match (g.white_id, g.black_id) {
            (Some(w), Some(b)) => {
                let (wn, bn) = (name(w), name(b));
                seats.push((
                    w,
                    Seat::Game {
                        board: g.board,
                        white: true,
                        opponent: bn,
                    },
                ));
                seats.push((
                    b,
                    Seat::Game {
                        board: g.board,
                        white: false,
                        opponent: wn,
                    },
                ));
            }
            (Some(w), None) => seats.push((w, Seat::Bye)),
            _ => {}
        }
    }
    let seated: HashSet<PlayerId> = seats.iter().map(|(p, _)| *p).collect();
    let statuses = attendance::statuses(c, round.id, &entrants)?;
    for (p, _) in &entrants {
        if !seated.contains(p) && statuses.get(p) == Some(&attendance::Status::Playing) {
            seats.push((*p, Seat::NotPaired));
        }
    }
    let choices = preferences::of_players(c, &ids)?;
    let mut mails = Vec::with_capacity(seats.len());
    for (p, seat) in seats {
        let Some(player) = people.get(&p) else {
            continue;
        };
        let (stored, lang) = choices.get(&p).cloned().unwrap_or_default();
        let event = format!("round:{}:player:{}", round.id, player.id);
        let mail = compose(
            (settings, key),
            player,
            (&stored, Language::parse(lang.as_deref())),
            (NotifyKind::Pairing, event),
            |lang| pairing_words(lang, &about, &seat),
        );
        mails.extend(mail);
    }
    mail::enqueue_all(c, settings, &mails)
}

/// What a notification mail needs of the server: the mail settings and the key of the
/// unsubscribe links.
pub type Notifier<'a> = (&'a MailSettings, &'a UnsubscribeKey);

/// The words of one notification, in the recipient's language.
#[derive(Debug, Clone)]
pub struct Notice {
    /// The subject.
    pub subject: String,
    /// The paragraphs.
    pub paragraphs: Vec<String>,
    /// The page the mail links to: its label and address.
    pub link: Option<(String, String)>,
}

/// The footer of a notification mail of `kind`: why it came.
fn why(lang: Language, kind: NotifyKind) -> String {
    let what = templates::kind_name(lang, kind);
    match lang {
        Language::Nl => format!("Je krijgt deze mail omdat {what} voor jou aan staan."),
        Language::En => format!("You get this mail because {what} are on for you."),
    }
}

/// The page the one-click unsubscribe link of a mail body opens (a confirmation with a
/// button; the `List-Unsubscribe` header keeps the RFC 8058 address).
pub fn unsubscribe_page(
    settings: &MailSettings,
    key: &UnsubscribeKey,
    player: PlayerId,
    kind: NotifyKind,
) -> String {
    format!(
        "{}/mail/unsubscribe?token={}",
        settings.public_url,
        key.token(player, kind)
    )
}

/// Queues a notification of `kind` for `player` about `event` when they have an address that
/// can carry a mail and that kind on; whether it was queued. An address no mail can carry is
/// not the change's fault: that player is skipped.
pub fn notify(
    c: &mut DbConn,
    n: Notifier<'_>,
    player: &Player,
    about: (NotifyKind, String),
    words: impl Fn(Language) -> Notice,
) -> ApiResult<bool> {
    let (stored, lang) = preferences::choices(c, player.id)?;
    let lang = Language::parse(lang.as_deref());
    match compose(n, player, (&stored, lang), about, words) {
        Some(m) => mail::enqueue(c, n.0, &m),
        None => Ok(false),
    }
}

/// The notification of `kind` for `player` with their stored choices and language, when they
/// have an address that can carry a mail and that kind on.
fn compose(
    (settings, key): Notifier<'_>,
    player: &Player,
    (stored, lang): (&preferences::Stored, Language),
    (kind, event): (NotifyKind, String),
    words: impl Fn(Language) -> Notice,
) -> Option<Mail> {
    let to = player
        .email
        .as_deref()
        .map(str::trim)
        .filter(|e| !e.is_empty())?;
    if !stored.on(kind, &settings.notify_defaults) {
        return None;
    }
    let club = templates::club_name(settings, lang);
    let n = words(lang);
    let content = Content {
        name: player.name.clone(),
        paragraphs: n.paragraphs,
        link: n.link,
        footer: Some(why(lang, kind)),
    };
    let label = match lang {
        Language::Nl => "Deze mails niet meer ontvangen",
        Language::En => "Stop these mails",
    };
    let page = unsubscribe_page(settings, key, player.id, kind);
    let (text, html) = templates::layout_with_unsubscribe(lang, &club, &content, (label, &page));
    let m = Mail {
        kind: kind.as_str(),
        event,
        to: to.to_string(),
        to_name: player.name.clone(),
        subject: n.subject,
        text,
        html,
        unsubscribe_url: Some(key.url(&settings.public_url, player.id, kind)),
    };
    mail::check(&m).is_ok().then_some(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn about() -> PairingNotice {
        PairingNotice {
            competition: "Interne competitie".into(),
            number: 3,
            date: NaiveDate::from_ymd_opt(2026, 12, 3),
            start: NaiveTime::from_hms_opt(20, 15, 0).unwrap_or_default(),
            url: "https://club.example/club/evenings/9".into(),
        }
    }

    #[test]
    fn a_date_is_written_out_in_both_languages() {
        let d = NaiveDate::from_ymd_opt(2026, 12, 3).unwrap();
        assert_eq!(long_date(Language::Nl, d), "donderdag 3 december 2026");
        assert_eq!(long_date(Language::En, d), "Thursday 3 December 2026");
    }

    #[test]
    fn the_pairing_mail_names_board_colour_opponent_and_start() {
        let seat = Seat::Game {
            board: 2,
            white: false,
            opponent: "Bea Bakker".into(),
        };
        let (subject, text, html) = pairing_mail(Language::Nl, "De Toren", "Ann", &about(), &seat);
        assert_eq!(
            subject,
            "Indeling ronde 3 van Interne competitie (donderdag 3 december 2026)"
        );
        assert!(
            text.contains("Je speelt aan bord 2 met zwart tegen Bea Bakker."),
            "{text}"
        );
        assert!(
            text.contains("Aanvang: donderdag 3 december 2026 om 20:15."),
            "{text}"
        );
        assert!(text.contains("https://club.example/club/evenings/9"));
        assert!(html.contains("met zwart tegen Bea Bakker"));
        let (subject, text, _) =
            pairing_mail(Language::En, "De Toren", "Ann", &about(), &Seat::Bye);
        assert_eq!(
            subject,
            "Pairing of round 3 of Interne competitie (Thursday 3 December 2026)"
        );
        assert!(text.contains("You have a bye this round."), "{text}");
        assert!(!text.contains("Start:"));
    }
}
