//! A Swiss's standings as chess-results prints its rank table after a round: place, start
//! number, name, rating, one column per round (the opponent's start number, the colour and
//! the result), the points and the tie-breaks; under it the tie-breaks in words and, for
//! neighbours level on points, which tie-break put one above the other
//! (docs/decisions/0365-swiss-rank-table.md).

use super::layout::{Ctx, scroll};
use crate::services::standings_view::{SwissGameCell, SwissStandings};
use maud::{Markup, html};
use serde_json::Value;

/// The result of a game as the table shows it (½ for a draw; a bye or an absence in words).
fn result(ctx: &Ctx, g: &SwissGameCell) -> String {
    match g.result.as_str() {
        "1" | "W" | "F" | "U" => "1".into(),
        "=" | "D" | "H" => "½".into(),
        "0" | "L" | "Z" => "0".into(),
        "+" => "+".into(),
        "-" => "−".into(),
        "" => ctx.t("…", "…").into(),
        other => other.into(),
    }
}

/// One game's cell: `4w 1` (against start number 4 with white, won), `vrij 1` for a bye,
/// `afw. 0` for an absence.
fn cell(ctx: &Ctx, g: &SwissGameCell) -> String {
    let who = match (g.opponent, g.colour) {
        (Some(n), Some(clubcomp_engine::Colour::White)) => format!("{n}{}", ctx.t("w", "w")),
        (Some(n), Some(clubcomp_engine::Colour::Black)) => format!("{n}{}", ctx.t("z", "b")),
        (Some(n), None) => n.to_string(),
        (None, _) => match g.result.as_str() {
            "U" | "H" | "F" => ctx.t("vrij", "bye").to_string(),
            _ => ctx.t("afw.", "abs.").to_string(),
        },
    };
    format!("{who} {}", result(ctx, g))
}

/// The standings' rank table, its tie-breaks in words and why neighbours level on points
/// stand as they do.
pub(super) fn table(ctx: &Ctx, after: &str, s: &SwissStandings) -> Markup {
    let caption = format!("{} {after}", ctx.t("Ranglijst", "Rank table"));
    let rounds = s
        .rows
        .iter()
        .flat_map(|r| r.games.iter().map(|g| g.round))
        .max()
        .unwrap_or(0);
    let tiebreaks: Vec<&String> = s.tiebreaks.iter().filter(|t| *t != "PTS").collect();
    html! {
        (scroll(&caption, html! {
            table class="standings swiss" {
                caption { (caption) }
                thead { tr {
                    th scope="col" { abbr title=(ctx.t("Plaats", "Place")) { (ctx.t("Pl.", "Pl.")) } }
                    th scope="col" { abbr title=(ctx.t("Startnummer", "Start number")) { (ctx.t("Nr.", "No.")) } }
                    th scope="col" { (ctx.t("Naam", "Name")) }
                    th scope="col" { abbr title=(ctx.t("Rating", "Rating")) { (ctx.t("Rtg", "Rtg")) } }
                    @for n in 1..=rounds {
                        th scope="col" { abbr title=(format!("{} {n}", ctx.t("Ronde", "Round"))) { (ctx.t("R", "R")) (n) } }
                    }
                    th scope="col" { abbr title=(ctx.t("Punten", "Points")) { (ctx.t("Pnt", "Pts")) } }
                    @for t in &tiebreaks {
                        th scope="col" { abbr title=(tiebreak_name(ctx, t)) { (t) } }
                    }
                    th scope="col" { (ctx.t("Onder de vorige door", "Below the previous by")) }
                } }
                tbody {
                    @for r in &s.rows {
                        tr {
                            td class="num" { (r.place) }
                            td class="num" { (r.start_number) }
                            th scope="row" { (ctx.player(r.player_id, &r.name)) }
                            td class="num" { @if let Some(x) = r.rating { (x) } @else { "–" } }
                            @for n in 1..=rounds {
                                td class="game" {
                                    @for (i, g) in r.games.iter().filter(|g| g.round == n).enumerate() {
                                        @if i > 0 { " · " }
                                        (cell(ctx, g))
                                    }
                                }
                            }
                            td class="num" { (value(ctx, r.values.get("PTS"))) }
                            @for t in &tiebreaks {
                                td class="num" { (value(ctx, r.values.get(t.as_str()))) }
                            }
                            td { (separated_by(ctx, s, r.player_id)) }
                        }
                    }
                }
            }
        }))
        (legend(ctx, s))
        (why(ctx, s))
    }
}

/// A tie-break value as shown (none: empty).
fn value(ctx: &Ctx, v: Option<&Value>) -> String {
    match v {
        Some(Value::Number(n)) => super::numbers::show(ctx.lang, &n.to_string()),
        Some(Value::String(s)) => super::numbers::show(ctx.lang, s),
        _ => String::new(),
    }
}

/// A value of a separation as shown (`–` when the player has none).
fn separation_value(ctx: &Ctx, v: &Value) -> String {
    match value(ctx, Some(v)) {
        s if s.is_empty() => "–".to_string(),
        s => s,
    }
}

/// Why the player stands below the one above when both have the same points: the tie-break
/// that separated them and the two values (`BH 4,5 / 3,5`); empty when not level on points or
/// still shared.
fn separated_by(ctx: &Ctx, s: &SwissStandings, player_id: i64) -> String {
    s.separations
        .iter()
        .find(|x| x.below_player_id == player_id)
        .and_then(|x| {
            let tb = x.tiebreak.as_deref()?;
            Some(format!(
                "{tb} {} / {}",
                separation_value(ctx, &x.above_value),
                separation_value(ctx, &x.below_value)
            ))
        })
        .unwrap_or_default()
}

/// The columns and the tie-breaks in words, in the competition's order.
fn legend(ctx: &Ctx, s: &SwissStandings) -> Markup {
    html! {
        p class="muted" { (ctx.t("Tiebreaks volgens FIDE (C.07), in deze volgorde:", "Tie-breaks after FIDE (C.07), in this order:")) }
        dl class="legend tiebreaks" {
            @for t in &s.tiebreaks {
                dt { (t) }
                dd { (tiebreak_name(ctx, t)) ": " (tiebreak_words(ctx, t)) }
            }
        }
        p class="muted legend" {
            (ctx.t(
                "Per ronde: het startnummer van de tegenstander, de kleur (w wit, z zwart) en de uitslag; vrij: een vrije ronde, afw.: afwezig.",
                "Per round: the opponent's start number, the colour (w white, b black) and the result; bye: a round without a game, abs.: absent.",
            ))
        }
    }
}

/// Which tie-break separated each two neighbours level on points, in words.
fn why(ctx: &Ctx, s: &SwissStandings) -> Markup {
    let name = |id: i64| {
        s.rows
            .iter()
            .find(|r| r.player_id == id)
            .map_or("", |r| r.name.as_str())
    };
    html! {
        @if !s.separations.is_empty() {
            h2 { (ctx.t("Gelijk op punten", "Level on points")) }
            ul class="why" {
                @for x in &s.separations {
                    li {
                        @match x.tiebreak.as_deref() {
                            Some(t) => {
                                (name(x.above_player_id)) " " (ctx.t("staat boven", "stands above")) " "
                                (name(x.below_player_id)) " " (ctx.t("door", "by")) " "
                                (tiebreak_name(ctx, t)) " (" (t) "): "
                                (separation_value(ctx, &x.above_value)) " " (ctx.t("tegen", "against")) " "
                                (separation_value(ctx, &x.below_value)) "."
                            }
                            None => {
                                (name(x.above_player_id)) " " (ctx.t("en", "and")) " "
                                (name(x.below_player_id)) " "
                                (ctx.t("zijn na alle tiebreaks nog gelijk en delen de plaats.",
                                       "are still level after every tie-break and share the place."))
                            }
                        }
                    }
                }
            }
        }
    }
}

/// What a tie-break counts, in words (its cut or median after).
pub(super) fn tiebreak_words(ctx: &Ctx, acr: &str) -> String {
    let mut parts = acr.split('-');
    let base = parts.next().unwrap_or(acr);
    let what = match base {
        "PTS" => ctx.t("de punten van de partijen", "the points of the games"),
        "DE" => ctx.t(
            "de punten uit de partijen tussen de gelijk geëindigde spelers onderling",
            "the points from the games between the tied players",
        ),
        "WIN" => ctx.t(
            "het aantal gewonnen ronden (reglementair en vrij inbegrepen)",
            "the number of rounds won (forfeits and byes included)",
        ),
        "WON" => ctx.t(
            "het aantal aan het bord gewonnen partijen",
            "the number of games won over the board",
        ),
        "BPG" => ctx.t(
            "het aantal met zwart gespeelde partijen",
            "the number of games played with black",
        ),
        "BWG" => ctx.t(
            "het aantal met zwart gewonnen partijen",
            "the number of games won with black",
        ),
        "REP" => ctx.t(
            "het aantal keer dat de speler een ronde niet speelde",
            "the number of rounds the player did not play",
        ),
        "GE" => ctx.t("het aantal gespeelde partijen", "the number of games played"),
        "PS" => ctx.t(
            "de som van de stand na elke ronde",
            "the sum of the score after each round",
        ),
        "KS" => ctx.t(
            "de punten tegen tegenstanders die minstens de helft van de punten haalden",
            "the points against opponents who scored at least half the points",
        ),
        "BH" => ctx.t(
            "de som van de punten van de tegenstanders",
            "the sum of the opponents' points",
        ),
        "FB" => ctx.t(
            "de som van de punten van de tegenstanders vóór de laatste ronde",
            "the sum of the opponents' points before the last round",
        ),
        "SB" => ctx.t(
            "de punten van de verslagen tegenstanders plus de helft van die waartegen remise werd gespeeld",
            "the points of the opponents beaten plus half those of the opponents drawn",
        ),
        "AOB" => ctx.t(
            "het gemiddelde van de Buchholz van de tegenstanders",
            "the average Buchholz of the opponents",
        ),
        "ARO" => ctx.t(
            "het gemiddelde van de ratings van de tegenstanders",
            "the average of the opponents' ratings",
        ),
        "TPR" => ctx.t(
            "de rating die bij de score tegen deze tegenstanders past",
            "the rating the score against these opponents corresponds to",
        ),
        "PTP" => ctx.t(
            "de prestatie waarmee de speler precies deze score zou halen",
            "the performance with which the player would score exactly this",
        ),
        "APRO" => ctx.t(
            "het gemiddelde van de toernooiprestaties van de tegenstanders",
            "the average of the opponents' tournament performances",
        ),
        "APPO" => ctx.t(
            "het gemiddelde van de prestaties van de tegenstanders",
            "the average of the opponents' performances",
        ),
        _ => "",
    };
    let mut out = what.to_string();
    for m in parts {
        let (kind, n) = m.split_at(1.min(m.len()));
        let extra = match kind {
            "C" => format!(
                "{} {n} {}",
                ctx.t("zonder de", "without the"),
                ctx.t("laagste", "lowest")
            ),
            "M" => format!(
                "{} {n} {}",
                ctx.t("zonder de", "without the"),
                ctx.t("hoogste en laagste", "highest and lowest")
            ),
            "H" => format!(
                "{} {n} {}",
                ctx.t("en de", "and the"),
                ctx.t("hoogste", "highest")
            ),
            _ => continue,
        };
        out.push_str(", ");
        out.push_str(&extra);
    }
    out
}

/// The full name of a tie-break acronym.
pub(super) fn tiebreak_name(ctx: &Ctx, acr: &str) -> String {
    let base = acr.split('/').next().unwrap_or(acr);
    let base = base.trim_start_matches('C').to_string();
    // a Swiss's cut or median (`BH-C1`) is named with its tie-break
    let name = match acr.split('-').next().unwrap_or(acr) {
        "PTS" => ctx.t("Punten", "Points"),
        "BH" | "BH/C1" => "Buchholz",
        "FB" => ctx.t("Buchholz vóór de laatste ronde", "Fore Buchholz"),
        "AOB" => ctx.t(
            "Gemiddelde Buchholz tegenstanders",
            "Average Buchholz of opponents",
        ),
        "WON" => ctx.t("Aantal gewonnen partijen", "Number of games won"),
        "REP" => ctx.t("Niet gespeelde ronden", "Rounds not played"),
        "GE" => ctx.t("Gespeelde partijen", "Games played"),
        "PTP" => ctx.t(
            "Perfecte toernooiprestatie",
            "Perfect tournament performance",
        ),
        "APRO" => ctx.t(
            "Gemiddelde toernooiprestatie tegenstanders",
            "Average performance rating of opponents",
        ),
        "APPO" => ctx.t(
            "Gemiddelde perfecte prestatie tegenstanders",
            "Average perfect performance of opponents",
        ),
        "SB" => "Sonneborn-Berger",
        "ARO" => ctx.t(
            "Gemiddelde rating tegenstanders",
            "Average rating of opponents",
        ),
        "DE" => ctx.t("Onderling resultaat", "Direct encounter"),
        "WIN" => ctx.t("Aantal winstpartijen", "Number of wins"),
        "BPG" => ctx.t("Partijen met zwart", "Games with black"),
        "BWG" => ctx.t("Winstpartijen met zwart", "Wins with black"),
        "KS" => "Koya",
        "PS" => ctx.t("Progressieve score", "Progressive score"),
        "TPR" => ctx.t("Toernooiprestatie", "Tournament performance rating"),
        "wins" => ctx.t("Aantal winstpartijen", "Number of wins"),
        "plusremise_balance" => ctx.t("Saldo plus- en minremises", "Plusremises minus minremises"),
        "plusremises" => ctx.t("Aantal plusremises", "Number of plusremises"),
        "mutual" => ctx.t("Onderling resultaat", "Mutual result"),
        "direct_encounter" => ctx.t("Onderling resultaat", "Direct encounter"),
        "sonneborn_berger" => "Sonneborn-Berger",
        "ranking_order" => ctx.t("Ranglijstvolgorde", "Ranking order"),
        _ => "",
    };
    if name.is_empty() {
        base
    } else {
        name.to_string()
    }
}
