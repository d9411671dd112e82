//! The real binary as a child process: `Server` (a `clubcomp serve` on a database, killed on
//! drop) and plain HTTP/1.1 requests to it over a socket.

use super::app::SECRET;
use super::paths;
use serde_json::Value;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A child `clubcomp serve` process; killed (SIGKILL) and reaped on drop.
pub struct Server {
    child: Child,
    pub port: u16,
    pub log: PathBuf,
    _dir: tempfile::TempDir,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

impl Server {
    /// Starts the binary on `db_url` and waits until `/readyz` answers 200.
    pub fn start(db_url: &str, env: &[(&str, &str)]) -> Server {
        let dir = tempfile::tempdir().expect("temp dir");
        let port = free_port();
        let log = dir.path().join("server.log");
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_clubcomp"));
        cmd.arg("serve")
            .current_dir(dir.path()) // no stray .env
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("DATABASE_URL", db_url)
            .env("BIND_ADDR", format!("127.0.0.1:{port}"))
            .env("DATA_DIR", dir.path())
            .env("JWT_SECRET", SECRET)
            .env("DB_POOL_SIZE", "4")
            .env("RUST_LOG", "warn")
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).expect("log file"));
        for (k, v) in env {
            cmd.env(k, v);
        }
        let child = cmd.spawn().expect("spawn clubcomp");
        let mut s = Server {
            child,
            port,
            log,
            _dir: dir,
        };
        let started = Instant::now();
        loop {
            if let Ok(r) = try_http(port, "GET", paths::READY, None, &[], None)
                && r.status == 200
            {
                return s;
            }
            if let Ok(Some(status)) = s.child.try_wait() {
                panic!("clubcomp exited with {status}: {}", s.log_text());
            }
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "clubcomp did not get ready: {}",
                s.log_text()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Kills the process at once (SIGKILL: no shutdown, no flushing).
    pub fn kill(&mut self) {
        self.child.kill().expect("kill");
        self.child.wait().expect("reap");
    }

    /// Sends SIGTERM and waits for the process to exit, failing the test when it has not
    /// within `guard` (a hang guard, not a measure); its exit status.
    pub fn terminate(&mut self, guard: Duration) -> std::process::ExitStatus {
        let sent = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .expect("kill -TERM");
        assert!(sent.success(), "kill -TERM failed");
        let started = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status;
            }
            assert!(
                started.elapsed() < guard,
                "clubcomp still runs after SIGTERM: {}",
                self.log_text()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Opens `GET /api/v1/stream` on a connection of its own and reads until the stream's
    /// first message arrived (it is subscribed then); the connection, to read on.
    pub fn open_stream(&self) -> TcpStream {
        let mut s = TcpStream::connect(("127.0.0.1", self.port)).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(30)))
            .expect("read timeout");
        let head = format!(
            "GET {} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n\r\n",
            paths::stream(""),
            self.port
        );
        s.write_all(head.as_bytes()).expect("send");
        let mut got = Vec::new();
        let mut buf = [0u8; 1024];
        while !String::from_utf8_lossy(&got).contains("retry:") {
            let n = s.read(&mut buf).expect("the stream's first message");
            assert!(n > 0, "the stream ended: {}", String::from_utf8_lossy(&got));
            got.extend_from_slice(&buf[..n]);
        }
        assert!(
            String::from_utf8_lossy(&got).starts_with("HTTP/1.1 200"),
            "{}",
            String::from_utf8_lossy(&got)
        );
        s
    }

    /// What the process wrote to stderr (its log).
    pub fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    pub fn req(&self, method: &str, path: &str, token: Option<&str>, body: Option<&Value>) -> Http {
        http(self.port, method, path, token, &[], body)
    }
}

/// A response over the wire.
#[derive(Debug)]
pub struct Http {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub text: String,
    pub raw: Vec<u8>,
}

pub fn gunzip(z: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(z)
        .read_to_end(&mut out)
        .expect("gzip body");
    out
}

impl Http {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.text).unwrap_or(Value::Null)
    }
}

/// One HTTP/1.1 request on a fresh connection (`Connection: close`).
pub fn try_http(
    port: u16,
    method: &str,
    path: &str,
    token: Option<&str>,
    headers: &[(&str, &str)],
    body: Option<&Value>,
) -> std::io::Result<Http> {
    let mut s = TcpStream::connect(("127.0.0.1", port))?;
    s.set_read_timeout(Some(Duration::from_secs(30)))?;
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    if !body.is_empty() {
        head.push_str("Content-Type: application/json\r\n");
    }
    if let Some(t) = token {
        head.push_str(&format!("Authorization: Bearer {t}\r\n"));
    }
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    s.write_all(head.as_bytes())?;
    s.write_all(body.as_bytes())?;
    let mut raw = Vec::new();
    s.read_to_end(&mut raw)?;
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or_else(|| std::io::Error::other("no end of headers"))?;
    let head = String::from_utf8_lossy(&raw[..split]).to_string();
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|c| c.parse().ok())
        .ok_or_else(|| std::io::Error::other("no status line"))?;
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect();
    let mut body = raw[split + 4..].to_vec();
    let chunked = headers.iter().any(|(k, v)| {
        k.eq_ignore_ascii_case("transfer-encoding") && v.eq_ignore_ascii_case("chunked")
    });
    if chunked {
        body = unchunk(&body);
    }
    Ok(Http {
        status,
        headers,
        text: String::from_utf8_lossy(&body).to_string(),
        raw: body,
    })
}

fn unchunk(mut b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(eol) = b.windows(2).position(|w| w == b"\r\n") {
        let size =
            usize::from_str_radix(String::from_utf8_lossy(&b[..eol]).trim(), 16).unwrap_or(0);
        if size == 0 {
            break;
        }
        let start = eol + 2;
        out.extend_from_slice(&b[start..(start + size).min(b.len())]);
        b = &b[(start + size + 2).min(b.len())..];
    }
    out
}

pub fn http(
    port: u16,
    method: &str,
    path: &str,
    token: Option<&str>,
    headers: &[(&str, &str)],
    body: Option<&Value>,
) -> Http {
    try_http(port, method, path, token, headers, body)
        .unwrap_or_else(|e| panic!("{method} {path} on port {port}: {e}"))
}

/// Runs `clubcomp calc <name>` on `input` (written to a file) and reads its JSON answer.
pub fn calc_cli(name: &str, input: &Value) -> Value {
    let file = std::env::temp_dir().join(format!("{name}-{}.json", uuid::Uuid::new_v4()));
    std::fs::write(&file, input.to_string()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_clubcomp"))
        .args(["calc", name])
        .arg(&file)
        .output()
        .unwrap();
    std::fs::remove_file(&file).ok();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}
