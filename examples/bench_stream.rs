//! Load benchmark of the live event stream (`benches/stream.sh` runs it against demo-seeded
//! servers): opens `CLIENTS` streams spread over the given servers, writes one game result
//! every `INTERVAL_MS` for `SECONDS` through the first server, and reports the delay from each
//! event's commit (its `occurred_at`, stamped in the writing transaction) to its arrival at
//! every client: median, p99 and maximum over all deliveries, with the deliveries missing.
//! The servers' resident memory and CPU time are read from `/proc` by the script.
//!
//! Usage: `bench_stream TOKEN GAME CLIENTS SECONDS INTERVAL_MS PORT [PORT…]`
//! (`TOKEN`: an arbiter's or admin's access token; `GAME`: a game of a published round).

use actix_web::rt::net::TcpStream;
use actix_web::rt::time::{Instant, sleep};
use std::cell::RefCell;
use std::io::Write as _;
use std::rc::Rc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 6 {
        eprintln!("usage: bench_stream TOKEN GAME CLIENTS SECONDS INTERVAL_MS PORT [PORT…]");
        std::process::exit(2);
    }
    let token = args[0].clone();
    let game: i64 = args[1].parse().expect("GAME");
    let clients: usize = args[2].parse().expect("CLIENTS");
    let seconds: u64 = args[3].parse().expect("SECONDS");
    let interval: u64 = args[4].parse().expect("INTERVAL_MS");
    let ports: Vec<u16> = args[5..].iter().map(|p| p.parse().expect("PORT")).collect();
    actix_web::rt::System::new().block_on(run(token, game, clients, seconds, interval, ports));
}

/// Delays in microseconds, per delivery.
type Delays = Rc<RefCell<Vec<i64>>>;

async fn run(
    token: String,
    game: i64,
    clients: usize,
    seconds: u64,
    interval: u64,
    ports: Vec<u16>,
) {
    let delays: Delays = Rc::new(RefCell::new(Vec::new()));
    let open = Rc::new(RefCell::new(0usize));
    for i in 0..clients {
        let port = ports[i % ports.len()];
        let (d, o) = (delays.clone(), open.clone());
        actix_web::rt::spawn(async move {
            if let Err(e) = client(port, d, o).await {
                eprintln!("client {i}: {e}");
            }
        });
        if i % 50 == 49 {
            sleep(Duration::from_millis(20)).await;
        }
    }
    let started = Instant::now();
    while *open.borrow() < clients && started.elapsed() < Duration::from_secs(60) {
        sleep(Duration::from_millis(50)).await;
    }
    println!("streams open: {} of {clients}", open.borrow());
    println!("OPEN_DONE");
    std::io::stdout().flush().ok();
    // the script reads the servers' memory now
    sleep(Duration::from_secs(2)).await;
    let mut w = TcpStream::connect(("127.0.0.1", ports[0]))
        .await
        .expect("connect");
    let writing = Instant::now();
    let end = Instant::now() + Duration::from_secs(seconds);
    let mut next = Instant::now();
    let mut writes = 0u64;
    let mut failed = 0u64;
    let results = ["1-0", "0-1", "1/2-1/2"];
    while Instant::now() < end {
        let body = format!(
            "{{\"result\":\"{}\",\"reason\":\"stream benchmark\"}}",
            results[(writes % 3) as usize]
        );
        let req = format!(
            "PUT /api/v1/games/{game}/result HTTP/1.1\r\nHost: bench\r\nAuthorization: Bearer {token}\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        w.write_all(req.as_bytes()).await.expect("write");
        let status = read_response(&mut w).await;
        if status != 200 {
            failed += 1;
        }
        writes += 1;
        next += Duration::from_millis(interval);
        let now = Instant::now();
        if next > now {
            sleep(next - now).await;
        } else {
            next = now;
        }
    }
    let wrote = writing.elapsed();
    // the last events reach every client
    sleep(Duration::from_secs(3)).await;
    let mut d = delays.borrow().clone();
    d.sort_unstable();
    let pct = |p: f64| {
        d.get(((d.len() as f64 * p) as usize).min(d.len().saturating_sub(1)))
            .copied()
            .unwrap_or(0)
    };
    println!(
        "writes: {writes} ({failed} not 200) in {:.1} s of writing",
        wrote.as_secs_f64()
    );
    println!(
        "deliveries: {} of {} expected",
        d.len(),
        (writes - failed) as usize * clients
    );
    println!(
        "commit-to-delivery: median {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        pct(0.5) as f64 / 1000.0,
        pct(0.99) as f64 / 1000.0,
        d.last().copied().unwrap_or(0) as f64 / 1000.0
    );
    std::process::exit(0);
}

/// Reads one HTTP/1.1 answer with a `Content-Length`; returns its status.
async fn read_response(s: &mut TcpStream) -> u16 {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        let n = s.read(&mut chunk).await.expect("read");
        assert!(n > 0, "the server closed the connection");
        buf.extend_from_slice(&chunk[..n]);
        if let Some(at) = find(&buf, b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buf[..at]).to_ascii_lowercase();
            let len: usize = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .map(|v| v.trim().parse().unwrap_or(0))
                .unwrap_or(0);
            while buf.len() < at + 4 + len {
                let n = s.read(&mut chunk).await.expect("read");
                assert!(n > 0, "the server closed the connection");
                buf.extend_from_slice(&chunk[..n]);
            }
            return head[9..12].parse().unwrap_or(0);
        }
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// One stream: the result corrections, each delivery's delay recorded.
async fn client(port: u16, delays: Delays, open: Rc<RefCell<usize>>) -> std::io::Result<()> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).await?;
    s.write_all(
        b"GET /api/v1/stream?types=result.corrected HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n\r\n",
    )
    .await?;
    let mut buf: Vec<u8> = Vec::new();
    let mut chunk = vec![0u8; 16 * 1024];
    let mut counted = false;
    loop {
        let n = s.read(&mut chunk).await?;
        if n == 0 {
            return Ok(());
        }
        let now = chrono::Utc::now();
        buf.extend_from_slice(&chunk[..n]);
        if !counted && find(&buf, b"retry:").is_some() {
            counted = true;
            *open.borrow_mut() += 1;
        }
        // each `"occurred_at":"…"` is one delivered event
        let key = b"\"occurred_at\":\"";
        let mut consumed = 0;
        while let Some(at) = find(&buf[consumed..], key) {
            let from = consumed + at + key.len();
            let Some(len) = buf[from..].iter().position(|b| *b == b'"') else {
                break;
            };
            let text = std::str::from_utf8(&buf[from..from + len]).unwrap_or("");
            if let Ok(t) = chrono::DateTime::parse_from_rfc3339(text) {
                delays.borrow_mut().push(
                    (now - t.with_timezone(&chrono::Utc))
                        .num_microseconds()
                        .unwrap_or(0),
                );
            }
            consumed = from + len;
        }
        buf.drain(..consumed);
        if buf.len() > 64 * 1024 {
            let keep = buf.len() - 1024;
            buf.drain(..keep);
        }
    }
}
