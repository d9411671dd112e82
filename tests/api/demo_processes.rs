//! `clubcomp demo` and the first `clubcomp serve` as separate processes on a fresh database,
//! with the bootstrap admin in the settings of both: its password works in either order, and
//! every login the demo prints works.

use crate::support::*;
use serde_json::json;
use std::process::{Command, Stdio};

const ADMIN: &str = "admin@club.example";
const PASSWORD: &str = "bootstrap-secret-9";

/// The settings both commands get.
fn settings() -> [(&'static str, &'static str); 2] {
    [
        ("BOOTSTRAP_ADMIN_EMAIL", ADMIN),
        ("BOOTSTRAP_ADMIN_PASSWORD", PASSWORD),
    ]
}

/// Runs `clubcomp demo --date DEMO_DAY` on `db_url`; what it printed.
fn run_demo(db_url: &str, env: &[(&str, &str)]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_clubcomp"));
    cmd.args(["demo", "--date", DEMO_DAY])
        .current_dir(dir.path())
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("DATABASE_URL", db_url)
        .env("DATA_DIR", dir.path())
        .env("JWT_SECRET", SECRET)
        .env("RUST_LOG", "warn")
        .stdin(Stdio::null());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

fn login(server: &Server, email: &str, password: &str) -> u16 {
    server
        .req(
            "POST",
            paths::LOGIN,
            None,
            Some(&json!({"email": email, "password": password})),
        )
        .status
}

/// The bootstrap password works, the demo password does not for the admin, and each login
/// the demo printed with the demo password works.
fn check_logins(server: &Server, printed: &str) {
    assert_eq!(login(server, ADMIN, PASSWORD), 200, "{printed}");
    assert_eq!(login(server, ADMIN, "demo-password"), 401);
    let demo: Vec<&str> = printed
        .lines()
        .filter_map(|l| l.trim().split_once(" / demo-password"))
        .map(|(email, _)| email)
        .collect();
    assert_eq!(
        demo,
        [
            "leader@club.example",
            "arbiter@club.example",
            "member@club.example"
        ],
        "{printed}"
    );
    for email in demo {
        assert_eq!(login(server, email, "demo-password"), 200, "{email}");
    }
    assert!(printed.contains(&format!("{ADMIN} / the BOOTSTRAP_ADMIN_PASSWORD")));
}

#[actix_web::test]
async fn the_demo_before_the_first_start_leaves_the_bootstrap_password_working() {
    let app = spawn().await;
    let printed = run_demo(&app._db.url, &settings());
    let server = Server::start(&app._db.url, &settings());
    check_logins(&server, &printed);
}

#[actix_web::test]
async fn the_demo_after_the_first_start_leaves_the_bootstrap_password_working() {
    let app = spawn().await;
    let first = Server::start(&app._db.url, &settings());
    assert_eq!(login(&first, ADMIN, PASSWORD), 200);
    drop(first);
    let printed = run_demo(&app._db.url, &settings());
    let server = Server::start(&app._db.url, &settings());
    check_logins(&server, &printed);
}

/// A demo seeded without the bootstrap settings, then the first start with them: the
/// bootstrap admin takes over the demo's admin account.
#[actix_web::test]
async fn a_demo_without_the_settings_before_the_first_start_still_lets_the_bootstrap_admin_in() {
    let app = spawn().await;
    let printed = run_demo(&app._db.url, &[]);
    assert!(
        printed.contains("admin@club.example / demo-password (admin)"),
        "{printed}"
    );
    let server = Server::start(&app._db.url, &settings());
    assert_eq!(login(&server, ADMIN, PASSWORD), 200);
    assert_eq!(login(&server, ADMIN, "demo-password"), 401);
}
