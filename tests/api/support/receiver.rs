//! A webhook receiver on loopback: a plain HTTP/1.1 server on a thread that records every
//! request and answers as the test tells it (a status, a redirect, or no answer at all), and
//! checks Standard Webhooks signatures with its own HMAC-SHA256.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use hmac::{Hmac, KeyInit, Mac};
use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How the receiver answers a request.
#[derive(Debug, Clone)]
pub enum Reply {
    /// This status code, with an empty body.
    Status(u16),
    /// `302 Found` to this URL.
    Redirect(String),
    /// No answer: the connection is held open this long, then closed.
    Hang(Duration),
}

/// One request received.
#[derive(Debug, Clone)]
pub struct Received {
    /// Header names in lower case.
    pub headers: HashMap<String, String>,
    pub body: Vec<u8>,
    /// When its head had arrived.
    pub at: Instant,
}

impl Received {
    pub fn header(&self, name: &str) -> &str {
        self.headers.get(name).map(String::as_str).unwrap_or("")
    }

    /// The body as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).expect("a JSON body")
    }

    /// Whether `webhook-signature` holds a `v1` signature of this request made with `secret`
    /// (`whsec_<base64>`): HMAC-SHA256 of `"{webhook-id}.{webhook-timestamp}.{body}"`, keyed
    /// with the decoded secret, as the Standard Webhooks specification says.
    pub fn signed_with(&self, secret: &str) -> bool {
        let key = STANDARD
            .decode(secret.strip_prefix("whsec_").expect("a whsec_ secret"))
            .expect("base64");
        let mut mac = <Hmac<sha2::Sha256> as KeyInit>::new_from_slice(&key).unwrap();
        mac.update(
            format!(
                "{}.{}.",
                self.header("webhook-id"),
                self.header("webhook-timestamp")
            )
            .as_bytes(),
        );
        mac.update(&self.body);
        let expected = format!("v1,{}", STANDARD.encode(mac.finalize().into_bytes()));
        self.header("webhook-signature")
            .split(' ')
            .any(|s| s == expected)
    }
}

#[derive(Default)]
struct Inner {
    got: Vec<Received>,
}

/// A running receiver.
#[derive(Clone)]
pub struct Receiver {
    /// Its URL (`http://127.0.0.1:PORT/hook`).
    pub url: String,
    inner: Arc<Mutex<Inner>>,
    default: Arc<Mutex<Reply>>,
}

impl Receiver {
    /// A receiver answering every request with `default`.
    pub fn start(default: Reply) -> Receiver {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/hook", listener.local_addr().unwrap());
        let r = Receiver {
            url,
            inner: Arc::default(),
            default: Arc::new(Mutex::new(default)),
        };
        let me = r.clone();
        std::thread::spawn(move || {
            for s in listener.incoming().flatten() {
                let me = me.clone();
                std::thread::spawn(move || me.serve(s));
            }
        });
        r
    }

    /// Answers from now on with `reply`.
    pub fn answer(&self, reply: Reply) {
        *self.default.lock().unwrap() = reply;
    }

    /// The requests received so far.
    pub fn received(&self) -> Vec<Received> {
        self.inner.lock().unwrap().got.clone()
    }

    /// Waits (at most 30 s) until `n` requests were received; returns them all.
    pub async fn wait_for(&self, n: usize) -> Vec<Received> {
        let end = Instant::now() + Duration::from_secs(30);
        loop {
            let got = self.received();
            if got.len() >= n {
                return got;
            }
            assert!(
                Instant::now() < end,
                "{} of {n} requests arrived at {}",
                got.len(),
                self.url
            );
            actix_web::rt::time::sleep(Duration::from_millis(20)).await;
        }
    }

    fn serve(&self, mut s: TcpStream) {
        let _ = s.set_read_timeout(Some(Duration::from_secs(10)));
        let mut buf = Vec::new();
        let mut chunk = [0u8; 4096];
        let head_end = loop {
            if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                break i + 4;
            }
            match s.read(&mut chunk) {
                Ok(0) | Err(_) => return,
                Ok(n) => buf.extend_from_slice(&chunk[..n]),
            }
        };
        let at = Instant::now();
        let head = String::from_utf8_lossy(&buf[..head_end]).to_string();
        let headers: HashMap<String, String> = head
            .split("\r\n")
            .skip(1)
            .filter_map(|l| l.split_once(':'))
            .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
            .collect();
        let len: usize = headers
            .get("content-length")
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        let mut body = buf[head_end..].to_vec();
        while body.len() < len {
            match s.read(&mut chunk) {
                Ok(0) | Err(_) => break,
                Ok(n) => body.extend_from_slice(&chunk[..n]),
            }
        }
        let reply = {
            let mut inner = self.inner.lock().unwrap();
            inner.got.push(Received { headers, body, at });
            self.default.lock().unwrap().clone()
        };
        let answer = match reply {
            Reply::Status(code) => {
                format!(
                    "HTTP/1.1 {code} Scripted\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                )
            }
            Reply::Redirect(to) => format!(
                "HTTP/1.1 302 Found\r\nLocation: {to}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            ),
            Reply::Hang(d) => {
                std::thread::sleep(d);
                return;
            }
        };
        let _ = s.write_all(answer.as_bytes());
    }
}
