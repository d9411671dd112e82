//! The mails that tell players what became of their games and their competition
//! ([decision 0328](../../../../docs/decisions/0328-result-decision-and-prize-mails.md)): a
//! result of their own game entered or corrected (both players), a decision on a claim, an
//! appeal or a protest in their game (both players), the prizes of a competition or half finalised (each
//! prize winner). Each is queued in the transaction of the change, only to a player with an
//! address and that kind on, in their language, with the one-click unsubscribe link of its
//! kind in its headers and in its body.

use crate::error::ApiResult;
use crate::ids::{GameId, PlayerId};
use crate::mail_config::MailSettings;
use crate::services::mail::templates::Language;
use crate::services::notifications::{Notice, Notifier, notify};
use crate::services::{competitions, results};
use crate::store::DbConn;
use crate::store::models::competition::{Game, Round};
use crate::store::models::players::{self, Player};
use crate::vocab::{NotifyKind, ProtestRuling};
use clubcomp_engine::keizer::Prize;

/// A game as its mails name it.
#[derive(Debug, Clone)]
struct GameFacts {
    competition: String,
    round: i32,
    board: i32,
    white: Player,
    black: Player,
    result: Option<crate::vocab::ResultCode>,
    url: String,
}

fn facts(c: &mut DbConn, settings: &MailSettings, id: GameId) -> ApiResult<Option<GameFacts>> {
    let (game, round, comp): (Game, Round, _) = results::load_game(c, id)?;
    let (Some(w), Some(b)) = (game.white_id, game.black_id) else {
        return Ok(None);
    };
    // a mail names both players in full (decision 0326), whoever's write queues it
    let (white, black) = crate::publication::as_club(|| {
        Ok::<_, crate::error::ApiError>((players::by_id(c, w)?, players::by_id(c, b)?))
    })?;
    let (Some(white), Some(black)) = (white, black) else {
        return Ok(None);
    };
    let url = match round.evening_id {
        Some(e) => format!("{}/club/evenings/{e}", settings.public_url),
        None => format!("{}/club/competitions/{}", settings.public_url, comp.id),
    };
    Ok(Some(GameFacts {
        competition: comp.name,
        round: round.number,
        board: game.board,
        white,
        black,
        result: game.result,
        url,
    }))
}

fn see(lang: Language, url: &str) -> Option<(String, String)> {
    let label = match lang {
        Language::Nl => "Bekijk de avond",
        Language::En => "See the evening",
    };
    Some((label.to_string(), url.to_string()))
}

/// The words of a result mail.
pub fn result_words(
    lang: Language,
    (competition, round, board): (&str, i32, i32),
    (white, black, result): (&str, &str, &str),
    corrected: bool,
) -> (String, Vec<String>) {
    let game = format!("{white} – {black} {result}");
    match (lang, corrected) {
        (Language::Nl, false) => (
            format!("Uitslag ronde {round} van {competition}: {game}"),
            vec![format!(
                "De uitslag van je partij in ronde {round} van {competition} (bord {board}) \
                 is ingevoerd: {game}."
            )],
        ),
        (Language::Nl, true) => (
            format!("Uitslag gecorrigeerd, ronde {round} van {competition}: {game}"),
            vec![format!(
                "De uitslag van je partij in ronde {round} van {competition} (bord {board}) \
                 is gecorrigeerd: {game}."
            )],
        ),
        (Language::En, false) => (
            format!("Result of round {round} of {competition}: {game}"),
            vec![format!(
                "The result of your game in round {round} of {competition} (board {board}) \
                 has been entered: {game}."
            )],
        ),
        (Language::En, true) => (
            format!("Result corrected, round {round} of {competition}: {game}"),
            vec![format!(
                "The result of your game in round {round} of {competition} (board {board}) \
                 has been corrected: {game}."
            )],
        ),
    }
}

/// Queues the result mails of game `id` (both players) after its result was entered or
/// (`corrected`) corrected, at its new `version`: one mail per player and version, so each
/// correction is told once. How many were queued.
pub fn result_changed(
    c: &mut DbConn,
    n: Notifier<'_>,
    id: GameId,
    version: i64,
    corrected: bool,
) -> ApiResult<usize> {
    let Some(f) = facts(c, n.0, id)? else {
        return Ok(0);
    };
    let result = f.result.map(|r| r.to_string()).unwrap_or_default();
    let mut queued = 0;
    for p in [&f.white, &f.black] {
        let words = |lang| {
            let (subject, paragraphs) = result_words(
                lang,
                (&f.competition, f.round, f.board),
                (&f.white.name, &f.black.name, &result),
                corrected,
            );
            Notice {
                subject,
                paragraphs,
                link: see(lang, &f.url),
            }
        };
        let event = format!("game:{id}:v{version}");
        if notify(c, n, p, (NotifyKind::Result, event), words)? {
            queued += 1;
        }
    }
    Ok(queued)
}

/// What was decided in a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decided {
    /// The arbiter decided claim `id`; `upheld` or not (rejected or postponed: `None`).
    Claim {
        /// The claim.
        id: i64,
        /// Upheld (`Some(true)`), rejected (`Some(false)`), postponed (`None`).
        upheld: Option<bool>,
    },
    /// The board ruled on appeal `id`; `upheld` or dismissed.
    Appeal {
        /// The appeal.
        id: i64,
        /// Upheld (else dismissed).
        upheld: bool,
    },
    /// The KNDB protest committee ruled on protest `id` (docs/rules/draughts-championship.md#protests).
    Protest {
        /// The protest.
        id: i64,
        /// Upheld, dismissed or inadmissible.
        ruling: ProtestRuling,
    },
}

/// The words of a decision mail.
pub fn decision_words(
    lang: Language,
    (competition, round, board): (&str, i32, i32),
    (white, black): (&str, &str),
    d: Decided,
) -> (String, Vec<String>) {
    let nl = lang == Language::Nl;
    let game = if nl {
        format!("je partij {white} – {black} in ronde {round} van {competition} (bord {board})")
    } else {
        format!("your game {white} – {black} in round {round} of {competition} (board {board})")
    };
    let (subject, line) = match (d, nl) {
        (Decided::Claim { upheld, .. }, true) => (
            format!("Beslissing over een claim, ronde {round} van {competition}"),
            format!(
                "De arbiter heeft de claim in {game} {}.",
                match upheld {
                    Some(true) => "toegewezen",
                    Some(false) => "afgewezen",
                    None => "aangehouden tot later",
                }
            ),
        ),
        (Decided::Claim { upheld, .. }, false) => (
            format!("Decision on a claim, round {round} of {competition}"),
            format!(
                "The arbiter has {} the claim in {game}.",
                match upheld {
                    Some(true) => "upheld",
                    Some(false) => "rejected",
                    None => "postponed",
                }
            ),
        ),
        (Decided::Appeal { upheld, .. }, true) => (
            format!("Beslissing over een beroep, ronde {round} van {competition}"),
            format!(
                "Het bestuur heeft het beroep in {game} {}.",
                if upheld { "toegewezen" } else { "afgewezen" }
            ),
        ),
        (Decided::Appeal { upheld, .. }, false) => (
            format!("Decision on an appeal, round {round} of {competition}"),
            format!(
                "The board has {} the appeal in {game}.",
                if upheld { "upheld" } else { "dismissed" }
            ),
        ),
        (Decided::Protest { ruling, .. }, true) => (
            format!("Beslissing over een protest, ronde {round} van {competition}"),
            format!(
                "De protestcommissie van de KNDB heeft het protest in {game} {}.",
                match ruling {
                    ProtestRuling::Upheld => "gegrond verklaard",
                    ProtestRuling::Dismissed => "ongegrond verklaard",
                    ProtestRuling::Inadmissible => "niet-ontvankelijk verklaard",
                }
            ),
        ),
        (Decided::Protest { ruling, .. }, false) => (
            format!("Decision on a protest, round {round} of {competition}"),
            match ruling {
                ProtestRuling::Upheld => {
                    format!("The KNDB protest committee has upheld the protest in {game}.")
                }
                ProtestRuling::Dismissed => {
                    format!("The KNDB protest committee has dismissed the protest in {game}.")
                }
                ProtestRuling::Inadmissible => format!(
                    "The KNDB protest committee has found the protest in {game} inadmissible."
                ),
            },
        ),
    };
    (subject, vec![line])
}

/// Queues the decision mails of a decision in game `id` (both players): one per decision
/// and player. How many were queued.
pub fn decision_made(c: &mut DbConn, n: Notifier<'_>, id: GameId, d: Decided) -> ApiResult<usize> {
    let Some(f) = facts(c, n.0, id)? else {
        return Ok(0);
    };
    let event = match d {
        Decided::Claim { id, upheld } => format!("claim:{id}:{upheld:?}"),
        Decided::Appeal { id, .. } => format!("appeal:{id}"),
        Decided::Protest { id, .. } => format!("protest:{id}"),
    };
    let mut queued = 0;
    for p in [&f.white, &f.black] {
        let words = |lang| {
            let (subject, paragraphs) = decision_words(
                lang,
                (&f.competition, f.round, f.board),
                (&f.white.name, &f.black.name),
                d,
            );
            Notice {
                subject,
                paragraphs,
                link: see(lang, &f.url),
            }
        };
        if notify(c, n, p, (NotifyKind::Decision, event.clone()), words)? {
            queued += 1;
        }
    }
    Ok(queued)
}

/// A prize as its mail names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Award {
    /// A Keizer prize.
    Keizer(Prize),
    /// A place with prize money.
    Place {
        /// The place.
        place: u32,
        /// The money, as the prize list writes it.
        money: String,
    },
    /// The title of a Swiss.
    Champion,
}

/// The name of an award.
pub fn award_name(lang: Language, a: &Award) -> String {
    let nl = lang == Language::Nl;
    match a {
        Award::Keizer(p) => match (p, nl) {
            (Prize::WinterChampion, true) => "winterkampioen".into(),
            (Prize::WinterChampion, false) => "winter champion".into(),
            (Prize::SummerChampion, true) => "zomerkampioen".into(),
            (Prize::SummerChampion, false) => "summer champion".into(),
            (Prize::Silver, true) => "de zilveren prijs (tweede)".into(),
            (Prize::Silver, false) => "the silver prize (second)".into(),
            (Prize::Bronze, true) => "de bronzen prijs (derde)".into(),
            (Prize::Bronze, false) => "the bronze prize (third)".into(),
            (Prize::BestOfTheRest, true) => "de prijs voor de beste van de rest".into(),
            (Prize::BestOfTheRest, false) => "the best-of-the-rest prize".into(),
        },
        Award::Place { place, money } if nl => format!("plaats {place}, prijzengeld {money}"),
        Award::Place { place, money } => format!("place {place}, prize money {money}"),
        Award::Champion if nl => "kampioen".into(),
        Award::Champion => "champion".into(),
    }
}

/// Queues the prize mails of competition `comp`'s finalised prize list: one to each winner
/// (`winners`, in the list's order), once per competition and player. How many were queued.
pub fn prizes_final(
    c: &mut DbConn,
    n: Notifier<'_>,
    comp: crate::ids::CompetitionId,
    winners: &[(PlayerId, Award)],
) -> ApiResult<usize> {
    let comp = competitions::load(c, comp)?;
    let url = format!("{}/club/competitions/{}", n.0.public_url, comp.id);
    let mut queued = 0;
    for (p, award) in winners {
        let Some(player) = crate::publication::as_club(|| players::by_id(c, *p))? else {
            continue;
        };
        let words = |lang: Language| {
            let prize = award_name(lang, award);
            let (subject, line, label) = match lang {
                Language::Nl => (
                    format!("Je prijs in {}", comp.name),
                    format!(
                        "De prijzen van {} zijn vastgesteld. Gefeliciteerd: jij bent {prize}.",
                        comp.name
                    ),
                    "Bekijk de stand",
                ),
                Language::En => (
                    format!("Your prize in {}", comp.name),
                    format!(
                        "The prizes of {} are final. Congratulations: you are {prize}.",
                        comp.name
                    ),
                    "See the standings",
                ),
            };
            Notice {
                subject,
                paragraphs: vec![line],
                link: Some((label.to_string(), url.clone())),
            }
        };
        let event = format!("prizes:{}", comp.id);
        if notify(c, n, &player, (NotifyKind::Prizes, event), words)? {
            queued += 1;
        }
    }
    Ok(queued)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_result_mail_names_the_game_and_whether_it_was_corrected() {
        let (s, p) = result_words(
            Language::Nl,
            ("Interne competitie", 3, 2),
            ("Ann Appel", "Bea Bakker", "1-0"),
            false,
        );
        assert_eq!(
            s,
            "Uitslag ronde 3 van Interne competitie: Ann Appel – Bea Bakker 1-0"
        );
        assert_eq!(
            p,
            vec![
                "De uitslag van je partij in ronde 3 van Interne competitie (bord 2) is \
                 ingevoerd: Ann Appel – Bea Bakker 1-0."
            ]
        );
        let (s, p) = result_words(
            Language::En,
            ("Club championship", 1, 4),
            ("Ann", "Bea", "0-1"),
            true,
        );
        assert_eq!(
            s,
            "Result corrected, round 1 of Club championship: Ann – Bea 0-1"
        );
        assert!(
            p[0].ends_with("(board 4) has been corrected: Ann – Bea 0-1."),
            "{p:?}"
        );
    }

    #[test]
    fn a_decision_mail_says_who_decided_what() {
        let (_, p) = decision_words(
            Language::Nl,
            ("IC", 2, 1),
            ("Ann", "Bea"),
            Decided::Claim {
                id: 5,
                upheld: Some(false),
            },
        );
        assert_eq!(
            p[0],
            "De arbiter heeft de claim in je partij Ann – Bea in ronde 2 van IC (bord 1) \
             afgewezen."
        );
        let (s, p) = decision_words(
            Language::En,
            ("IC", 2, 1),
            ("Ann", "Bea"),
            Decided::Appeal {
                id: 1,
                upheld: true,
            },
        );
        assert_eq!(s, "Decision on an appeal, round 2 of IC");
        assert_eq!(
            p[0],
            "The board has upheld the appeal in your game Ann – Bea in round 2 of IC (board 1)."
        );
        let (s, p) = decision_words(
            Language::Nl,
            ("NK", 3, 2),
            ("Ann", "Bea"),
            Decided::Protest {
                id: 7,
                ruling: ProtestRuling::Inadmissible,
            },
        );
        assert_eq!(s, "Beslissing over een protest, ronde 3 van NK");
        assert_eq!(
            p[0],
            "De protestcommissie van de KNDB heeft het protest in je partij Ann – Bea in ronde 3 \
             van NK (bord 2) niet-ontvankelijk verklaard."
        );
    }

    #[test]
    fn every_prize_has_a_name_in_both_languages() {
        let silver = Award::Keizer(Prize::Silver);
        assert_eq!(
            award_name(Language::Nl, &silver),
            "de zilveren prijs (tweede)"
        );
        assert_eq!(award_name(Language::En, &Award::Champion), "champion");
        let place = Award::Place {
            place: 2,
            money: "25.00".into(),
        };
        assert_eq!(
            award_name(Language::Nl, &place),
            "plaats 2, prijzengeld 25.00"
        );
    }
}
