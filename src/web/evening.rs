//! An evening: every board of every competition played on it, with the results as they come
//! in (the pairing list for the notice board), and one pairing slip per board for the arbiter.

use super::layout::{Ctx, frame, scroll};
use super::{answer, page_query, path_id};
use crate::services::club_pages as pages;
use crate::services::evenings::{self, Board, EveningDetail as EveningPage, EveningRound};
use crate::state::AppState;
use actix_web::{HttpRequest, HttpResponse, web};
use maud::{Markup, html};

/// The cache document names: page (pairing list, slips) × language × embedded × language
/// chosen in the query (whose links carry the language on).
const DOCS: [[&str; 8]; 2] = [
    [
        "page-evening-nl",
        "page-evening-nl-embed",
        "page-evening-en",
        "page-evening-en-embed",
        "page-evening-nl-lang",
        "page-evening-nl-embed-lang",
        "page-evening-en-lang",
        "page-evening-en-embed-lang",
    ],
    [
        "page-slips-nl",
        "page-slips-nl-embed",
        "page-slips-en",
        "page-slips-en-embed",
        "page-slips-nl-lang",
        "page-slips-nl-embed-lang",
        "page-slips-en-lang",
        "page-slips-en-embed-lang",
    ],
];

/// An evening's page (or its slips) from the read cache under the evening's version, the
/// one of `GET /api/v1/evenings/{id}` (rendered on a miss; a reader holding the current
/// version is answered 304 before anything is rendered). The page's ETag is the JSON's with
/// the page variant added.
async fn serve(
    req: HttpRequest,
    state: web::Data<AppState>,
    raw: String,
    slips: bool,
) -> HttpResponse {
    let r = async {
        let q = page_query(&req, false)?;
        let lang = q.lang;
        let id = path_id(&raw).map_err(|e| (lang, e))?;
        let variant = usize::from(q.lang_chosen) * 4
            + usize::from(matches!(q.lang, super::Lang::En)) * 2
            + usize::from(q.embed);
        let doc = DOCS[usize::from(slips)][variant];
        let base = state.config.mail.public_url.clone();
        let kind = crate::cached::CachedType {
            content_type: "text/html; charset=utf-8",
            vary: super::PAGE_VARY,
            headers: &state.page_headers,
        };
        crate::cached::serve_versioned_as(
            &state,
            &req,
            doc,
            kind,
            move |c| {
                let e = evenings::find(c, evenings::Which::Id(crate::ids::EveningId(id)))?;
                let v = evenings::version(c, &e)?;
                let tag = evenings::etag(id, v, false);
                let tag = format!("{}-{doc}\"", tag.trim_end_matches('"'));
                Ok((id, v, tag, e))
            },
            move |c, e, _| {
                let data = pages::evening_found(c, e)?;
                let markup = if slips {
                    render_slips(
                        &Ctx::new(q, format!("/club/evenings/{id}/slips")),
                        &base,
                        &data,
                    )
                } else {
                    let ctx = Ctx::new(q, format!("/club/evenings/{id}"))
                        .following(super::live::evening_stream(id));
                    render(&ctx, &base, &data)
                };
                Ok(super::layout::finish(markup).into_bytes())
            },
        )
        .await
        .map_err(|e| (lang, e))
    }
    .await;
    answer(&req, &state, r)
}

pub(super) async fn page(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> HttpResponse {
    serve(req, state, path.into_inner(), false).await
}

pub(super) async fn slips(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> HttpResponse {
    serve(req, state, path.into_inner(), true).await
}

fn round_heading(ctx: &Ctx, r: &EveningRound) -> String {
    let word = if r.competition_kind == clubcomp_engine::CompetitionKind::Keizer {
        ctx.t("avond", "evening")
    } else {
        ctx.t("ronde", "round")
    };
    format!("{}, {word} {}", r.competition_name, r.number)
}

fn result_cell(ctx: &Ctx, g: &Board) -> Markup {
    html! {
        @match (&g.result, &g.black) {
            (Some(r), _) => (ctx.lang.result(r)),
            (None, None) => (ctx.lang.result("bye")),
            (None, Some(_)) => span class="pending" { (ctx.t("nog niet binnen", "not yet in")) },
        }
    }
}

fn render(ctx: &Ctx, base: &str, e: &EveningPage) -> Markup {
    let ev = e;
    let title = format!(
        "{} — {}",
        ctx.lang.evening_kind(ev.kind),
        ctx.lang.date(ev.date)
    );
    let boards: usize = e.rounds.iter().map(|r| r.boards.len()).sum();
    frame(
        ctx,
        &title,
        html! {
            p class="muted" data-live="evening" {
                (ctx.t("Aanvang", "Start")) " " (ev.start_time) " · "
                (ctx.t("Seizoen", "Season")) " " a href=(ctx.href(&format!("/club/seasons/{}/calendar", e.season_id))) { (e.season_name) }
                @if boards > 0 {
                    " · " a href=(ctx.href(&format!("/club/evenings/{}/slips", ev.id))) { (ctx.t("Wedstrijdbriefjes", "Pairing slips")) }
                }
            }
            @if let Some(n) = &ev.note { p { (n) } }
            @if e.rounds.is_empty() {
                p { (ctx.t("Op deze avond wordt geen competitieronde gespeeld.", "No competition round is played on this evening.")) }
            }
            @for r in &e.rounds {
                section class="round" data-live=(format!("round-{}-{}", r.competition_id, r.number)) {
                    @let heading = round_heading(ctx, r);
                    h2 { (heading) }
                    p class="muted" { (ctx.lang.status(r.status)) }
                    @if r.boards.is_empty() {
                        p { (ctx.t("De indeling is nog niet gepubliceerd.", "The pairings are not published yet.")) }
                    } @else {
                        @let cap = format!("{} — {}", ctx.t("Indeling en uitslagen", "Pairings and results"), heading);
                        (scroll(&cap, html! {
                            table class="pairings" data-competition=(r.competition_id) {
                                caption { (cap) }
                                thead { tr {
                                    th scope="col" { (ctx.t("Bord", "Board")) }
                                    th scope="col" { (ctx.t("Wit", "White")) }
                                    th scope="col" { (ctx.t("Zwart", "Black")) }
                                    th scope="col" { (ctx.t("Uitslag", "Result")) }
                                    th scope="col" class="noprint" { (ctx.t("Melden", "Report")) }
                                } }
                                tbody {
                                    @for g in &r.boards {
                                        tr class="board" {
                                            th scope="row" class="num" {
                                                (g.board) @if g.game_no > 1 { "." (g.game_no) }
                                            }
                                            td { @if let Some(w) = &g.white { (player(ctx, w)) } }
                                            td { @if let Some(b) = &g.black { (player(ctx, b)) } @else { "—" } }
                                            td { (result_cell(ctx, g)) }
                                            td class="noprint" { @if g.black.is_some() && g.result.is_none() { (super::report::qr_link(ctx, base, g.game_id, 72)) } }
                                        }
                                    }
                                }
                            }
                        }))
                    }
                    (byes_and_absentees(ctx, r))
                }
            }
        },
    )
}

/// A player on a board: the name linked to the card, the rating beside it.
fn player(ctx: &Ctx, p: &crate::services::evenings::BoardPlayer) -> Markup {
    html! {
        (ctx.player(p.id, &p.name))
        @if let Some(r) = p.rating { " " span class="rating" { "(" (r) ")" } }
    }
}

/// What an attendance status of an absentee is called on the page.
fn absence(ctx: &Ctx, status: &str) -> &'static str {
    match status {
        "excused" => ctx.t("afgemeld", "afgemeld (with notice)"),
        "unexcused" => ctx.t("zonder afmelding", "without notice"),
        "not_signed_up" => ctx.t("niet aangemeld", "not signed up"),
        "no_show" => ctx.t("niet verschenen", "did not show up"),
        "not_checked_in" => ctx.t("niet ingecheckt", "not checked in"),
        _ => ctx.t("niet ingedeeld", "not paired"),
    }
}

/// The round's byes and the entrants who do not play it.
fn byes_and_absentees(ctx: &Ctx, r: &EveningRound) -> Markup {
    html! {
        @if !r.byes.is_empty() {
            p class="byes" {
                (ctx.t("Vrij: ", "Bye: "))
                @for (i, b) in r.byes.iter().enumerate() {
                    @if i > 0 { ", " }
                    (ctx.player(b.id, &b.name))
                }
            }
        }
        @if !r.absentees.is_empty() {
            p class="absent" {
                (ctx.t("Afwezig: ", "Absent: "))
                @for (i, a) in r.absentees.iter().enumerate() {
                    @if i > 0 { ", " }
                    (ctx.player(a.id, &a.name))
                    " (" (absence(ctx, &a.status)) ")"
                }
            }
        }
    }
}

fn render_slips(ctx: &Ctx, base: &str, e: &EveningPage) -> Markup {
    let ev = e;
    let title = format!(
        "{} — {}",
        ctx.t("Wedstrijdbriefjes", "Pairing slips"),
        ctx.lang.date(ev.date)
    );
    frame(
        ctx,
        &title,
        html! {
            p class="muted noprint" {
                (ctx.t("Eén briefje per bord; print op A4 en knip langs de lijnen.",
                       "One slip per board; print on A4 and cut along the lines."))
                " " a href=(ctx.href(&format!("/club/evenings/{}", ev.id))) { (ctx.t("Terug naar de avond", "Back to the evening")) }
            }
            div class="slips" {
                @for r in &e.rounds {
                    @let heading = round_heading(ctx, r);
                    @let draughts = r.discipline == clubcomp_engine::Discipline::Draughts;
                    @for g in r.boards.iter().filter(|g| g.black.is_some()) {
                        section class="slip" aria-label=(format!("{} {} {}", heading, ctx.t("bord", "board"), g.board)) {
                            p class="slip-head" {
                                strong { (ctx.t("Bord", "Board")) " " (g.board) @if g.game_no > 1 { "." (g.game_no) } }
                                " · " (heading) " · " (ctx.lang.short_date(ev.date))
                            }
                            table class="slip-players" {
                                caption class="sr" { (ctx.t("Spelers", "Players")) }
                                tbody {
                                    tr { th scope="row" { (ctx.t("Wit", "White")) } td { @if let Some(w) = &g.white { (w.name) } } td class="sign" { (ctx.t("paraaf", "initials")) } }
                                    tr { th scope="row" { (ctx.t("Zwart", "Black")) } td { @if let Some(b) = &g.black { (b.name) } } td class="sign" { (ctx.t("paraaf", "initials")) } }
                                }
                            }
                            div class="slip-qr" {
                                (super::report::qr_link(ctx, base, g.game_id, 96))
                                span class="muted" { (ctx.t("Scan om de uitslag te melden", "Scan to report the result")) }
                            }
                            p class="boxes" {
                                (ctx.t("Uitslag: ", "Result: "))
                                @for code in (if draughts { ["2-0", "1-1", "0-2"] } else { ["1-0", "½-½", "0-1"] }) {
                                    span class="box" { "☐ " (code) } " "
                                }
                                @if draughts { span class="box" { "☐ 1+ – 1−" } " " span class="box" { "☐ 1− – 1+" } }
                            }
                        }
                    }
                }
            }
        },
    )
}
