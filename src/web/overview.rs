//! A competition's overview page: its kind, season and time control, every round with its
//! date (the planned ones too, linked to their pages) and the entrants in seeding order.

use super::layout::{Ctx, frame, scroll};
use crate::services::club_pages::CompetitionPage;
use crate::services::competitions::Competition;
use clubcomp_engine::CompetitionKind;
use maud::{Markup, html};

pub(super) fn render(ctx: &Ctx, p: &CompetitionPage) -> Markup {
    let comp = &p.competition;
    let rounds_caption = ctx.t("Rondes", "Rounds");
    // the rounds planned but not made yet are listed after the ones there are
    let planned = comp.rounds_planned.unwrap_or(0).min(999);
    let entrants_caption = format!(
        "{} ({})",
        ctx.t(
            "Deelnemers op plaatsingsvolgorde",
            "Entrants in seeding order"
        ),
        p.entrants.len()
    );
    frame(
        ctx,
        &comp.name,
        html! {
            (subtitle(ctx, comp))
            p class="muted" { (ctx.t("Seizoen", "Season")) " " a href=(ctx.href(&format!("/club/seasons/{}", p.season.id))) { (p.season.name) } }
            @if let Some(tc) = &p.time_control {
                p class="tempo" { (ctx.t("Speeltempo: ", "Time control: ")) (tempo(ctx, tc)) }
            }
            (tabs(ctx, comp))
            section aria-labelledby="rounds" {
                h2 id="rounds" { (rounds_caption) }
                @if p.rounds.is_empty() && planned == 0 { p { (ctx.t("Nog geen rondes.", "No rounds yet.")) } }
                @else {
                    (scroll(rounds_caption, html! {
                        table class="rounds" {
                            caption { (rounds_caption) }
                            thead { tr {
                                th scope="col" { (ctx.t("Ronde", "Round")) }
                                th scope="col" { (ctx.t("Datum", "Date")) }
                                th scope="col" { (ctx.t("Status", "Status")) }
                            } }
                            tbody {
                                @for r in &p.rounds {
                                    tr {
                                        th scope="row" class="num" { a href=(ctx.href(&format!("/club/competitions/{}/rounds/{}", comp.id, r.number))) { (r.number) } }
                                        td {
                                            @match (r.evening_id, r.date) {
                                                (Some(e), Some(d)) => a href=(ctx.href(&format!("/club/evenings/{e}"))) { (ctx.lang.date(d)) },
                                                (None, Some(d)) => (ctx.lang.date(d)),
                                                _ => "—",
                                            }
                                        }
                                        td { (ctx.lang.status(r.status)) }
                                    }
                                }
                                @for n in (p.rounds.len() as i32 + 1)..=planned {
                                    tr {
                                        th scope="row" class="num" { (n) }
                                        td { (ctx.t("nog niet vastgesteld", "not set yet")) }
                                        td { (ctx.t("gepland", "planned")) }
                                    }
                                }
                            }
                        }
                    }))
                }
            }
            section aria-labelledby="entrants" {
                h2 id="entrants" { (ctx.t("Deelnemers", "Entrants")) }
                (scroll(&entrants_caption, html! {
                    table class="compact" {
                        caption { (entrants_caption) }
                        thead { tr {
                            th scope="col" { "#" }
                            th scope="col" { (ctx.t("Naam", "Name")) }
                            th scope="col" { (ctx.t("Rating", "Rating")) }
                        } }
                        tbody {
                            @for (i, (id, name, rating)) in p.entrants.iter().enumerate() {
                                tr {
                                    td class="num" { (i + 1) }
                                    th scope="row" { (ctx.player(id, name)) }
                                    td class="num" { @if let Some(r) = rating { (r) } @else { "—" } }
                                }
                            }
                        }
                    }
                }))
            }
        },
    )
}

/// A time control in words: `40 zetten in 90 minuten, daarna 30 minuten, + 30 seconden per
/// zet vanaf zet 1`.
fn tempo(ctx: &Ctx, tc: &crate::services::competitions::TimeControl) -> String {
    let mut parts = Vec::new();
    for (i, p) in tc.periods.iter().enumerate() {
        let then = if i > 0 { ctx.t("daarna ", "then ") } else { "" };
        let minutes = match p.minutes {
            1 => ctx.t("minuut", "minute"),
            _ => ctx.t("minuten", "minutes"),
        };
        parts.push(match p.moves {
            Some(m) => format!(
                "{then}{m} {} {} {} {minutes}",
                ctx.t("zetten", "moves"),
                ctx.t("in", "in"),
                p.minutes
            ),
            None => format!("{then}{} {minutes}", p.minutes),
        });
    }
    let mut s = parts.join(", ");
    if tc.increment_seconds > 0 {
        s.push_str(&format!(
            ", + {} {} {} {}",
            tc.increment_seconds,
            ctx.t("seconden per zet vanaf zet", "seconds a move from move"),
            tc.increment_from_move,
            ""
        ));
        s = s.trim_end().to_string();
    }
    s
}

/// The links between a competition's pages. Every kind has a prizes page: a Keizer half's or
/// a round robin's prize list, a Swiss's title (docs/rules/rapid-blitz.md#guests-and-the-title),
/// the playoffs of a knockout.
pub(super) fn tabs(ctx: &Ctx, comp: &Competition) -> Markup {
    let id = comp.id;
    html! {
        nav class="tabs" aria-label=(ctx.t("Competitie", "Competition")) {
            a href=(ctx.href(&format!("/club/competitions/{id}"))) { (ctx.t("Overzicht", "Overview")) }
            @if comp.kind != CompetitionKind::Knockout {
                a href=(ctx.href(&format!("/club/competitions/{id}/standings"))) { (ctx.t("Stand", "Standings")) }
            }
            a href=(ctx.href(&format!("/club/competitions/{id}/prizes"))) {
                @if comp.kind == CompetitionKind::Knockout { (ctx.t("Play-offs", "Play-offs")) } @else { (ctx.t("Prijzen", "Prizes")) }
            }
        }
    }
}

pub(super) fn subtitle(ctx: &Ctx, comp: &Competition) -> Markup {
    html! {
        p class="muted" {
            (ctx.lang.competition_kind(comp.kind, comp.system))
            @if let Some(h) = comp.half { ", " (ctx.lang.half(h)) }
            " · " (ctx.lang.discipline(comp.discipline))
        }
    }
}
