//! No account e-mail or other contact data in any anonymous answer: every public GET of the
//! OpenAPI document, on every object of the demo club.

use crate::support::*;
use actix_web::http::StatusCode;

#[actix_web::test]
async fn no_public_answer_of_the_demo_club_shows_an_email() {
    let app = spawn().await;
    let urls = demo_club_public_gets(&app).await;
    for PublicGet { url, .. } in &urls {
        let r = app.get(url, None).await;
        assert!(
            // 404: a player without a rating of that source; 409: a document the
            // competition's kind does not have
            [StatusCode::OK, StatusCode::NOT_FOUND, StatusCode::CONFLICT].contains(&r.status),
            "{url}: {}",
            r.status
        );
        assert!(!r.text.contains('@'), "{url} shows an @: {}", r.text);
    }
}
