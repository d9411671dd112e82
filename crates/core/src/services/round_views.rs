//! The rounds and games as readers see them: players named, each game's tempo, its version as
//! an ETag, and a round's games only once published (the club's staff always).

use crate::error::ApiResult;
use crate::ids::{CompetitionId, EveningId, GameId, PlayerId};
use crate::services::competitions::{self, TimeControl};
use crate::services::results::{self, ResultInput};
use crate::services::rounds::{self, RoundStatus, is_public};
use crate::services::tempo::{self, TempoInput};
use crate::services::version::ExpectedVersion;
use crate::store::DbConn;
use crate::store::models::competition::{Competition, Game, Round};
use crate::store::models::players;
use chrono::NaiveDate;
use serde::Serialize;
use utoipa::ToSchema;

/// A player on a board.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PlayerRef {
    /// Player id.
    pub id: i64,
    /// Name.
    pub name: String,
}

/// A game as shown.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct GameView {
    /// Game id (for results).
    pub id: i64,
    /// Board number.
    pub board: i32,
    /// Game number within the pairing (two-game rounds: 1 and 2).
    pub game_no: i32,
    /// White (or the player with the bye).
    #[schema(required = true)]
    pub white: Option<PlayerRef>,
    /// Black (absent for a bye).
    #[schema(required = true)]
    pub black: Option<PlayerRef>,
    /// Result code, once entered.
    #[schema(value_type = Option<crate::services::results::ResultCode>)]
    #[schema(required = true)]
    pub result: Option<crate::vocab::ResultCode>,
    /// How the game ended, if recorded.
    #[schema(required = true)]
    pub termination: Option<String>,
    /// Moves played, if recorded.
    #[schema(required = true)]
    pub move_count: Option<i32>,
    /// The tempo the game is played at: its own, agreed for this game
    /// (`PUT /games/{id}/time-control`), else the competition's.
    pub time_control: TimeControl,
    /// Whether the game has a tempo of its own (`time_control` is not the competition's).
    pub time_control_own: bool,
    /// Version (send as `If-Match` when entering a result or setting the tempo).
    pub version: i64,
    /// The version as the `ETag` a write sends back in `If-Match` (the same as the header).
    pub etag: String,
}

/// A round as shown.
#[derive(Debug, Serialize, ToSchema)]
pub struct RoundView {
    /// Round id.
    pub id: i64,
    /// The competition it belongs to.
    pub competition_id: i64,
    /// Round number.
    pub number: i32,
    /// Date.
    #[schema(required = true)]
    pub date: Option<NaiveDate>,
    /// The calendar evening.
    #[schema(required = true)]
    pub evening_id: Option<i64>,
    /// `planned`, `paired`, `published` or `completed`.
    pub status: RoundStatus,
    /// Version.
    pub version: i64,
    /// The version as the `ETag` the pairing writes accept in `If-Match`
    /// (`"round-<id>-v<version>"`).
    pub etag: String,
    /// Pairing details (bye draw: seed and candidates; overrides), once paired. Who generated
    /// or entered the pairing (`generated_by`, `entered_by`) is shown to the staff only.
    #[schema(value_type = Option<Object>)]
    #[schema(required = true)]
    pub pairing: Option<serde_json::Value>,
    /// Games (the public sees them only once published).
    pub games: Vec<GameView>,
}

fn player_ref(c: &mut DbConn, id: Option<PlayerId>) -> ApiResult<Option<PlayerRef>> {
    Ok(match id {
        Some(id) => players::by_id(c, id)?.map(|p| PlayerRef {
            id: p.id.get(),
            name: p.name,
        }),
        None => None,
    })
}

/// A game of competition `comp` with player names and the tempo it is played at.
pub fn game_view(c: &mut DbConn, comp: &Competition, g: Game) -> ApiResult<GameView> {
    let tempo = tempo::effective(comp, &g)?;
    Ok(GameView {
        id: g.id.get(),
        board: g.board,
        game_no: g.game_no,
        white: player_ref(c, g.white_id)?,
        black: player_ref(c, g.black_id)?,
        result: g.result,
        termination: g.termination,
        move_count: g.move_count,
        time_control: tempo.time_control,
        time_control_own: tempo.own,
        version: g.version,
        etag: crate::services::version::etag("game", g.id, g.version),
    })
}

/// A round with its games when the caller may see them.
pub fn round_view(c: &mut DbConn, round: Round, insider: bool) -> ApiResult<RoundView> {
    let show = insider || is_public(round.status);
    let games = if show {
        let games = rounds::games_of(c, round.id)?;
        let mut out = Vec::with_capacity(games.len());
        if !games.is_empty() {
            let comp = competitions::load(c, round.competition_id)?;
            for g in games {
                out.push(game_view(c, &comp, g)?);
            }
        }
        out
    } else {
        vec![]
    };
    Ok(RoundView {
        id: round.id.get(),
        competition_id: round.competition_id.get(),
        number: round.number,
        date: round.date,
        evening_id: round.evening_id.map(EveningId::get),
        status: round.status,
        version: round.version,
        etag: crate::services::version::etag("round", round.id, round.version),
        pairing: if show {
            round
                .pairing_meta
                .as_deref()
                .and_then(|m| serde_json::from_str(m).ok())
                .map(|mut m: serde_json::Value| {
                    // who generated or entered the pairing is an account (an e-mail
                    // address): for the club's staff only
                    if !insider && let Some(o) = m.as_object_mut() {
                        o.remove("generated_by");
                        o.remove("entered_by");
                    }
                    m
                })
        } else {
            None
        },
        games,
    })
}

/// The rounds of a competition in order, as `insider` (the club's staff) or the public sees them.
pub fn of_competition(
    c: &mut DbConn,
    id: CompetitionId,
    insider: bool,
) -> ApiResult<Vec<RoundView>> {
    of_competition_in(c, id, &[], insider)
}

/// A round without its games (`GET …/rounds?view=summary`): what a leader's overview needs.
#[derive(Debug, Serialize, ToSchema)]
pub struct RoundSummary {
    /// Round id.
    pub id: i64,
    /// Round number.
    pub number: i32,
    /// `planned`, `paired`, `published` or `completed`.
    pub status: RoundStatus,
    /// Date.
    #[schema(required = true)]
    pub date: Option<NaiveDate>,
    /// The calendar evening.
    #[schema(required = true)]
    pub evening_id: Option<i64>,
    /// Version.
    pub version: i64,
    /// The version as the `ETag` the pairing writes accept in `If-Match`.
    pub etag: String,
    /// Boards paired (a two-game pairing is one board; a bye is a board). Like the games of
    /// the full view, 0 for the public until the round is published.
    pub boards: i64,
    /// Games, byes included (0 for the public until published).
    pub games: i64,
    /// Games with a result entered (0 for the public until published).
    pub results_entered: i64,
}

/// The rounds of a competition in order whose status is one of `statuses` (all when empty),
/// as `insider` (the club's staff) or the public sees them.
pub fn of_competition_in(
    c: &mut DbConn,
    id: CompetitionId,
    statuses: &[RoundStatus],
    insider: bool,
) -> ApiResult<Vec<RoundView>> {
    let mut out = Vec::new();
    for round in rounds::list_in(c, id, statuses)? {
        out.push(round_view(c, round, insider)?);
    }
    Ok(out)
}

/// The rounds of a competition as [`of_competition_in`] without their games: the counts of
/// all rounds come from one query.
pub fn summaries_of(
    c: &mut DbConn,
    id: CompetitionId,
    statuses: &[RoundStatus],
    insider: bool,
) -> ApiResult<Vec<RoundSummary>> {
    let list = rounds::list_in(c, id, statuses)?;
    let ids: Vec<_> = list.iter().map(|r| r.id).collect();
    let counts = rounds::game_counts(c, &ids)?;
    Ok(list
        .into_iter()
        .map(|r| {
            let n = if insider || is_public(r.status) {
                counts.get(&r.id).copied().unwrap_or_default()
            } else {
                rounds::GameCounts::default()
            };
            RoundSummary {
                id: r.id.get(),
                number: r.number,
                status: r.status,
                date: r.date,
                evening_id: r.evening_id.map(EveningId::get),
                version: r.version,
                etag: crate::services::version::etag("round", r.id, r.version),
                boards: n.boards,
                games: n.games,
                results_entered: n.results,
            }
        })
        .collect())
}

/// Round `number` of a competition (404 when there is none), as `insider` or the public sees it.
pub fn one(c: &mut DbConn, id: CompetitionId, number: i32, insider: bool) -> ApiResult<RoundView> {
    let round = rounds::load(c, id, number)?;
    round_view(c, round, insider)
}

/// Creates a round of competition `id` ([`rounds::create`]) and answers it as the club's staff
/// see it, in the caller's transaction.
pub fn create_round_and_view(
    c: &mut DbConn,
    id: CompetitionId,
    number: Option<i32>,
    evening_id: Option<EveningId>,
    date: Option<NaiveDate>,
) -> ApiResult<RoundView> {
    let round = rounds::create(c, id, number, evening_id, date)?;
    round_view(c, round, true)
}

/// Publishes round `number` ([`rounds::publish`]), queues its pairing mails
/// ([`crate::services::notifications::pairing_published`]) and answers the round as the
/// club's staff see it.
pub fn publish_round_and_view(
    c: &mut DbConn,
    (mail, key): (
        &crate::mail_config::MailSettings,
        &crate::services::unsubscribe::UnsubscribeKey,
    ),
    id: CompetitionId,
    number: i32,
) -> ApiResult<RoundView> {
    let round = rounds::publish(c, id, number)?;
    crate::services::notifications::pairing_published(c, mail, key, &round)?;
    round_view(c, round, true)
}

/// Completes round `number` ([`rounds::complete`]) and answers it as the club's staff see it.
pub fn complete_round_and_view(
    c: &mut DbConn,
    id: CompetitionId,
    number: i32,
) -> ApiResult<RoundView> {
    let round = rounds::complete(c, id, number)?;
    round_view(c, round, true)
}

/// A game after its result was entered.
#[derive(Debug, Serialize, ToSchema)]
pub struct ResultView {
    /// The game (its new `version` is the next `If-Match`).
    pub game: GameView,
    /// Set when the reported result was converted, saying why (e.g. a draughts draw agreed
    /// before move 40 is stored as `0-0`).
    #[schema(required = true)]
    pub note: Option<String>,
}

/// Enters (or corrects) the result of game `id` ([`results::enter`]), queues the players'
/// result mails ([`crate::services::outcome_mails::result_changed`]) and answers the game as
/// it is after, with the note of a converted result.
pub fn enter_result_and_view(
    c: &mut DbConn,
    n: crate::services::notifications::Notifier<'_>,
    id: GameId,
    expected: &ExpectedVersion,
    input: &ResultInput,
    actor: &str,
) -> ApiResult<ResultView> {
    let e = results::enter(c, id, expected, input, actor)?;
    crate::services::outcome_mails::result_changed(c, n, e.game.id, e.game.version, e.corrected)?;
    Ok(ResultView {
        game: game_view(c, &e.competition, e.game)?,
        note: e.note,
    })
}

/// Sets the tempo game `id` is played at ([`tempo::set`]) and answers the game as it is after.
pub fn set_tempo_and_view(
    c: &mut DbConn,
    id: GameId,
    expected: &ExpectedVersion,
    input: &TempoInput,
    leader: bool,
    actor: &str,
) -> ApiResult<GameView> {
    let (game, comp) = tempo::set(c, id, expected, input, leader, actor)?;
    game_view(c, &comp, game)
}
