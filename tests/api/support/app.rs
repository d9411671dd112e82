//! `TestApp`: the real application over a fresh database per test — a temporary SQLite file
//! by default, a fresh Postgres database when `TEST_DATABASE_URL` is set.

use actix_http::Request;
use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{Service, ServiceResponse};
use actix_web::http::{Method, StatusCode};
use actix_web::test;
use clubcomp::app::{build_app, build_state};
use clubcomp::config::Config;
use clubcomp::state::AppState;
use clubcomp_core::test_store::DbConn;
use diesel::{Connection, RunQueryDsl};
use futures_util::future::LocalBoxFuture;
use serde_json::Value;
use std::sync::Arc;

/// The test application's service: any body boxed, so that one type serves every test.
pub type AppService = Box<
    dyn Service<
            Request,
            Response = ServiceResponse<BoxBody>,
            Error = actix_web::Error,
            Future = LocalBoxFuture<'static, Result<ServiceResponse<BoxBody>, actix_web::Error>>,
        >,
>;

/// Wraps the application's service, boxing its answers' bodies and its futures.
struct Boxed<S>(S);

impl<S, B> Service<Request> for Boxed<S>
where
    S: Service<Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    S::Future: 'static,
    B: MessageBody + 'static,
{
    type Response = ServiceResponse<BoxBody>;
    type Error = actix_web::Error;
    type Future = LocalBoxFuture<'static, Result<Self::Response, Self::Error>>;

    fn poll_ready(
        &self,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Result<(), Self::Error>> {
        self.0.poll_ready(cx)
    }

    fn call(&self, req: Request) -> Self::Future {
        let call = self.0.call(req);
        Box::pin(async move { call.await.map(ServiceResponse::map_into_boxed_body) })
    }
}

/// A running test application.
pub struct TestApp {
    pub svc: AppService,
    pub state: actix_web::web::Data<AppState>,
    pub _db: TestDb,
}

/// The test's database; a Postgres database is dropped at the end.
pub struct TestDb {
    pub url: String,
    pub _dir: Option<tempfile::TempDir>,
    pub pg_admin: Option<(String, String)>,
}

impl Drop for TestDb {
    fn drop(&mut self) {
        if let Some((admin, name)) = &self.pg_admin
            && let Ok(mut c) = diesel::PgConnection::establish(admin)
        {
            let _ = diesel::sql_query(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
                .execute(&mut c);
        }
    }
}

/// A response, read whole.
#[derive(Debug)]
pub struct Resp {
    pub status: StatusCode,
    pub headers: actix_web::http::header::HeaderMap,
    pub body: Value,
    pub text: String,
}

impl Resp {
    /// Asserts the answer is `status` and its problem's `detail` names `needle`.
    pub fn assert_detail(&self, status: StatusCode, needle: &str) {
        assert_eq!(self.status, status, "{}", self.text);
        let detail = self.body["detail"].as_str().unwrap_or_default();
        assert!(detail.contains(needle), "{needle:?} not in {detail:?}");
    }

    /// One member (`field` or `message`) of each entry of a problem's `errors`, in order.
    pub fn errors(&self, member: &str) -> Vec<&str> {
        self.body["errors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e[member].as_str().unwrap())
            .collect()
    }

    pub fn header(&self, name: &str) -> Option<String> {
        self.headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    }
}

pub const SECRET: &str = "test-secret-test-secret-test-secret-0123";

/// A fresh database URL for one test.
pub fn fresh_db() -> TestDb {
    match std::env::var("TEST_DATABASE_URL")
        .ok()
        .filter(|s| !s.is_empty())
    {
        Some(admin) => {
            let name = format!("clubcomp_t_{}", uuid::Uuid::new_v4().simple());
            let mut c = diesel::PgConnection::establish(&admin)
                .unwrap_or_else(|e| panic!("TEST_DATABASE_URL {admin}: {e}"));
            diesel::sql_query(format!("CREATE DATABASE {name}"))
                .execute(&mut c)
                .expect("create test database");
            let base = admin.rsplit_once('/').map(|(b, _)| b).unwrap_or(&admin);
            TestDb {
                url: format!("{base}/{name}"),
                _dir: None,
                pg_admin: Some((admin.clone(), name)),
            }
        }
        None => {
            let dir = tempfile::tempdir().expect("temp dir");
            let url = format!("sqlite://{}", dir.path().join("test.sqlite3").display());
            TestDb {
                url,
                _dir: Some(dir),
                pg_admin: None,
            }
        }
    }
}

/// A configuration for tests over `url`.
pub fn test_config(url: &str) -> Config {
    Config {
        database_url: url.to_string(),
        jwt_secret: Some(SECRET.into()),
        db_pool_size: 4,
        max_body_bytes: 64 * 1024,
        login_max_failures: 3,
        data_dir: std::env::temp_dir(),
        // an event stream opened by a test that reads answers whole (the walk over the public
        // GETs) ends soon; the stream's own tests keep theirs open longer
        stream_max_duration: std::time::Duration::from_secs(2),
        // a debug build on a busy machine may take longer than the production deadline for
        // the largest work (2000-move records); the waits' own tests set theirs
        db_query_timeout: std::time::Duration::from_secs(60),
        // many tests come from one address: the per-address fair shares are off or as large
        // as the whole, and the tests of the shares set them
        login_rate_per_minute: 0,
        calc_anon_rate_per_minute: 0,
        // as large as any test's MAX_BODY_BYTES: an anonymous calculator keeps that limit
        calc_anon_max_body_bytes: usize::MAX,
        stream_signed_in_slots: 0,
        stream_max_anon_per_address: 100_000,
        access_log: clubcomp::config::AccessLogMode::All,
        ..Config::default()
    }
}

pub async fn spawn() -> TestApp {
    spawn_with(|_| {}).await
}

/// [`spawn`] with the test configuration changed by `edit`.
pub async fn spawn_with(edit: impl FnOnce(&mut Config)) -> TestApp {
    start(fresh_db(), edit).await
}

/// A second application instance on the database of `other` (its own pool and read cache),
/// standing in for a second service process behind a load balancer.
pub async fn spawn_beside(other: &TestApp) -> TestApp {
    spawn_beside_with(other, |_| {}).await
}

/// [`spawn_beside`] with the test configuration changed by `edit`.
pub async fn spawn_beside_with(other: &TestApp, edit: impl FnOnce(&mut Config)) -> TestApp {
    let db = TestDb {
        url: other._db.url.clone(),
        _dir: None,
        pg_admin: None,
    };
    start(db, edit).await
}

/// The application over `db`, configured by the test configuration changed by `edit`.
async fn start(db: TestDb, edit: impl FnOnce(&mut Config)) -> TestApp {
    let mut config = test_config(&db.url);
    edit(&mut config);
    let state = build_state(config).expect("state");
    let spec = Arc::new(clubcomp::app::openapi());
    let svc = test::init_service(build_app(state.clone(), spec)).await;
    TestApp {
        svc: Box::new(Boxed(svc)),
        state,
        _db: db,
    }
}

impl TestApp {
    /// Sends a request; `body` as JSON when given.
    pub async fn req(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> Resp {
        let mut r = test::TestRequest::default().method(method).uri(path);
        if let Some(t) = token {
            r = r.insert_header(("Authorization", format!("Bearer {t}")));
        }
        if let Some(b) = body {
            r = r.set_json(b);
        }
        self.send(r).await
    }

    /// Sends a prepared request.
    pub async fn send(&self, r: test::TestRequest) -> Resp {
        let res = test::call_service(&self.svc, r.to_request()).await;
        let status = res.status();
        let headers = res.headers().clone();
        let bytes = test::read_body(res).await;
        let text = String::from_utf8_lossy(&bytes).to_string();
        let body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        Resp {
            status,
            headers,
            body,
            text,
        }
    }

    pub async fn get(&self, path: &str, token: Option<&str>) -> Resp {
        self.req(Method::GET, path, token, None).await
    }

    pub async fn post(&self, path: &str, token: Option<&str>, body: Value) -> Resp {
        self.req(Method::POST, path, token, Some(body)).await
    }

    /// Creates a user directly and returns a token for it.
    pub async fn token(&self, roles: &[&str]) -> String {
        let email = format!(
            "{}-{}@club.example",
            roles.join("-"),
            uuid::Uuid::new_v4().simple()
        );
        let roles: Vec<String> = roles.iter().map(|s| s.to_string()).collect();
        let user = self
            .with_conn(move |c| {
                clubcomp::services::users::create_user(c, &email, "password123", &roles).unwrap()
            })
            .await;
        self.token_of(user.id)
    }

    /// Creates a member account linked to `player` directly and returns a token for it.
    pub async fn member_token(&self, player: i64) -> String {
        let email = format!("m-{}@club.example", uuid::Uuid::new_v4().simple());
        let user = self
            .with_conn(move |c| {
                use clubcomp_core::test_store::schema::users;
                use diesel::prelude::*;
                let u = clubcomp::services::users::create_user(
                    c,
                    &email,
                    "password123",
                    &["member".to_string()],
                )
                .unwrap();
                diesel::update(users::table.find(u.id))
                    .set(users::player_id.eq(Some(player)))
                    .execute(c)
                    .unwrap();
                u
            })
            .await;
        self.token_of(user.id)
    }

    /// A fresh ten-minute token of user `id`.
    fn token_of(&self, id: clubcomp::ids::UserId) -> String {
        let (t, _) = self
            .state
            .jwt
            .issue(format!("user:{id}"), vec![], chrono::Duration::minutes(10))
            .unwrap();
        t
    }

    /// Runs database code directly (fixtures, checks).
    pub async fn with_conn<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut DbConn) -> T + Send + 'static,
    ) -> T {
        let pool = self.state.pool.clone();
        actix_web::web::block(move || {
            let mut c = pool.get().unwrap();
            f(&mut c)
        })
        .await
        .unwrap()
    }

    /// Starts the webhook delivery worker over this application's database and configuration
    /// (stopped when the handle is dropped or stopped).
    pub fn start_webhooks(&self) -> clubcomp::services::webhooks::worker::Worker {
        use clubcomp::services::webhooks::worker::{Worker, WorkerConfig};
        Worker::start(
            self.state.pool.clone(),
            WorkerConfig::of(&self.state.config),
        )
    }

    /// Starts the mail worker over this application's database and configuration (stopped
    /// when the handle is dropped or stopped).
    pub fn start_mail(&self) -> clubcomp::services::mail::worker::MailWorker {
        use clubcomp::services::mail::worker::{MailWorker, MailWorkerConfig};
        MailWorker::start(
            self.state.pool.clone(),
            MailWorkerConfig::of(&self.state.config),
        )
        .unwrap()
    }

    /// Row counts of the main tables, to prove a rejected write changed nothing.
    pub async fn counts(&self) -> Vec<i64> {
        self.with_conn(|c| {
            use clubcomp_core::test_store::schema::*;
            use diesel::QueryDsl;
            vec![
                users::table.count().get_result::<i64>(c).unwrap(),
                players::table.count().get_result::<i64>(c).unwrap(),
                ratings::table.count().get_result::<i64>(c).unwrap(),
                service_tokens::table.count().get_result::<i64>(c).unwrap(),
            ]
        })
        .await
    }
}
