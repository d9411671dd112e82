//! A round's page: the pairings and results of one round of a competition (each board with
//! both players' rating and score before the round), its byes and absentees, and the links to
//! the other rounds; served from the read cache under the competition's version.

use super::layout::{Ctx, frame};
use crate::services::club_pages::RoundPage;
use maud::{Markup, html};

/// The page of round `p.round` at its path.
pub(super) fn render(ctx: &Ctx, base: &str, p: &RoundPage) -> Markup {
    let comp = &p.competition;
    let r = &p.round;
    let heading = format!("{}, {} {}", comp.name, ctx.t("ronde", "round"), r.number);
    let link = |n: i32| ctx.href(&format!("/club/competitions/{}/rounds/{n}", comp.id));
    html! {
        (frame(ctx, &heading, html! {
            p class="muted" {
                a href=(ctx.href(&format!("/club/competitions/{}", comp.id))) { (comp.name) } " · "
                @match (p.evening_id, p.date) {
                    (Some(e), Some(d)) => a href=(ctx.href(&format!("/club/evenings/{e}"))) { (ctx.lang.date(d)) },
                    (None, Some(d)) => (ctx.lang.date(d)),
                    _ => (ctx.t("datum nog niet bekend", "date not known yet")),
                }
                " · " (ctx.lang.status(r.status))
            }
            @if p.numbers.len() > 1 {
                nav class="rounds" aria-label=(ctx.t("Rondes", "Rounds")) {
                    (ctx.t("Ronde:", "Round:")) " "
                    @for &n in &p.numbers {
                        @if n == r.number { strong aria-current="page" { (n) } }
                        @else { a href=(link(n)) { (n) } }
                        " "
                    }
                }
            }
            div data-live=(format!("round-{}-{}", r.competition_id, r.number)) {
                (super::evening::round_boards(ctx, base, &heading, r, &p.facts))
            }
        }))
    }
}
