//! An evening: every board of every competition played on it, with the results as they come
//! in (the pairing list for the notice board), and one pairing slip per board for the arbiter.

use super::layout::{Ctx, frame, scroll};
use super::{answer, page_query, path_id};
use crate::services::club_pages as pages;
use crate::services::club_pages::{EveningPage, RoundFacts};
use crate::services::evenings::{self, Board, BoardPlayer, EveningDetail, EveningRound};
use crate::state::AppState;
use actix_web::{HttpRequest, HttpResponse, web};
use clubcomp_core::vocab::AttendanceStatus;
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
                let markup = if slips {
                    render_slips(
                        &Ctx::new(q, format!("/club/evenings/{id}/slips")),
                        &base,
                        &pages::evening_found(c, e)?,
                    )
                } else {
                    let ctx = Ctx::new(q, format!("/club/evenings/{id}"))
                        .following(super::live::evening_stream(id));
                    render(&ctx, &base, &pages::evening_page(c, e)?)
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
            (Some(r), _) => (ctx.lang.result(*r)),
            (None, None) => (ctx.lang.result(clubcomp_core::vocab::ResultCode::Bye)),
            // the two players reported different results: the arbiter decides
            (None, Some(_)) if g.disputed => span class="pending disputed" {
                (ctx.t("betwist, de arbiter beslist", "disputed, the arbiter decides"))
            },
            (None, Some(_)) => span class="pending" { (ctx.t("nog niet binnen", "not yet in")) },
        }
    }
}

/// A score as the page shows it.
fn score(ctx: &Ctx, x: f64) -> String {
    super::numbers::show_f64(ctx.lang, x)
}

fn render(ctx: &Ctx, base: &str, page: &EveningPage) -> Markup {
    let ev = &page.detail;
    let title = format!(
        "{} — {}",
        ctx.lang.evening_kind(ev.kind),
        ctx.lang.date(ev.date)
    );
    let boards: usize = ev.rounds.iter().map(|r| r.boards.len()).sum();
    frame(
        ctx,
        &title,
        html! {
            p class="muted" data-live="evening" {
                (ctx.t("Aanvang", "Start")) " " (ev.start_time) " · "
                (ctx.t("Seizoen", "Season")) " " a href=(ctx.href(&format!("/club/seasons/{}/calendar", ev.season_id))) { (ev.season_name) }
                @if boards > 0 {
                    " · " a href=(ctx.href(&format!("/club/evenings/{}/slips", ev.id))) { (ctx.t("Wedstrijdbriefjes", "Pairing slips")) }
                }
            }
            (neighbours(ctx, page))
            @if let Some(n) = &ev.note { p { (n) } }
            @if ev.rounds.is_empty() {
                p { (ctx.t("Op deze avond wordt geen competitieronde gespeeld.", "No competition round is played on this evening.")) }
            }
            @for (r, facts) in ev.rounds.iter().zip(&page.facts) {
                section class="round" data-live=(format!("round-{}-{}", r.competition_id, r.number)) {
                    @let heading = round_heading(ctx, r);
                    h2 { (heading) }
                    p class="muted" { (ctx.lang.status(r.status)) }
                    (round_boards(ctx, base, &heading, r, facts))
                }
            }
        },
    )
}

/// The links to the evenings before and after this one in the season's calendar.
fn neighbours(ctx: &Ctx, page: &EveningPage) -> Markup {
    let link = |e: &crate::services::calendar::Evening| {
        html! {
            a href=(ctx.href(&format!("/club/evenings/{}", e.id.get()))) {
                (ctx.lang.evening_kind(e.kind)) " " (ctx.lang.short_date(e.date))
            }
        }
    };
    html! {
        @if page.previous.is_some() || page.next.is_some() {
            nav class="pager" aria-label=(ctx.t("Andere avonden", "Other evenings")) {
                @if let Some(e) = &page.previous {
                    span class="previous" { "← " (ctx.t("Vorige avond: ", "Previous evening: ")) (link(e)) }
                }
                @if let Some(e) = &page.next {
                    span class="next" { (ctx.t("Volgende avond: ", "Next evening: ")) (link(e)) " →" }
                }
            }
        }
    }
}

/// A round's pairing list (each board with both players' rating and score before the
/// round), its byes and its absentees; a note while the pairings are not published.
pub(super) fn round_boards(
    ctx: &Ctx,
    base: &str,
    heading: &str,
    r: &EveningRound,
    facts: &RoundFacts,
) -> Markup {
    let before = |p: &BoardPlayer| -> String {
        match &facts.before {
            Some(m) => score(ctx, m.get(&p.id).copied().unwrap_or(0.0)),
            None => "–".to_string(),
        }
    };
    let rating = |p: &BoardPlayer| p.rating.map_or("–".to_string(), |r| r.to_string());
    let points = if r.competition_kind == clubcomp_engine::CompetitionKind::Keizer {
        (
            ctx.t("Score", "Score"),
            ctx.t("Keizerscore vóór de ronde", "Keizer score before the round"),
        )
    } else {
        (
            ctx.t("Pnt", "Pts"),
            ctx.t("Punten vóór de ronde", "Points before the round"),
        )
    };
    html! {
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
                        th scope="col" { abbr title=(ctx.t("Rating van wit", "White's rating")) { (ctx.t("Rtg", "Rtg")) } }
                        th scope="col" { abbr title=(points.1) { (points.0) } }
                        th scope="col" { (ctx.t("Zwart", "Black")) }
                        th scope="col" { abbr title=(ctx.t("Rating van zwart", "Black's rating")) { (ctx.t("Rtg", "Rtg")) } }
                        th scope="col" { abbr title=(points.1) { (points.0) } }
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
                                td class="num" { @if let Some(w) = &g.white { (rating(w)) } }
                                td class="num" { @if let Some(w) = &g.white { (before(w)) } }
                                td { @if let Some(b) = &g.black { (player(ctx, b)) } @else { "—" } }
                                td class="num" { @if let Some(b) = &g.black { (rating(b)) } }
                                td class="num" { @if let Some(b) = &g.black { (before(b)) } }
                                td class="result" { (result_cell(ctx, g)) }
                                td class="noprint" { @if g.black.is_some() && g.result.is_none() { (super::report::qr_link(ctx, base, g.game_id, 72)) } }
                            }
                        }
                    }
                }
            }))
        }
        (byes_and_absentees(ctx, r, facts))
    }
}

/// A player on a board: the name linked to the card.
fn player(ctx: &Ctx, p: &BoardPlayer) -> Markup {
    html! {
        (ctx.player(p.id, &p.name))
    }
}

/// The group an absentee's attendance status falls in on the page: signed off, absent
/// without notice, or not on a board for another reason (docs/decisions/0364-pairing-list-facts.md).
fn absence_group(status: AttendanceStatus) -> usize {
    match status {
        AttendanceStatus::Excused => 0,
        AttendanceStatus::Unexcused | AttendanceStatus::NoShow => 1,
        _ => 2,
    }
}

/// What an attendance status of an absentee is called on the page.
fn absence(ctx: &Ctx, status: AttendanceStatus) -> &'static str {
    match status {
        AttendanceStatus::Excused => ctx.t("afgemeld", "afgemeld (with notice)"),
        AttendanceStatus::Unexcused => ctx.t("zonder afmelding", "without notice"),
        AttendanceStatus::NotSignedUp => ctx.t("niet aangemeld", "not signed up"),
        AttendanceStatus::NoShow => ctx.t("niet verschenen", "did not show up"),
        AttendanceStatus::NotCheckedIn => ctx.t("niet ingecheckt", "not checked in"),
        AttendanceStatus::Expected
        | AttendanceStatus::SignedUp
        | AttendanceStatus::Present
        | AttendanceStatus::CheckedIn => ctx.t("niet ingedeeld", "not paired"),
    }
}

/// The round's byes with what each scored, and the entrants who do not play it: signed off,
/// absent without notice, and otherwise not on a board.
fn byes_and_absentees(ctx: &Ctx, r: &EveningRound, facts: &RoundFacts) -> Markup {
    let keizer = r.competition_kind == clubcomp_engine::CompetitionKind::Keizer;
    let groups = [
        ctx.t("Afgemeld", "Signed off (afgemeld)"),
        ctx.t("Afwezig zonder afmelding", "Absent without notice"),
        ctx.t("Niet ingedeeld", "Not paired"),
    ];
    html! {
        @if !r.byes.is_empty() || !r.absentees.is_empty() {
            dl class="absent" {
                @if !r.byes.is_empty() {
                    dt { (ctx.t("Vrij", "Bye")) }
                    dd class="byes" {
                        @for (i, b) in r.byes.iter().enumerate() {
                            @if i > 0 { ", " }
                            (ctx.player(b.id, &b.name))
                            @if let Some(x) = facts.byes.get(&b.id) {
                                " (" (score(ctx, *x)) " "
                                @if keizer { (ctx.t("punten: eigen waarde", "points: own value")) }
                                @else if (*x - 1.0).abs() < 1e-9 { (ctx.t("punt", "point")) }
                                @else { (ctx.t("punten", "points")) }
                                ")"
                            }
                        }
                    }
                }
                @for (k, label) in groups.iter().enumerate() {
                    @let who: Vec<_> = r.absentees.iter().filter(|a| absence_group(a.status) == k).collect();
                    @if !who.is_empty() {
                        dt { (label) }
                        dd class=(["excused", "unexcused", "unpaired"][k]) {
                            @for (i, a) in who.iter().enumerate() {
                                @if i > 0 { ", " }
                                (ctx.player(a.id, &a.name))
                                @if k != 0 && a.status != AttendanceStatus::Unexcused { " (" (absence(ctx, a.status)) ")" }
                            }
                        }
                    }
                }
            }
        }
    }
}

fn render_slips(ctx: &Ctx, base: &str, e: &EveningDetail) -> Markup {
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
                                @for code in slip_codes(draughts) {
                                    span class="box" { "☐ " (code.shown()) } " "
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

/// The result codes a score slip offers as boxes, White's score first (the draughts
/// plusremises follow as boxes of their own).
fn slip_codes(draughts: bool) -> [clubcomp_core::vocab::ResultCode; 3] {
    use clubcomp_core::vocab::ResultCode as C;
    if draughts {
        [C::DraughtsWhiteWins, C::DraughtsDraw, C::DraughtsBlackWins]
    } else {
        [C::WhiteWins, C::DrawHalves, C::BlackWins]
    }
}
