//! A player's card: per competition the games and results, the place, and for Keizer the
//! place and score after every evening; charts of the Keizer place, the Keizer score and the
//! rating history, each followed by a table of the same numbers. No contact data.

use super::layout::{Ctx, frame, scroll};
use super::svg::line_chart;
use super::{answer, page_query, path_id};
use crate::services::club_pages as pages;
use crate::services::player_card::{self, PlayerCard};
use crate::state::AppState;
use actix_web::{HttpRequest, HttpResponse, web};
use clubcomp_core::vocab::ResultCode;
use maud::{Markup, html};

/// The cache document names: language × embedded × language chosen in the query.
const DOCS: [&str; 8] = [
    "page-player-nl",
    "page-player-nl-embed",
    "page-player-en",
    "page-player-en-embed",
    "page-player-nl-lang",
    "page-player-nl-embed-lang",
    "page-player-en-lang",
    "page-player-en-embed-lang",
];

/// A player's page from the read cache under the version of the player's card over every
/// season (that of `GET /api/v1/players/{id}/card` without a season), rendered on a miss; a
/// reader holding the current version is answered 304 before anything is rendered.
pub(super) async fn page(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> HttpResponse {
    let r = async {
        let q = page_query(&req, false)?;
        let lang = q.lang;
        let id = path_id(&path).map_err(|e| (lang, e))?;
        let variant = usize::from(q.lang_chosen) * 4
            + usize::from(matches!(q.lang, super::Lang::En)) * 2
            + usize::from(q.embed);
        let doc = DOCS[variant];
        let kind = crate::cached::CachedType {
            content_type: "text/html; charset=utf-8",
            vary: super::PAGE_VARY,
            headers: &state.page_headers,
        };
        let player = crate::ids::PlayerId(id);
        crate::cached::serve_versioned_as(
            &state,
            &req,
            doc,
            kind,
            move |c| {
                let v = player_card::version(c, player, None)?;
                let tag = player_card::etag(player, v);
                Ok((id, v, format!("{}-{doc}\"", tag.trim_end_matches('"')), ()))
            },
            move |c, (), _| {
                let data = pages::player(c, player)?;
                let ctx = Ctx::new(q, format!("/club/players/{id}"));
                Ok(super::layout::finish(render(&ctx, &data)).into_bytes())
            },
        )
        .await
        .map_err(|e| (lang, e))
    }
    .await;
    answer(&req, &state, r)
}

/// The result from the player's side: `1`, `½`, `0` (chess) or `2`, `1`, `0` (draughts), a
/// forfeit `+`/`−`, a bye.
fn own_result(ctx: &Ctx, code: ResultCode, white: bool) -> String {
    use ResultCode as C;
    let (w, b) = match code {
        C::Bye => return ctx.lang.result(C::Bye),
        C::Draw | C::DrawHalves => ("½", "½"),
        C::WhiteForfeitWin => ("+", "−"),
        C::BlackForfeitWin => ("−", "+"),
        C::DoubleForfeit => ("−", "−"),
        C::WhitePlusremise => ("1+", "1−"),
        C::BlackPlusremise => ("1−", "1+"),
        // the scores of both sides, white's first (`1-0`, `2-0`, `1-1`, `0-0`, …)
        C::WhiteWins
        | C::BlackWins
        | C::DraughtsWhiteWins
        | C::DraughtsBlackWins
        | C::DraughtsDraw
        | C::BothLost => code.as_str().split_once('-').unwrap_or((code.as_str(), "")),
    };
    (if white { w } else { b }).to_string()
}

fn render(ctx: &Ctx, p: &PlayerCard) -> Markup {
    frame(
        ctx,
        &p.name,
        html! {
            @if p.competitions.is_empty() {
                p { (ctx.t("Nog geen competities gespeeld.", "No competitions played yet.")) }
            }
            @for cc in &p.competitions {
                section class="card" {
                    h2 {
                        a href=(ctx.href(&format!("/club/competitions/{}", cc.competition_id))) { (cc.competition_name) }
                    }
                    @if let Some(pl) = &cc.place {
                        p { (ctx.t("Plaats in de stand: ", "Place in the standings: ")) strong { (pl) } }
                    }
                    @if !cc.history.is_empty() {
                        @let id = format!("k{}", cc.competition_id);
                        @let places: Vec<(String, f64)> = cc.history.iter().map(|k| (k.number.to_string(), f64::from(k.rank))).collect();
                        @let scores: Vec<(String, f64)> = cc.history.iter().map(|k| (k.number.to_string(), k.score.parse::<f64>().unwrap_or(0.0))).collect();
                        div class="charts" {
                            figure {
                                (line_chart(&format!("{id}-place"), &format!("{} — {}", ctx.t("Keizerplaats per avond (1 bovenaan)", "Keizer place per evening (1 at the top)"), p.name), &places, true))
                                figcaption { (ctx.t("Plaats na elke avond", "Place after each evening")) }
                            }
                            figure {
                                (line_chart(&format!("{id}-score"), &format!("{} — {}", ctx.t("Keizerscore per avond", "Keizer score per evening"), p.name), &scores, false))
                                figcaption { (ctx.t("Keizerscore na elke avond", "Keizer score after each evening")) }
                            }
                        }
                        @let cap = ctx.t("Keizerplaats en -score per avond", "Keizer place and score per evening");
                        (scroll(cap, html! {
                            table class="compact" {
                                caption { (cap) }
                                thead { tr {
                                    th scope="col" { (ctx.t("Avond", "Evening")) }
                                    th scope="col" { (ctx.t("Plaats", "Place")) }
                                    th scope="col" { (ctx.t("Waarde", "Value")) }
                                    th scope="col" { (ctx.t("Keizerscore", "Keizer score")) }
                                } }
                                tbody {
                                    @for k in &cc.history {
                                        tr {
                                            th scope="row" class="num" { (k.number) }
                                            td class="num" { (k.rank) }
                                            td class="num" { (k.value) }
                                            td class="num" { (super::numbers::show(ctx.lang, &k.score)) }
                                        }
                                    }
                                }
                            }
                        }))
                    }
                    @if cc.games.is_empty() {
                        p { (ctx.t("Nog geen gepubliceerde partijen.", "No published games yet.")) }
                    } @else {
                        @let cap = format!("{} — {}", ctx.t("Partijen", "Games"), cc.competition_name);
                        (scroll(&cap, html! {
                            table class="games" {
                                caption { (cap) }
                                thead { tr {
                                    th scope="col" { (ctx.t("Ronde", "Round")) }
                                    th scope="col" { (ctx.t("Datum", "Date")) }
                                    th scope="col" { (ctx.t("Bord", "Board")) }
                                    th scope="col" { (ctx.t("Kleur", "Colour")) }
                                    th scope="col" { (ctx.t("Tegenstander", "Opponent")) }
                                    th scope="col" { (ctx.t("Uitslag", "Result")) }
                                } }
                                tbody {
                                    @for g in &cc.games {
                                        tr {
                                            th scope="row" class="num" { (g.round) }
                                            td {
                                                @match (g.evening_id, g.date) {
                                                    (Some(e), Some(d)) => a href=(ctx.href(&format!("/club/evenings/{e}"))) { (ctx.lang.short_date(d)) },
                                                    (None, Some(d)) => (ctx.lang.short_date(d)),
                                                    _ => "",
                                                }
                                            }
                                            td class="num" { (g.board) }
                                            td { @if g.opponent_id.is_none() { "—" } @else if g.white { (ctx.t("wit", "white")) } @else { (ctx.t("zwart", "black")) } }
                                            td {
                                                @match (g.opponent_id, &g.opponent_name) {
                                                    (Some(id), Some(name)) => (ctx.player(id, name)),
                                                    _ => (ctx.lang.result(ResultCode::Bye)),
                                                }
                                            }
                                            td class="num" {
                                                @match &g.result {
                                                    Some(r) => (own_result(ctx, *r, g.white)),
                                                    None => span class="pending" { "…" },
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }))
                    }
                }
            }
            @if !p.rating_history.is_empty() {
                section class="card" {
                    h2 { (ctx.t("Ratingverloop", "Rating history")) }
                    @let pts: Vec<(String, f64)> = p.rating_history.iter().map(|r| (r.list_date.format("%Y-%m").to_string(), f64::from(r.value))).collect();
                    @if let [only] = p.rating_history.as_slice() {
                        p class="rating" { (ctx.t("Rating: ", "Rating: ")) strong { (only.value) } }
                    } @else {
                        figure {
                            (line_chart("rating", &format!("{} — {}", ctx.t("Rating per ratinglijst", "Rating per rating list"), p.name), &pts, false))
                            figcaption { (ctx.t("Rating per lijst", "Rating per list")) }
                        }
                    }
                    @let cap = ctx.t("Ratings per lijst", "Ratings per list");
                    (scroll(cap, html! {
                        table class="compact" {
                            caption { (cap) }
                            thead { tr {
                                th scope="col" { (ctx.t("Lijst", "List")) }
                                th scope="col" { (ctx.t("Bron", "Source")) }
                                th scope="col" { (ctx.t("Rating", "Rating")) }
                            } }
                            tbody {
                                @for r in &p.rating_history {
                                    tr {
                                        th scope="row" { (ctx.lang.date(r.list_date)) }
                                        td { (r.source) }
                                        td class="num" { (r.value) }
                                    }
                                }
                            }
                        }
                    }))
                }
            }
        },
    )
}
