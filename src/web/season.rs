//! A season's calendar and its archive page (every competition with its leaders).

use super::id_page;
use super::layout::{Ctx, frame, scroll};
use crate::services::calendar::Evening;
use crate::services::club_pages::{self as pages, Archive, Calendar};
use crate::state::AppState;
use actix_web::{HttpRequest, HttpResponse, web};
use maud::{Markup, html};

/// The evenings as a table: date, start, kind, number, note.
pub(super) fn evening_table(ctx: &Ctx, caption: &str, evenings: &[Evening]) -> Markup {
    scroll(
        caption,
        html! {
            table class="calendar" {
                caption { (caption) }
                thead {
                    tr {
                        th scope="col" { (ctx.t("Datum", "Date")) }
                        th scope="col" { (ctx.t("Aanvang", "Start")) }
                        th scope="col" { (ctx.t("Avond", "Evening")) }
                        th scope="col" { (ctx.t("Opmerking", "Note")) }
                    }
                }
                tbody {
                    @for e in evenings {
                        tr class=(format!("kind-{}", e.kind)) {
                            th scope="row" {
                                @if e.kind == clubcomp_engine::EveningKind::Closed {
                                    (ctx.lang.date(e.date))
                                } @else {
                                    a href=(ctx.href(&format!("/club/evenings/{}", e.id))) { (ctx.lang.date(e.date)) }
                                }
                            }
                            td { @if e.kind != clubcomp_engine::EveningKind::Closed { (e.start_time) } }
                            td {
                                (ctx.lang.evening_kind(e.kind))
                                @if let Some(n) = e.number { " " (n) }
                                @if let Some(h) = e.half { " (" (ctx.lang.half(h)) ")" }
                            }
                            td { @if let Some(n) = &e.note { (n) } }
                        }
                    }
                }
            }
        },
    )
}

pub(super) async fn calendar(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> HttpResponse {
    let url = |id| format!("/club/seasons/{id}/calendar");
    id_page(
        &req,
        &state,
        &path,
        url,
        |c, id| pages::calendar(c, crate::ids::SeasonId(id)),
        render_calendar,
    )
    .await
}

fn render_calendar(ctx: &Ctx, c: &Calendar) -> Markup {
    let title = format!("{} {}", ctx.t("Kalender", "Calendar"), c.season.name);
    let caption = format!(
        "{} {} ({} {})",
        ctx.t("Speelavonden van seizoen", "Evenings of season"),
        c.season.name,
        c.evenings.len(),
        ctx.t("avonden", "evenings")
    );
    frame(
        ctx,
        &title,
        html! {
            p {
                (ctx.t("Opening van het seizoen:", "Season opening:")) " " (ctx.lang.date(c.season.opening_date)) ". "
                (ctx.t("Afmelden kan tot de dag vóór de avond, 18:00.",
                       "Afmelden (sending notice of absence) is possible until 18:00 the day before."))
            }
            (evening_table(ctx, &caption, &c.evenings))
            p { a href=(format!("/api/v1/seasons/{}/calendar.ics", c.season.id)) { (ctx.t("Kalender als iCalendar-bestand", "Calendar as an iCalendar file")) } }
        },
    )
}

pub(super) async fn archive(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> HttpResponse {
    let url = |id| format!("/club/seasons/{id}");
    id_page(
        &req,
        &state,
        &path,
        url,
        |c, id| pages::archive(c, crate::ids::SeasonId(id)),
        render_archive,
    )
    .await
}

fn render_archive(ctx: &Ctx, a: &Archive) -> Markup {
    let title = format!("{} {}", ctx.t("Seizoen", "Season"), a.season.name);
    let caption = ctx.t(
        "De competities van het seizoen en hun koplopers",
        "The season's competitions and their leaders",
    );
    frame(
        ctx,
        &title,
        html! {
            (scroll(caption, html! {
                table class="archive" {
                    caption { (caption) }
                    thead {
                        tr {
                            th scope="col" { (ctx.t("Competitie", "Competition")) }
                            th scope="col" { (ctx.t("Rondes", "Rounds")) }
                            th scope="col" { "1" }
                            th scope="col" { "2" }
                            th scope="col" { "3" }
                        }
                    }
                    tbody {
                        @for l in &a.lines {
                            tr {
                                th scope="row" {
                                    a href=(ctx.href(&format!("/club/competitions/{}", l.competition.id))) { (l.competition.name) }
                                    @if let Some((id, name)) = &l.title_below {
                                        br;
                                        span class="champion" { (ctx.t("Kampioen: ", "Champion: ")) (ctx.player(id, name)) }
                                    }
                                }
                                td class="num" { (l.rounds_counted) }
                                @if let Some((id, name)) = &l.champion {
                                    td colspan="3" {
                                        (ctx.t("Clubkampioen: ", "Club champion: "))
                                        (ctx.player(id, name))
                                    }
                                } @else {
                                    @for i in 0..3 {
                                        td {
                                            @if let Some((id, name)) = l.podium.get(i) {
                                                (ctx.player(id, name))
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }))
            p { a href=(ctx.href(&format!("/club/seasons/{}/calendar", a.season.id))) { (ctx.t("Kalender", "Calendar")) } }
        },
    )
}
