//! The mail worker ([decision 0320](../../../../../docs/decisions/0320-mail-outbox.md)): a
//! thread that, every poll, sends the due mails of the outbox one after the other, at most
//! `MAIL_MAX_PER_MINUTE` in any minute, and records each attempt. All state is in the
//! database: a mail stays pending until its attempt is recorded, so a process killed while
//! sending sends it again on restart (with the same `Message-ID`). On Postgres only the
//! instance holding a session advisory lock ([`LOCK_KEY`], on a connection of the worker's
//! own) sends; the others wait and take over when that connection ends.

use super::transport::Transport;
use crate::mail_config::MailSettings;
use crate::services::leadership::{Leadership, pause};
use crate::store::{Pool, now_utc};
use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The key of the session advisory lock the sending worker holds on Postgres.
pub const LOCK_KEY: i64 = 0x636c_7562_6d61_696c; // "clubmail"

/// How the worker runs.
#[derive(Debug, Clone)]
pub struct MailWorkerConfig {
    /// The database (for the lock's own connection).
    pub database_url: String,
    /// The mail settings.
    pub settings: MailSettings,
    /// The data folder (the default mail folder is under it).
    pub data_dir: std::path::PathBuf,
}

impl MailWorkerConfig {
    /// The worker's configuration from the service's.
    pub fn of(c: &crate::config::Config) -> MailWorkerConfig {
        MailWorkerConfig {
            database_url: c.database_url.clone(),
            settings: c.mail.clone(),
            data_dir: c.data_dir.clone(),
        }
    }
}

/// A running worker; stopped (after the mail under way) when dropped.
#[derive(Debug)]
pub struct MailWorker {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl MailWorker {
    /// Starts the worker on its own thread; an error when the transport cannot be made or the
    /// thread cannot start.
    pub fn start(pool: Pool, config: MailWorkerConfig) -> Result<MailWorker, String> {
        let transport = Transport::of(&config.settings, &config.data_dir)?;
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let thread = std::thread::Builder::new()
            .name("mail".into())
            .spawn(move || run(pool, config, transport, flag))
            .map_err(|e| format!("the mail worker cannot start: {e}"))?;
        Ok(MailWorker {
            stop,
            thread: Some(thread),
        })
    }

    /// Stops the worker.
    pub fn stop(mut self) {
        self.halt();
    }

    fn halt(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for MailWorker {
    fn drop(&mut self) {
        self.halt();
    }
}

/// The sends of the last minute, for `MAIL_MAX_PER_MINUTE`.
struct Rate {
    max: usize,
    sent: VecDeque<Instant>,
}

impl Rate {
    /// How many may be sent now.
    fn room(&mut self) -> usize {
        let now = Instant::now();
        while self
            .sent
            .front()
            .is_some_and(|t| now.duration_since(*t) >= Duration::from_secs(60))
        {
            self.sent.pop_front();
        }
        self.max.saturating_sub(self.sent.len())
    }
}

fn run(pool: Pool, config: MailWorkerConfig, transport: Transport, stop: Arc<AtomicBool>) {
    let mut leader = Leadership::new(&config.database_url, LOCK_KEY, "the mail");
    let mut rate = Rate {
        max: config.settings.max_per_minute as usize,
        sent: VecDeque::new(),
    };
    let mut purged: Option<Instant> = None;
    loop {
        if leader.lead(&config.database_url) {
            if let Err(e) = pass(&pool, &config.settings, &transport, &stop, &mut rate) {
                tracing::warn!(error = %e, "a mail pass failed; trying again");
            }
            if purged.is_none_or(|t| t.elapsed() >= PURGE_EVERY) {
                purged = Some(Instant::now());
                match purge(&pool, &config.settings) {
                    Ok(0) => {}
                    Ok(n) => tracing::info!(mails = n, "old mails deleted"),
                    Err(e) => tracing::warn!(error = %e, "deleting old mails failed"),
                }
            }
        }
        if !pause(&stop, config.settings.poll) {
            break;
        }
    }
}

/// How often the sending worker deletes the mails older than `MAIL_RETENTION_DAYS`.
pub const PURGE_EVERY: Duration = Duration::from_secs(3600);

/// Deletes the mails sent or failed longer ago than the retention ([`super::purge`]).
fn purge(pool: &Pool, settings: &MailSettings) -> Result<usize, String> {
    let mut c = pool.get().map_err(|e| e.to_string())?;
    crate::store::stamps::write(&mut c, |c| super::purge(c, now_utc(), settings.retention))
        .map_err(|e| e.to_string())
}

/// One pass: send the due mails, as many as the rate leaves room for, oldest first.
fn pass(
    pool: &Pool,
    settings: &MailSettings,
    transport: &Transport,
    stop: &AtomicBool,
    rate: &mut Rate,
) -> Result<(), String> {
    let room = rate.room();
    if room == 0 {
        return Ok(());
    }
    let limit = i64::try_from(room.min(100)).unwrap_or(100);
    let due = {
        let mut c = pool.get().map_err(|e| e.to_string())?;
        super::due(&mut c, now_utc(), limit).map_err(|e| e.to_string())?
    };
    for m in due {
        if stop.load(Ordering::SeqCst) {
            break;
        }
        let attempt = transport.send(settings, &m);
        rate.sent.push_back(Instant::now());
        // recorded before anything else, the SMTP session's QUIT included: until then an
        // accepted mail would be sent again after a crash
        record(pool, &m, &attempt.outcome, settings, stop)?;
        match &attempt.outcome {
            super::Outcome::Sent => {
                tracing::info!(mail = m.id, message_id = %m.message_id, kind = %m.kind, "mail sent");
            }
            super::Outcome::Temporary(e) | super::Outcome::Permanent(e) => {
                tracing::info!(mail = m.id, kind = %m.kind, error = %e, "a mail attempt failed");
            }
        }
        attempt.close();
    }
    Ok(())
}

/// How often the record of an attempt is tried before the pass gives up, and the pause
/// between two tries.
const RECORD_TRIES: u32 = 5;
const RECORD_PAUSE: Duration = Duration::from_secs(1);

/// Records an attempt of `m`. A write that fails (a database busy past its wait) is tried
/// again a little later rather than left to the next pass: a mail the server accepted and
/// left pending would be sent again.
fn record(
    pool: &Pool,
    m: &super::Outgoing,
    outcome: &super::Outcome,
    settings: &MailSettings,
    stop: &AtomicBool,
) -> Result<(), String> {
    let mut tries = 0;
    loop {
        tries += 1;
        let written = pool.get().map_err(|e| e.to_string()).and_then(|mut c| {
            crate::store::stamps::write(&mut c, |c| super::record_attempt(c, m, outcome, settings))
                .map_err(|e| e.to_string())
        });
        match written {
            Ok(()) => return Ok(()),
            Err(e) if tries >= RECORD_TRIES => return Err(e),
            Err(e) => {
                tracing::warn!(mail = m.id, error = %e, "recording a mail attempt failed; trying again");
                if !pause(stop, RECORD_PAUSE) {
                    return Err(e);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rate_leaves_room_for_what_the_last_minute_did_not_send() {
        let mut r = Rate {
            max: 3,
            sent: VecDeque::new(),
        };
        assert_eq!(r.room(), 3);
        if let Some(old) = Instant::now().checked_sub(Duration::from_secs(61)) {
            r.sent.push_back(old);
        }
        r.sent.push_back(Instant::now());
        r.sent.push_back(Instant::now());
        // the send of more than a minute ago no longer counts
        assert_eq!(r.room(), 1);
        r.sent.push_back(Instant::now());
        assert_eq!(r.room(), 0);
    }
}
