//! Results reported by the two players of a game (docs/rules/arbiter.md#results-reported-by-the-players;
//! decision 0342): either player's member account reports the result it saw; when the two
//! reports agree the result is entered through [`results::enter`], as the arbiter would enter
//! it, and audited with both reporters; when they differ the game is disputed for the arbiter
//! (the evening read model's `disputed`, and a public `result.disputed` event that names no reporter). The
//! arbiter's entry always wins: once a game has a result, reports are refused.
//!
//! Storage: one row of `game_reports` per game and player, replaced when the player reports
//! again.

use crate::error::{ApiError, ApiResult};
use crate::ids::{GameId, PlayerId};
use crate::services::results::{self, ResultInput};
use crate::store::DbConn;
use crate::store::models::events::{EventKind, NewEvent, Visibility};
use crate::store::now_utc;
use crate::store::schema::game_reports as gr;
use crate::vocab::RoundStatus;
use diesel::prelude::*;
use serde::Serialize;
use std::collections::HashMap;
use utoipa::ToSchema;

use crate::vocab::ResultCode;

/// One player's report of a game (for the club's staff).
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
pub struct Report {
    /// The reporting player.
    pub player_id: i64,
    /// The result code they reported.
    #[schema(value_type = crate::services::results::ResultCode)]
    pub result: ResultCode,
}

pub use crate::vocab::ReportOutcome;

/// The answer to a report.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Reported {
    /// Game id.
    pub game_id: i64,
    /// The result code as stored (converted to the discipline's spelling).
    #[schema(value_type = crate::services::results::ResultCode)]
    pub reported: ResultCode,
    /// `waiting`, `entered` or `disputed`.
    #[schema(value_type = ReportOutcome)]
    pub outcome: ReportOutcome,
    /// The game's result once entered.
    #[schema(value_type = Option<String>)]
    pub result: Option<ResultCode>,
}

/// Who reports, and what.
#[derive(Debug, Clone)]
pub struct Reporter<'a> {
    /// The player linked to the member's account (none: the account has no player).
    pub player: Option<PlayerId>,
    /// The account (stored with the report, shown in the audit trail only).
    pub account: &'a str,
    /// The result code as sent.
    pub result: &'a str,
    /// Tells the players when their reports enter the result.
    pub notifier: crate::services::notifications::Notifier<'a>,
}

/// Records the report of game `id` by one of its players, in the caller's transaction: 404
/// without such a game; 403 when the account is not linked to one of its two players; 409
/// when the round is not published yet or is completed, when the game is a bye, or when it
/// has a result already (the reason named); 422 naming `result` for a code the competition
/// does not take or a forfeit. Agreeing reports enter the result.
pub fn report(c: &mut DbConn, id: GameId, who: &Reporter<'_>) -> ApiResult<Reported> {
    results::lock_game(c, id)?;
    let (game, round, comp) = results::load_game(c, id)?;
    let Some(player) = who
        .player
        .filter(|p| game.white_id == Some(*p) || game.black_id == Some(*p))
    else {
        return Err(ApiError::Forbidden(format!(
            "game {id} is not yours: only its two players report its result"
        )));
    };
    if game.black_id.is_none() {
        return Err(ApiError::Conflict(format!(
            "game {id} is a bye; it has no result to report"
        )));
    }
    if round.status == RoundStatus::Completed {
        return Err(ApiError::Conflict(format!(
            "round {} is completed; the arbiter corrects its results",
            round.number
        )));
    }
    if !round.status.is_public() {
        return Err(ApiError::Conflict(format!(
            "round {} is {}; results are reported once its pairing is published",
            round.number, round.status
        )));
    }
    if let Some(r) = &game.result {
        return Err(ApiError::Conflict(format!(
            "game {id} has its result already ({r}); the arbiter corrects it"
        )));
    }
    let code = who.result.trim();
    // a forfeit or a bye is the arbiter's to enter
    if code
        .parse::<ResultCode>()
        .is_ok_and(|r| r.is_forfeit() || r == ResultCode::Bye)
    {
        return Err(ApiError::invalid(
            "result",
            format!("`{code}` is a forfeit; the arbiter enters forfeits"),
        ));
    }
    let input = ResultInput {
        result: code.to_string(),
        termination: None,
        move_count: None,
        reason: None,
    };
    let (snapshot, _) = results::check(&comp, &game, &input)?;
    let reported = snapshot
        .result
        .ok_or_else(|| ApiError::Internal("a checked report without a result".into()))?;
    diesel::delete(gr::table.find((id.get(), player.get()))).execute(c)?;
    diesel::insert_into(gr::table)
        .values((
            gr::game_id.eq(id.get()),
            gr::player_id.eq(player.get()),
            gr::account.eq(who.account),
            gr::result.eq(&reported),
            gr::reported_at.eq(now_utc()),
        ))
        .execute(c)?;
    let other: Option<(String, ResultCode)> = gr::table
        .filter(gr::game_id.eq(id.get()))
        .filter(gr::player_id.ne(player.get()))
        .select((gr::account, gr::result))
        .first(c)
        .optional()?;
    let answer = |outcome: ReportOutcome, result: Option<ResultCode>| Reported {
        game_id: id.get(),
        reported,
        outcome,
        result,
    };
    match other {
        None => Ok(answer(ReportOutcome::Waiting, None)),
        Some((account, theirs)) if theirs == reported => {
            let input = ResultInput {
                result: reported.to_string(),
                termination: None,
                move_count: None,
                reason: Some(format!(
                    "reported alike by both players ({} and {account})",
                    who.account
                )),
            };
            let actor = format!("players:{},{account}", who.account);
            let any = crate::services::version::ExpectedVersion::any();
            let entered = results::enter(c, id, &any, &input, &actor)?;
            crate::services::outcome_mails::result_changed(
                c,
                who.notifier,
                id,
                entered.game.version,
                entered.corrected,
            )?;
            Ok(answer(ReportOutcome::Entered, entered.game.result))
        }
        Some(_) => {
            crate::store::stamps::touch_now(c, crate::store::stamps::Scope::Competition(comp.id))?;
            crate::store::stamps::record(
                c,
                NewEvent::new(EventKind::ResultDisputed, Visibility::Public)
                    .competition(comp.id)
                    .evening(round.evening_id)
                    .game(id)
                    .payload(serde_json::json!({
                        "round": round.number,
                        "board": game.board,
                        "game_no": game.game_no,
                    })),
            )?;
            Ok(answer(ReportOutcome::Disputed, None))
        }
    }
}

/// The reports of `games` by game (the staff's view); a game whose two reports differ and
/// that has no result yet is disputed.
pub fn of_games(c: &mut DbConn, games: &[GameId]) -> ApiResult<HashMap<GameId, Vec<Report>>> {
    let ids: Vec<i64> = games.iter().map(|g| g.get()).collect();
    let rows: Vec<(i64, i64, ResultCode)> = gr::table
        .filter(gr::game_id.eq_any(ids))
        .order((gr::game_id, gr::player_id))
        .select((gr::game_id, gr::player_id, gr::result))
        .load(c)?;
    let mut out: HashMap<GameId, Vec<Report>> = HashMap::new();
    for (g, p, r) in rows {
        out.entry(GameId(g)).or_default().push(Report {
            player_id: p,
            result: r,
        });
    }
    Ok(out)
}

/// Whether reports `r` of a game without a result leave it disputed.
pub fn disputed(r: &[Report]) -> bool {
    r.len() == 2 && r[0].result != r[1].result
}

/// The result codes a player reports with in `discipline`: the over-the-board ones, White's
/// score first (forfeits and byes are the arbiter's).
pub fn player_codes(discipline: clubcomp_engine::Discipline) -> &'static [ResultCode] {
    use ResultCode as C;
    match discipline {
        clubcomp_engine::Discipline::Chess => &[C::WhiteWins, C::DrawHalves, C::BlackWins],
        clubcomp_engine::Discipline::Draughts => &[
            C::DraughtsWhiteWins,
            C::DraughtsDraw,
            C::DraughtsBlackWins,
            C::WhitePlusremise,
            C::BlackPlusremise,
            C::BothLost,
        ],
    }
}

/// Why a game takes no report now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Closed {
    /// A pairing bye has no result to report.
    Bye,
    /// The result is in (the arbiter's or the two players' alike).
    HasResult,
    /// The round is completed: the arbiter corrects its results.
    Completed,
}

/// A game as its report page shows it (docs/api-guide.md#reporting-from-a-phone).
#[derive(Debug, Clone)]
pub struct ReportPage {
    /// Game id.
    pub game_id: i64,
    /// The evening the round is played on, if any.
    pub evening_id: Option<i64>,
    /// The competition's name.
    pub competition: String,
    /// The competition's kind (a Keizer round is called an evening).
    pub kind: clubcomp_engine::CompetitionKind,
    /// The round's number.
    pub round: i32,
    /// Board and game number.
    pub board: i32,
    /// Game number within the pairing.
    pub game_no: i32,
    /// White: id and name.
    pub white: Option<(i64, String)>,
    /// Black: id and name (none for a bye).
    pub black: Option<(i64, String)>,
    /// The result, once entered.
    pub result: Option<ResultCode>,
    /// The codes the players report with.
    pub codes: &'static [ResultCode],
    /// Why no report is taken now, if so.
    pub closed: Option<Closed>,
    /// Whether the viewer is one of the two players.
    pub yours: bool,
    /// The viewer's own report, while the game has no result.
    pub mine: Option<ResultCode>,
}

/// The report page of game `id` for `viewer` (the player of the signed-in account, if any):
/// 404 when there is no such game or its round is not published (its pairing is not public).
pub fn page_of(c: &mut DbConn, id: GameId, viewer: Option<PlayerId>) -> ApiResult<ReportPage> {
    use crate::publication::{self, Audience};
    let (game, round, comp) = results::load_game(c, id)?;
    if !round.status.is_public() {
        return Err(ApiError::NotFound(format!("no game {id}")));
    }
    // the names as the reader may see them (decision 0326); a member signed in on the pages
    // reads their own name in full
    let reader = match (publication::current(), viewer) {
        (Audience::Public, Some(v)) => Audience::Member(v),
        (a, _) => a,
    };
    let mut name = |p: Option<PlayerId>| -> ApiResult<Option<(i64, String)>> {
        let Some(p) = p else { return Ok(None) };
        let row =
            publication::with_audience(reader, || crate::store::models::players::by_id(c, p))?;
        Ok(Some((p.get(), row.map(|r| r.name).unwrap_or_default())))
    };
    let white = name(game.white_id)?;
    let black = name(game.black_id)?;
    let yours = viewer.is_some_and(|v| game.white_id == Some(v) || game.black_id == Some(v));
    let mine = match viewer.filter(|_| yours && game.result.is_none()) {
        Some(v) => gr::table
            .find((id.get(), v.get()))
            .select(gr::result)
            .first(c)
            .optional()?,
        None => None,
    };
    let closed = if game.black_id.is_none() {
        Some(Closed::Bye)
    } else if game.result.is_some() {
        Some(Closed::HasResult)
    } else if round.status == RoundStatus::Completed {
        Some(Closed::Completed)
    } else {
        None
    };
    Ok(ReportPage {
        game_id: id.get(),
        evening_id: round.evening_id.map(|e| e.get()),
        competition: comp.name.clone(),
        kind: comp.kind,
        round: round.number,
        board: game.board,
        game_no: game.game_no,
        white,
        black,
        result: game.result,
        codes: player_codes(results::discipline(&comp)),
        closed,
        yours,
        mine,
    })
}

/// [`report`], then the game's report page as the reporter sees it now, in the caller's
/// transaction (the club page's form answers with both).
pub fn report_and_page(
    c: &mut DbConn,
    id: GameId,
    who: &Reporter<'_>,
    viewer: Option<PlayerId>,
) -> ApiResult<(Reported, ReportPage)> {
    let done = report(c, id, who)?;
    Ok((done, page_of(c, id, viewer)?))
}
