//! The OpenAPI document's frame: info, the bearer security scheme and tags. Paths come from
//! the registered handlers (utoipa-actix-web). Each protected operation lists the roles that
//! may call it as the bearer requirement's scopes (OpenAPI 3.1 allows role names there).

use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

/// The document frame.
#[derive(OpenApi)]
#[openapi(
    info(title = "clubcomp", description = "Competition server for chess and draughts clubs: Keizer, Swiss, round robins, arbiter tools.", license(name = "MIT OR Apache-2.0")),
    modifiers(&Security),
    tags(
        (name = "operations", description = "Health and readiness"),
        (name = "auth", description = "Login and identity"),
        (name = "users", description = "User administration (admin)"),
        (name = "service-tokens", description = "Tokens for rating-sync jobs (admin)"),
        (name = "players", description = "Players (SPEC §2)"),
        (name = "ratings", description = "Ratings and rating lists (SPEC §2, §12)"),
        (name = "seasons", description = "Seasons and the calendar (SPEC §5)"),
        (name = "competitions", description = "Competitions and entrants (SPEC §2)"),
        (name = "rounds", description = "Rounds, pairings and results (SPEC §2, §6, §8, §11)"),
        (name = "arbiter", description = "Game events, moves, claims and appeals (SPEC §8, §10, §11)"),
    )
)]
pub struct ApiDoc;

struct Security;

impl Modify for Security {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("JWT")
                    .description(Some(
                        "Token from POST /api/v1/auth/login, or an admin-issued service token",
                    ))
                    .build(),
            ),
        );
    }
}

/// Final touches on the generated document (version from the crate).
pub fn finish(mut spec: utoipa::openapi::OpenApi) -> utoipa::openapi::OpenApi {
    spec.info.version = env!("CARGO_PKG_VERSION").to_string();
    spec
}

/// The document as pretty JSON with a trailing newline (the committed form).
pub fn to_pretty_json(spec: &utoipa::openapi::OpenApi) -> String {
    let mut s = serde_json::to_string_pretty(spec).unwrap_or_default();
    s.push('\n');
    s
}
