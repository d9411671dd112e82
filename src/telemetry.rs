//! Logging: `tracing` to stderr, text or JSON (`LOG_FORMAT`), filtered by `RUST_LOG`
//! (default `info`); a panic is one line of it ([`crate::panics`]).

use tracing_subscriber::EnvFilter;

/// Installs the global subscriber (idempotent: a second call is ignored).
pub fn init(json: bool) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    let _ = if json {
        builder.json().with_current_span(true).try_init()
    } else {
        builder.try_init()
    };
    crate::panics::install_hook();
}
