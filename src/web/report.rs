//! A game's report page, `/club/games/{id}/report` (docs/api-guide.md#reporting-from-a-phone):
//! the QR code on the pairing slip and the evening page opens it. Everyone sees who plays the
//! game; a signed-in player of the game sees the competition's result codes as buttons, each a
//! POST to the same service as `POST /api/v1/games/{id}/report`. An app may open the same
//! address as a deep link to its own report screen.

use super::Lang;
use super::layout::Ctx;
use super::session::{self, Session};
use crate::error::ApiError;
use crate::ids::GameId;
use crate::services::game_reports::{self, Closed, ReportPage, Reporter};
use crate::state::AppState;
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use clubcomp_core::vocab::ReportOutcome;
use maud::{Markup, html};

/// The path of game `id`'s report page.
pub fn path(id: i64) -> String {
    format!("/club/games/{id}/report")
}

/// The longest result code a form may send.
const MAX_RESULT: usize = 16;

fn title(ctx: &Ctx, g: &ReportPage) -> String {
    let word = if g.kind == clubcomp_engine::CompetitionKind::Keizer {
        ctx.t("avond", "evening")
    } else {
        ctx.t("ronde", "round")
    };
    let board = if g.game_no > 1 {
        format!("{}.{}", g.board, g.game_no)
    } else {
        g.board.to_string()
    };
    format!(
        "{} {board} · {}, {word} {}",
        ctx.t("Bord", "Board"),
        g.competition,
        g.round
    )
}

fn players(ctx: &Ctx, g: &ReportPage) -> Markup {
    html! {
        table class="report-players" {
            caption class="sr" { (ctx.t("Spelers", "Players")) }
            tbody {
                tr { th scope="row" { (ctx.t("Wit", "White")) } td { @if let Some((_, n)) = &g.white { (n) } } }
                tr { th scope="row" { (ctx.t("Zwart", "Black")) } td { @if let Some((_, n)) = &g.black { (n) } @else { "—" } } }
            }
        }
    }
}

fn closed_text(ctx: &Ctx, why: Closed) -> &'static str {
    match why {
        Closed::Bye => ctx.t(
            "Dit is een vrije ronde; er is geen uitslag te melden.",
            "This is a bye; there is no result to report.",
        ),
        Closed::HasResult => ctx.t(
            "De uitslag is binnen; de arbiter corrigeert hem zo nodig.",
            "The result is in; the arbiter corrects it if need be.",
        ),
        Closed::Completed => ctx.t(
            "De ronde is afgesloten; de arbiter corrigeert de uitslagen.",
            "The round is completed; the arbiter corrects its results.",
        ),
    }
}

/// The page's body for the visitor: the buttons for a player, a word for anyone else.
fn body(ctx: &Ctx, g: &ReportPage, s: Option<&Session>, note: Option<Markup>) -> Markup {
    let here = path(g.game_id);
    html! {
        (players(ctx, g))
        @if let Some(r) = &g.result { p class="result" { (ctx.t("Uitslag", "Result")) ": " strong { (ctx.lang.result(*r)) } } }
        @if let Some(n) = note { (n) }
        @if let Some(why) = g.closed {
            p { (closed_text(ctx, why)) }
        } @else if let Some(s) = s.filter(|_| g.yours) {
            @if let Some(m) = &g.mine { p { (ctx.t("Jouw melding", "Your report")) ": " strong { (ctx.lang.result(*m)) } } }
            form method="post" action=(ctx.href(&here)) class="report" {
                input type="hidden" name="csrf" value=(s.csrf);
                p { (ctx.t("Meld de uitslag (wit eerst):", "Report the result (White first):")) }
                p class="codes" {
                    @for code in g.codes {
                        button type="submit" name="result" value=(code) { (code) } " "
                    }
                }
            }
            p class="muted" { (ctx.t("Als jullie beiden hetzelfde melden, staat de uitslag vast; anders beslist de arbiter.", "When you both report the same, the result is entered; otherwise the arbiter decides.")) }
        } @else if s.is_some() {
            p { (ctx.t("Alleen de twee spelers van deze partij melden de uitslag.", "Only the two players of this game report its result.")) }
        } @else {
            p { (ctx.t("Speel je deze partij? Log in om de uitslag te melden.", "Playing this game? Sign in to report its result.")) " " (session::sign_in_link(ctx, &here)) }
        }
        @if let Some(s) = s {
            p class="muted" { (ctx.t("Ingelogd als", "Signed in as")) " " (s.principal.label) }
            (session::sign_out_form(ctx, s))
        }
        @if let Some(e) = g.evening_id {
            p { a href=(ctx.href(&format!("/club/evenings/{e}"))) { (ctx.t("Naar de avond", "To the evening")) } }
        }
    }
}

/// The report page of a game.
pub async fn page(
    req: HttpRequest,
    state: web::Data<AppState>,
    raw: web::Path<String>,
) -> HttpResponse {
    let r = async {
        let q = super::page_query(&req, false)?;
        let lang = q.lang;
        let id = super::path_id(&raw).map_err(|e| (lang, e))?;
        let s = session::current(&req, &state)
            .await
            .map_err(|e| (lang, e))?;
        let viewer = s.as_ref().and_then(|s| s.principal.player_id);
        let g = super::read(&state, move |c| {
            game_reports::page_of(c, GameId(id), viewer)
        })
        .await
        .map_err(|e| (lang, e))?;
        let ctx = Ctx::new(super::PageQuery { embed: false, ..q }, path(id));
        let t = title(&ctx, &g);
        Ok(session::form_page(
            &req,
            StatusCode::OK,
            &ctx,
            &t,
            body(&ctx, &g, s.as_ref(), None),
        ))
    }
    .await;
    super::answer(&req, &state, r)
}

/// What the report form sends.
#[derive(Debug, serde::Deserialize)]
struct Sent {
    csrf: String,
    result: String,
}

/// A report sent from the page: the same service as the API's, with its answer in words.
pub async fn submit(
    req: HttpRequest,
    state: web::Data<AppState>,
    raw: web::Path<String>,
    form: web::Bytes,
) -> HttpResponse {
    let r = async {
        let lang = session::lang_of(&req);
        let id = super::path_id(&raw).map_err(|e| (lang, e))?;
        let sent = serde_urlencoded::from_bytes::<Sent>(&form).map_err(|_| {
            (
                lang,
                ApiError::invalid("result", "the form sends `csrf` and `result`"),
            )
        })?;
        let s = session::current(&req, &state)
            .await
            .map_err(|e| (lang, e))?;
        let Some(s) = s.filter(|_| session::csrf_ok(&req, &state, &sent.csrf)) else {
            return Err((
                lang,
                ApiError::Unauthorized("sign in on this site first; the form has expired".into()),
            ));
        };
        if sent.result.chars().count() > MAX_RESULT {
            return Err((
                lang,
                ApiError::invalid("result", format!("must be at most {MAX_RESULT} characters")),
            ));
        }
        let account = s.principal.label.clone();
        state.night.take_report(&account).map_err(|e| (lang, e))?;
        let player = s.principal.player_id;
        let viewer = player;
        let mail = state.config.mail.clone();
        let key = state.unsubscribe.clone();
        let (done, g) = state
            .tx(move |c| {
                let who = Reporter {
                    player,
                    account: &account,
                    result: &sent.result,
                    notifier: (&mail, &key),
                };
                game_reports::report_and_page(c, GameId(id), &who, viewer)
            })
            .await
            .map_err(|e| (lang, e))?;
        let ctx = Ctx::new(
            super::PageQuery {
                site: state.club_site.clone(),
                lang,
                lang_chosen: false,
                embed: false,
                after: None,
            },
            path(id),
        );
        let note = html! { p class="done" role="status" { (outcome(lang, done.outcome)) } };
        let t = title(&ctx, &g);
        Ok(session::form_page(
            &req,
            StatusCode::OK,
            &ctx,
            &t,
            body(&ctx, &g, Some(&s), Some(note)),
        ))
    }
    .await;
    super::answer(&req, &state, r)
}

/// What a report did, in words.
fn outcome(lang: Lang, outcome: ReportOutcome) -> &'static str {
    match outcome {
        ReportOutcome::Entered => lang.t(
            "Jullie meldingen kloppen: de uitslag staat vast.",
            "Your reports agree: the result is entered.",
        ),
        ReportOutcome::Disputed => lang.t(
            "Jullie meldingen verschillen; de arbiter beslist.",
            "Your reports differ; the arbiter decides.",
        ),
        ReportOutcome::Waiting => lang.t(
            "Gemeld. Zodra je tegenstander hetzelfde meldt, staat de uitslag vast.",
            "Reported. Once your opponent reports the same, the result is entered.",
        ),
    }
}

/// A QR code of game `game_id`'s report page (absolute, from `base`, the service's public
/// address), linked to the page, `size` CSS pixels square.
pub fn qr_link(ctx: &Ctx, base: &str, game_id: i64, size: u32) -> Markup {
    let here = path(game_id);
    let url = format!("{base}{here}");
    let label = ctx.t("Uitslag melden", "Report the result");
    html! {
        a href=(ctx.href(&here)) class="report-qr" title=(label) { (super::qr::svg(&url, size, label)) }
    }
}
