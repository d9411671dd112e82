//! HTTP handlers, one file per resource. Handlers are named `<verb>_<resource>` (also the
//! OpenAPI operation id) and carry their request and response types beside them.
//!
//! Request types state in their schema the syntactic rules their handler checks (ranges,
//! lengths, patterns, formats, value lists), so that the document is as strict as the
//! validation; the handler still checks them itself and answers 422 with its own message.

pub mod accounts;
pub mod arbiter;
pub mod attendance;
pub mod auth;
pub mod calc;
pub mod calc_rules;
pub mod calendar;
pub mod changes;
pub mod check_in;
pub mod competitions;
pub mod evenings;
#[cfg(test)]
mod fuzz_tests;
pub mod game_reports;
pub mod health;
pub mod mail;
pub mod member;
pub mod members;
pub mod notifications;
pub mod own_account;
pub mod pairings;
pub mod player_card;
pub mod player_games;
pub mod players;
pub mod playoff;
pub mod presence;
pub mod privacy;
pub mod prizes;
pub mod protests;
pub mod ratings;
pub mod results;
pub mod rounds;
pub mod seasons;
pub mod service_tokens;
pub mod standings;
pub mod stream;
pub mod tempo;
pub mod users;
pub mod webhooks;

use crate::error::{ApiError, ApiResult};
use actix_web::{HttpMessage, HttpRequest};
use serde::Deserialize;
use utoipa::IntoParams;

pub use crate::services::date;
pub use crate::services::input::nul_refused;
pub use crate::services::version::{ExpectedVersion, check_if_match, etag};
pub use players::double_option;

/// Registers the stateless calculators (`/calc/…`).
fn configure_calculators(cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
    cfg.service(calc::create_keizer_calculation);
    cfg.service(calc::create_keizer_prizes_calculation);
    cfg.service(calc::create_round_robin_calculation);
    cfg.service(calc::create_keizer_pairing_calculation);
    cfg.service(calc::create_pairing_calculation);
    cfg.service(calc::create_tiebreaks_calculation);
    cfg.service(calc_rules::create_swiss_playoff_calculation);
    cfg.service(calc_rules::create_blitz_rounds_calculation);
}

/// Registers every `/api/v1` operation.
// Long: one line per operation, in the order routes are matched.
pub fn configure(cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
    // the hottest public read first: routes are matched in registration order
    cfg.service(standings::get_standings);
    cfg.service(auth::create_token)
        .service(auth::refresh_session)
        .service(auth::delete_session)
        .service(auth::delete_all_sessions)
        .service(auth::get_me)
        .service(users::list_users)
        .service(users::create_user)
        .service(users::update_user)
        .service(users::reset_password)
        .service(service_tokens::list_service_tokens)
        .service(service_tokens::create_service_token)
        .service(service_tokens::revoke_service_token)
        .service(players::list_players)
        .service(players::create_player)
        .service(players::get_player)
        .service(players::update_player)
        .service(players::deactivate_player)
        .service(players::erase_player)
        .service(ratings::list_player_ratings)
        .service(ratings::get_player_rating)
        .service(ratings::push_ratings)
        .service(ratings::import_knsb_ratings)
        .service(seasons::create_season)
        .service(seasons::list_seasons)
        .service(seasons::get_season)
        .service(competitions::create_competition)
        .service(competitions::list_competitions)
        .service(competitions::get_competition)
        .service(competitions::update_competition)
        .service(competitions::create_entrants)
        .service(competitions::list_entrants)
        .service(competitions::delete_entrant)
        .service(competitions::withdraw_entrant)
        .service(calendar::list_evenings)
        .service(calendar::update_evening)
        .service(rounds::create_round)
        .service(rounds::list_rounds)
        .service(rounds::get_round)
        .service(rounds::publish_round)
        .service(rounds::complete_round);
    // ---- more services are registered below, one line each ----
    configure_calculators(cfg);
    cfg.service(evenings::get_next_evening);
    cfg.service(evenings::get_evening);
    cfg.service(evenings::list_all_evenings);
    cfg.service(player_games::list_player_games);
    cfg.service(player_card::get_player_card);
    cfg.service(member::get_member_page);
    cfg.service(calendar::create_calendar);
    cfg.service(calendar::get_calendar_ics);
    cfg.service(attendance::create_own_attendance);
    cfg.service(attendance::get_own_attendance);
    cfg.service(attendance::create_attendance);
    cfg.service(attendance::create_check_ins);
    cfg.service(attendance::get_round_attendance);
    cfg.service(attendance::update_attendance_deadline);
    cfg.service(pairings::create_pairing);
    cfg.service(pairings::replace_pairing);
    cfg.service(pairings::delete_pairing);
    cfg.service(results::put_game_result);
    cfg.service(results::get_game_audit);
    cfg.service(tempo::update_game_time_control);
    cfg.service(results::get_competition_audit);
    cfg.service(standings::get_standings_csv);
    cfg.service(standings::get_competition_trf);
    cfg.service(prizes::get_prizes);
    cfg.service(prizes::finalize_prizes);
    cfg.service(prizes::create_playoffs);
    cfg.service(prizes::get_playoffs);
    cfg.service(check_in::check_in);
    cfg.service(check_in::get_check_in);
    cfg.service(check_in::close_check_in);
    cfg.service(presence::open_evening_check_in);
    cfg.service(presence::close_evening_check_in);
    cfg.service(presence::get_evening_check_in_code);
    cfg.service(presence::create_self_check_in);
    cfg.service(game_reports::create_game_report);
    cfg.service(playoff::create_playoff);
    cfg.service(playoff::get_playoff);
    cfg.service(playoff::create_playoff_decision);
    cfg.service(arbiter::create_game_event);
    cfg.service(arbiter::list_game_events);
    cfg.service(arbiter::update_game_moves);
    cfg.service(arbiter::get_game_moves);
    cfg.service(arbiter::create_claim);
    cfg.service(arbiter::list_claims);
    cfg.service(arbiter::create_claim_decision);
    cfg.service(arbiter::create_claim_appeal);
    cfg.service(changes::get_changes);
    cfg.service(stream::get_stream);
    cfg.service(arbiter::create_event_appeal);
    cfg.service(arbiter::list_appeals);
    cfg.service(arbiter::create_appeal_decision);
    cfg.service(protests::create_claim_protest);
    cfg.service(protests::create_event_protest);
    cfg.service(protests::list_game_protests);
    cfg.service(protests::list_competition_protests);
    cfg.service(protests::create_protest_decision);
    cfg.service(webhooks::create_webhook);
    cfg.service(webhooks::list_webhooks);
    cfg.service(webhooks::get_webhook);
    cfg.service(webhooks::update_webhook);
    cfg.service(webhooks::delete_webhook);
    cfg.service(webhooks::list_webhook_deliveries);
    cfg.service(webhooks::redeliver_webhook_delivery);
    cfg.service(mail::list_mail_deliveries);
    cfg.service(accounts::create_invitations);
    cfg.service(accounts::create_invitation);
    cfg.service(accounts::accept_invitation);
    cfg.service(accounts::create_password_reset);
    cfg.service(accounts::confirm_password_reset);
    cfg.service(members::import_members);
    cfg.service(own_account::change_password);
    cfg.service(own_account::change_email);
    cfg.service(own_account::confirm_email);
    notifications::configure(cfg);
    privacy::configure(cfg);
}

/// The highest page number a list accepts (200 per page × 100,000 pages is far beyond any
/// club's lists; a larger number is refused rather than read as an empty page).
pub const MAX_PAGE: u32 = 100_000;

/// A list's query struct with the page fields `page` and `per_page` (their docs, bounds and
/// serde names) after its own fields. serde's `flatten` cannot be combined with
/// `deny_unknown_fields`, which every query struct has, so the fields are written into each
/// struct by this macro; the struct reads its page with [`PageParams::of`].
macro_rules! paged_query {
    (
        $(#[$attr:meta])*
        $vis:vis struct $name:ident {
            $( $(#[$field_attr:meta])* $field_vis:vis $field:ident : $ty:ty ),* $(,)?
        }
    ) => {
        $(#[$attr])*
        $vis struct $name {
            $( $(#[$field_attr])* $field_vis $field: $ty, )*
            /// Page number, from 1 to 100,000 (default 1).
            #[param(minimum = 1, maximum = 100000)]
            pub page: Option<u32>,
            /// Items per page, 1–200 (default 50).
            #[param(minimum = 1, maximum = 200)]
            pub per_page: Option<u32>,
        }
    };
}
pub(crate) use paged_query;

paged_query! {
    /// Pagination query parameters; any other parameter is refused, naming it (a list with
    /// filters reads them with its own struct and [`PageParams::of`]).
    #[derive(Debug, Default, Deserialize, IntoParams)]
    #[into_params(parameter_in = Query)]
    #[serde(deny_unknown_fields)]
    pub struct PageParams {}
}

impl PageParams {
    /// (limit, offset, page, per_page) with defaults; 422 outside the ranges.
    pub fn resolve(&self) -> ApiResult<(i64, i64, u32, u32)> {
        let page = self.page.unwrap_or(1);
        let per_page = self.per_page.unwrap_or(50);
        if !(1..=MAX_PAGE).contains(&page) {
            return Err(ApiError::invalid("page", "must be from 1 to 100000"));
        }
        if !(1..=200).contains(&per_page) {
            return Err(ApiError::invalid("per_page", "must be from 1 to 200"));
        }
        let offset = i64::from(page - 1) * i64::from(per_page);
        Ok((i64::from(per_page), offset, page, per_page))
    }
}

/// One page of a list (docs/api-guide.md#paging): its items, how many there are in all, and
/// which page of which size this is.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
pub struct Page<T> {
    /// The items of this page, in the list's order.
    pub items: Vec<T>,
    /// How many items the whole list has.
    pub total: i64,
    /// This page's number (from 1).
    pub page: u32,
    /// The page size asked for.
    pub per_page: u32,
}

/// A page that was asked for: the rows to skip and take, and its number and size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Paging {
    /// Rows to take.
    pub limit: i64,
    /// Rows to skip.
    pub offset: i64,
    /// Page number (from 1).
    pub page: u32,
    /// Page size.
    pub per_page: u32,
}

impl Paging {
    /// The answer: the page as JSON with its `Link` header.
    pub fn answer<T: serde::Serialize>(
        self,
        req: &HttpRequest,
        total: i64,
        items: Vec<T>,
    ) -> actix_web::HttpResponse {
        actix_web::HttpResponse::Ok()
            .insert_header(("Link", page_links(req, self.page, self.per_page, total)))
            .json(Page {
                items,
                total,
                page: self.page,
                per_page: self.per_page,
            })
    }
}

impl PageParams {
    /// The page of `page` and `per_page` read with other parameters.
    pub fn of(page: Option<u32>, per_page: Option<u32>) -> PageParams {
        PageParams { page, per_page }
    }

    /// The page asked for, with defaults; 422 outside the ranges.
    pub fn paging(&self) -> ApiResult<Paging> {
        let (limit, offset, page, per_page) = self.resolve()?;
        Ok(Paging {
            limit,
            offset,
            page,
            per_page,
        })
    }
}

/// The `Link` header of a page (RFC 8288): `first`, `prev`, `next` and `last`, each the
/// request's own path and query with only `page` changed, so filters carry over. A page past
/// the end links back to the first and the last. An empty list has one page.
pub fn page_links(req: &HttpRequest, page: u32, per_page: u32, total: i64) -> String {
    let last =
        u32::try_from(((total.max(0) + i64::from(per_page) - 1) / i64::from(per_page)).max(1))
            .unwrap_or(MAX_PAGE)
            .min(MAX_PAGE);
    let others: Vec<(String, String)> = form_urlencoded::parse(req.query_string().as_bytes())
        .filter(|(k, _)| k != "page")
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect();
    let url = |n: u32| {
        let mut q = form_urlencoded::Serializer::new(String::new());
        for (k, v) in &others {
            q.append_pair(k, v);
        }
        q.append_pair("page", &n.to_string());
        format!("<{}?{}>", req.path(), q.finish())
    };
    let mut links = vec![format!("{}; rel=\"first\"", url(1))];
    if page > 1 && page <= last {
        links.push(format!("{}; rel=\"prev\"", url(page - 1)));
    }
    if page < last {
        links.push(format!("{}; rel=\"next\"", url(page + 1)));
    }
    links.push(format!("{}; rel=\"last\"", url(last)));
    links.join(", ")
}

/// The answer of a versioned read: `304 Not Modified` when the request's `If-None-Match`
/// names `etag` (weak comparison, RFC 9110 13.1.2; `*` matches any), else `200` with the body.
/// Either carries the `ETag`.
pub fn versioned<T: serde::Serialize>(
    req: &HttpRequest,
    etag: String,
    body: &T,
) -> actix_web::HttpResponse {
    if crate::cached::reader_has(req, &etag) {
        return crate::cached::not_modified_response(etag);
    }
    actix_web::HttpResponse::Ok()
        .insert_header(("ETag", etag))
        .json(body)
}

/// The `If-Match` header's value, if any (400 when unreadable; 428 `version-required` when
/// it is absent and `REQUIRE_IF_MATCH` is on). Every write to a versioned resource reads its
/// condition here.
pub fn if_match(req: &HttpRequest) -> ApiResult<ExpectedVersion> {
    let header = req
        .headers()
        .get(actix_web::http::header::IF_MATCH)
        .map(|h| {
            h.to_str()
                .map(str::to_string)
                .map_err(|_| ApiError::BadRequest("If-Match is not readable".into()))
        })
        .transpose()?;
    let required = req
        .app_data::<actix_web::web::Data<crate::state::AppState>>()
        .is_some_and(|s| s.config.require_if_match);
    if header.is_none() && required {
        return Err(ApiError::PreconditionRequired(
            "this write needs If-Match with the ETag of the version it changes \
             (REQUIRE_IF_MATCH is on); read the resource first"
                .into(),
        ));
    }
    Ok(ExpectedVersion::from_if_match(header))
}

/// The body limit of a request: `MAX_BODY_BYTES`, or the smaller one the fair shares set for
/// it ([`crate::fair::BodyLimit`]: an anonymous calculator request).
pub fn body_limit(req: &HttpRequest) -> usize {
    let max = req
        .app_data::<actix_web::web::Data<crate::state::AppState>>()
        .map(|s| s.config.max_body_bytes)
        .unwrap_or(1 << 20);
    match req.extensions().get::<crate::fair::BodyLimit>() {
        Some(l) => l.0.min(max),
        None => max,
    }
}

/// A JSON request body whose errors are reported only when the handler asks for it, so that
/// the role check of the same handler answers first (401/403 before 400/413/422).
#[derive(Debug)]
pub struct Body<T>(Result<T, ApiError>);

impl<T> Body<T> {
    /// The parsed body, or the problem with it.
    pub fn into_inner(self) -> ApiResult<T> {
        self.0
    }
}

impl<T: serde::de::DeserializeOwned + 'static> actix_web::FromRequest for Body<T> {
    type Error = actix_web::Error;
    type Future = std::pin::Pin<Box<dyn std::future::Future<Output = Result<Self, Self::Error>>>>;

    fn from_request(req: &HttpRequest, payload: &mut actix_web::dev::Payload) -> Self::Future {
        let limit = body_limit(req);
        let fut = actix_web::web::JsonBody::<Box<serde_json::value::RawValue>>::new(
            req, payload, None, true,
        )
        .limit(limit);
        Box::pin(async move {
            Ok(Body(match fut.await {
                Ok(raw) => parse_body(raw.get()),
                Err(e) => Err(json_error(e)),
            }))
        })
    }
}

/// The settings that bound a request's body.
const LIMITS: &str =
    "MAX_BODY_BYTES, or CALC_ANON_MAX_BODY_BYTES for a calculator request without a token";

/// Maps a JSON body error: too large 413, wrong content type 415, valid JSON of the wrong
/// shape 422, anything else (syntax) 400.
pub fn json_error(err: actix_web::error::JsonPayloadError) -> ApiError {
    use actix_web::error::JsonPayloadError as E;
    match &err {
        E::OverflowKnownLength { length, limit } => ApiError::PayloadTooLarge(format!(
            "the body ({length} bytes) is larger than {limit} bytes, the limit of this request \
             ({LIMITS})"
        )),
        E::Overflow { limit } => ApiError::PayloadTooLarge(format!(
            "the body is larger than {limit} bytes, the limit of this request ({LIMITS})"
        )),
        E::ContentType => {
            ApiError::UnsupportedMediaType("expected Content-Type: application/json".into())
        }
        E::Deserialize(de) if de.is_data() => {
            let message = crate::error::plain_serde_message(&de.to_string());
            ApiError::Validation {
                detail: format!("body: {message}"),
                errors: vec![crate::error::FieldError::new("body", message)],
            }
        }
        E::Deserialize(de) => ApiError::BadRequest(format!(
            "malformed JSON: {}",
            crate::error::plain_serde_message(&de.to_string())
        )),
        _ => ApiError::BadRequest("malformed JSON: the body cannot be read".into()),
    }
}

/// Reads a JSON body that arrived as bytes (a handler that takes more than one media type)
/// as `T`, with the errors of [`Body`].
pub fn json_bytes<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> ApiResult<T> {
    let text = std::str::from_utf8(bytes)
        .map_err(|_| ApiError::BadRequest("malformed JSON: the body is not UTF-8".into()))?;
    parse_body(text)
}

/// Reads a JSON document (already known to be well-formed) as `T`. A string or key holding
/// the NUL character is refused first, naming it by its JSON pointer: neither database can
/// store it the same way (Postgres refuses it in text), so no backend ever sees one.
fn parse_body<T: serde::de::DeserializeOwned>(text: &str) -> ApiResult<T> {
    // a NUL can only be written `\u0000` in JSON (raw control characters are not allowed
    // in strings), so the walk is needed only when that escape appears
    if text.contains("\\u0000")
        && let Ok(v) = serde_json::from_str::<serde_json::Value>(text)
        && let Some(pointer) = nul_pointer(&v, String::new())
    {
        return Err(nul_refused(&pointer));
    }
    let mut de = serde_json::Deserializer::from_str(text);
    serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let field = field_of(e.path());
        let message = crate::error::plain_serde_message(&e.inner().to_string());
        if e.inner().is_data() || e.inner().is_eof() {
            ApiError::Validation {
                detail: format!("{field}: {message}"),
                errors: vec![crate::error::FieldError::new(field, message)],
            }
        } else {
            ApiError::BadRequest(format!("malformed JSON: {message}"))
        }
    })
}

/// The name of the field a deserializer stopped at (`ratings[3].value`), or `body` for the
/// document itself.
fn field_of(path: &serde_path_to_error::Path) -> String {
    let text = path.to_string();
    if text.is_empty() || text == "." {
        "body".to_string()
    } else {
        text
    }
}

/// A query string read as `T`. A value that does not fit answers 400 naming the parameter and
/// the rule, never the parser's own words.
#[derive(Debug)]
pub struct Query<T>(pub T);

impl<T> Query<T> {
    /// The parsed parameters.
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T> std::ops::Deref for Query<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: serde::de::DeserializeOwned> actix_web::FromRequest for Query<T> {
    type Error = actix_web::Error;
    type Future = std::future::Ready<Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, _: &mut actix_web::dev::Payload) -> Self::Future {
        std::future::ready(
            parse_query(req.query_string())
                .map(Query)
                .map_err(Into::into),
        )
    }
}

/// A query string read as `T`, like [`Query`], where the list parameter `types` may be
/// repeated (`types=a&types=b`), each value a comma list: the values are read as one comma
/// list (`types=a,b`).
#[derive(Debug)]
pub struct ListQuery<T>(pub T);

impl<T> ListQuery<T> {
    /// The parsed parameters.
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T: serde::de::DeserializeOwned> actix_web::FromRequest for ListQuery<T> {
    type Error = actix_web::Error;
    type Future = std::future::Ready<Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, _: &mut actix_web::dev::Payload) -> Self::Future {
        let query = join_repeated(req.query_string(), "types");
        std::future::ready(parse_query(&query).map(ListQuery).map_err(Into::into))
    }
}

/// The query string with every value of `key` joined into one comma list at the place of
/// its first occurrence; the other parameters as they were.
pub fn join_repeated(query: &str, key: &str) -> String {
    let pairs: Vec<(String, String)> = form_urlencoded::parse(query.as_bytes())
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect();
    if pairs.iter().filter(|(k, _)| k == key).count() < 2 {
        return query.to_string();
    }
    let joined = pairs
        .iter()
        .filter(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
        .collect::<Vec<_>>()
        .join(",");
    let mut out = form_urlencoded::Serializer::new(String::new());
    let mut done = false;
    for (k, v) in &pairs {
        if k != key {
            out.append_pair(k, v);
        } else if !done {
            out.append_pair(k, &joined);
            done = true;
        }
    }
    out.finish()
}

/// Reads a query string as `T` (see [`Query`]).
pub fn parse_query<T: serde::de::DeserializeOwned>(query: &str) -> ApiResult<T> {
    let de = serde_urlencoded::Deserializer::new(form_urlencoded::parse(query.as_bytes()));
    serde_path_to_error::deserialize(de).map_err(|e| {
        let message = crate::error::plain_serde_message(&e.inner().to_string());
        let path = e.path().to_string();
        if path.is_empty() || path == "." {
            ApiError::BadRequest(format!("invalid query string: {message}"))
        } else {
            ApiError::BadRequest(format!("query parameter `{path}`: {message}"))
        }
    })
}

/// The JSON pointer (RFC 6901) of the first key or string under `at` that holds the NUL
/// character.
fn nul_pointer(v: &serde_json::Value, at: String) -> Option<String> {
    use serde_json::Value;
    // a NUL in a key is shown as its JSON escape
    let step = |at: &str, key: &str| {
        let key = key.replace('~', "~0").replace('/', "~1");
        format!("{at}/{}", key.replace('\0', "\\u0000"))
    };
    match v {
        Value::String(s) => s.contains('\0').then_some(at),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .find_map(|(i, x)| nul_pointer(x, step(&at, &i.to_string()))),
        Value::Object(m) => m.iter().find_map(|(k, x)| {
            let here = step(&at, k);
            if k.contains('\0') {
                Some(here)
            } else {
                nul_pointer(x, here)
            }
        }),
        _ => None,
    }
}

/// 422 when the path or a query parameter of a request holds an encoded NUL character
/// (`%00`), naming the parameter (or `path`); checked for every request before routing.
pub fn nul_in_uri(path: &str, query: &str) -> Option<ApiError> {
    if path.contains("%00") {
        return Some(nul_refused("path"));
    }
    if !query.contains("%00") {
        return None;
    }
    let pairs = actix_web::web::Query::<Vec<(String, String)>>::from_query(query).ok()?;
    pairs
        .iter()
        .find(|(k, v)| k.contains('\0') || v.contains('\0'))
        .map(|(k, _)| nul_refused(&k.replace('\0', "\\u0000")))
}

/// Query parameters whose errors are reported only when the handler asks for them (after
/// its role check), like [`Body`].
#[derive(Debug)]
pub struct Params<T>(Result<T, ApiError>);

impl<T> Params<T> {
    /// The parsed parameters, or the problem with them.
    pub fn into_inner(self) -> ApiResult<T> {
        self.0
    }
}

impl<T: serde::de::DeserializeOwned + 'static> actix_web::FromRequest for Params<T> {
    type Error = actix_web::Error;
    type Future = std::future::Ready<Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, _: &mut actix_web::dev::Payload) -> Self::Future {
        let r = parse_query(req.query_string());
        std::future::ready(Ok(Params(r)))
    }
}
