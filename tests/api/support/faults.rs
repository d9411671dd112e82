//! Database faults: the answer every request gets when the database fails it
//! ([`assert_unavailable`]), and a TCP proxy ([`Proxy`]) on 127.0.0.1 in front of the test's
//! Postgres server, with a switch that makes the network silent: connections are still accepted and every byte is acknowledged by the
//! kernel, but nothing is forwarded (the bytes are held); switched back, the held bytes go on.
//! It stops by itself: when dropped, and at the latest after [`Proxy::LIFETIME`]; every loop
//! wakes up at least every 20 ms to look.

use super::Resp;
use actix_web::http::StatusCode;
use std::io::{ErrorKind, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Words of the databases' error messages that must never reach a client.
pub const DATABASE_WORDS: [&str; 9] = [
    "no such table",
    "relation",
    "does not exist",
    "readonly",
    "read-only",
    "connection",
    "SQLITE",
    "FATAL",
    "timed out",
];

/// Asserts a 503 problem with `Retry-After` and none of the database's words.
pub fn assert_unavailable(r: &Resp, what: &str) {
    assert_eq!(
        r.status,
        StatusCode::SERVICE_UNAVAILABLE,
        "{what}: {}",
        r.text
    );
    assert!(r.header("retry-after").is_some(), "{what}: Retry-After");
    assert_eq!(
        r.header("content-type").as_deref(),
        Some("application/problem+json"),
        "{what}"
    );
    for w in DATABASE_WORDS {
        assert!(!r.text.contains(w), "{what}: {w:?} in {}", r.text);
    }
}

/// The proxy; stopped on drop.
pub struct Proxy {
    /// Its port on 127.0.0.1.
    pub port: u16,
    silent: Arc<AtomicBool>,
    stop: Arc<AtomicBool>,
}

const TICK: Duration = Duration::from_millis(20);

impl Proxy {
    /// The longest the proxy runs.
    pub const LIFETIME: Duration = Duration::from_secs(300);

    /// A proxy forwarding to `upstream` (`host:port`).
    pub fn start(upstream: &str) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a proxy port");
        listener.set_nonblocking(true).unwrap();
        let port = listener.local_addr().unwrap().port();
        let silent = Arc::new(AtomicBool::new(false));
        let stop = Arc::new(AtomicBool::new(false));
        let (s, st, up) = (silent.clone(), stop.clone(), upstream.to_string());
        std::thread::spawn(move || {
            let end = Instant::now() + Proxy::LIFETIME;
            while !st.load(Ordering::SeqCst) && Instant::now() < end {
                match listener.accept() {
                    Ok((client, _)) => {
                        let Ok(server) = TcpStream::connect(&up) else {
                            continue;
                        };
                        for (from, to) in [
                            (client.try_clone().unwrap(), server.try_clone().unwrap()),
                            (server, client),
                        ] {
                            let (s, st) = (s.clone(), st.clone());
                            std::thread::spawn(move || pipe(from, to, &s, &st, end));
                        }
                    }
                    Err(e) if e.kind() == ErrorKind::WouldBlock => std::thread::sleep(TICK),
                    Err(_) => break,
                }
            }
        });
        Proxy { port, silent, stop }
    }

    /// The network goes silent (`true`) or comes back (`false`).
    pub fn silence(&self, on: bool) {
        self.silent.store(on, Ordering::SeqCst);
    }

    /// `url` (a `postgres://` URL) through this proxy.
    pub fn url_of(&self, url: &str) -> String {
        let (scheme, rest) = url.split_once("://").expect("a URL");
        let (authority, path) = rest.split_once('/').unwrap_or((rest, ""));
        let user = authority.rsplit_once('@').map(|(u, _)| format!("{u}@"));
        format!(
            "{scheme}://{}127.0.0.1:{}/{path}",
            user.unwrap_or_default(),
            self.port
        )
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
    }
}

/// The `host:port` of a `postgres://` URL (5432 when it names no port).
pub fn upstream_of(url: &str) -> String {
    let rest = url.split_once("://").expect("a URL").1;
    let authority = rest.split('/').next().unwrap_or(rest);
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    if host.contains(':') {
        host.to_string()
    } else {
        format!("{host}:5432")
    }
}

/// Copies `from` to `to`, holding what arrives while the network is silent.
fn pipe(
    mut from: TcpStream,
    mut to: TcpStream,
    silent: &AtomicBool,
    stop: &AtomicBool,
    end: Instant,
) {
    from.set_read_timeout(Some(TICK)).unwrap();
    let mut held: Vec<u8> = Vec::new();
    let mut buf = [0u8; 16 * 1024];
    while !stop.load(Ordering::SeqCst) && Instant::now() < end {
        if !silent.load(Ordering::SeqCst) && !held.is_empty() {
            if to.write_all(&held).is_err() {
                break;
            }
            held.clear();
        }
        match from.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => held.extend_from_slice(&buf[..n]),
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            Err(_) => break,
        }
    }
    // the end of the stream is held too, behind the bytes before it
    while silent.load(Ordering::SeqCst) && !stop.load(Ordering::SeqCst) && Instant::now() < end {
        std::thread::sleep(TICK);
    }
    if !stop.load(Ordering::SeqCst) {
        let _ = to.write_all(&held);
    }
    let _ = to.shutdown(std::net::Shutdown::Write);
}
