//! The leader's view of attendance: one bar per member of a Keizer competition (played, bye,
//! afgemeld, absent without notice) over the evenings counted so far. Only for a leader or
//! admin (a bearer token); it is never part of the anonymous pages, nor cached for others.

use super::layout::{Ctx, frame, scroll};
use super::svg::stacked_bar;
use super::{answer, page_query, read, secure};
use crate::auth::{MaybeAuth, Role};
use crate::error::ApiError;
use crate::services::club_pages::{self as pages, AttendanceLine};
use crate::state::AppState;
use actix_web::http::header;
use actix_web::{FromRequest, HttpRequest, HttpResponse, web};
use maud::{Markup, html};

/// The attendance page of the competition whose id segment was read as `id`.
pub(super) async fn page(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: crate::error::ApiResult<i64>,
) -> HttpResponse {
    let r = async {
        let q = page_query(&req, false)?;
        let id = id.map_err(|e| (q.lang, e))?;
        let who = MaybeAuth::extract(&req).await.map_err(|e| (q.lang, e))?;
        match who.0 {
            None => {
                return Err((
                    q.lang,
                    ApiError::Unauthorized(
                        "the attendance view is for the competition leader".into(),
                    ),
                ));
            }
            Some(p) if !p.has_any(&[Role::Leader, Role::Admin]) => {
                return Err((
                    q.lang,
                    ApiError::Forbidden("the attendance view is for the competition leader".into()),
                ));
            }
            Some(_) => {}
        }
        let (comp, (evenings, lines)) = read(&state, move |c| {
            pages::attendance_page(c, crate::ids::CompetitionId(id))
        })
        .await
        .map_err(|e| (q.lang, e))?;
        let ctx = Ctx::new(q, format!("/club/competitions/{id}/attendance"));
        let body = super::layout::finish(render(&ctx, &comp.name, evenings, &lines));
        let mut res = HttpResponse::Ok()
            .insert_header((header::CACHE_CONTROL, "private, no-store"))
            .content_type("text/html; charset=utf-8")
            .body(body);
        secure(&mut res, &state);
        res.headers_mut().insert(
            header::VARY,
            header::HeaderValue::from_static("Accept-Language, Authorization"),
        );
        Ok(res)
    }
    .await;
    answer(&req, &state, r)
}

fn render(ctx: &Ctx, name: &str, evenings: u32, lines: &[AttendanceLine]) -> Markup {
    let title = format!("{name} — {}", ctx.t("aanwezigheid", "attendance"));
    let cap = format!(
        "{} ({} {})",
        ctx.t("Aanwezigheid per lid", "Attendance per member"),
        evenings,
        ctx.t("avonden", "evenings")
    );
    frame(
        ctx,
        &title,
        html! {
            p class="legend" {
                span class="key played" {} " " (ctx.t("gespeeld", "played")) " "
                span class="key bye" {} " " (ctx.t("vrij", "bye")) " "
                span class="key excused" {} " " (ctx.t("afgemeld", "afgemeld (with notice)")) " "
                span class="key unexcused" {} " " (ctx.t("zonder afmelding", "without notice"))
            }
            (scroll(&cap, html! {
                table class="attendance" {
                    caption { (cap) }
                    thead { tr {
                        th scope="col" { (ctx.t("Naam", "Name")) }
                        th scope="col" { (ctx.t("Gesp.", "Pld")) }
                        th scope="col" { (ctx.t("Vrij", "Bye")) }
                        th scope="col" { (ctx.t("Afgem.", "Afgem.")) }
                        th scope="col" { (ctx.t("Z.afm.", "No notice")) }
                        th scope="col" { (ctx.t("Verloop", "Bar")) }
                    } }
                    tbody {
                        @for l in lines {
                            tr {
                                th scope="row" { (l.name) }
                                td class="num" { (l.played) }
                                td class="num" { (l.byes) }
                                td class="num" { (l.excused) }
                                td class="num" { (l.unexcused) }
                                td {
                                    (stacked_bar(
                                        &format!("{}: {} {}, {} {}, {} {}, {} {}", l.name,
                                            l.played, ctx.t("gespeeld", "played"), l.byes, ctx.t("vrij", "bye"),
                                            l.excused, ctx.t("afgemeld", "afgemeld"), l.unexcused, ctx.t("zonder afmelding", "without notice")),
                                        &[
                                            ("played", l.played, format!("{} {}", l.played, ctx.t("gespeeld", "played"))),
                                            ("bye", l.byes, format!("{} {}", l.byes, ctx.t("vrij", "bye"))),
                                            ("excused", l.excused, format!("{} {}", l.excused, ctx.t("afgemeld", "afgemeld"))),
                                            ("unexcused", l.unexcused, format!("{} {}", l.unexcused, ctx.t("zonder afmelding", "without notice"))),
                                        ],
                                        evenings,
                                    ))
                                }
                            }
                        }
                    }
                }
            }))
        },
    )
}
