//! The venue screen, `/club/screen` (optionally `?evening={id}`;
//! docs/decisions/0348-the-venue-screen.md): tonight's pairings and results in large type for
//! a television (1920×1080), the check-in QR code while the evening's self check-in is open,
//! and the clock in club time. The page follows its evening's event stream with the live
//! script (`live`, docs/decisions/0343-live-pages.md), so a result shows at once, and the
//! script also fetches the page at :00, :20 and :40 of each minute of the clock
//! (`data-live-every`), so that the clock and the check-in code are never a minute behind;
//! when the boards do not fit on one screen each fetch shows the next screenful, chosen by the
//! clock on the server, so every screen in the room shows the same boards. Without script the
//! page reloads itself at those moments (a refresh inside `<noscript>`).

use super::layout::Ctx;
use crate::error::ApiError;
use crate::ids::EveningId;
use crate::services::evenings::{Board, EveningRound};
use crate::services::venue_screen::{self, Screen};
use crate::state::AppState;
use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, web};
use chrono::Timelike;
use maud::{DOCTYPE, Markup, html};

/// The page's path.
pub const PATH: &str = "/club/screen";
/// Seconds between reloads (a divisor of 60).
pub const PERIOD: u32 = 20;
/// Board rows on one screenful (the headings of the rounds count as a row).
pub const ROWS: usize = 12;
/// Boards on one screenful while the check-in panel takes the right-hand side.
pub const ROWS_WITH_CHECK_IN: usize = 11;

/// One row of the screen: a round's heading or one of its boards.
enum Row<'a> {
    Heading(&'a EveningRound),
    Board(&'a Board),
}

/// The rows of the evening's published rounds, cut into screenfuls of `per` rows; a
/// screenful that starts in the middle of a round repeats its heading.
fn screens<'a>(rounds: &'a [EveningRound], per: usize) -> Vec<Vec<Row<'a>>> {
    let mut out: Vec<Vec<Row<'a>>> = Vec::new();
    let mut cur: Vec<Row<'a>> = Vec::new();
    for r in rounds.iter().filter(|r| !r.boards.is_empty()) {
        if cur.len() + 2 > per && !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
        cur.push(Row::Heading(r));
        for b in &r.boards {
            if cur.len() >= per {
                out.push(std::mem::take(&mut cur));
                cur.push(Row::Heading(r));
            }
            cur.push(Row::Board(b));
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// The `evening` of the query: a positive id, given once; other parameters are the pages'
/// (`page_query`) or ignored.
fn evening_of(req: &HttpRequest) -> Result<Option<EveningId>, ApiError> {
    // the query parameter's name (not a value of a list)
    const EVENING: &str = "evening";
    let pairs = web::Query::<Vec<(String, String)>>::from_query(req.query_string())
        .map(|q| q.into_inner())
        .unwrap_or_default();
    let mut found = None;
    for (_, v) in pairs.iter().filter(|(k, _)| k == EVENING) {
        if found.is_some() {
            return Err(ApiError::invalid("evening", "given more than once"));
        }
        let id = super::path_id(v).map_err(|_| {
            ApiError::invalid("evening", "must be an evening id (a positive whole number)")
        })?;
        found = Some(EveningId(id));
    }
    Ok(found)
}

/// The venue screen.
pub async fn page(req: HttpRequest, state: web::Data<AppState>) -> HttpResponse {
    let r = async {
        let q = super::page_query(&req, false)?;
        let lang = q.lang;
        let asked = evening_of(&req).map_err(|e| (lang, e))?;
        let now = chrono::Utc::now();
        let today = state.today();
        let st = state.clone();
        let screen = super::read(&state, move |c| {
            venue_screen::screen(c, asked, today, &st.night.code_key, now)
        })
        .await
        .map_err(|e| (lang, e))?;
        let path = match asked {
            Some(id) => format!("{PATH}?evening={}", id.get()),
            None => PATH.to_string(),
        };
        let stream = match &screen.evening {
            Some(e) => super::live::evening_stream(e.id),
            None => super::live::front_stream(),
        };
        let ctx = Ctx::new(super::PageQuery { embed: false, ..q }, path).following(stream);
        let local = now.with_timezone(&state.config.club_timezone);
        let body = super::layout::finish(render(&ctx, &state, &screen, local));
        let mut res = HttpResponse::Ok()
            .insert_header((header::CONTENT_TYPE, "text/html; charset=utf-8"))
            .insert_header((header::CACHE_CONTROL, "no-store"))
            .body(body);
        super::secure(&mut res, &state);
        Ok(res)
    }
    .await;
    super::answer(&req, &state, r)
}

fn render<Tz: chrono::TimeZone>(
    ctx: &Ctx,
    state: &AppState,
    s: &Screen,
    now: chrono::DateTime<Tz>,
) -> Markup {
    let second = now.second();
    let reload = PERIOD - second % PERIOD;
    // the screenful of this moment: one further every period of the clock
    let tick = (now.minute() * 60 + second) / PERIOD;
    let clock = format!("{:02}:{:02}", now.hour(), now.minute());
    let title = ctx.t("Clubavond", "Club night");
    html! {
        (DOCTYPE)
        html lang=(ctx.lang.code()) {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta name="referrer" content="same-origin";
                noscript { meta http-equiv="refresh" content=(reload); }
                title { (title) }
                link rel="stylesheet" href=(super::site::stylesheet_url());
                script src=(super::live::script_url()) defer {}
            }
            body class="screen" data-live-stream=[ctx.live.as_deref()] data-live-every=(PERIOD) {
                main id="main" {
                    header class="screen-head" data-live="head" {
                        h1 { (headline(ctx, s)) }
                        p class="clock" aria-label=(ctx.t("Klok", "Clock")) { (clock) }
                    }
                    div class="screen-live" data-live="boards" {
                        (content(ctx, state, s, tick as usize))
                    }
                }
            }
        }
    }
}

fn headline(ctx: &Ctx, s: &Screen) -> String {
    match &s.evening {
        Some(e) if s.tonight => format!(
            "{} — {}",
            ctx.lang.evening_kind(e.kind),
            ctx.lang.date(e.date)
        ),
        _ => ctx
            .site
            .name
            .clone()
            .unwrap_or_else(|| ctx.t("Clubavond", "Club night").to_string()),
    }
}

fn content(ctx: &Ctx, state: &AppState, s: &Screen, tick: usize) -> Markup {
    let Some(e) = s.evening.as_ref() else {
        return html! { p class="screen-note" { (ctx.t("Er is geen clubavond gepland.", "No club evening is planned.")) } };
    };
    if !s.tonight {
        return html! {
            p class="screen-note" { (ctx.t("Vanavond is er geen clubavond.", "There is no club evening tonight.")) }
            p class="screen-note" {
                (ctx.t("Volgende avond: ", "Next evening: "))
                strong { (ctx.lang.evening_kind(e.kind)) ", " (ctx.lang.date(e.date)) ", " (e.start_time) }
            }
        };
    }
    let per = if s.check_in.is_some() {
        ROWS_WITH_CHECK_IN
    } else {
        ROWS
    };
    let all = screens(&e.rounds, per);
    let shown = if all.is_empty() {
        None
    } else {
        all.get(tick % all.len())
    };
    html! {
        div class=(if s.check_in.is_some() { "screen-body with-check-in" } else { "screen-body" }) {
            div class="screen-boards" {
                @match shown {
                    None => p class="screen-note" { (ctx.t("De indeling volgt.", "The pairings follow.")) " " (ctx.t("Aanvang", "Start")) " " (e.start_time) },
                    Some(rows) => {
                        table class="screen-pairings" {
                            caption class="sr" { (ctx.t("Indeling en uitslagen", "Pairings and results")) }
                            tbody {
                                @for row in rows { (row_markup(ctx, row)) }
                            }
                        }
                        @if all.len() > 1 {
                            p class="screen-page" { (tick % all.len() + 1) " / " (all.len()) }
                        }
                    }
                }
            }
            @if let Some(code) = &s.check_in {
                aside class="screen-check-in" aria-label=(ctx.t("Inchecken", "Check in")) {
                    h2 { (ctx.t("Inchecken", "Check in")) }
                    (super::check_in::panel(ctx, state, code, 360))
                }
            }
        }
    }
}

fn row_markup(ctx: &Ctx, row: &Row<'_>) -> Markup {
    match row {
        Row::Heading(r) => {
            let word = if r.competition_kind == clubcomp_engine::CompetitionKind::Keizer {
                ctx.t("avond", "evening")
            } else {
                ctx.t("ronde", "round")
            };
            html! { tr class="screen-round" { th colspan="4" scope="colgroup" { (r.competition_name) ", " (word) " " (r.number) } } }
        }
        Row::Board(g) => html! {
            tr data-game=(g.game_id) {
                th scope="row" class="num" { (g.board) @if g.game_no > 1 { "." (g.game_no) } }
                td class="white" { @if let Some(w) = &g.white { (w.name) } }
                td class="result" {
                    @match (&g.result, &g.black) {
                        (Some(r), _) => (ctx.lang.result(*r)),
                        (None, None) => (ctx.lang.result(clubcomp_core::vocab::ResultCode::Bye)),
                        (None, Some(_)) => span class="pending" { "–" },
                    }
                }
                td class="black" { @if let Some(b) = &g.black { (b.name) } @else { "—" } }
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round(boards: usize) -> EveningRound {
        EveningRound {
            competition_id: 1,
            competition_name: "Rapid".into(),
            competition_kind: clubcomp_engine::CompetitionKind::Swiss,
            system: None,
            discipline: clubcomp_engine::Discipline::Chess,
            round_id: 1,
            number: 1,
            status: crate::services::rounds::RoundStatus::Published,
            published: true,
            boards: (0..boards)
                .map(|i| Board {
                    game_id: i as i64 + 1,
                    board: i as i32 + 1,
                    game_no: 1,
                    white: None,
                    black: None,
                    result: None,
                    disputed: false,
                    reports: None,
                })
                .collect(),
            byes: vec![],
            absentees: vec![],
        }
    }

    #[test]
    fn boards_that_do_not_fit_go_on_the_next_screenful_under_their_heading_again() {
        let rounds = [round(25)];
        let s = screens(&rounds, 12);
        // 25 boards at 11 a screenful (each screenful opens with the heading): 11 + 11 + 3
        assert_eq!(s.len(), 3);
        assert_eq!(
            s.iter().map(|x| x.len()).collect::<Vec<_>>(),
            vec![12, 12, 4]
        );
        assert!(s.iter().all(|x| matches!(x[0], Row::Heading(_))));
    }

    #[test]
    fn a_round_without_boards_takes_no_row() {
        let rounds = [round(0), round(3)];
        let s = screens(&rounds, 12);
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].len(), 4);
    }
}
