//! The mail outbox (docs/decisions/0320-mail-outbox.md): mails queued in the transaction that
//! causes them, sent by the worker to an SMTP server on loopback (or written as `.eml` files
//! without one), retried after a temporary failure, marked failed after a permanent one, one
//! `Message-ID` per event and recipient, and the admins' delivery log.

use crate::support::*;
use actix_web::http::StatusCode;
use clubcomp::config::Config;
use clubcomp::services::mail::{self, Mail};
use serde_json::Value;
use std::time::{Duration, Instant};

/// Mail to the SMTP server at `url` (no TLS: loopback), quick polls and retries.
pub fn mail_to(url: &str) -> impl FnOnce(&mut Config) + use<> {
    let url = url.to_string();
    move |c: &mut Config| {
        let vars = [
            ("SMTP_URL", url.as_str()),
            ("SMTP_TLS", "none"),
            ("MAIL_FROM", "De Toren <wedstrijd@toren.example>"),
            ("PUBLIC_URL", "https://toren.example"),
            ("CLUB_NAME", "SV De Toren"),
            ("MAIL_POLL_MS", "20"),
            ("MAIL_BACKOFF_BASE_MS", "100"),
            ("MAIL_MAX_ATTEMPTS", "3"),
            ("MAIL_TIMEOUT_SECS", "5"),
        ];
        let get = |k: &str| {
            vars.iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        };
        let mut errs = Vec::new();
        clubcomp_core::mail_config::read(&get, &mut c.mail, &mut errs);
        c.set_club_site(clubcomp_core::club_site::ClubSite::from_lookup(
            get, &mut errs,
        ));
        assert!(errs.is_empty(), "{errs:?}");
    }
}

/// A mail of event `event` to `to`.
fn a_mail(event: &str, to: &str, name: &str) -> Mail {
    Mail {
        kind: "invitation",
        event: event.into(),
        to: to.into(),
        to_name: name.into(),
        subject: "Welkom bij SV De Toren".into(),
        text: "Hallo Anna,\n\nEen zet: e2–e4.\n".into(),
        html: "<p>Hallo Anna,</p><p>Een zet: e2–e4.</p>".into(),
        unsubscribe_url: None,
    }
}

/// Queues `m` directly, as a service does in its transaction; whether it was added.
async fn queue(app: &TestApp, m: Mail) -> bool {
    let settings = app.state.config.mail.clone();
    app.with_conn(move |c| mail::enqueue(c, &settings, &m).unwrap())
        .await
}

/// The delivery log, oldest first.
async fn log(app: &TestApp, admin: &str, query: &str) -> Vec<Value> {
    let r = app
        .get(&format!("/api/v1/mail/deliveries?{query}"), Some(admin))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let mut items = r.body["items"].as_array().unwrap().clone();
    items.reverse();
    items
}

/// Waits (at most 30 s) until the log satisfies `done`.
pub async fn log_until(app: &TestApp, admin: &str, done: impl Fn(&[Value]) -> bool) -> Vec<Value> {
    let end = Instant::now() + Duration::from_secs(30);
    loop {
        let items = log(app, admin, "per_page=200").await;
        if done(&items) {
            return items;
        }
        assert!(Instant::now() < end, "the mail log stayed {items:?}");
        actix_web::rt::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A queued mail reaches the SMTP server once: one recipient in the envelope and the `To`
/// header with the name, the sender of `MAIL_FROM`, the stable `Message-ID`, both bodies as
/// `multipart/alternative`; the log shows it sent, and the bodies are no longer kept.
#[actix_web::test]
async fn a_queued_mail_reaches_the_smtp_server_once_with_both_parts() {
    let smtp = SmtpServer::start(SmtpReply::Accept);
    let app = spawn_with(mail_to(&smtp.url)).await;
    let admin = app.token(&["admin"]).await;
    assert!(queue(&app, a_mail("e1", "Anna@club.example", "Anna de Vries")).await);
    let _worker = app.start_mail();
    let got = smtp.wait_for(1);
    let items = log_until(&app, &admin, |l| l.len() == 1 && l[0]["status"] == "sent").await;
    let m = &got[0];
    assert_eq!(m.rcpt_to, vec!["anna@club.example".to_string()]);
    assert_eq!(m.mail_from, "wedstrijd@toren.example");
    assert_eq!(
        m.header("To").unwrap(),
        "\"Anna de Vries\" <anna@club.example>"
    );
    assert!(
        m.header("From")
            .unwrap()
            .contains("<wedstrijd@toren.example>")
    );
    assert_eq!(m.header("Subject").unwrap(), "Welkom bij SV De Toren");
    let id = m.header("Message-ID").unwrap();
    assert_eq!(id, items[0]["message_id"].as_str().unwrap());
    assert!(id.ends_with("@toren.example>"), "{id}");
    assert!(
        m.header("Content-Type")
            .unwrap()
            .starts_with("multipart/alternative"),
        "{:?}",
        m.header("Content-Type")
    );
    let body = m.decoded();
    assert!(
        body.contains("Content-Type: text/plain; charset=utf-8"),
        "{body}"
    );
    assert!(
        body.contains("Content-Type: text/html; charset=utf-8"),
        "{body}"
    );
    assert!(body.contains("Een zet: e2–e4."), "{body}");
    assert_eq!(items[0]["attempts"], 1);
    assert!(items[0]["sent_at"].is_string());
    assert!(items[0].get("body_text").is_none());
    let kept: Vec<(String, String)> = app
        .with_conn(|c| {
            use clubcomp_core::test_store::schema::mail_outbox as mo;
            use diesel::prelude::*;
            mo::table
                .select((mo::body_text, mo::body_html))
                .load(c)
                .unwrap()
        })
        .await;
    assert_eq!(kept, vec![(String::new(), String::new())]);
    // nothing more is sent
    actix_web::rt::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(smtp.messages().len(), 1);
}

/// The same event queued twice for one recipient is one mail; for another recipient it is a
/// second one with another `Message-ID`.
#[actix_web::test]
async fn one_event_is_one_mail_per_recipient() {
    let app = spawn().await;
    let admin = app.token(&["admin"]).await;
    assert!(queue(&app, a_mail("e1", "anna@club.example", "")).await);
    assert!(!queue(&app, a_mail("e1", "ANNA@club.example", "")).await);
    assert!(queue(&app, a_mail("e1", "bert@club.example", "")).await);
    let items = log(&app, &admin, "").await;
    assert_eq!(items.len(), 2);
    assert_ne!(items[0]["message_id"], items[1]["message_id"]);
    assert_eq!(items[0]["status"], "pending");
}

/// Mails queued at once go in chunks of 200: 453 mails, among them one mail again in a later
/// chunk (the first address, in capitals), one again two chunks on and one twice in the same
/// chunk, are 450 rows with 450 `Message-ID`s; queued again, none is added.
#[actix_web::test]
async fn many_mails_queued_at_once_are_each_queued_once_across_chunks() {
    let app = spawn().await;
    let to = |i: usize| format!("member{i}@club.example");
    let mut mails: Vec<Mail> = (0..200).map(|i| a_mail("batch", &to(i), "")).collect();
    mails.push(a_mail("batch", "MEMBER0@club.example", ""));
    mails.extend((200..399).map(|i| a_mail("batch", &to(i), "")));
    mails.push(a_mail("batch", &to(250), ""));
    mails.extend((399..450).map(|i| a_mail("batch", &to(i), "")));
    mails.push(a_mail("batch", &to(449), ""));
    assert_eq!(mails.len(), 453);
    let settings = app.state.config.mail.clone();
    let (added, again, views, total) = app
        .with_conn(move |c| {
            let added = mail::enqueue_all(c, &settings, &mails).unwrap();
            let again = mail::enqueue_all(c, &settings, &mails).unwrap();
            let (views, total) = mail::deliveries(c, None, 1000, 0).unwrap();
            (added, again, views, total)
        })
        .await;
    assert_eq!((added, again, total), (450, 0, 450));
    let ids: std::collections::HashSet<&str> =
        views.iter().map(|v| v.message_id.as_str()).collect();
    assert_eq!(ids.len(), 450);
    let mut to_sorted: Vec<&str> = views.iter().map(|v| v.recipient.as_str()).collect();
    to_sorted.sort_unstable();
    let mut want: Vec<String> = (0..450).map(to).collect();
    want.sort_unstable();
    assert_eq!(to_sorted, want);
}

/// A temporary refusal (451) is tried again after the backoff and then delivered; a
/// permanent one (554) marks the mail failed at once, naming the server's answer.
#[actix_web::test]
async fn a_temporary_failure_is_retried_and_a_permanent_one_is_final() {
    let smtp = SmtpServer::start(SmtpReply::Temporary);
    let app = spawn_with(mail_to(&smtp.url)).await;
    let admin = app.token(&["admin"]).await;
    queue(&app, a_mail("e1", "anna@club.example", "Anna")).await;
    let worker = app.start_mail();
    let items = log_until(&app, &admin, |l| l[0]["attempts"].as_i64() >= Some(1)).await;
    assert_eq!(items[0]["status"], "pending");
    assert!(
        items[0]["last_error"].as_str().unwrap().contains("451"),
        "{items:?}"
    );
    smtp.set_reply(SmtpReply::Accept);
    let items = log_until(&app, &admin, |l| l[0]["status"] == "sent").await;
    assert!(items[0]["attempts"].as_i64().unwrap() >= 2);
    assert_eq!(smtp.messages().len(), 1);
    smtp.set_reply(SmtpReply::Permanent);
    queue(&app, a_mail("e2", "bert@club.example", "Bert")).await;
    let items = log_until(&app, &admin, |l| {
        l.len() == 2 && l[1]["status"] != "pending"
    })
    .await;
    assert_eq!(items[1]["status"], "failed");
    assert_eq!(items[1]["attempts"], 1);
    assert!(items[1]["last_error"].as_str().unwrap().contains("554"));
    assert!(items[1]["next_attempt_at"].is_null());
    drop(worker);
    let failed = log(&app, &admin, "status=failed").await;
    assert_eq!(failed.len(), 1);
    assert_eq!(failed[0]["recipient"], "bert@club.example");
}

/// An SMTP server that is not there is a temporary failure: the mail stays pending until the
/// last attempt, which marks it failed; nothing is lost meanwhile.
#[actix_web::test]
async fn an_absent_smtp_server_is_tried_until_the_last_attempt() {
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let app = spawn_with(mail_to(&format!("smtp://127.0.0.1:{port}"))).await;
    let admin = app.token(&["admin"]).await;
    queue(&app, a_mail("e1", "anna@club.example", "")).await;
    let _worker = app.start_mail();
    let items = log_until(&app, &admin, |l| l[0]["status"] != "pending").await;
    assert_eq!(items[0]["status"], "failed");
    assert_eq!(items[0]["attempts"], 3);
    assert!(
        items[0]["last_error"]
            .as_str()
            .unwrap()
            .starts_with("no answer from the SMTP server"),
        "{items:?}"
    );
}

/// Without `SMTP_URL` every mail is written whole as an `.eml` file to `MAIL_DIR` and marked
/// sent.
#[actix_web::test]
async fn without_an_smtp_server_mails_are_written_as_eml_files() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("outbox");
    let p = path.clone();
    let app = spawn_with(move |c| {
        c.mail.dir = Some(p);
        c.mail.poll = Duration::from_millis(20);
    })
    .await;
    let admin = app.token(&["admin"]).await;
    queue(&app, a_mail("e1", "anna@club.example", "Anna")).await;
    queue(&app, a_mail("e1", "bert@club.example", "Bert")).await;
    let _worker = app.start_mail();
    let items = log_until(&app, &admin, |l| l.iter().all(|m| m["status"] == "sent")).await;
    let mut files: Vec<String> = std::fs::read_dir(&path)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    files.sort();
    assert_eq!(files, ["mail-00000001.eml", "mail-00000002.eml"]);
    let first = std::fs::read_to_string(path.join(&files[0])).unwrap();
    assert!(
        first.contains("To: Anna <anna@club.example>\r\n"),
        "{first}"
    );
    assert!(first.contains(&format!(
        "Message-ID: {}\r\n",
        items[0]["message_id"].as_str().unwrap()
    )));
}

/// A line break in a recipient's name or address, or in a subject, is refused before
/// anything is queued.
#[actix_web::test]
async fn no_line_break_is_queued_into_a_header() {
    let app = spawn().await;
    let settings = app.state.config.mail.clone();
    let refused = app
        .with_conn(move |c| {
            let mut bad = Vec::new();
            for m in [
                a_mail("e1", "anna@club.example\r\nBcc: x@evil.example", ""),
                a_mail("e2", "anna@club.example", "Anna\r\nBcc: x@evil.example"),
                Mail {
                    subject: "Hallo\nBcc: x@evil.example".into(),
                    ..a_mail("e3", "anna@club.example", "")
                },
            ] {
                bad.push(mail::enqueue(c, &settings, &m).is_err());
            }
            bad
        })
        .await;
    assert_eq!(refused, [true, true, true]);
    let admin = app.token(&["admin"]).await;
    assert!(log(&app, &admin, "").await.is_empty());
}

/// The delivery log is for admins; its status filter and paging are checked.
#[actix_web::test]
async fn the_delivery_log_is_for_admins_with_a_checked_filter() {
    let app = spawn().await;
    let leader = app.token(&["leader"]).await;
    let admin = app.token(&["admin"]).await;
    let path = "/api/v1/mail/deliveries";
    assert_eq!(app.get(path, None).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        app.get(path, Some(&leader)).await.status,
        StatusCode::FORBIDDEN
    );
    let r = app.get(&format!("{path}?status=lost"), Some(&admin)).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.errors("field"), ["status"]);
    let r = app.get(&format!("{path}?per_page=201"), Some(&admin)).await;
    assert_eq!(r.errors("field"), ["per_page"]);
    let r = app.get(&format!("{path}?colour=white"), Some(&admin)).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.text);
    for i in 0..3 {
        queue(&app, a_mail(&format!("e{i}"), "anna@club.example", "")).await;
    }
    let r = app
        .get(&format!("{path}?per_page=2&page=2"), Some(&admin))
        .await;
    assert_eq!(r.body["total"], 3);
    assert_eq!(r.body["items"].as_array().unwrap().len(), 1);
}

/// On Postgres two instances run a worker each over one outbox, and each mail is sent once:
/// only the instance holding the lock sends (on SQLite one process runs the service).
#[actix_web::test]
async fn two_instances_send_each_mail_once() {
    let smtp = SmtpServer::start(SmtpReply::Accept);
    let app = spawn_with(mail_to(&smtp.url)).await;
    let postgres = app.state.config.database_url.starts_with("postgres");
    let other = spawn_beside_with(&app, mail_to(&smtp.url)).await;
    let admin = app.token(&["admin"]).await;
    for i in 0..10 {
        queue(
            &app,
            a_mail(&format!("e{i}"), &format!("m{i}@club.example"), ""),
        )
        .await;
    }
    let _one = app.start_mail();
    let _two = postgres.then(|| other.start_mail());
    log_until(&app, &admin, |l| l.iter().all(|m| m["status"] == "sent")).await;
    actix_web::rt::time::sleep(Duration::from_millis(300)).await;
    let mut to: Vec<String> = smtp
        .messages()
        .iter()
        .map(|m| m.rcpt_to.join(","))
        .collect();
    to.sort();
    let mut expected: Vec<String> = (0..10).map(|i| format!("m{i}@club.example")).collect();
    expected.sort();
    assert_eq!(to, expected);
}
