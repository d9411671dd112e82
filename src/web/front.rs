//! The club's front page: the next evening and what is played on it, the competitions of the
//! season, the calendar from the next evening on, and the archive of older seasons.

use super::layout::{Ctx, frame};
use super::{answer, page_query};
use crate::services::club_pages::{self as pages, Front};
use crate::state::AppState;
use actix_web::{HttpRequest, HttpResponse, web};
use maud::{Markup, html};

/// How many evenings of the calendar the front page lists.
const UPCOMING: usize = 8;

/// The cache document names: language × embedded × language chosen in the query.
const DOCS: [&str; 8] = [
    "page-front-nl",
    "page-front-nl-embed",
    "page-front-en",
    "page-front-en-embed",
    "page-front-nl-lang",
    "page-front-nl-embed-lang",
    "page-front-en-lang",
    "page-front-en-embed-lang",
];

/// The front page from the read cache under its version ([`pages::front_version`]: what it
/// shows, and the day), rendered on a miss; a reader holding the current version is answered
/// 304 before anything is rendered.
pub(super) async fn page_handler(req: &HttpRequest, state: &web::Data<AppState>) -> super::Page {
    let q = page_query(req, false)?;
    let lang = q.lang;
    let day = state.today();
    let variant = usize::from(q.lang_chosen) * 4
        + usize::from(matches!(q.lang, super::Lang::En)) * 2
        + usize::from(q.embed);
    let doc = DOCS[variant];
    let kind = crate::cached::CachedType {
        content_type: "text/html; charset=utf-8",
        vary: super::PAGE_VARY,
        headers: &state.page_headers,
    };
    crate::cached::serve_versioned_as(
        state,
        req,
        doc,
        kind,
        move |c| {
            let v = pages::front_version(c, day)?;
            let tag = format!("\"front-{}-{:016x}-{doc}\"", v.0, v.1 as u64);
            Ok((0, v, tag, ()))
        },
        move |c, (), _| {
            let data = pages::front(c, day, UPCOMING)?;
            let ctx = Ctx::new(q, "/club/").following(super::live::front_stream());
            Ok(super::layout::finish(render(&ctx, &data)).into_bytes())
        },
    )
    .await
    .map_err(|e| (lang, e))
}

pub(super) async fn page(req: HttpRequest, state: web::Data<AppState>) -> HttpResponse {
    let r = page_handler(&req, &state).await;
    answer(&req, &state, r)
}

fn render(ctx: &Ctx, f: &Front) -> Markup {
    let title = match &f.season {
        Some(s) => format!("{} {}", ctx.t("Seizoen", "Season"), s.name),
        None => match &ctx.site.name {
            Some(club) => club.clone(),
            None => ctx.t("Voorpagina", "Front page").to_string(),
        },
    };
    let body = html! {
        @if f.season.is_none() {
            p { (ctx.t("Er is nog geen seizoen.", "There is no season yet.")) }
        }
        @if let Some(s) = &f.season {
            section aria-labelledby="next" data-live="next" {
                h2 id="next" { (ctx.t("Volgende avond", "Next evening")) }
                @match &f.next {
                    Some(e) => {
                        p class="next" {
                            a href=(ctx.href(&format!("/club/evenings/{}", e.id))) {
                                (ctx.lang.date(e.date))
                            }
                            ", " (e.start_time) " · " (ctx.lang.evening_kind(e.kind))
                            @if let Some(n) = e.number { " " (n) }
                        }
                        @if let Some(note) = &e.note { p { (note) } }
                        @if !f.next_rounds.is_empty() {
                            ul {
                                @for r in &f.next_rounds {
                                    li {
                                        (r.competition_name) ", "
                                        @if r.competition_kind == clubcomp_engine::CompetitionKind::Keizer { (ctx.t("avond", "evening")) } @else { (ctx.t("ronde", "round")) }
                                        " " (r.number)
                                        ": " (ctx.lang.status(r.status))
                                        @if !r.boards.is_empty() {
                                            " — " (r.boards.len()) " " (ctx.t("borden", "boards"))
                                        }
                                    }
                                }
                            }
                        }
                    }
                    None => p { (ctx.t("Geen speelavonden meer dit seizoen.", "No more evenings this season.")) }
                }
            }
            section aria-labelledby="comps" data-live="competitions" {
                h2 id="comps" { (ctx.t("Competities", "Competitions")) }
                @if f.competitions.is_empty() {
                    p { (ctx.t("Nog geen competities.", "No competitions yet.")) }
                }
                ul class="cards" {
                    @for c in &f.competitions {
                        li {
                            a href=(ctx.href(&format!("/club/competitions/{}", c.id))) { (c.name) }
                            br;
                            span class="muted" { (ctx.lang.competition_kind(c.kind, c.system)) }
                            @if c.kind != clubcomp_engine::CompetitionKind::Knockout {
                                " · "
                                a href=(ctx.href(&format!("/club/competitions/{}/standings", c.id))) {
                                    (ctx.t("stand", "standings"))
                                }
                            }
                        }
                    }
                }
            }
            section aria-labelledby="cal" data-live="calendar" {
                h2 id="cal" { (ctx.t("Kalender", "Calendar")) }
                (super::season::evening_table(ctx, ctx.t("De komende avonden", "The coming evenings"), &f.upcoming))
                p {
                    a href=(ctx.href(&format!("/club/seasons/{}/calendar", s.id))) {
                        (ctx.t("De hele kalender", "The whole calendar"))
                    }
                    " · "
                    a href=(ctx.href(&format!("/club/seasons/{}", s.id))) {
                        (ctx.t("Overzicht van het seizoen", "Season overview"))
                    }
                }
            }
            @if !f.archive.is_empty() {
                section aria-labelledby="archive" {
                    h2 id="archive" { (ctx.t("Archief", "Archive")) }
                    ul {
                        @for s in &f.archive {
                            li { a href=(ctx.href(&format!("/club/seasons/{}", s.id))) { (ctx.t("Seizoen", "Season")) " " (s.name) } }
                        }
                    }
                }
            }
        }
    };
    frame(ctx, &title, body)
}
