//! Reading what is stored with a competition: its settings and its parameters, decoded once.

use crate::error::{ApiError, ApiResult, FieldError};
/// A stored competition: the row is the record.
pub use crate::store::models::competition::Competition;
use serde_json::Value;

use super::*;
use crate::vocab::CompetitionTiebreak;
use clubcomp_engine::{CompetitionKind, PairingSystem};

/// Reads one stored JSON column of a competition: text that does not decode is an internal
/// error naming the competition and the column (the column is written by this module).
pub(super) fn stored_json<T: serde::de::DeserializeOwned>(
    comp: &Competition,
    column: &str,
    text: &str,
) -> ApiResult<T> {
    serde_json::from_str(text).map_err(|e| {
        ApiError::Internal(format!(
            "competition {}: stored {column} do not decode: {e}",
            comp.id
        ))
    })
}

/// The stored tie-break list of a competition, read for its kind: a Swiss's FIDE tie-breaks (a
/// list stored in another spelling of the acronyms reads the same), a round robin's criteria.
/// A value that is none of the listed tie-breaks is an internal error naming the competition,
/// never dropped.
pub fn stored_tiebreaks(comp: &Competition) -> ApiResult<Vec<CompetitionTiebreak>> {
    let list: Vec<String> = stored_json(comp, "tiebreaks", &comp.tiebreaks)?;
    list.into_iter()
        .map(|t| {
            let kind = match comp.kind {
                CompetitionKind::Swiss => CompetitionKind::Swiss,
                _ => CompetitionKind::RoundRobin,
            };
            CompetitionTiebreak::parse_for(kind, &t).map_err(|_| {
                ApiError::Internal(format!(
                    "competition {}: stored tie-break {t:?} is not a listed tie-break",
                    comp.id
                ))
            })
        })
        .collect()
}

/// The stored time control of a competition (an internal error when it does not decode).
pub fn stored_time_control(comp: &Competition) -> ApiResult<TimeControl> {
    stored_json(comp, "time control", &comp.time_control)
}

/// The settings a competition was stored with; a stored column that does not decode is an
/// internal error, never a default.
pub fn stored_settings(cur: &Competition) -> ApiResult<Settings> {
    Ok(Settings {
        kind: cur.kind,
        discipline: cur.discipline,
        system: cur.system,
        params: Value::Object(stored_params(cur)?.object),
        tiebreaks: stored_tiebreaks(cur)?,
        time_control: stored_json(cur, "time control", &cur.time_control)?,
        rules: stored_json(cur, "rules", &cur.rules)?,
    })
}

/// The parameters stored with a competition, decoded for its kind.
#[derive(Debug, Clone)]
pub enum CompetitionParams {
    /// A Keizer half: the engine's scoring parameters.
    Keizer(Box<clubcomp_engine::keizer::Params>),
    /// A Dutch-system Swiss.
    Swiss(SwissParams),
    /// A Double-Swiss.
    DoubleSwiss(SwissParams),
    /// A round robin.
    RoundRobin(RoundRobinParams),
    /// A knockout.
    Knockout(KnockoutParams),
}

/// A competition's stored parameters: the object as stored (what the API shows) and its
/// decoded form.
#[derive(Debug, Clone)]
pub struct StoredParams {
    /// The stored JSON object.
    pub object: serde_json::Map<String, Value>,
    /// The parameters decoded for the competition's kind.
    pub typed: CompetitionParams,
}

/// Decodes the parameters stored with a competition, once: text that is not a JSON object,
/// Keizer parameters the engine does not accept, or a playoff draw that does not decode is an
/// internal error naming the competition (the parameters were checked when they were stored).
pub fn stored_params(comp: &Competition) -> ApiResult<StoredParams> {
    let object: serde_json::Map<String, Value> = stored_json(comp, "params", &comp.params)?;
    let bad = |e: &dyn std::fmt::Display| {
        ApiError::Internal(format!(
            "competition {}: stored params do not decode: {e}",
            comp.id
        ))
    };
    let typed = match (comp.kind, comp.system) {
        (CompetitionKind::Keizer, _) => {
            let probe = serde_json::json!({"params": keizer_scoring_params(&object), "players": [], "evenings": []});
            let s = clubcomp_engine::keizer::parse_scenario(&probe).map_err(|e| bad(&e))?;
            CompetitionParams::Keizer(Box::new(s.params))
        }
        (CompetitionKind::Swiss, Some(PairingSystem::DoubleSwiss)) => {
            CompetitionParams::DoubleSwiss(SwissParams::default())
        }
        (CompetitionKind::Swiss, _) => {
            let blitz = match object.get("blitz") {
                None => None,
                Some(b) => {
                    let mut errs = Vec::new();
                    let read = BlitzParams::read(b, &mut errs);
                    if read.is_none() {
                        return Err(bad(&field_errors(&errs)));
                    }
                    read
                }
            };
            CompetitionParams::Swiss(SwissParams { blitz })
        }
        (CompetitionKind::RoundRobin, _) => {
            let mut errs = Vec::new();
            match RoundRobinParams::read(&object, &mut errs) {
                Some(p) => CompetitionParams::RoundRobin(p),
                None => return Err(bad(&field_errors(&errs))),
            }
        }
        (CompetitionKind::Knockout, _) => {
            let mut errs = Vec::new();
            match KnockoutParams::read(&object, &mut errs) {
                Some(p) => CompetitionParams::Knockout(p),
                None => return Err(bad(&field_errors(&errs))),
            }
        }
    };
    Ok(StoredParams { object, typed })
}

/// Field errors as one line, for a log.
pub(super) fn field_errors(errs: &[FieldError]) -> String {
    let why: Vec<String> = errs
        .iter()
        .map(|e| format!("{}: {}", e.field, e.message))
        .collect();
    why.join("; ")
}
