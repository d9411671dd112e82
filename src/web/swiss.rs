//! A Swiss's standings as chess-results prints its rank table after a round: place, start
//! number, name, rating, one column per round (the opponent's start number, the colour and
//! the result), the points and the tie-breaks; under it the tie-breaks in words and, for
//! neighbours level on points, which tie-break put one above the other
//! (docs/decisions/0365-swiss-rank-table.md).

use super::layout::{Ctx, scroll};
use crate::services::standings_view::{SwissGameCell, SwissStandings};
use clubcomp_engine::round_robin::RoundRobinTiebreak;
use clubcomp_engine::tiebreaks::{Cut, Tiebreak};
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
    let tiebreaks: Vec<Tiebreak> = s
        .tiebreaks
        .iter()
        .copied()
        .filter(|t| *t != Tiebreak::Pts)
        .collect();
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
                        th scope="col" { abbr title=(tiebreak_name(ctx, *t)) { (t) } }
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
                            td class="num" { (value(ctx, r.values.get(Tiebreak::Pts.acronym()))) }
                            @for t in &tiebreaks {
                                td class="num" { (value(ctx, r.values.get(t.acronym()))) }
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
            let tb = x.tiebreak?;
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
                dd { (tiebreak_name(ctx, *t)) ": " (tiebreak_words(ctx, *t)) }
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
                        @match x.tiebreak {
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
pub(super) fn tiebreak_words(ctx: &Ctx, t: Tiebreak) -> String {
    let what = match t {
        Tiebreak::Pts => ctx.t("de punten van de partijen", "the points of the games"),
        Tiebreak::De => ctx.t(
            "de punten uit de partijen tussen de gelijk geëindigde spelers onderling",
            "the points from the games between the tied players",
        ),
        Tiebreak::Win => ctx.t(
            "het aantal gewonnen ronden (reglementair en vrij inbegrepen)",
            "the number of rounds won (forfeits and byes included)",
        ),
        Tiebreak::Won => ctx.t(
            "het aantal aan het bord gewonnen partijen",
            "the number of games won over the board",
        ),
        Tiebreak::Bpg => ctx.t(
            "het aantal met zwart gespeelde partijen",
            "the number of games played with black",
        ),
        Tiebreak::Bwg => ctx.t(
            "het aantal met zwart gewonnen partijen",
            "the number of games won with black",
        ),
        Tiebreak::Rep => ctx.t(
            "het aantal keer dat de speler een ronde niet speelde",
            "the number of rounds the player did not play",
        ),
        Tiebreak::Ge => ctx.t("het aantal gespeelde partijen", "the number of games played"),
        Tiebreak::Ps { .. } => ctx.t(
            "de som van de stand na elke ronde",
            "the sum of the score after each round",
        ),
        Tiebreak::Ks => ctx.t(
            "de punten tegen tegenstanders die minstens de helft van de punten haalden",
            "the points against opponents who scored at least half the points",
        ),
        Tiebreak::Bh(_) => ctx.t(
            "de som van de punten van de tegenstanders",
            "the sum of the opponents' points",
        ),
        Tiebreak::Fb(_) => ctx.t(
            "de som van de punten van de tegenstanders vóór de laatste ronde",
            "the sum of the opponents' points before the last round",
        ),
        Tiebreak::Sb(_) => ctx.t(
            "de punten van de verslagen tegenstanders plus de helft van die waartegen remise werd gespeeld",
            "the points of the opponents beaten plus half those of the opponents drawn",
        ),
        Tiebreak::Aob => ctx.t(
            "het gemiddelde van de Buchholz van de tegenstanders",
            "the average Buchholz of the opponents",
        ),
        Tiebreak::Aro(_) => ctx.t(
            "het gemiddelde van de ratings van de tegenstanders",
            "the average of the opponents' ratings",
        ),
        Tiebreak::Tpr => ctx.t(
            "de rating die bij de score tegen deze tegenstanders past",
            "the rating the score against these opponents corresponds to",
        ),
        Tiebreak::Ptp => ctx.t(
            "de prestatie waarmee de speler precies deze score zou halen",
            "the performance with which the player would score exactly this",
        ),
        Tiebreak::Apro => ctx.t(
            "het gemiddelde van de toernooiprestaties van de tegenstanders",
            "the average of the opponents' tournament performances",
        ),
        Tiebreak::Appo => ctx.t(
            "het gemiddelde van de prestaties van de tegenstanders",
            "the average of the opponents' performances",
        ),
    };
    let mut out = what.to_string();
    out.push_str(&cut_words(ctx, t.cut()));
    out
}

/// A cut or median in words, after a comma (empty when nothing is dropped): Cut-n drops the
/// n lowest values, Median-n the n highest and lowest.
fn cut_words(ctx: &Ctx, c: Cut) -> String {
    let lowest = |n: u8| {
        format!(
            ", {} {n} {}",
            ctx.t("zonder de", "without the"),
            ctx.t("laagste", "lowest")
        )
    };
    match (c.low, c.high) {
        (0, 0) => String::new(),
        (n, 0) => lowest(n),
        (n, m) if n == m => format!(
            ", {} {n} {}",
            ctx.t("zonder de", "without the"),
            ctx.t("hoogste en laagste", "highest and lowest")
        ),
        (n, m) => format!(
            "{}, {} {m} {}",
            lowest(n),
            ctx.t("en de", "and the"),
            ctx.t("hoogste", "highest")
        ),
    }
}

/// The full name of a Swiss's tie-break (a cut or median is named with its tie-break).
pub(super) fn tiebreak_name(ctx: &Ctx, t: Tiebreak) -> &'static str {
    match t {
        Tiebreak::Pts => ctx.t("Punten", "Points"),
        Tiebreak::Bh(_) => "Buchholz",
        Tiebreak::Fb(_) => ctx.t("Buchholz vóór de laatste ronde", "Fore Buchholz"),
        Tiebreak::Aob => ctx.t(
            "Gemiddelde Buchholz tegenstanders",
            "Average Buchholz of opponents",
        ),
        Tiebreak::Won => ctx.t("Aantal gewonnen partijen", "Number of games won"),
        Tiebreak::Rep => ctx.t("Niet gespeelde ronden", "Rounds not played"),
        Tiebreak::Ge => ctx.t("Gespeelde partijen", "Games played"),
        Tiebreak::Ptp => ctx.t(
            "Perfecte toernooiprestatie",
            "Perfect tournament performance",
        ),
        Tiebreak::Apro => ctx.t(
            "Gemiddelde toernooiprestatie tegenstanders",
            "Average performance rating of opponents",
        ),
        Tiebreak::Appo => ctx.t(
            "Gemiddelde perfecte prestatie tegenstanders",
            "Average perfect performance of opponents",
        ),
        Tiebreak::Sb(_) => "Sonneborn-Berger",
        Tiebreak::Aro(_) => ctx.t(
            "Gemiddelde rating tegenstanders",
            "Average rating of opponents",
        ),
        Tiebreak::De => ctx.t("Onderling resultaat", "Direct encounter"),
        Tiebreak::Win => ctx.t("Aantal winstpartijen", "Number of wins"),
        Tiebreak::Bpg => ctx.t("Partijen met zwart", "Games with black"),
        Tiebreak::Bwg => ctx.t("Winstpartijen met zwart", "Wins with black"),
        Tiebreak::Ks => "Koya",
        Tiebreak::Ps { .. } => ctx.t("Progressieve score", "Progressive score"),
        Tiebreak::Tpr => ctx.t("Toernooiprestatie", "Tournament performance rating"),
    }
}

/// The full name of a round robin's criterion.
pub(super) fn criterion_name(ctx: &Ctx, t: RoundRobinTiebreak) -> &'static str {
    match t {
        RoundRobinTiebreak::Wins => ctx.t("Aantal winstpartijen", "Number of wins"),
        RoundRobinTiebreak::PlusremiseBalance => {
            ctx.t("Saldo plus- en minremises", "Plusremises minus minremises")
        }
        RoundRobinTiebreak::Plusremises => ctx.t("Aantal plusremises", "Number of plusremises"),
        RoundRobinTiebreak::Mutual => ctx.t("Onderling resultaat", "Mutual result"),
        RoundRobinTiebreak::DirectEncounter => ctx.t("Onderling resultaat", "Direct encounter"),
        RoundRobinTiebreak::SonnebornBerger => "Sonneborn-Berger",
        RoundRobinTiebreak::RankingOrder => ctx.t("Ranglijstvolgorde", "Ranking order"),
        RoundRobinTiebreak::Lots => ctx.t("Loting", "Drawing of lots"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::web::Lang;
    use std::sync::Arc;

    fn english() -> Ctx {
        Ctx {
            site: Arc::new(Default::default()),
            lang: Lang::En,
            lang_chosen: false,
            embed: false,
            path: String::new(),
            after: None,
            live: None,
        }
    }

    #[test]
    fn a_tiebreak_is_worded_with_its_cut_or_median() {
        let ctx = english();
        assert_eq!(
            tiebreak_words(&ctx, Tiebreak::BH_M1),
            "the sum of the opponents' points, without the 1 highest and lowest"
        );
        assert_eq!(
            tiebreak_words(&ctx, Tiebreak::Ps { cut: 2 }),
            "the sum of the score after each round, without the 2 lowest"
        );
        assert_eq!(
            tiebreak_words(&ctx, Tiebreak::Aro(Cut { low: 1, high: 2 })),
            "the average of the opponents' ratings, without the 1 lowest, and the 2 highest"
        );
        assert_eq!(
            tiebreak_words(&ctx, Tiebreak::Ks),
            "the points against opponents who scored at least half the points"
        );
        assert_eq!(tiebreak_name(&ctx, Tiebreak::BH_C1), "Buchholz");
        assert_eq!(
            tiebreak_name(&ctx, Tiebreak::Sb(Cut::median_n(2))),
            "Sonneborn-Berger"
        );
        assert_eq!(
            criterion_name(&ctx, RoundRobinTiebreak::PlusremiseBalance),
            "Plusremises minus minremises"
        );
    }
}
