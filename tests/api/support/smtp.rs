//! A small SMTP server on loopback: speaks EHLO/HELO, MAIL, RCPT, DATA, RSET, NOOP and QUIT on
//! a thread, keeps every message it accepts, and answers DATA as the test tells it (accept,
//! a temporary 451 or a permanent 554), so the mail tests need nothing but Rust.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How the server answers the end of a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SmtpReply {
    /// `250`: accepted.
    Accept,
    /// `451`: try again later.
    Temporary,
    /// `554`: refused for good.
    Permanent,
}

/// One message accepted.
#[derive(Debug, Clone)]
pub struct Captured {
    /// The envelope sender.
    pub mail_from: String,
    /// The envelope recipients.
    pub rcpt_to: Vec<String>,
    /// The message as sent (dot-stuffing undone, CRLF line ends).
    pub data: String,
}

impl Captured {
    /// The header fields, folded lines joined, in order.
    pub fn headers(&self) -> Vec<(String, String)> {
        let head = self.data.split("\r\n\r\n").next().unwrap_or_default();
        let mut out: Vec<(String, String)> = Vec::new();
        for line in head.split("\r\n") {
            if line.starts_with([' ', '\t']) {
                if let Some((_, v)) = out.last_mut() {
                    v.push(' ');
                    v.push_str(line.trim_start());
                }
            } else if let Some((k, v)) = line.split_once(':') {
                out.push((k.to_string(), v.trim().to_string()));
            }
        }
        out
    }

    /// The value of the first header `name` (case-insensitive), unfolded.
    pub fn header(&self, name: &str) -> Option<String> {
        self.headers()
            .into_iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v)
    }

    /// The body decoded from quoted-printable (soft line breaks and `=XX` escapes), which
    /// is how lettre writes text parts with long lines or non-ASCII characters.
    pub fn decoded(&self) -> String {
        let mut bytes = Vec::new();
        let raw = self.data.replace("=\r\n", "");
        let b = raw.as_bytes();
        let mut i = 0;
        while i < b.len() {
            if b[i] == b'='
                && i + 2 < b.len()
                && let Ok(v) = u8::from_str_radix(&raw[i + 1..i + 3], 16)
            {
                bytes.push(v);
                i += 3;
                continue;
            }
            bytes.push(b[i]);
            i += 1;
        }
        String::from_utf8_lossy(&bytes).to_string()
    }
}

/// A running SMTP server; it stops accepting when dropped.
pub struct SmtpServer {
    /// `smtp://127.0.0.1:PORT`.
    pub url: String,
    messages: Arc<Mutex<Vec<Captured>>>,
    reply: Arc<Mutex<SmtpReply>>,
    stop: Arc<std::sync::atomic::AtomicBool>,
}

impl SmtpServer {
    /// Starts a server answering `reply`.
    pub fn start(reply: SmtpReply) -> SmtpServer {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let url = format!("smtp://{}", listener.local_addr().unwrap());
        let messages: Arc<Mutex<Vec<Captured>>> = Arc::default();
        let reply = Arc::new(Mutex::new(reply));
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let (m, r, s) = (messages.clone(), reply.clone(), stop.clone());
        std::thread::spawn(move || {
            while !s.load(std::sync::atomic::Ordering::SeqCst) {
                match listener.accept() {
                    Ok((stream, _)) => {
                        let (m, r) = (m.clone(), r.clone());
                        std::thread::spawn(move || {
                            let _ = session(stream, &m, &r);
                        });
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(5)),
                }
            }
        });
        SmtpServer {
            url,
            messages,
            reply,
            stop,
        }
    }

    /// Changes how the end of a message is answered from now on.
    pub fn set_reply(&self, reply: SmtpReply) {
        *self.reply.lock().unwrap() = reply;
    }

    /// The messages accepted so far.
    pub fn messages(&self) -> Vec<Captured> {
        self.messages.lock().unwrap().clone()
    }

    /// Waits (at most 30 s) until `n` messages were accepted; returns them.
    pub fn wait_for(&self, n: usize) -> Vec<Captured> {
        let end = Instant::now() + Duration::from_secs(30);
        loop {
            let m = self.messages();
            if m.len() >= n {
                return m;
            }
            assert!(Instant::now() < end, "{} of {n} messages arrived", m.len());
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for SmtpServer {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::SeqCst);
    }
}

/// One SMTP session.
fn session(
    stream: TcpStream,
    messages: &Mutex<Vec<Captured>>,
    reply: &Mutex<SmtpReply>,
) -> std::io::Result<()> {
    stream.set_nonblocking(false)?;
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut out = stream.try_clone()?;
    let mut lines = BufReader::new(stream);
    out.write_all(b"220 test.smtp ESMTP\r\n")?;
    let (mut from, mut rcpt) = (String::new(), Vec::new());
    let mut line = String::new();
    loop {
        line.clear();
        if lines.read_line(&mut line)? == 0 {
            return Ok(());
        }
        let cmd = line.trim_end().to_string();
        let upper = cmd.to_ascii_uppercase();
        if upper.starts_with("EHLO") {
            out.write_all(b"250-test.smtp\r\n250-8BITMIME\r\n250 SMTPUTF8\r\n")?;
        } else if upper.starts_with("HELO") || upper.starts_with("NOOP") {
            out.write_all(b"250 OK\r\n")?;
        } else if upper.starts_with("RSET") {
            from.clear();
            rcpt.clear();
            out.write_all(b"250 OK\r\n")?;
        } else if upper.starts_with("MAIL FROM:") {
            from = address(&cmd[10..]);
            out.write_all(b"250 OK\r\n")?;
        } else if upper.starts_with("RCPT TO:") {
            rcpt.push(address(&cmd[8..]));
            out.write_all(b"250 OK\r\n")?;
        } else if upper == "DATA" {
            out.write_all(b"354 go ahead\r\n")?;
            let mut data = String::new();
            loop {
                line.clear();
                if lines.read_line(&mut line)? == 0 {
                    return Ok(());
                }
                if line == ".\r\n" || line == ".\n" {
                    break;
                }
                let l = line.strip_prefix('.').unwrap_or(&line);
                data.push_str(l);
            }
            let now = *reply.lock().unwrap();
            match now {
                SmtpReply::Accept => {
                    messages.lock().unwrap().push(Captured {
                        mail_from: std::mem::take(&mut from),
                        rcpt_to: std::mem::take(&mut rcpt),
                        data,
                    });
                    out.write_all(b"250 queued\r\n")?;
                }
                SmtpReply::Temporary => out.write_all(b"451 4.3.0 try again later\r\n")?,
                SmtpReply::Permanent => out.write_all(b"554 5.7.1 refused\r\n")?,
            }
        } else if upper.starts_with("QUIT") {
            out.write_all(b"221 bye\r\n")?;
            return Ok(());
        } else {
            out.write_all(b"502 not implemented\r\n")?;
        }
    }
}

/// The address of `<a@b> PARAMS`.
fn address(rest: &str) -> String {
    let r = rest.trim();
    match (r.find('<'), r.find('>')) {
        (Some(a), Some(b)) if a < b => r[a + 1..b].to_string(),
        _ => r.split_whitespace().next().unwrap_or_default().to_string(),
    }
}
