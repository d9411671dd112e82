//! The typed test client: one method per endpoint the tests drive, each returning the whole
//! [`Resp`] (the test asserts on it). The token is the caller's bearer token; the URLs come
//! from [`paths`]. A test that sends an odd request on purpose (no token, a wrong method, a
//! malformed path) uses [`TestApp::req`] or [`TestApp::send`] instead.

use super::app::{Resp, TestApp};
use super::paths;
use actix_web::http::Method;
use serde_json::Value;
use std::fmt::Display;

impl TestApp {
    async fn post_as(&self, token: &str, path: &str, body: Value) -> Resp {
        self.req(Method::POST, path, Some(token), Some(body)).await
    }

    async fn put_as(&self, token: &str, path: &str, body: Value) -> Resp {
        self.req(Method::PUT, path, Some(token), Some(body)).await
    }

    /// `POST /auth/login` with `{"email", "password"}`.
    pub async fn login(&self, body: Value) -> Resp {
        self.req(Method::POST, paths::LOGIN, None, Some(body)).await
    }

    /// `POST /auth/refresh` with `{"refresh_token"}`.
    pub async fn refresh(&self, refresh_token: &str) -> Resp {
        let body = serde_json::json!({ "refresh_token": refresh_token });
        self.req(Method::POST, paths::REFRESH, None, Some(body))
            .await
    }

    /// `POST /auth/logout` with `{"refresh_token"}`.
    pub async fn logout(&self, refresh_token: &str) -> Resp {
        let body = serde_json::json!({ "refresh_token": refresh_token });
        self.req(Method::POST, paths::LOGOUT, None, Some(body))
            .await
    }

    /// `POST /auth/logout-all` as the caller of `token`.
    pub async fn logout_all(&self, token: &str) -> Resp {
        self.req(Method::POST, paths::LOGOUT_ALL, Some(token), None)
            .await
    }

    /// `GET /auth/me`.
    pub async fn me(&self, token: &str) -> Resp {
        self.get(paths::ME, Some(token)).await
    }

    pub async fn create_user(&self, token: &str, body: Value) -> Resp {
        self.post_as(token, paths::USERS, body).await
    }

    pub async fn create_player(&self, token: &str, body: Value) -> Resp {
        self.post_as(token, paths::PLAYERS, body).await
    }

    /// `PUT /ratings`: a rating list.
    pub async fn push_ratings(&self, token: &str, body: Value) -> Resp {
        self.put_as(token, paths::RATINGS, body).await
    }

    pub async fn create_season(&self, token: &str, body: Value) -> Resp {
        self.post_as(token, paths::SEASONS, body).await
    }

    /// `POST /seasons/{season}/calendar`: generates the season's evenings.
    pub async fn generate_calendar(&self, token: &str, season: impl Display, body: Value) -> Resp {
        self.post_as(token, &paths::calendar(season), body).await
    }

    /// `GET /evenings/{id}`: the evening with its rounds (`token`: as whom).
    pub async fn evening(&self, token: Option<&str>, id: impl Display) -> Resp {
        self.get(&paths::evening(id), token).await
    }

    /// `GET /evenings?{query}`: a page of evenings.
    pub async fn evenings_page(&self, query: &str) -> Resp {
        self.get(&format!("{}?{query}", paths::EVENINGS), None)
            .await
    }

    /// `GET /players/{id}/card{query}` (`query` empty or starting with `?`), with
    /// `If-None-Match: if_none_match` when given.
    pub async fn player_card(
        &self,
        player: impl Display,
        query: &str,
        if_none_match: Option<&str>,
    ) -> Resp {
        let mut req = actix_web::test::TestRequest::get()
            .uri(&format!("{}{query}", paths::player_card(player)));
        if let Some(tag) = if_none_match {
            req = req.insert_header(("If-None-Match", tag.to_string()));
        }
        self.send(req).await
    }

    /// `GET /players/{id}/games?{query}`: a page of a player's games.
    pub async fn player_games(&self, player: impl Display, query: &str) -> Resp {
        self.get(&format!("{}?{query}", paths::player_games(player)), None)
            .await
    }

    /// `GET /me`: the member page (`token`: whose).
    pub async fn member_page(&self, token: Option<&str>) -> Resp {
        self.get(paths::MEMBER_PAGE, token).await
    }

    /// `PATCH /players/{id}` (without `If-Match`).
    pub async fn update_player(&self, token: &str, id: impl Display, body: Value) -> Resp {
        self.req(Method::PATCH, &paths::player(id), Some(token), Some(body))
            .await
    }

    /// `GET /me/export`: everything the club holds about the caller.
    pub async fn export_me(&self, token: Option<&str>) -> Resp {
        self.get(paths::ME_EXPORT, token).await
    }

    /// `PUT /me/publication`: how the caller's name is published.
    pub async fn put_publication(&self, token: &str, body: Value) -> Resp {
        self.req(Method::PUT, paths::ME_PUBLICATION, Some(token), Some(body))
            .await
    }

    /// `GET /evenings/next`.
    pub async fn next_evening(&self, token: Option<&str>) -> Resp {
        self.get(paths::NEXT_EVENING, token).await
    }

    /// `PATCH /evenings/{id}`: edits an evening (date, start time, kind, note).
    pub async fn update_evening(&self, token: &str, id: impl Display, body: Value) -> Resp {
        self.req(Method::PATCH, &paths::evening(id), Some(token), Some(body))
            .await
    }

    pub async fn create_competition(&self, token: &str, season: impl Display, body: Value) -> Resp {
        self.post_as(token, &paths::season_competitions(season), body)
            .await
    }

    /// `POST /competitions/{comp}/entrants` with `{"entrants": [...]}`.
    pub async fn add_entrants(&self, token: &str, comp: impl Display, body: Value) -> Resp {
        self.post_as(token, &paths::entrants(comp), body).await
    }

    pub async fn create_round(&self, token: &str, comp: impl Display, body: Value) -> Resp {
        self.post_as(token, &paths::rounds(comp), body).await
    }

    /// `POST /competitions/{comp}/rounds/{number}/pairing`: generates the pairing.
    pub async fn generate_pairing(
        &self,
        token: &str,
        comp: impl Display,
        number: impl Display,
        body: Value,
    ) -> Resp {
        self.post_as(token, &paths::pairing(comp, number), body)
            .await
    }

    pub async fn publish_round(
        &self,
        token: &str,
        comp: impl Display,
        number: impl Display,
    ) -> Resp {
        self.post_as(token, &paths::publish(comp, number), serde_json::json!({}))
            .await
    }

    pub async fn complete_round(
        &self,
        token: &str,
        comp: impl Display,
        number: impl Display,
    ) -> Resp {
        self.post_as(token, &paths::complete(comp, number), serde_json::json!({}))
            .await
    }

    /// `PUT /games/{game}/result` without `If-Match`.
    pub async fn enter_result(&self, token: &str, game: impl Display, body: Value) -> Resp {
        self.put_as(token, &paths::result(game), body).await
    }

    /// `PUT /games/{game}/time-control`: the game's own tempo, with `If-Match` when given.
    pub async fn set_time_control(
        &self,
        token: &str,
        game: impl Display,
        body: Value,
        if_match: Option<&str>,
    ) -> Resp {
        let mut r = actix_web::test::TestRequest::default()
            .method(Method::PUT)
            .uri(&paths::time_control(game))
            .insert_header(("Authorization", format!("Bearer {token}")))
            .set_json(body);
        if let Some(m) = if_match {
            r = r.insert_header(("If-Match", m.to_string()));
        }
        self.send(r).await
    }

    /// `PUT /games/{game}/moves`: the move record.
    pub async fn record_moves(&self, token: &str, game: impl Display, body: Value) -> Resp {
        self.put_as(token, &paths::moves(game), body).await
    }

    /// `POST /games/{game}/events`: an arbiter's event in the game log.
    pub async fn record_event(&self, token: &str, game: impl Display, body: Value) -> Resp {
        self.post_as(token, &paths::events(game), body).await
    }

    pub async fn claim(&self, token: &str, game: impl Display, body: Value) -> Resp {
        self.post_as(token, &paths::claims(game), body).await
    }

    /// `GET /games/{game}/claims?{query}`: a page of the game's claims.
    pub async fn claims(&self, token: &str, game: impl Display, query: &str) -> Resp {
        self.get(&format!("{}?{query}", paths::claims(game)), Some(token))
            .await
    }

    /// `GET /games/{game}/appeals?{query}`: a page of the appeals about the game.
    pub async fn appeals(&self, token: &str, game: impl Display, query: &str) -> Resp {
        self.get(
            &format!("{}?{query}", paths::game_appeals(game)),
            Some(token),
        )
        .await
    }

    /// `GET /service-tokens?{query}`: a page of the service tokens.
    pub async fn service_tokens(&self, admin: &str, query: &str) -> Resp {
        self.get(&format!("{}?{query}", paths::SERVICE_TOKENS), Some(admin))
            .await
    }

    pub async fn decide_claim(&self, token: &str, claim: impl Display, body: Value) -> Resp {
        self.post_as(token, &paths::claim_decision(claim), body)
            .await
    }

    /// `POST /protests/{protest}/decision`: the KNDB protest committee's ruling, recorded by
    /// the leader (`{"ruling", "reason"?, "result"?}`).
    pub async fn decide_protest(&self, token: &str, protest: impl Display, body: Value) -> Resp {
        self.post_as(token, &paths::protest_decision(protest), body)
            .await
    }

    /// `POST /competitions/{comp}/playoff/decision`: the arbiter places a player of a play-off
    /// still tied first (`{"player_id", "reason"}`).
    pub async fn decide_playoff(&self, token: &str, comp: impl Display, body: Value) -> Resp {
        self.post_as(token, &paths::playoff_decision(comp), body)
            .await
    }

    /// `POST /calc/{name}`: a calculator, without a token.
    pub async fn calc(&self, name: &str, body: Value) -> Resp {
        self.req(Method::POST, &paths::calc(name), None, Some(body))
            .await
    }

    /// `POST /competitions/{id}/check-in`: checks in a player (`{"player_id"}`) or a guest
    /// (`{"name", "rating"}`) of a blitz championship.
    pub async fn check_in(&self, token: &str, comp: impl Display, body: Value) -> Resp {
        self.req(
            Method::POST,
            &paths::check_in(comp),
            Some(token),
            Some(body),
        )
        .await
    }

    /// `POST /competitions/{id}/check-in/close`.
    /// `POST /evenings/{evening}/check-in/open`.
    pub async fn open_evening_check_in(&self, token: &str, evening: impl Display) -> Resp {
        let path = paths::open_evening_check_in(evening);
        self.req(Method::POST, &path, Some(token), None).await
    }

    /// `POST /evenings/{evening}/check-in/close`.
    pub async fn close_evening_check_in(&self, token: &str, evening: impl Display) -> Resp {
        let path = paths::close_evening_check_in(evening);
        self.req(Method::POST, &path, Some(token), None).await
    }

    /// `GET /evenings/{evening}/check-in-code`.
    pub async fn evening_check_in_code(&self, token: Option<&str>, evening: impl Display) -> Resp {
        self.get(&paths::evening_check_in_code(evening), token)
            .await
    }

    /// `POST /evenings/{evening}/check-in` with `{"code": code}`.
    pub async fn self_check_in(&self, token: &str, evening: impl Display, code: &str) -> Resp {
        let path = paths::evening_check_in(evening);
        self.post_as(token, &path, serde_json::json!({ "code": code }))
            .await
    }

    pub async fn close_check_in(&self, token: &str, comp: impl Display) -> Resp {
        self.req(
            Method::POST,
            &paths::close_check_in(comp),
            Some(token),
            None,
        )
        .await
    }

    /// `GET /competitions/{id}/check-in`, with a token or as the public.
    pub async fn checked_in(&self, token: Option<&str>, comp: impl Display) -> Resp {
        self.get(&paths::check_in(comp), token).await
    }

    /// The public standings.
    pub async fn standings(&self, comp: impl Display) -> Resp {
        self.get(&paths::standings(comp), None).await
    }

    /// `POST /service-tokens` with `{"name"}`: the new token's text.
    pub async fn service_token(&self, admin: &str, name: &str) -> String {
        let r = self
            .post_as(
                admin,
                paths::SERVICE_TOKENS,
                serde_json::json!({"name": name}),
            )
            .await;
        assert_eq!(r.status, actix_web::http::StatusCode::CREATED, "{}", r.text);
        r.body["token"].as_str().unwrap().to_string()
    }

    /// `POST /webhooks`.
    pub async fn create_webhook(&self, admin: &str, body: Value) -> Resp {
        self.post_as(admin, paths::WEBHOOKS, body).await
    }

    /// `GET /webhooks?{query}`.
    pub async fn list_webhooks(&self, admin: &str, query: &str) -> Resp {
        let url = if query.is_empty() {
            paths::WEBHOOKS.to_string()
        } else {
            format!("{}?{query}", paths::WEBHOOKS)
        };
        self.get(&url, Some(admin)).await
    }

    /// `GET /webhooks/{id}`.
    pub async fn get_webhook(&self, admin: &str, id: impl Display) -> Resp {
        self.get(&paths::webhook(id), Some(admin)).await
    }

    /// `PATCH /webhooks/{id}`.
    pub async fn update_webhook(&self, admin: &str, id: impl Display, body: Value) -> Resp {
        self.req(Method::PATCH, &paths::webhook(id), Some(admin), Some(body))
            .await
    }

    /// `DELETE /webhooks/{id}`.
    pub async fn delete_webhook(&self, admin: &str, id: impl Display) -> Resp {
        self.req(Method::DELETE, &paths::webhook(id), Some(admin), None)
            .await
    }

    /// `GET /webhooks/{id}/deliveries?{query}`.
    pub async fn webhook_deliveries(&self, admin: &str, id: impl Display, query: &str) -> Resp {
        self.get(&paths::webhook_deliveries(id, query), Some(admin))
            .await
    }

    /// `POST /webhooks/{id}/deliveries/{delivery}/redeliver`.
    pub async fn redeliver(&self, admin: &str, id: impl Display, delivery: impl Display) -> Resp {
        self.req(
            Method::POST,
            &paths::redeliver(id, delivery),
            Some(admin),
            None,
        )
        .await
    }

    /// `GET /changes?{query}`: a page of the changes feed.
    pub async fn changes(&self, token: &str, query: &str) -> Resp {
        self.get(&paths::changes(query), Some(token)).await
    }

    /// `GET /competitions/{comp}/rounds/{number}` without a token.
    pub async fn public_round(&self, comp: impl Display, number: impl Display) -> Resp {
        self.get(&paths::round(comp, number), None).await
    }

    /// A conditional read: `GET path` with `If-None-Match`, as `token` reads it (none: the
    /// public).
    pub async fn get_as_if_none_match(
        &self,
        path: &str,
        token: Option<&str>,
        if_none_match: &str,
    ) -> Resp {
        let mut req = actix_web::test::TestRequest::get()
            .uri(path)
            .insert_header(("If-None-Match", if_none_match));
        if let Some(t) = token {
            req = req.insert_header(("Authorization", format!("Bearer {t}")));
        }
        self.send(req).await
    }

    /// A conditional read: `GET path` with `If-None-Match`, as the public.
    pub async fn get_if_none_match(&self, path: &str, if_none_match: &str) -> Resp {
        self.send(
            actix_web::test::TestRequest::get()
                .uri(path)
                .insert_header(("If-None-Match", if_none_match)),
        )
        .await
    }

    /// `PATCH /competitions/{comp}` with `If-Match`.
    pub async fn update_competition_if_match(
        &self,
        token: &str,
        comp: impl Display,
        if_match: &str,
        body: Value,
    ) -> Resp {
        self.send(
            actix_web::test::TestRequest::patch()
                .uri(&paths::competition(comp))
                .insert_header(("Authorization", format!("Bearer {token}")))
                .insert_header(("If-Match", if_match))
                .set_json(body),
        )
        .await
    }
}
