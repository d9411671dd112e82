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
#[schema(example = json!({"type": "about:blank", "title": "Unprocessable Entity", "status": 422,
    "detail": "the request breaks a rule", "errors": [{"field": "name", "message": "must not be empty"}]}))]
pub struct Problem {
    /// A URI for the problem type (`about:blank` or a clubcomp rule id).
    #[serde(rename = "type")]
    pub type_: String,
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

/// Every error the API answers with.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// 400: malformed request (bad JSON, bad query string).
    #[error("{0}")]
    BadRequest(String),
    /// 401: missing, invalid or expired credentials.
    #[error("{0}")]
    Unauthorized(String),
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
            ApiError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed { .. } => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::Conflict(_) => StatusCode::CONFLICT,
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
            ApiError::Internal(cause) => {
                tracing::error!(cause = %cause, "internal error");
                (None, vec![])
            }
            ApiError::Validation { detail, errors } => (Some(detail.clone()), errors.clone()),
            other => (Some(other.to_string()), vec![]),
        };
        let problem = Problem {
            type_: "about:blank".into(),
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
                ApiError::Conflict(format!("already exists ({})", info.message()))
            }
            Error::DatabaseError(DatabaseErrorKind::ForeignKeyViolation, info) => {
                ApiError::Conflict(format!("still referenced ({})", info.message()))
            }
            Error::DatabaseError(DatabaseErrorKind::SerializationFailure, _) => {
                ApiError::Conflict("a concurrent change won; try again".into())
            }
            Error::DatabaseError(DatabaseErrorKind::ClosedConnection, _) => {
                ApiError::Unavailable("the database connection was lost".into())
            }
            other => {
                let text = other.to_string();
                if text.contains("database is locked") {
                    ApiError::Unavailable("the database is busy; try again".into())
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

/// The detail of every 503 caused by the database (its own text goes to the log only).
pub const UNAVAILABLE: &str = "the database is unavailable; try again shortly";

/// Seconds a client is asked to wait after a 503.
pub const RETRY_AFTER_SECS: u64 = 2;

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

impl From<crate::db::PoolError> for ApiError {
    fn from(e: crate::db::PoolError) -> ApiError {
        match e {
            crate::db::PoolError::Timeout(e) => e.into(),
            crate::db::PoolError::CircuitOpen => ApiError::Unavailable(UNAVAILABLE.into()),
        }
    }
}

impl From<actix_web::error::BlockingError> for ApiError {
    fn from(e: actix_web::error::BlockingError) -> ApiError {
        ApiError::Internal(format!("blocking task failed: {e}"))
    }
}

/// Result type of handlers and services.
pub type ApiResult<T> = Result<T, ApiError>;
