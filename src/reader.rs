//! The reader of the request being answered ([decision 0326](../docs/decisions/0326-player-publication.md)):
//! set by the middleware of [`crate::audience`] around the request, read by the database
//! calls of [`crate::state::AppState`] and the read cache's keys.

pub use clubcomp_core::publication::Audience;

tokio::task_local! {
    static AUDIENCE: Audience;
}

/// The audience of the request being answered; on a thread of database work, the one that
/// work runs for; [`Audience::Full`] outside both (the workers, the command line).
pub fn current() -> Audience {
    AUDIENCE
        .try_with(|a| *a)
        .unwrap_or_else(|_| clubcomp_core::publication::current())
}

/// Runs `work` (a request's handling) for `audience`.
pub async fn scope<F: std::future::Future>(audience: Audience, work: F) -> F::Output {
    AUDIENCE.scope(audience, work).await
}
