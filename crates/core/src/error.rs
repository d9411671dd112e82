//! One error type for the API, answered as `application/problem+json` (RFC 9457, docs/api-guide.md#errors).
//! Unexpected errors are logged with their cause and answered as a bare 500.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use serde::Serialize;
use utoipa::ToSchema;

/// One invalid field of a request.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
pub struct FieldError {
    /// The field (JSON pointer-like path, e.g. `ratings[3].value`).
    pub field: String,
    /// What is wrong with it, naming the rule.
    pub message: String,
}

impl FieldError {
    /// A field error.
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> FieldError {
        FieldError {
            field: field.into(),
            message: message.into(),
        }
    }
}

/// The problem document of every error response.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"type": "https://clubcomp.dev/problems/invalid-input",
    "title": "Unprocessable Entity", "status": 422, "detail": "name: must not be empty",
    "errors": [{"field": "name", "message": "must not be empty"}]}))]
pub struct Problem {
    /// The kind of problem: one stable URI per kind, the same on every database, for a
    /// program to act on (docs/api-guide.md#errors lists them).
    #[serde(rename = "type")]
    pub type_: ProblemType,
    /// Short summary (the HTTP reason phrase).
    pub title: String,
    /// The HTTP status code.
    pub status: u16,
    /// What went wrong in this request.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// Per-field errors (validation only).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<FieldError>,
}

/// The kinds of problem, each named by a stable URI (`https://clubcomp.dev/problems/…`). The
/// URIs identify the kind; they are not fetched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
pub enum ProblemType {
    /// 400: the JSON or the query string cannot be read.
    #[serde(rename = "https://clubcomp.dev/problems/malformed-request")]
    MalformedRequest,
    /// 401: no valid credentials.
    #[serde(rename = "https://clubcomp.dev/problems/unauthenticated")]
    Unauthenticated,
    /// 401: the refresh token is unknown, expired or ended, or the account changed since
    /// the login (docs/api-guide.md#staying-signed-in).
    #[serde(rename = "https://clubcomp.dev/problems/refresh-token-invalid")]
    RefreshTokenInvalid,
    /// 401: a refresh token was used a second time; every token of its login is ended.
    #[serde(rename = "https://clubcomp.dev/problems/refresh-token-reused")]
    RefreshTokenReused,
    /// 403: the credentials lack the role.
    #[serde(rename = "https://clubcomp.dev/problems/forbidden")]
    Forbidden,
    /// 404: no such resource, or no such route.
    #[serde(rename = "https://clubcomp.dev/problems/not-found")]
    NotFound,
    /// 405: the route exists, the method does not (`Allow` lists the methods).
    #[serde(rename = "https://clubcomp.dev/problems/method-not-allowed")]
    MethodNotAllowed,
    /// 409: the state of the competition forbids the change.
    #[serde(rename = "https://clubcomp.dev/problems/conflict")]
    Conflict,
    /// 409: a value that must be unique is taken (`errors` names the field).
    #[serde(rename = "https://clubcomp.dev/problems/already-exists")]
    AlreadyExists,
    /// 412: `If-Match` names an older version; read the resource again.
    #[serde(rename = "https://clubcomp.dev/problems/stale-version")]
    StaleVersion,
    /// 413: the body is larger than the service accepts.
    #[serde(rename = "https://clubcomp.dev/problems/body-too-large")]
    BodyTooLarge,
    /// 415: the body is not JSON.
    #[serde(rename = "https://clubcomp.dev/problems/unsupported-media-type")]
    UnsupportedMediaType,
    /// 422: the request breaks a rule or a bound (`errors` names the fields).
    #[serde(rename = "https://clubcomp.dev/problems/invalid-input")]
    InvalidInput,
    /// 428: the write needs `If-Match`.
    #[serde(rename = "https://clubcomp.dev/problems/version-required")]
    VersionRequired,
    /// 429: too many attempts (`Retry-After`).
    #[serde(rename = "https://clubcomp.dev/problems/too-many-attempts")]
    TooManyAttempts,
    /// 503: the database is unavailable (`Retry-After`).
    #[serde(rename = "https://clubcomp.dev/problems/unavailable")]
    Unavailable,
    /// 503: the calculators are busy or a calculation spent its time budget (`Retry-After`).
    #[serde(rename = "https://clubcomp.dev/problems/busy")]
    Busy,
    /// 500: an unexpected error (logged with the request id, never shown).
    #[serde(rename = "https://clubcomp.dev/problems/internal")]
    Internal,
}

impl ProblemType {
    /// Every kind, in the order of the list above.
    pub const ALL: [ProblemType; 18] = [
        ProblemType::MalformedRequest,
        ProblemType::Unauthenticated,
        ProblemType::RefreshTokenInvalid,
        ProblemType::RefreshTokenReused,
        ProblemType::Forbidden,
        ProblemType::NotFound,
        ProblemType::MethodNotAllowed,
        ProblemType::Conflict,
        ProblemType::AlreadyExists,
        ProblemType::StaleVersion,
        ProblemType::BodyTooLarge,
        ProblemType::UnsupportedMediaType,
        ProblemType::InvalidInput,
        ProblemType::VersionRequired,
        ProblemType::TooManyAttempts,
        ProblemType::Unavailable,
        ProblemType::Busy,
        ProblemType::Internal,
    ];
}

/// Every error the API answers with.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// 400: malformed request (bad JSON, bad query string).
    #[error("{0}")]
    BadRequest(String),
    /// 401: missing, invalid or expired credentials.
    #[error("{0}")]
    Unauthorized(String),
    /// 401: a refresh token that is unknown, expired or ended.
    #[error("{0}")]
    RefreshTokenInvalid(String),
    /// 401: a refresh token used a second time (its family is ended).
    #[error("{0}")]
    RefreshTokenReused(String),
    /// 403: valid credentials without the role.
    #[error("{0}")]
    Forbidden(String),
    /// 404: no such resource.
    #[error("{0}")]
    NotFound(String),
    /// 405: the route exists, the method does not.
    #[error("{detail}")]
    MethodNotAllowed {
        /// Summary.
        detail: String,
        /// The methods the route allows (the `Allow` header).
        allow: String,
    },
    /// 409: state conflict.
    #[error("{0}")]
    Conflict(String),
    /// 409: a value that must be unique is already taken.
    #[error("{detail}")]
    AlreadyExists {
        /// The field holding the value.
        field: &'static str,
        /// Summary.
        detail: String,
    },
    /// 412: stale `If-Match`.
    #[error("{0}")]
    PreconditionFailed(String),
    /// 413: the body is too large.
    #[error("{0}")]
    PayloadTooLarge(String),
    /// 415: unsupported content type.
    #[error("{0}")]
    UnsupportedMediaType(String),
    /// 422: valid JSON that breaks a rule.
    #[error("{detail}")]
    Validation {
        /// Summary.
        detail: String,
        /// Per-field errors.
        errors: Vec<FieldError>,
    },
    /// 428: a write that needs `If-Match` came without it.
    #[error("{0}")]
    PreconditionRequired(String),
    /// 429: too many attempts.
    #[error("{detail}")]
    TooManyRequests {
        /// Summary.
        detail: String,
        /// Seconds until another attempt may succeed.
        retry_after: u64,
    },
    /// 503: the database is unavailable.
    #[error("{0}")]
    Unavailable(String),
    /// 503 with `Retry-After`: the calculators are busy, or a calculation spent its time
    /// budget.
    #[error("{detail}")]
    Busy {
        /// Summary.
        detail: String,
        /// Seconds after which another attempt may succeed.
        retry_after: u64,
    },
    /// 500: anything unexpected (logged, never shown).
    #[error("internal error: {0}")]
    Internal(String),
}

impl ApiError {
    /// A 422 with one field error.
    pub fn invalid(field: &str, message: impl Into<String>) -> ApiError {
        let message = message.into();
        ApiError::Validation {
            detail: format!("{field}: {message}"),
            errors: vec![FieldError::new(field, message)],
        }
    }

    /// The kind of problem this error is.
    pub fn problem_type(&self) -> ProblemType {
        match self {
            ApiError::BadRequest(_) => ProblemType::MalformedRequest,
            ApiError::Unauthorized(_) => ProblemType::Unauthenticated,
            ApiError::RefreshTokenInvalid(_) => ProblemType::RefreshTokenInvalid,
            ApiError::RefreshTokenReused(_) => ProblemType::RefreshTokenReused,
            ApiError::Forbidden(_) => ProblemType::Forbidden,
            ApiError::NotFound(_) => ProblemType::NotFound,
            ApiError::MethodNotAllowed { .. } => ProblemType::MethodNotAllowed,
            ApiError::Conflict(_) => ProblemType::Conflict,
            ApiError::AlreadyExists { .. } => ProblemType::AlreadyExists,
            ApiError::PreconditionFailed(_) => ProblemType::StaleVersion,
            ApiError::PayloadTooLarge(_) => ProblemType::BodyTooLarge,
            ApiError::UnsupportedMediaType(_) => ProblemType::UnsupportedMediaType,
            ApiError::Validation { .. } => ProblemType::InvalidInput,
            ApiError::PreconditionRequired(_) => ProblemType::VersionRequired,
            ApiError::TooManyRequests { .. } => ProblemType::TooManyAttempts,
            ApiError::Unavailable(_) => ProblemType::Unavailable,
            ApiError::Busy { .. } => ProblemType::Busy,
            ApiError::Internal(_) => ProblemType::Internal,
        }
    }

    /// A 422 from a list of field errors.
    pub fn validation(errors: Vec<FieldError>) -> ApiError {
        let detail = match errors.as_slice() {
            [one] => format!("{}: {}", one.field, one.message),
            _ => format!("{} fields are invalid", errors.len()),
        };
        ApiError::Validation { detail, errors }
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized(_)
            | ApiError::RefreshTokenInvalid(_)
            | ApiError::RefreshTokenReused(_) => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed { .. } => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::Conflict(_) | ApiError::AlreadyExists { .. } => StatusCode::CONFLICT,
            ApiError::PreconditionFailed(_) => StatusCode::PRECONDITION_FAILED,
            ApiError::PayloadTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::Validation { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::PreconditionRequired(_) => StatusCode::PRECONDITION_REQUIRED,
            ApiError::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Unavailable(_) | ApiError::Busy { .. } => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn error_response(&self) -> HttpResponse {
        let status = self.status_code();
        let (detail, errors) = match self {
            // a panic was logged by the panic hook, in the request's span (crate::panics)
            ApiError::Internal(cause) if cause == PANICKED => (None, vec![]),
            ApiError::Internal(cause) => {
                tracing::error!(cause = %cause, "internal error");
                (None, vec![])
            }
            ApiError::Validation { detail, errors } => (Some(detail.clone()), errors.clone()),
            ApiError::AlreadyExists { field, detail } => (
                Some(detail.clone()),
                vec![FieldError::new(*field, "is already taken")],
            ),
            other => (Some(other.to_string()), vec![]),
        };
        let problem = Problem {
            type_: self.problem_type(),
            title: status.canonical_reason().unwrap_or("Error").into(),
            status: status.as_u16(),
            detail,
            errors,
        };
        let mut resp = HttpResponse::build(status);
        resp.content_type("application/problem+json");
        if let ApiError::MethodNotAllowed { allow, .. } = self {
            resp.insert_header(("Allow", allow.clone()));
        }
        if let ApiError::TooManyRequests { retry_after, .. } | ApiError::Busy { retry_after, .. } =
            self
        {
            resp.insert_header(("Retry-After", retry_after.to_string()));
        }
        if let ApiError::Unavailable(_) = self {
            resp.insert_header(("Retry-After", RETRY_AFTER_SECS.to_string()));
        }
        if status == StatusCode::UNAUTHORIZED {
            resp.insert_header(("WWW-Authenticate", "Bearer"));
        }
        resp.json(problem)
    }
}

impl From<diesel::result::Error> for ApiError {
    fn from(e: diesel::result::Error) -> ApiError {
        use diesel::result::{DatabaseErrorKind, Error};
        match e {
            Error::NotFound => ApiError::NotFound("not found".into()),
            Error::DatabaseError(DatabaseErrorKind::UniqueViolation, info) => {
                match unique_field(info.constraint_name(), info.message()) {
                    Some((field, what)) => ApiError::AlreadyExists {
                        field,
                        detail: format!("{field}: {what}"),
                    },
                    None => {
                        tracing::error!(cause = %info.message(), "unknown unique constraint");
                        ApiError::Conflict("a value that must be unique is already taken".into())
                    }
                }
            }
            Error::DatabaseError(DatabaseErrorKind::ForeignKeyViolation, info) => {
                tracing::info!(cause = %info.message(), "still referenced");
                ApiError::Conflict("other records still refer to it".into())
            }
            Error::DatabaseError(DatabaseErrorKind::SerializationFailure, _) => {
                ApiError::Conflict("a concurrent change won; try again".into())
            }
            Error::DatabaseError(DatabaseErrorKind::ClosedConnection, _) => {
                ApiError::Unavailable("the database connection was lost".into())
            }
            other => {
                let text = other.to_string();
                if text.contains("database is locked") || text.contains("due to lock timeout") {
                    ApiError::Unavailable("the database is busy; try again".into())
                } else if let Some(what) = lost_wait(&text) {
                    tracing::error!(cause = %text, "database wait ended: {what}");
                    ApiError::Unavailable(UNAVAILABLE.into())
                } else if let Some(what) = storage_fault(&other, &text) {
                    tracing::error!(cause = %text, "database fault: {what}");
                    ApiError::Unavailable(UNAVAILABLE.into())
                } else {
                    ApiError::Internal(text)
                }
            }
        }
    }
}

mod words;
pub use words::plain_serde_message;

/// The unique constraints of the schema: table, columns, the request field that holds the
/// value, and what is taken, in words.
const UNIQUE: [(&str, &[&str], &str, &str); 16] = [
    (
        "users",
        &["email"],
        "email",
        "an account with this e-mail exists",
    ),
    (
        "players",
        &["knsb_number"],
        "knsb_number",
        "another player has this KNSB number",
    ),
    (
        "players",
        &["fide_id"],
        "fide_id",
        "another player has this FIDE id",
    ),
    (
        "ratings",
        &["player_id", "source", "list_date"],
        "list_date",
        "the player has a rating of this source on this list date",
    ),
    (
        "seasons",
        &["name"],
        "name",
        "a season with this name exists",
    ),
    (
        "evenings",
        &["season_id", "date"],
        "date",
        "the season has an evening on this date",
    ),
    (
        "competitions",
        &["season_id", "name"],
        "name",
        "the season has a competition with this name",
    ),
    (
        "entrants",
        &["competition_id", "player_id"],
        "player_id",
        "the player is already entered",
    ),
    (
        "rounds",
        &["competition_id", "number"],
        "number",
        "the competition has a round with this number",
    ),
    (
        "games",
        &["round_id", "board", "game_no"],
        "board",
        "the round has a game on this board",
    ),
    (
        "prize_lists",
        &["competition_id"],
        "competition_id",
        "the competition has a prize list",
    ),
    (
        "game_events",
        &["game_id", "seq"],
        "seq",
        "the game has an event with this number",
    ),
    (
        "claims",
        &["game_id", "event_seq"],
        "event_seq",
        "the event already has a claim",
    ),
    (
        "refresh_tokens",
        &["token_hash"],
        "refresh_token",
        "a refresh token with this hash exists",
    ),
    (
        "mail_outbox",
        &["message_id"],
        "message_id",
        "a mail with this Message-ID is queued",
    ),
    (
        "account_tokens",
        &["token_hash"],
        "token",
        "a link token with this hash exists",
    ),
];

/// The request field behind a unique violation, the same on both databases: Postgres names the
/// constraint (`{table}_{columns}_key`), SQLite lists the columns in its message
/// (`UNIQUE constraint failed: table.a, table.b`).
fn unique_field(constraint: Option<&str>, message: &str) -> Option<(&'static str, &'static str)> {
    UNIQUE.iter().find_map(|(table, columns, field, what)| {
        let pg = format!("{table}_{}_key", columns.join("_"));
        let sqlite = format!(
            "UNIQUE constraint failed: {}",
            columns
                .iter()
                .map(|c| format!("{table}.{c}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        (constraint == Some(pg.as_str()) || message.trim_end() == sqlite).then_some((*field, *what))
    })
}

/// The detail of every 503 caused by the database (its own text goes to the log only).
pub const UNAVAILABLE: &str = "the database is unavailable; try again shortly";

/// Seconds a client is asked to wait after a 503.
pub const RETRY_AFTER_SECS: u64 = 2;

/// Recognises a database wait that was ended by one of its bounds
/// (docs/operations.md#bounded-database-waits): the server cancelled a statement that ran
/// too long or ended an idle transaction, or the connection was lost (a TCP time-out).
fn lost_wait(text: &str) -> Option<&'static str> {
    const LOST: [(&str, &str); 6] = [
        ("due to statement timeout", "statement timeout"),
        ("idle-in-transaction timeout", "idle transaction ended"),
        ("server closed the connection", "connection lost"),
        ("could not receive data from server", "connection lost"),
        ("could not send data to server", "connection lost"),
        ("no connection to the server", "connection lost"),
    ];
    LOST.iter()
        .find(|(needle, _)| text.contains(needle))
        .map(|(_, what)| *what)
}

/// Recognises the faults of the storage under the database rather than of the request: the
/// disk is full, the file or server is read-only, or the schema is gone (a database recreated
/// empty). They are answered 503: the request may succeed once an operator acted. SQLite gives
/// them as text only (`SQLITE_FULL`, `SQLITE_READONLY`, `SQLITE_IOERR`, "no such table");
/// Postgres by SQLSTATE, of which diesel keeps only 25006 (read-only transaction), so 53100
/// (disk full) and 42P01 (undefined table) are recognised by their messages.
fn storage_fault(e: &diesel::result::Error, text: &str) -> Option<&'static str> {
    use diesel::result::{DatabaseErrorKind, Error};
    if let Error::DatabaseError(DatabaseErrorKind::ReadOnlyTransaction, _) = e {
        return Some("read-only");
    }
    if text.contains("relation \"") && text.contains("does not exist") {
        return Some("schema missing");
    }
    const FAULTS: [(&str, &str); 8] = [
        ("database or disk is full", "disk full"),
        ("No space left on device", "disk full"),
        ("could not extend file", "disk full"),
        ("attempt to write a readonly database", "read-only"),
        ("read-only transaction", "read-only"),
        ("disk I/O error", "I/O error"),
        ("no such table", "schema missing"),
        ("database disk image is malformed", "file damaged"),
    ];
    FAULTS
        .iter()
        .find(|(needle, _)| text.contains(needle))
        .map(|(_, what)| *what)
}

impl From<r2d2::Error> for ApiError {
    fn from(e: r2d2::Error) -> ApiError {
        tracing::error!(cause = %e, "no database connection");
        ApiError::Unavailable(UNAVAILABLE.into())
    }
}

/// The cause of an [`ApiError::Internal`] whose work panicked: the panic hook has logged the
/// panic already, so the answer does not log it again (docs/decisions/0256-panics-in-requests.md).
pub const PANICKED: &str = "the work panicked";

impl From<actix_web::error::BlockingError> for ApiError {
    /// The blocking pool's work panicked (the pool only fails so).
    fn from(_: actix_web::error::BlockingError) -> ApiError {
        ApiError::Internal(PANICKED.into())
    }
}

/// Result type of handlers and services.
pub type ApiResult<T> = Result<T, ApiError>;

#[cfg(test)]
mod tests {
    use super::*;

    /// Every UNIQUE of the Postgres migrations (a column's `UNIQUE` or a table's
    /// `UNIQUE (a, b)`), as (table, columns).
    fn unique_constraints_in_migrations() -> Vec<(String, Vec<String>)> {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/migrations/postgres");
        let mut found = Vec::new();
        let mut dirs: Vec<_> = std::fs::read_dir(dir).unwrap().flatten().collect();
        dirs.sort_by_key(|d| d.file_name());
        for d in dirs {
            let sql = std::fs::read_to_string(d.path().join("up.sql")).unwrap();
            let mut table = String::new();
            for line in sql.lines().map(str::trim) {
                if let Some(rest) = line.strip_prefix("CREATE TABLE ") {
                    table = rest.split_whitespace().next().unwrap().to_string();
                } else if let Some(rest) = line.strip_prefix("UNIQUE (") {
                    let cols = rest.split(')').next().unwrap();
                    found.push((
                        table.clone(),
                        cols.split(',').map(|c| c.trim().to_string()).collect(),
                    ));
                } else if line.contains(" UNIQUE") && !line.starts_with("--") {
                    let col = line.split_whitespace().next().unwrap();
                    found.push((table.clone(), vec![col.to_string()]));
                }
            }
        }
        found
    }

    #[test]
    fn every_unique_constraint_names_its_field_on_both_databases() {
        let found = unique_constraints_in_migrations();
        assert!(found.len() >= 13, "{found:?}");
        for (table, columns) in &found {
            let pg = format!("{table}_{}_key", columns.join("_"));
            let qualified: Vec<String> = columns.iter().map(|c| format!("{table}.{c}")).collect();
            let sqlite = format!("UNIQUE constraint failed: {}", qualified.join(", "));
            let by_pg = unique_field(Some(&pg), "duplicate key value violates unique constraint");
            let by_sqlite = unique_field(None, &sqlite);
            assert!(by_pg.is_some(), "{table} {columns:?} has no field");
            assert_eq!(by_pg, by_sqlite, "{table} {columns:?}");
        }
        assert_eq!(
            found.len(),
            UNIQUE.len(),
            "a listed constraint is not in the schema"
        );
    }

    #[test]
    fn an_unknown_constraint_names_no_field() {
        assert_eq!(
            unique_field(Some("other_key"), "UNIQUE constraint failed: x.y"),
            None
        );
    }

    #[test]
    fn problem_types_are_distinct_uris() {
        let uris: std::collections::BTreeSet<String> = ProblemType::ALL
            .iter()
            .map(|t| {
                serde_json::to_value(t)
                    .unwrap()
                    .as_str()
                    .unwrap()
                    .to_string()
            })
            .collect();
        assert_eq!(uris.len(), ProblemType::ALL.len());
        assert!(
            uris.iter()
                .all(|u| u.starts_with("https://clubcomp.dev/problems/"))
        );
    }
}
