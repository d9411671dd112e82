//! A panic never reaches a client and is logged once, in one line
//! ([decision 0256](../docs/decisions/0256-panics-in-requests.md)). The panic hook replaces
//! the default one (a message and, with `RUST_BACKTRACE`, a backtrace of many lines) with one
//! `tracing` error event, recorded in the span of the request that panicked, so the line
//! carries its request id; the middleware [`catch_panics`] answers a handler that panicked
//! as a 500 `application/problem+json` without any of the panic's text. Work that a request
//! hands to another thread (the blocking pool, the calculator threads) runs in the request's
//! span, so its panic is logged with the request id too.

use crate::error::{ApiError, PANICKED};
use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use futures_util::FutureExt;
use std::any::Any;
use std::panic::{AssertUnwindSafe, Location};

/// The panic's message on one line: a `&str` or `String` payload with its line breaks and
/// other control characters escaped; another payload is named as such.
pub fn message(payload: &(dyn Any + Send)) -> String {
    let text = payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str));
    match text {
        Some(t) => t.escape_debug().to_string(),
        None => "a panic without a text message".to_string(),
    }
}

/// `file:line:column` of a panic.
fn place(location: Option<&Location<'_>>) -> String {
    location.map_or_else(
        || "unknown".to_string(),
        |l| format!("{}:{}:{}", l.file(), l.line(), l.column()),
    )
}

/// Replaces the panic hook with one that logs a panic as one `tracing` error event (in the
/// current span, so with the request id). Where no subscriber records errors (a command
/// without logging set up, a test), the hook that was there before reports the panic.
pub fn install_hook() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if tracing::enabled!(tracing::Level::ERROR) {
            tracing::error!(
                panic = %message(info.payload()),
                location = %place(info.location()),
                "panicked"
            );
        } else {
            previous(info);
        }
    }));
}

/// Answers a request whose handling panicked as a 500 problem (the hook has logged the
/// panic); any other answer passes through. The request is not kept for the answer (a clone
/// of it would stop the router from recording the path's parameters): the error is rendered
/// as its problem by the layer above.
pub async fn catch_panics<B: MessageBody + 'static>(
    req: ServiceRequest,
    next: Next<B>,
) -> Result<ServiceResponse<B>, actix_web::Error> {
    match AssertUnwindSafe(next.call(req)).catch_unwind().await {
        Ok(answer) => answer,
        Err(_) => Err(ApiError::Internal(PANICKED.into()).into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::{call_service, init_service, try_call_service};
    use actix_web::{App, HttpResponse, middleware::from_fn, test::TestRequest, web};

    #[test]
    fn a_message_is_one_line() {
        let s: Box<dyn Any + Send> = Box::new("left\nright\r\u{202E}");
        assert_eq!(message(s.as_ref()), "left\\nright\\r\\u{202e}");
        let s: Box<dyn Any + Send> = Box::new(String::from("plain"));
        assert_eq!(message(s.as_ref()), "plain");
        let s: Box<dyn Any + Send> = Box::new(7_u32);
        assert_eq!(message(s.as_ref()), "a panic without a text message");
    }

    async fn boom() -> HttpResponse {
        panic!("secret Rust text: index out of bounds");
    }

    #[actix_web::test]
    async fn a_handler_that_panics_answers_a_500_problem_without_its_text() {
        let app = init_service(
            App::new()
                .route("/boom", web::get().to(boom))
                .route(
                    "/fine",
                    web::get().to(|| async { HttpResponse::NoContent().finish() }),
                )
                .wrap(from_fn(catch_panics)),
        )
        .await;
        // the middleware hands the panic up as the 500 problem the server renders
        let err = try_call_service(&app, TestRequest::get().uri("/boom").to_request())
            .await
            .expect_err("a panic answers an error, not a response");
        let res = err.error_response();
        assert_eq!(res.status(), 500);
        assert_eq!(
            res.headers().get("content-type").unwrap(),
            "application/problem+json"
        );
        let bytes = actix_web::body::to_bytes(res.into_body()).await.unwrap();
        let body: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(body["status"], 500);
        assert_eq!(body["title"], "Internal Server Error");
        let text = body.to_string();
        assert!(
            !text.contains("secret") && !text.contains("panic"),
            "{text}"
        );
        // the service still answers after the panic
        let res = call_service(&app, TestRequest::get().uri("/fine").to_request()).await;
        assert_eq!(res.status(), 204);
    }
}
