//! Readiness that tells the truth: `/readyz` and every request answer 503 with `Retry-After`,
//! without the database's own words, when the schema is gone, the database refuses writes or
//! cannot be reached; and while it cannot be reached the circuit answers without waiting.

use crate::support::*;
use actix_web::http::StatusCode;
use diesel::RunQueryDsl;
use serde_json::json;

fn is_postgres(url: &str) -> bool {
    url.starts_with("postgres")
}

/// A database recreated empty (every table gone): 503, not 200 and bare 500s.
#[actix_web::test]
async fn a_database_recreated_empty_is_not_ready() {
    let app = spawn().await;
    let admin = app.token(&["admin"]).await;
    assert_eq!(app.get(paths::READY, None).await.status, StatusCode::OK);
    let pg = is_postgres(&app._db.url);
    app.with_conn(move |c| {
        if pg {
            diesel::sql_query("DROP SCHEMA public CASCADE")
                .execute(c)
                .unwrap();
            diesel::sql_query("CREATE SCHEMA public")
                .execute(c)
                .unwrap();
        } else {
            #[derive(diesel::QueryableByName)]
            struct Name {
                #[diesel(sql_type = diesel::sql_types::Text)]
                name: String,
            }
            diesel::sql_query("PRAGMA foreign_keys = OFF")
                .execute(c)
                .unwrap();
            let tables: Vec<Name> = diesel::sql_query(
                "SELECT name FROM sqlite_master WHERE type = 'table' \
                 AND name NOT LIKE 'sqlite_%'",
            )
            .load(c)
            .unwrap();
            for t in tables {
                diesel::sql_query(format!("DROP TABLE \"{}\"", t.name))
                    .execute(c)
                    .unwrap();
            }
            diesel::sql_query("PRAGMA foreign_keys = ON")
                .execute(c)
                .unwrap();
        }
    })
    .await;
    assert_unavailable(&app.get(paths::READY, None).await, "readyz");
    assert_unavailable(&app.get(paths::PLAYERS, None).await, "players");
    assert_unavailable(&app.get(paths::USERS, Some(&admin)).await, "token check");
    let r = app
        .login(json!({"email": "a@club.example", "password": "longenough"}))
        .await;
    assert_unavailable(&r, "login");
}

/// A database that refuses writes (a read-only SQLite file; a Postgres database whose
/// sessions are read-only): not ready, and a write is a 503, not a bare 500.
#[actix_web::test]
async fn a_read_only_database_is_not_ready() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let url = app._db.url.clone();
    if let Some((admin_url, name)) = app._db.pg_admin.clone() {
        let mut c = <diesel::PgConnection as diesel::Connection>::establish(&admin_url).unwrap();
        diesel::sql_query(format!(
            "ALTER DATABASE {name} SET default_transaction_read_only = on"
        ))
        .execute(&mut c)
        .unwrap();
        // the pool's sessions end; the new ones are read-only
        diesel::sql_query(format!(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'"
        ))
        .execute(&mut c)
        .unwrap();
        refuses_writes(&app, &leader).await;
    } else {
        let path = url.strip_prefix("sqlite://").unwrap().to_string();
        let ro = spawn_beside_with(&app, move |c| {
            c.database_url = format!("file:{path}?mode=ro");
        })
        .await;
        refuses_writes(&ro, &leader).await;
    }
}

async fn refuses_writes(app: &TestApp, leader: &str) {
    // a pool may first hand out a session that was just ended
    let mut r = app.get(paths::READY, None).await;
    for _ in 0..8 {
        if r.status != StatusCode::OK {
            break;
        }
        r = app.get(paths::READY, None).await;
    }
    assert_unavailable(&r, "readyz");
    let r = app
        .create_player(leader, json!({"name": "Write Refused"}))
        .await;
    assert_unavailable(&r, "write");
}

/// A database that goes away (Postgres: dropped; its server refuses the new connections):
/// every request is a 503 without the driver's text, and the circuit opens. With SQLite there is no server to lose; the circuit itself
/// is tested in `db::tests` against a closed port.
#[actix_web::test]
async fn a_database_that_is_gone_fails_fast() {
    let app = spawn().await;
    let Some((admin_url, name)) = app._db.pg_admin.clone() else {
        return;
    };
    assert_eq!(app.get(paths::READY, None).await.status, StatusCode::OK);
    let mut c = <diesel::PgConnection as diesel::Connection>::establish(&admin_url).unwrap();
    diesel::sql_query(format!("DROP DATABASE {name} WITH (FORCE)"))
        .execute(&mut c)
        .unwrap();
    for i in 0..4 {
        assert_unavailable(&app.get(paths::READY, None).await, &format!("readyz {i}"));
    }
    // the pool keeps trying to connect in the background, and each failure keeps the circuit
    // open: requests are refused without waiting on the pool
    assert!(app.state.pool.circuit().is_open());
    assert_unavailable(&app.get(paths::PLAYERS, None).await, "players");
}
