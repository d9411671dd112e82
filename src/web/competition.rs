//! A competition's pages: its overview (rounds, entrants), its standings (Keizer with value
//! and score; Swiss with the tie-break columns; round robin with the colour-coded cross
//! table, plusremises marked, master points, prize money and rights) and its prizes or
//! playoffs. All three are served from the read cache under the competition's version, with
//! the JSON standings' ETag and `If-None-Match` behaviour.

use super::layout::{Ctx, frame, scroll};
use super::{PageQuery, answer, page_query, path_id};
use crate::error::ApiResult;
use crate::ids::PlayerId;
use crate::services::club_pages::{self as pages, Prizes, StandingsPage};
use crate::services::competitions::{Competition, stored_tiebreaks};
use crate::services::standings_view::StandingsView;
use crate::state::AppState;
use actix_web::{HttpRequest, HttpResponse, web};
use clubcomp_core::vocab::{CompetitionTiebreak, PlayoffMatch};
use clubcomp_engine::round_robin::RoundRobinTiebreak;
use clubcomp_engine::{CompetitionKind, Discipline};
use maud::{Markup, html};
use serde_json::Value;

/// The cache document names: page × language × embedded × language chosen in the query
/// (whose links carry the language on).
const DOCS: [[&str; 8]; 4] = [
    [
        "page-competition-nl",
        "page-competition-nl-embed",
        "page-competition-en",
        "page-competition-en-embed",
        "page-competition-nl-lang",
        "page-competition-nl-embed-lang",
        "page-competition-en-lang",
        "page-competition-en-embed-lang",
    ],
    [
        "page-standings-nl",
        "page-standings-nl-embed",
        "page-standings-en",
        "page-standings-en-embed",
        "page-standings-nl-lang",
        "page-standings-nl-embed-lang",
        "page-standings-en-lang",
        "page-standings-en-embed-lang",
    ],
    [
        "page-prizes-nl",
        "page-prizes-nl-embed",
        "page-prizes-en",
        "page-prizes-en-embed",
        "page-prizes-nl-lang",
        "page-prizes-nl-embed-lang",
        "page-prizes-en-lang",
        "page-prizes-en-embed-lang",
    ],
    [
        "page-round-nl",
        "page-round-nl-embed",
        "page-round-en",
        "page-round-en-embed",
        "page-round-nl-lang",
        "page-round-nl-embed-lang",
        "page-round-en-lang",
        "page-round-en-embed-lang",
    ],
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Overview = 0,
    Standings = 1,
    Prizes = 2,
    Round = 3,
}

/// The page a path under `/club/competitions` names: `/{id}`, `/{id}/standings`,
/// `/{id}/prizes`, `/{id}/rounds/{n}` or `/{id}/attendance`, with its id segment (checked by
/// the page, as a route's `{id}` is) and the round number (1–999; 0 for the other pages);
/// `None` for any other path.
fn route(tail: &str) -> Option<(Option<Kind>, &str, u32)> {
    let rest = tail.strip_prefix('/')?;
    let (id, page) = match rest.split_once('/') {
        Some((id, page)) => (id, Some(page)),
        None => (rest, None),
    };
    if id.is_empty() {
        return None;
    }
    let kind = match page {
        None => Some(Kind::Overview),
        Some("standings") => Some(Kind::Standings),
        Some("prizes") => Some(Kind::Prizes),
        Some("attendance") => None,
        Some(p) => {
            let n = p.strip_prefix("rounds/")?;
            let number = n.parse::<u32>().ok().filter(|k| {
                (1..=999).contains(k) && n.len() <= 3 && n.bytes().all(|b| b.is_ascii_digit())
            })?;
            return Some((Some(Kind::Round), id, number));
        }
    };
    Some((kind, id, 0))
}

/// The competition pages (GET or HEAD; anything else is answered as an unknown page is).
pub(super) async fn dispatch(req: HttpRequest, state: web::Data<AppState>) -> HttpResponse {
    use actix_web::http::Method;
    let found = (req.method() == Method::GET || req.method() == Method::HEAD)
        .then(|| route(req.match_info().unprocessed()))
        .flatten()
        .map(|(kind, raw, number)| (kind, path_id(raw), number));
    match found {
        Some((Some(kind), id, number)) => cached(req, state, id, kind, number).await,
        // boxed: the rarer answers do not make every competition page's future larger
        Some((None, id, _)) => Box::pin(super::attendance::page(req, state, id)).await,
        None => Box::pin(super::not_found(req, state)).await,
    }
}

/// A competition page from the read cache under the competition's version (rendered on a
/// miss), with the headers every cached page carries.
async fn cached(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: ApiResult<i64>,
    kind: Kind,
    number: u32,
) -> HttpResponse {
    let r = async {
        let q: PageQuery = page_query(&req, kind == Kind::Standings)?;
        let lang = q.lang;
        let id = id.map_err(|e| (lang, e))?;
        let variant = usize::from(q.lang_chosen) * 4
            + usize::from(matches!(q.lang, super::Lang::En)) * 2
            + usize::from(q.embed);
        let key = crate::cache::Key {
            competition: id,
            doc: DOCS[kind as usize][variant],
            arg: match kind {
                Kind::Round => Some(i64::from(number)),
                _ => q.after.map(i64::from),
            },
            audience: crate::reader::current(),
        };
        let base = state.config.mail.public_url.clone();
        let page = crate::cached::CachedType {
            content_type: "text/html; charset=utf-8",
            vary: super::PAGE_VARY,
            headers: &state.page_headers,
        };
        // the context is made only when the page is rendered (a cache miss)
        crate::cached::serve_cached_as(&state, &req, key, page, move |c, comp, _| {
            let markup = match kind {
                Kind::Overview => {
                    let ctx = Ctx::new(q, format!("/club/competitions/{id}"));
                    super::overview::render(&ctx, &pages::competition_page(c, comp)?)
                }
                Kind::Standings => {
                    let ctx = Ctx::new(q, format!("/club/competitions/{id}/standings"))
                        .following(super::live::standings_stream(id));
                    render_standings(&ctx, &pages::standings(c, comp, ctx.after)?)
                }
                Kind::Prizes => {
                    let ctx = Ctx::new(q, format!("/club/competitions/{id}/prizes"));
                    render_prizes(&ctx, comp, &pages::prizes(c, comp)?)
                }
                Kind::Round => {
                    let ctx = Ctx::new(q, format!("/club/competitions/{id}/rounds/{number}"));
                    let page = pages::round_page(c, comp, number as i32)?;
                    super::round::render(&ctx, &base, &page)
                }
            };
            Ok((super::layout::finish(markup).into_bytes(), None))
        })
        .await
        .map_err(|e| (lang, e))
    }
    .await;
    answer(&req, &state, r)
}

/// A JSON number or string as shown (decimals with a comma in Dutch).
fn num(ctx: &Ctx, v: &Value) -> String {
    let s = match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    };
    decimal(ctx, &s)
}

/// A decimal text as shown (docs/decisions/0360-numbers-on-the-pages.md); an empty one as 0.
fn decimal(ctx: &Ctx, s: &str) -> String {
    match s {
        "" | "-" => "0".to_string(),
        s => super::numbers::show(ctx.lang, s),
    }
}

fn render_standings(ctx: &Ctx, p: &StandingsPage) -> Markup {
    let comp = &p.competition;
    let v: &StandingsView = &p.standings;
    let after = if v.after == 0 {
        ctx.t("vóór de eerste ronde", "before the first round")
            .to_string()
    } else if comp.kind == CompetitionKind::Keizer {
        format!("{} {}", ctx.t("na avond", "after evening"), v.after)
    } else {
        format!("{} {}", ctx.t("na ronde", "after round"), v.after)
    };
    let title = format!("{} — {}", comp.name, ctx.t("stand", "standings"));
    frame(
        ctx,
        &title,
        html! {
            (super::overview::subtitle(ctx, comp))
            (super::overview::tabs(ctx, comp))
            div data-live="standings" {
                @if v.rounds_counted > 1 {
                    nav class="rounds" aria-label=(ctx.t("Stand na ronde", "Standings after round")) {
                        (ctx.t("Stand na ronde:", "Standings after round:")) " "
                        @for n in 1..=v.rounds_counted {
                            @if n == v.after { strong aria-current="page" { (n) } }
                            @else { a href=(ctx.href_with(&ctx.path, &format!("after={n}"))) { (n) } }
                            " "
                        }
                    }
                }
                @if let Some(k) = &v.keizer { (keizer_table(ctx, &after, k)) }
                @if let Some(s) = &v.swiss { (swiss_header(ctx, s)) (super::swiss::table(ctx, &after, s)) }
                @if let Some(t) = &v.round_robin { (round_robin_tables(ctx, &after, p, t)) }
            }
        },
    )
}

fn keizer_table(
    ctx: &Ctx,
    after: &str,
    k: &crate::services::standings_view::KeizerStandings,
) -> Markup {
    let caption = format!(
        "{} {after} ({} {})",
        ctx.t("Keizerstand", "Keizer standings"),
        k.rows.len(),
        ctx.t("deelnemers", "entrants")
    );
    html! {
        (scroll(&caption, html! {
            table class="standings keizer" {
                caption { (caption) }
                thead { tr {
                    th scope="col" { abbr title=(ctx.t("Plaats", "Place")) { (ctx.t("Pl.", "Pl.")) } }
                    th scope="col" { (ctx.t("Naam", "Name")) }
                    th scope="col" { (ctx.t("Waarde", "Value")) }
                    th scope="col" { (ctx.t("Keizerscore", "Keizer score")) }
                    th scope="col" { abbr title=(ctx.t("Gespeeld", "Played")) { (ctx.t("Gesp.", "Pld")) } }
                    th scope="col" { abbr title=(ctx.t("Bordpunten", "Game points")) { (ctx.t("Pnt", "Pts")) } }
                    th scope="col" { (ctx.t("Vrij", "Bye")) }
                    th scope="col" { abbr title=(ctx.t("Afgemeld", "Afgemeld (absent with notice)")) { (ctx.t("Afgem.", "Afgem.")) } }
                    th scope="col" { abbr title=(ctx.t("Zonder afmelding afwezig", "Absent without notice")) { (ctx.t("Z.afm.", "No notice")) } }
                    th scope="col" { abbr title=(ctx.t("Komt in aanmerking voor een prijs", "Eligible for a prize")) { (ctx.t("Prijs", "Prize")) } }
                } }
                tbody {
                    @for r in &k.rows {
                        tr {
                            td { (r.rank) }
                            th scope="row" { (ctx.player(r.player_id, &r.name)) }
                            td { (r.value) }
                            td { (super::numbers::show_f64(ctx.lang, r.score)) }
                            td { (r.played) }
                            td { (super::numbers::show_f64(ctx.lang, r.game_points)) }
                            td { (r.byes) }
                            td { (r.excused) }
                            td { (r.unexcused) }
                            td { @if r.eligible { (ctx.t("ja", "yes")) } @else { (ctx.t("nee", "no")) } }
                        }
                    }
                }
            }
        }))
    }
}

/// The notes above a Swiss's table: a play-off for first, its winner, a champion below a
/// guest.
fn swiss_header(ctx: &Ctx, s: &crate::services::standings_view::SwissStandings) -> Markup {
    html! {
        @if s.playoff_for_first {
            p class="note" { (ctx.t("De eerste plaats is gedeeld: een barrage beslist.", "First place is shared: a play-off decides.")) }
        }
        @if let Some(first) = s.playoff.as_ref().and_then(|p| p.candidates.iter().find(|c| Some(c.player_id) == p.first)) {
            p class="note champion" { (ctx.t("Eerste na de barrage: ", "First after the play-off: ")) strong { (first.name) } }
        }
        @if let Some(champion) = s.champion.filter(|id| s.rows.first().is_some_and(|r| r.player_id != *id)).and_then(|id| s.rows.iter().find(|r| r.player_id == id)) {
            p class="note champion" { (ctx.t("Kampioen (de titel is voor leden): ", "Champion (the title is for members): ")) strong { (champion.name) } }
        }
    }
}

/// A short column head for a round-robin tie-break.
fn short_tiebreak(ctx: &Ctx, t: RoundRobinTiebreak) -> &'static str {
    match t {
        RoundRobinTiebreak::Wins => ctx.t("Winst", "Wins"),
        RoundRobinTiebreak::PlusremiseBalance => ctx.t("Saldo +R", "+R bal."),
        RoundRobinTiebreak::Plusremises => "+R",
        RoundRobinTiebreak::Mutual | RoundRobinTiebreak::DirectEncounter => ctx.t("Onderl.", "DE"),
        RoundRobinTiebreak::SonnebornBerger => "SB",
        RoundRobinTiebreak::RankingOrder => ctx.t("Rangl.", "Rank"),
        RoundRobinTiebreak::Lots => ctx.t("Lot", "Lots"),
    }
}

/// The class of a cross-table cell (its last game when two were played): win, draw, loss,
/// plusremise, minremise or forfeit.
fn cell_class(s: &str, draughts: bool) -> &'static str {
    let last = s.split(' ').next_back().unwrap_or("");
    match (last, draughts) {
        ("", _) => "",
        ("+" | "-", _) => "res forfeit",
        ("1+", true) => "res plus",
        ("1-", true) => "res min",
        ("2", true) | ("1", false) => "res win",
        ("1", true) | ("½", false) => "res draw",
        ("0", _) => "res loss",
        _ => "res",
    }
}

fn round_robin_tables(
    ctx: &Ctx,
    after: &str,
    p: &StandingsPage,
    t: &crate::services::standings_view::RoundRobinStandings,
) -> Markup {
    let draughts = p.competition.discipline == Discipline::Draughts;
    let caption = format!("{} {after}", ctx.t("Eindstand-volgorde", "Standings"));
    // the tie-break columns in the competition's own order (the JSON object is keyed by name)
    let present: Vec<RoundRobinTiebreak> = t
        .rows
        .first()
        .and_then(|r| r.tiebreaks.as_object())
        .map(|o| {
            o.keys()
                .filter_map(|k| RoundRobinTiebreak::parse(k))
                .collect()
        })
        .unwrap_or_default();
    let mut tb: Vec<RoundRobinTiebreak> = stored_tiebreaks(&p.competition)
        .unwrap_or_default()
        .into_iter()
        .filter_map(CompetitionTiebreak::criterion)
        .filter(|k| present.contains(k))
        .collect();
    for k in present {
        if !tb.contains(&k) {
            tb.push(k);
        }
    }
    let tables: Vec<String> = t
        .rows
        .iter()
        .filter_map(|r| r.points_tables.as_object())
        .flat_map(|o| o.keys().cloned())
        .fold(Vec::new(), |mut acc, k| {
            if !acc.contains(&k) {
                acc.push(k);
            }
            acc
        });
    let place_of = |id: PlayerId| {
        t.rows
            .iter()
            .find(|r| r.player_id == id.get())
            .map(|r| r.place)
    };
    let money = t
        .rows
        .iter()
        .any(|r| super::numbers::is_money(&r.prize_money));
    // the cross table in standings order: seed indices of the rows, best first (an entrant
    // without a row, e.g. withdrawn with results annulled, after them in seed order)
    let mut order: Vec<usize> = t
        .rows
        .iter()
        .filter_map(|r| {
            p.seed_order
                .iter()
                .position(|(id, _)| id.get() == r.player_id)
        })
        .collect();
    let missing: Vec<usize> = (0..p.seed_order.len())
        .filter(|i| !order.contains(i))
        .collect();
    order.extend(missing);
    let cross_caption = ctx.t(
        "Kruistabel in volgorde van de stand (rij: wat de speler scoorde tegen de speler van de kolom)",
        "Cross table in standings order (row: what the player scored against the player of the column)",
    );
    html! {
        (scroll(&caption, html! {
            table class="standings rr" {
                caption { (caption) }
                thead { tr {
                    th scope="col" { abbr title=(ctx.t("Plaats", "Place")) { (ctx.t("Pl.", "Pl.")) } }
                    th scope="col" { (ctx.t("Naam", "Name")) }
                    th scope="col" { abbr title=(ctx.t("Punten", "Points")) { (ctx.t("Pnt", "Pts")) } }
                    th scope="col" { abbr title=(ctx.t("Partijen", "Games")) { (ctx.t("P", "G")) } }
                    th scope="col" { abbr title=(ctx.t("Gewonnen", "Won")) { (ctx.t("W", "W")) } }
                    th scope="col" { abbr title=(ctx.t("Remise", "Drawn")) { (ctx.t("R", "D")) } }
                    th scope="col" { abbr title=(ctx.t("Verloren", "Lost")) { (ctx.t("V", "L")) } }
                    @if draughts {
                        th scope="col" { abbr title="plusremises" { "+R" } }
                        th scope="col" { abbr title="minremises" { "−R" } }
                    }
                    @for k in &tb { th scope="col" { abbr title=(super::swiss::criterion_name(ctx, *k)) { (short_tiebreak(ctx, *k)) } } }
                    @for k in &tables { th scope="col" { (ctx.t("Meesterpunten ", "Master points ")) (k) } }
                    @if money { th scope="col" { (ctx.t("Prijzengeld", "Prize money")) } }
                    th scope="col" { (ctx.t("Rechten", "Rights")) }
                } }
                tbody {
                    @for r in &t.rows {
                        tr {
                            td class="num" { (r.place) @if !r.shared_with.is_empty() { "=" } }
                            th scope="row" { (ctx.player(r.player_id, &r.name)) }
                            td class="num" { (decimal(ctx, &r.points.to_string())) }
                            td class="num" { (r.games) }
                            td class="num" { (r.wins) }
                            td class="num" { (r.draws) }
                            td class="num" { (r.losses) }
                            @if draughts {
                                td class="num" { (r.plusremises) }
                                td class="num" { (r.minremises) }
                            }
                            @for k in &tb { td class="num" { (num(ctx, r.tiebreaks.get(k.name()).unwrap_or(&Value::Null))) } }
                            @for k in &tables { td class="num" { (num(ctx, r.points_tables.get(k).unwrap_or(&Value::Null))) } }
                            @if money { td class="num" { (super::numbers::money(ctx.lang, &r.prize_money)) } }
                            td { (r.rights.join(", ")) }
                        }
                    }
                }
            }
        }))
        h2 { (ctx.t("Kruistabel", "Cross table")) }
        (scroll(cross_caption, html! {
            table class="cross" {
                caption { (cross_caption) }
                thead { tr {
                    th scope="col" { abbr title=(ctx.t("Plaats", "Place")) { (ctx.t("Pl.", "Pl.")) } }
                    th scope="col" { (ctx.t("Naam", "Name")) }
                    @for k in 1..=order.len() { th scope="col" class="num" { (k) } }
                    th scope="col" { abbr title=(ctx.t("Startnummer", "Start number")) { (ctx.t("Nr.", "No.")) } }
                } }
                tbody {
                    @for (k, &i) in order.iter().enumerate() {
                        @let (id, name) = &p.seed_order[i];
                        tr {
                            td class="num" { @if let Some(pl) = place_of(*id) { (pl) } @else { (k + 1) } }
                            th scope="row" { (ctx.player(id.get(), name)) }
                            @for &j in &order {
                                @let cell = t.cross_table.get(i).and_then(|r| r.get(j)).map_or("", String::as_str);
                                @if i == j { td class="self" { span class="sr" { "—" } } }
                                @else { td class=(cell_class(cell, draughts)) { (cell) } }
                            }
                            td class="num" { (i + 1) }
                        }
                    }
                }
            }
        }))
        p class="legend" {
            (ctx.t("Kleuren: ", "Colours: "))
            span class="res win" { (if draughts { "2" } else { "1" }) } " " (ctx.t("winst", "win")) ", "
            span class="res draw" { (if draughts { "1" } else { "½" }) } " remise, "
            @if draughts {
                span class="res plus" { "1+" } " plusremise, "
                span class="res min" { "1−" } " minremise, "
            }
            span class="res loss" { "0" } " " (ctx.t("verlies", "loss")) ", "
            span class="res forfeit" { "+ / −" } " " (ctx.t("reglementair", "reglementair (forfeit)")) "."
        }
    }
}

/// A Swiss's title on its prize page: the champion, or that first place is not settled yet
/// (docs/rules/rapid-blitz.md#the-play-off-for-first).
fn swiss_title(ctx: &Ctx, sw: &crate::services::prize_list::SwissPrizes) -> Markup {
    html! {
        @if let Some(ch) = &sw.champion {
            p class="champion" { (ctx.t("Kampioen: ", "Champion: ")) strong { (ch.name) } }
        } @else {
            p class="note" { (ctx.t("Nog geen kampioen: de eerste plaats is nog niet beslist.", "No champion yet: first place is not settled.")) }
        }
    }
}

/// Whether a prize list is finalized (and when), or provisional.
fn finalized_note(ctx: &Ctx, l: &crate::services::prize_list::PrizeList) -> Markup {
    html! {
        @if l.finalized {
            p { (ctx.t("Definitief vastgesteld", "Finalized"))
                @if let Some(at) = l.finalized_at { " " (crate::services::attendance::local(at, &crate::services::attendance::default_time_zone())) } "." }
        } @else {
            p class="note" { (ctx.t("Voorlopig: berekend uit de huidige stand.", "Provisional: computed from the current standings.")) }
        }
    }
}

fn render_prizes(ctx: &Ctx, comp: &Competition, p: &Prizes) -> Markup {
    let title = match p {
        Prizes::Playoffs(_) => format!("{} — {}", comp.name, ctx.t("play-offs", "play-offs")),
        Prizes::List(_) => format!("{} — {}", comp.name, ctx.t("prijzen", "prizes")),
    };
    frame(
        ctx,
        &title,
        html! {
            (super::overview::subtitle(ctx, comp))
            (super::overview::tabs(ctx, comp))
            @match p {
                Prizes::List(l) => {
                    (finalized_note(ctx, l))
                    @if let Some(k) = &l.keizer {
                        @let cap = ctx.t("Prijswinnaars", "Prize winners");
                        (scroll(cap, html! {
                            table {
                                caption { (cap) }
                                thead { tr { th scope="col" { (ctx.t("Prijs", "Prize")) } th scope="col" { (ctx.t("Naam", "Name")) } } }
                                tbody {
                                    @for a in &k.awards {
                                        tr { th scope="row" { (ctx.lang.prize(a.prize)) } td { (ctx.player(a.player_id, &a.name)) } }
                                    }
                                }
                            }
                        }))
                        @if !k.playoff_places.is_empty() {
                            h2 { (ctx.t("Plaatsen in de play-offs", "Play-off places")) }
                            ol { @for n in &k.playoff_places { li { (n.name) } } }
                        }
                        @if !k.not_eligible.is_empty() {
                            h2 { (ctx.t("Niet in aanmerking (te vaak zonder afmelding afwezig, of teruggetrokken)", "Not eligible (absent without notice too often, or withdrawn)")) }
                            ul { @for n in &k.not_eligible { li { (n.name) } } }
                        }
                    }
                    @if let Some(rows) = &l.round_robin {
                        @let cap = ctx.t("Prijzengeld, meesterpunten en rechten", "Prize money, master points and rights");
                        (scroll(cap, html! {
                            table {
                                caption { (cap) }
                                thead { tr {
                                    th scope="col" { (ctx.t("Pl.", "Pl.")) }
                                    th scope="col" { (ctx.t("Naam", "Name")) }
                                    th scope="col" { (ctx.t("Meesterpunten", "Master points")) }
                                    th scope="col" { (ctx.t("Prijzengeld", "Prize money")) }
                                    th scope="col" { (ctx.t("Rechten", "Rights")) }
                                } }
                                tbody {
                                    @for r in rows {
                                        tr {
                                            td class="num" { (r.place) }
                                            th scope="row" { (r.name) }
                                            td {
                                                @if let Some(o) = r.points_tables.as_object() {
                                                    @for (k, v) in o { (k) ": " (num(ctx, v)) " " }
                                                }
                                            }
                                            td class="num" { (super::numbers::money(ctx.lang, &r.prize_money)) }
                                            td { (r.rights.join(", ")) }
                                        }
                                    }
                                }
                            }
                        }))
                    }
                    @if let Some(sw) = &l.swiss { (swiss_title(ctx, sw)) }
                }
                Prizes::Playoffs(v) => {
                    @if let Some(c) = &v.club_champion {
                        p class="champion" { (ctx.t("Clubkampioen: ", "Club champion: ")) strong { (c.name) } }
                    }
                    @for g in &v.groups {
                        section {
                            h2 { (ctx.t("Groep", "Group")) " " (g.number) }
                            p { (ctx.t("Geplaatst: ", "Seeds: "))
                                @for (i, s) in g.seeds.iter().enumerate() { @if i > 0 { ", " } (s.name) } }
                            @let cap = format!("{} {}", ctx.t("Partijen van groep", "Games of group"), g.number);
                            (scroll(&cap, html! {
                                table {
                                    caption { (cap) }
                                    thead { tr {
                                        th scope="col" { (ctx.t("Wedstrijd", "Match")) }
                                        th scope="col" { (ctx.t("Partij", "Game")) }
                                        th scope="col" { (ctx.t("Wit", "White")) }
                                        th scope="col" { (ctx.t("Zwart", "Black")) }
                                        th scope="col" { (ctx.t("Uitslag", "Result")) }
                                    } }
                                    tbody {
                                        @for m in &g.matches {
                                            @for x in &m.games {
                                                tr {
                                                    th scope="row" { (match m.id { PlayoffMatch::Final => ctx.t("finale", "final"), PlayoffMatch::Semi1 => ctx.t("halve finale 1–4", "semi-final 1–4"), PlayoffMatch::Semi2 => ctx.t("halve finale 2–3", "semi-final 2–3") }) }
                                                    td { (x.game) @if x.decider { " (" (ctx.t("beslissing", "decider")) ")" } }
                                                    td { (x.white.name) }
                                                    td { (x.black.name) }
                                                    td { @if let Some(o) = x.outcome { (o.code().shown()) } }
                                                }
                                            }
                                        }
                                    }
                                }
                            }))
                            @if let Some(w) = &g.winner { p { (ctx.t("Winnaar: ", "Winner: ")) (w.name) } }
                        }
                    }
                }
            }
        },
    )
}

#[cfg(test)]
mod tests {
    use super::{Kind, route};

    #[test]
    fn competition_paths_name_their_page() {
        assert_eq!(route("/12"), Some((Some(Kind::Overview), "12", 0)));
        assert_eq!(
            route("/12/standings"),
            Some((Some(Kind::Standings), "12", 0))
        );
        assert_eq!(route("/12/prizes"), Some((Some(Kind::Prizes), "12", 0)));
        assert_eq!(route("/12/rounds/3"), Some((Some(Kind::Round), "12", 3)));
        assert_eq!(route("/12/attendance"), Some((None, "12", 0)));
        // the id segment is the page's to check, as a route's `{id}` is
        assert_eq!(
            route("/abc/standings"),
            Some((Some(Kind::Standings), "abc", 0))
        );
        for other in [
            "",
            "/",
            "//standings",
            "/12/",
            "/12/standings/",
            "/12/standings/x",
            "/12/Standings",
            "/12/slips",
            "12/standings",
            "/12/rounds",
            "/12/rounds/",
            "/12/rounds/0",
            "/12/rounds/1000",
            "/12/rounds/+1",
            "/12/rounds/1/",
        ] {
            assert_eq!(route(other), None, "{other:?}");
        }
    }
}
