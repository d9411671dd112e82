//! Work limits of the calculators: how large an input an engine may be given (checked before
//! any engine work starts), and the bounded pool the heavy calculators run on, with a time
//! budget per request and cancellation when the budget is spent or the client goes away.
//! The figures behind the defaults are in `docs/operations.md` ("Work limits").

use crate::error::{ApiError, ApiResult};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// The largest inputs the engines accept (each an environment variable, see [`crate::config`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WorkLimits {
    /// `LIMIT_SWISS_PLAYERS`: players in a TRF file (pairing, tie-breaks) and entrants of a
    /// stored Swiss competition.
    pub swiss_players: usize,
    /// `LIMIT_SWISS_ROUNDS`: rounds in a TRF file (a Double-Swiss game counts as a round).
    pub swiss_rounds: usize,
    /// `LIMIT_ROUND_ROBIN_PLAYERS`: players of a round robin (the cross table grows with the
    /// square).
    pub round_robin_players: usize,
    /// `LIMIT_ROUND_ROBIN_GAMES`: games of a round-robin scenario.
    pub round_robin_games: usize,
    /// `LIMIT_KEIZER_PLAYERS`: players of a Keizer scenario or competition, and the ranking of
    /// a Keizer pairing request.
    pub keizer_players: usize,
    /// `LIMIT_KEIZER_EVENINGS`: evenings of a Keizer scenario.
    pub keizer_evenings: usize,
    /// `LIMIT_KEIZER_HISTORY`: earlier meetings in a Keizer pairing request.
    pub keizer_history: usize,
}

/// Tie-break acronyms in one request: every known acronym fits several times over.
pub const MAX_TIEBREAKS: usize = 16;

/// Groups in a knockout's playoff draw: groups of four out of the largest Keizer field fit
/// with room to spare.
pub const MAX_PLAYOFF_GROUPS: usize = 100;

impl Default for WorkLimits {
    fn default() -> WorkLimits {
        WorkLimits {
            swiss_players: 500,
            swiss_rounds: 30,
            round_robin_players: 100,
            round_robin_games: 20_000,
            keizer_players: 300,
            keizer_evenings: 80,
            keizer_history: 20_000,
        }
    }
}

/// A refusal naming the limit, its value and the count found (422, field `field`).
pub fn over(field: &str, what: &str, found: usize, var: &str, limit: usize) -> ApiError {
    ApiError::invalid(
        field,
        format!("{found} {what}: more than the limit of {limit} ({var})"),
    )
}

/// Checks a count against a limit.
pub fn check(field: &str, what: &str, found: usize, var: &str, limit: usize) -> ApiResult<()> {
    if found > limit {
        Err(over(field, what, found, var, limit))
    } else {
        Ok(())
    }
}

/// The pool the heavy calculators run on: `workers` threads of their own, at a lower CPU
/// priority than the rest of the service, and at most `queue` more requests waiting; anything
/// beyond is refused at once with 503 and `Retry-After`. The calculators therefore never take
/// the cores the other requests need: a standings read preempts a running pairing.
pub struct CalcPool {
    admitted: Arc<Semaphore>,
    jobs: std::sync::mpsc::Sender<Job>,
    budget: Duration,
    workers: usize,
    queue: usize,
}

impl std::fmt::Debug for CalcPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CalcPool")
            .field("workers", &self.workers)
            .field("queue", &self.queue)
            .field("budget", &self.budget)
            .finish()
    }
}

type Job = Box<dyn FnOnce() + Send>;

/// A place on the pool (running or waiting), taken before the request body is read; it is
/// held until the engine that uses it has ended.
#[derive(Debug)]
pub struct Admission {
    _place: OwnedSemaphorePermit,
}

/// Raises the stop flag when dropped: the handler future holds it, so a client that goes
/// away (the future is dropped) stops the engine at its next look at the flag.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// The nice value of the calculator threads: a standings read or a write preempts them, yet
/// under full load they keep about a tenth of a core, so a calculation still ends within its
/// budget (at 19 they would starve and every calculation would be stopped).
const CALC_NICE: i32 = 10;

/// Lowers the calling thread's scheduling priority to [`CALC_NICE`] (Linux), so that the
/// service's other threads run first whenever they have work.
fn lower_own_priority() {
    #[cfg(target_os = "linux")]
    if let Err(e) = rustix::process::setpriority_process(Some(rustix::thread::gettid()), CALC_NICE)
    {
        tracing::warn!(error = %e, "calculator thread keeps its priority");
    }
}

impl CalcPool {
    /// A pool of `workers` (at least 1) calculator threads, `queue` requests waiting, each
    /// calculation with `budget` of run time.
    #[allow(
        clippy::expect_used,
        reason = "a calculator pool without its threads cannot serve; the process fails at start"
    )]
    pub fn new(workers: usize, queue: usize, budget: Duration) -> CalcPool {
        let workers = workers.max(1);
        let (jobs, rx) = std::sync::mpsc::channel::<Job>();
        let rx = Arc::new(std::sync::Mutex::new(rx));
        for i in 0..workers {
            let rx = rx.clone();
            std::thread::Builder::new()
                .name(format!("calculator-{i}"))
                .spawn(move || {
                    lower_own_priority();
                    loop {
                        // the lock is held only while waiting for the next job
                        let job = match rx.lock() {
                            Ok(guard) => guard.recv(),
                            Err(_) => return,
                        };
                        match job {
                            Ok(job) => job(),
                            Err(_) => return, // the pool was dropped
                        }
                    }
                })
                .expect("a calculator thread can be started");
        }
        CalcPool {
            admitted: Arc::new(Semaphore::new(workers + queue)),
            jobs,
            budget,
            workers,
            queue,
        }
    }

    /// The default number of workers: half the cores, at least one.
    pub fn default_workers() -> usize {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        (cores / 2).max(1)
    }

    /// The time budget of one calculation.
    pub fn budget(&self) -> Duration {
        self.budget
    }

    fn retry_after(&self) -> u64 {
        self.budget.as_secs().max(1)
    }

    fn busy(&self) -> ApiError {
        ApiError::Busy {
            detail: format!(
                "the calculators are busy ({} running, {} waiting: CALC_WORKERS, CALC_QUEUE); try again",
                self.workers, self.queue
            ),
            retry_after: self.retry_after(),
        }
    }

    /// A place on the pool, or 503 with `Retry-After` at once when every place is taken.
    pub fn admit(&self) -> ApiResult<Admission> {
        self.admitted
            .clone()
            .try_acquire_owned()
            .map(|p| Admission { _place: p })
            .map_err(|_| self.busy())
    }

    /// Runs `f` on a calculator thread with the place `admission`: stopped (the flag passed
    /// to `f` raised, 503) when its run time exceeds the budget or the caller goes away. The
    /// place stays taken until `f` has returned. A panic in `f` answers 422 naming the engine.
    pub async fn run<T, F>(&self, admission: Admission, name: &'static str, f: F) -> ApiResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&AtomicBool) -> ApiResult<T> + Send + 'static,
    {
        let flag = Arc::new(AtomicBool::new(false));
        let guard = StopOnDrop(flag.clone());
        let (started_tx, started_rx) = tokio::sync::oneshot::channel::<()>();
        let (done_tx, done_rx) = tokio::sync::oneshot::channel();
        // in the request's span: a panic is logged with its request id (crate::panics)
        let span = tracing::Span::current();
        let job: Job = Box::new(move || {
            let _span = span.enter();
            let _admission = admission;
            if flag.load(Ordering::Relaxed) {
                return; // the caller went away while this waited
            }
            let _ = started_tx.send(());
            let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(&flag)));
            let _ = done_tx.send(out);
        });
        if self.jobs.send(job).is_err() {
            return Err(ApiError::Internal(
                "the calculator threads have ended".into(),
            ));
        }
        // the budget counts the run, not the wait for a thread
        if started_rx.await.is_err() {
            return Err(ApiError::Internal(
                "a calculator thread dropped its job".into(),
            ));
        }
        let out = match actix_web::rt::time::timeout(self.budget, done_rx).await {
            Ok(Ok(Ok(r))) => r,
            Ok(Ok(Err(panic))) => Err(engine_panicked(name, panic.as_ref())),
            Ok(Err(_)) => Err(ApiError::Internal(
                "a calculator thread dropped its job".into(),
            )),
            Err(_) => {
                tracing::warn!(
                    engine = name,
                    budget_ms = self.budget.as_millis() as u64,
                    "calculation stopped: time budget spent"
                );
                Err(ApiError::Busy {
                    detail: format!(
                        "the {name} calculation took longer than its budget of {} ms (CALC_TIME_BUDGET_MS) and was stopped",
                        self.budget.as_millis()
                    ),
                    retry_after: self.retry_after(),
                })
            }
        };
        drop(guard);
        out
    }
}

/// The answer to an engine that panicked on its input: 422 naming the engine; the panic's
/// message goes to the log only, where the panic hook has written it (in the request's span).
pub fn engine_panicked(name: &str, _panic: &(dyn std::any::Any + Send)) -> ApiError {
    ApiError::invalid(
        "body",
        format!("the {name} engine cannot process this input"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[actix_web::test]
    async fn a_full_pool_answers_busy_and_a_spent_budget_stops_the_engine() {
        let pool = Arc::new(CalcPool::new(1, 0, Duration::from_millis(200)));
        let seen_stop = Arc::new(AtomicBool::new(false));
        let seen = seen_stop.clone();
        let p = pool.clone();
        let long = actix_web::rt::spawn(async move {
            let admission = p.admit().unwrap();
            p.run(admission, "test", move |stop| {
                while !stop.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(5));
                }
                seen.store(true, Ordering::Relaxed);
                Ok(())
            })
            .await
        });
        actix_web::rt::time::sleep(Duration::from_millis(50)).await;
        // the only place is taken: refused at once
        match pool.admit() {
            Err(ApiError::Busy { retry_after, .. }) => assert_eq!(retry_after, 1),
            other => panic!("expected busy, got {other:?}"),
        }
        match long.await.unwrap() {
            Err(ApiError::Busy { detail, .. }) => assert!(detail.contains("budget"), "{detail}"),
            other => panic!("expected a spent budget, got {other:?}"),
        }
        for _ in 0..100 {
            if seen_stop.load(Ordering::Relaxed) {
                break;
            }
            actix_web::rt::time::sleep(Duration::from_millis(10)).await;
        }
        assert!(seen_stop.load(Ordering::Relaxed), "the engine saw no stop");
        // the place is free again once the engine ended
        for _ in 0..100 {
            if let Ok(admission) = pool.admit() {
                assert_eq!(pool.run(admission, "test", |_| Ok(7)).await.ok(), Some(7));
                return;
            }
            actix_web::rt::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("the pool stayed full");
    }
}
