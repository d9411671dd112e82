//! The delivery worker ([decision 0222](../../../../../docs/decisions/0222-webhooks.md)): a thread
//! that, every poll, queues the deliveries of new events and starts one sender thread for
//! each subscription with a delivery due and none running. A sender sends that
//! subscription's due deliveries one after the other (in order), so a slow or failing
//! receiver holds up only its own subscription. All state is in the database: a restarted
//! worker continues with what is pending. On Postgres only the instance holding a session
//! advisory lock ([`LOCK_KEY`], on a connection of the worker's own) runs it; the others wait
//! and take over when that connection ends.

use super::client::{self, Outbound};
use super::{RetryPolicy, signature};
use crate::ids::WebhookId;
use crate::services::leadership::{Leadership, pause};
use crate::store::models::webhooks::Delivery;
use crate::store::{Pool, now_utc};
use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// The key of the session advisory lock the running worker holds on Postgres.
pub const LOCK_KEY: i64 = 0x636c_7562_686f_6f6b; // "clubhook"

/// How the worker runs.
#[derive(Debug, Clone)]
pub struct WorkerConfig {
    /// The database (for the lock's own connection).
    pub database_url: String,
    /// Outbound connections.
    pub outbound: Outbound,
    /// Retries.
    pub retry: RetryPolicy,
    /// The pause between two passes.
    pub poll: Duration,
}

impl WorkerConfig {
    /// The worker's configuration from the service's.
    pub fn of(c: &crate::config::Config) -> WorkerConfig {
        WorkerConfig {
            database_url: c.database_url.clone(),
            outbound: Outbound {
                timeout: c.webhook_timeout,
                allow_private: c.webhook_allow_private,
            },
            retry: RetryPolicy {
                base: c.webhook_backoff_base,
                cap: c.webhook_backoff_cap,
                max_attempts: c.webhook_max_attempts,
            },
            poll: c.webhook_poll,
        }
    }
}

/// A running worker; stopped (waiting for the attempts under way) when dropped.
#[derive(Debug)]
pub struct Worker {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Worker {
    /// Starts the worker on its own thread.
    #[allow(
        clippy::expect_used,
        reason = "a server without its webhook worker cannot deliver; the process fails at start"
    )]
    pub fn start(pool: Pool, config: WorkerConfig) -> Worker {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let thread = std::thread::Builder::new()
            .name("webhooks".into())
            .spawn(move || run(pool, config, flag))
            .expect("start the webhook worker");
        Worker {
            stop,
            thread: Some(thread),
        }
    }

    /// Stops the worker: no attempt starts any more; those under way end (within the time-out).
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

impl Drop for Worker {
    fn drop(&mut self) {
        self.halt();
    }
}

fn run(pool: Pool, config: WorkerConfig, stop: Arc<AtomicBool>) {
    let busy: Arc<Mutex<HashSet<WebhookId>>> = Arc::default();
    let mut senders: Vec<JoinHandle<()>> = Vec::new();
    let mut leader = Leadership::new(&config.database_url, LOCK_KEY, "the webhook deliveries");
    loop {
        senders.retain(|h| !h.is_finished());
        if leader.lead(&config.database_url)
            && let Err(e) = pass(&pool, &config, &stop, &busy, &mut senders)
        {
            tracing::warn!(error = %e, "a webhook pass failed; trying again");
        }
        if !pause(&stop, config.poll) {
            break;
        }
    }
    for h in senders {
        let _ = h.join();
    }
}

/// One pass: queue new events, then start a sender for each subscription with a due
/// delivery and no sender running.
fn pass(
    pool: &Pool,
    config: &WorkerConfig,
    stop: &Arc<AtomicBool>,
    busy: &Arc<Mutex<HashSet<WebhookId>>>,
    senders: &mut Vec<JoinHandle<()>>,
) -> Result<(), String> {
    let mut c = pool.get().map_err(|e| e.to_string())?;
    let queued = super::queue_new_events(&mut c).map_err(|e| e.to_string())?;
    if queued > 0 {
        tracing::debug!(queued, "webhook deliveries queued");
    }
    let due = super::due(&mut c, now_utc()).map_err(|e| e.to_string())?;
    drop(c);
    for d in due {
        let webhook = d.webhook_id;
        if !busy.lock().map_err(|e| e.to_string())?.insert(webhook) {
            continue;
        }
        let (pool, config, stop, busy) = (pool.clone(), config.clone(), stop.clone(), busy.clone());
        let h = std::thread::Builder::new()
            .name(format!("webhook-{webhook}"))
            .spawn(move || {
                let _free = Free(busy, webhook);
                send_due(&pool, &config, &stop, d);
            })
            .map_err(|e| e.to_string())?;
        senders.push(h);
    }
    Ok(())
}

/// Frees a subscription for the next sender when its sender ends (also by a panic).
struct Free(Arc<Mutex<HashSet<WebhookId>>>, WebhookId);

impl Drop for Free {
    fn drop(&mut self) {
        if let Ok(mut b) = self.0.lock() {
            b.remove(&self.1);
        }
    }
}

/// Sends `first` and then the subscription's further due deliveries, in order, until none is
/// due or the worker stops.
fn send_due(pool: &Pool, config: &WorkerConfig, stop: &AtomicBool, first: Delivery) {
    let webhook = first.webhook_id;
    let mut next = Some(first);
    while let Some(d) = next.take() {
        if stop.load(Ordering::SeqCst) {
            return;
        }
        if let Err(e) = send_one(pool, config, &d) {
            tracing::warn!(webhook = webhook.get(), delivery = d.id.get(), error = %e, "a webhook delivery could not be recorded");
            return;
        }
        next = pool.get().ok().and_then(|mut c| {
            crate::store::models::webhooks::head(&mut c, webhook)
                .ok()
                .flatten()
                .filter(|d| d.next_attempt_at <= now_utc())
        });
    }
}

/// One attempt of one delivery, recorded.
fn send_one(pool: &Pool, config: &WorkerConfig, d: &Delivery) -> Result<(), String> {
    let mut c = pool.get().map_err(|e| e.to_string())?;
    let Some((w, d)) = super::sendable(&mut c, d).map_err(|e| e.to_string())? else {
        return Ok(());
    };
    drop(c);
    let outcome = attempt(&w.url, &w.secret, &d, config.outbound);
    if let Err(e) = &outcome {
        tracing::info!(webhook = w.id.get(), delivery = d.id.get(), error = %e, "a webhook attempt failed");
    }
    let mut c = pool.get().map_err(|e| e.to_string())?;
    super::record_attempt(&mut c, &d, outcome, &config.retry).map_err(|e| e.to_string())
}

/// Signs and sends a delivery's body: the answer's status code, or why there was none.
pub fn attempt(url: &str, secret: &str, d: &Delivery, out: Outbound) -> Result<u16, String> {
    let url = url::Url::parse(url).map_err(|_| "the URL cannot be read".to_string())?;
    let key = signature::key(secret).map_err(|e| format!("the secret {e}"))?;
    let id = d.event_id.to_string();
    let timestamp = chrono::Utc::now().timestamp();
    let sig = signature::sign(&key, &id, timestamp, d.body.as_bytes());
    let headers = [
        ("webhook-id", id),
        ("webhook-timestamp", timestamp.to_string()),
        ("webhook-signature", sig),
    ];
    client::post(&url, &headers, d.body.as_bytes(), out).map_err(|e| e.to_string())
}
