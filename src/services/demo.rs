//! `clubcomp demo`: a realistic club to look at (players with KNSB ratings, a leader, an
//! arbiter and a member account). Deterministic: the same data on every run; re-running adds
//! nothing twice.

use crate::db::DbConn;
use crate::db::models::players::{self, NewPlayer};
use crate::db::models::users;
use crate::db::now_utc;
use crate::error::ApiResult;
use crate::services::ratings::{RatingList, RatingRow, push};
use diesel::Connection;

const FIRST: [&str; 20] = [
    "Anna", "Bram", "Carla", "Daan", "Eva", "Floor", "Gijs", "Hanna", "Ivo", "Jasmijn", "Koen",
    "Lotte", "Milan", "Noor", "Olaf", "Pien", "Quinten", "Roos", "Sem", "Tess",
];
const LAST: [&str; 10] = [
    "de Vries", "Jansen", "Bakker", "Visser", "Smit", "Meijer", "de Boer", "Mulder", "de Groot",
    "Bos",
];

/// Seeds the demo club; returns a summary with the demo logins.
pub fn seed(conn: &mut DbConn) -> ApiResult<String> {
    conn.transaction(|c| {
        let mut created = 0;
        let mut rows = Vec::new();
        for i in 0..60usize {
            let name = format!("{} {}", FIRST[i % 20], LAST[(i * 7 + i / 20) % 10]);
            let knsb = format!("84{:05}", 1000 + i);
            // ratings from about 2150 down to 1050, a few unrated
            let rating = 2150 - (i as i64) * 18 - ((i as i64 * 37) % 23);
            let membership = if i % 7 == 6 { "flexible" } else { "fixed" };
            if players::by_knsb_numbers(c, std::slice::from_ref(&knsb))?.is_empty() {
                let now = now_utc();
                players::insert(
                    c,
                    &NewPlayer {
                        name,
                        knsb_number: Some(knsb.clone()),
                        fide_id: None,
                        membership: membership.into(),
                        active: true,
                        email: Some(format!("speler{i}@club.example")),
                        phone: None,
                        version: 1,
                        created_at: now,
                        updated_at: now,
                    },
                )?;
                created += 1;
            }
            if i % 13 != 12 {
                rows.push(RatingRow {
                    knsb_number: Some(knsb),
                    fide_id: None,
                    value: rating,
                });
            }
        }
        let rep = push(
            c,
            &RatingList {
                source: "KNSB".into(),
                list_date: "2026-09-01".into(),
                ratings: rows,
            },
        )?;
        let mut accounts = Vec::new();
        for (email, role) in [
            ("admin@club.example", "admin"),
            ("leader@club.example", "leader"),
            ("arbiter@club.example", "arbiter"),
            ("member@club.example", "member"),
        ] {
            if users::by_email(c, email)?.is_none() {
                crate::services::users::create_user(c, email, "demo-password", &[role.into()])?;
            }
            accounts.push(format!("  {email} / demo-password ({role})"));
        }
        Ok(format!(
            "demo club: {created} players created, {} ratings inserted, {} unchanged\nlogins:\n{}",
            rep.inserted,
            rep.unchanged,
            accounts.join("\n")
        ))
    })
}
