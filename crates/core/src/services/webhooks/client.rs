//! The outbound HTTP client of deliveries ([decision 0223](../../../../../docs/decisions/0223-webhook-outbound-guard.md)):
//! one `POST` over HTTP/1.1, plain or TLS (rustls with the system's root certificates), to an
//! address the guard checked at that moment. The host name is resolved here, each address is
//! checked, and the connection goes to the checked address itself, so a name that changes
//! between the check and the connection cannot lead elsewhere. No redirect is followed (a 3xx
//! is an answer like any other), every step has a deadline, and at most
//! [`MAX_RESPONSE_BYTES`] of the answer are read and discarded.

use super::guard;
use std::io::{Read, Write};
use std::net::{IpAddr, SocketAddr, TcpStream, ToSocketAddrs};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};
use url::{Host, Url};

/// The most bytes of an answer read (its head included); the rest is not read.
pub const MAX_RESPONSE_BYTES: usize = 64 * 1024;
/// The most bytes of an answer's status line and headers.
const MAX_HEAD_BYTES: usize = 16 * 1024;

/// How a delivery connects.
#[derive(Debug, Clone, Copy)]
pub struct Outbound {
    /// The deadline of the whole exchange: connecting, sending and reading the answer.
    pub timeout: Duration,
    /// Whether private and special addresses may be connected to.
    pub allow_private: bool,
}

/// Why an attempt got no answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SendError {
    /// The guard refused every address of the host.
    Refused(String),
    /// No answer within the deadline.
    TimedOut,
    /// Any other failure (name resolution, connection, TLS, a malformed answer).
    Failed(String),
}

impl std::fmt::Display for SendError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SendError::Refused(why) => write!(f, "refused: {why}"),
            SendError::TimedOut => f.write_str("timed out"),
            SendError::Failed(why) => f.write_str(why),
        }
    }
}

/// The addresses a delivery to `url` may connect to: the host's addresses the guard lets
/// through, in the resolver's order.
pub fn addresses(url: &Url, allow_private: bool) -> Result<Vec<SocketAddr>, SendError> {
    let port = url
        .port_or_known_default()
        .ok_or_else(|| SendError::Failed("the URL has no port".into()))?;
    let all: Vec<SocketAddr> = match url.host() {
        Some(Host::Ipv4(ip)) => vec![SocketAddr::new(IpAddr::V4(ip), port)],
        Some(Host::Ipv6(ip)) => vec![SocketAddr::new(IpAddr::V6(ip), port)],
        Some(Host::Domain(name)) => (name, port)
            .to_socket_addrs()
            .map_err(|_| SendError::Failed(format!("the name {name} could not be resolved")))?
            .collect(),
        None => return Err(SendError::Failed("the URL has no host".into())),
    };
    if allow_private {
        return Ok(all);
    }
    let mut first_refusal = None;
    let ok: Vec<SocketAddr> = all
        .into_iter()
        .filter(|a| match guard::refusal(a.ip()) {
            Some(why) => {
                first_refusal.get_or_insert(why);
                false
            }
            None => true,
        })
        .collect();
    if ok.is_empty() {
        return Err(SendError::Refused(
            first_refusal.unwrap_or_else(|| "the name has no address".into()),
        ));
    }
    Ok(ok)
}

/// Sends `body` to `url` with `headers` (besides the request's own); returns the answer's
/// status code.
pub fn post(
    url: &Url,
    headers: &[(&str, String)],
    body: &[u8],
    out: Outbound,
) -> Result<u16, SendError> {
    let deadline = Instant::now() + out.timeout;
    let addrs = addresses(url, out.allow_private)?;
    let mut last = SendError::Failed("no address".into());
    let mut stream = None;
    for a in addrs {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(SendError::TimedOut);
        }
        match TcpStream::connect_timeout(&a, left) {
            Ok(s) => {
                stream = Some(s);
                break;
            }
            Err(e) if e.kind() == std::io::ErrorKind::TimedOut => last = SendError::TimedOut,
            Err(_) => last = SendError::Failed(format!("could not connect to {a}")),
        }
    }
    let tcp = stream.ok_or(last)?;
    let _ = tcp.set_nodelay(true);
    let request = request_bytes(url, headers, body);
    match url.scheme() {
        "https" => {
            let name = match url.host() {
                Some(Host::Domain(d)) => rustls::pki_types::ServerName::try_from(d.to_string())
                    .map_err(|_| SendError::Failed("the host is no TLS server name".into()))?,
                Some(Host::Ipv4(ip)) => IpAddr::V4(ip).into(),
                Some(Host::Ipv6(ip)) => IpAddr::V6(ip).into(),
                None => return Err(SendError::Failed("the URL has no host".into())),
            };
            let conn = rustls::ClientConnection::new(tls_config()?, name)
                .map_err(|e| SendError::Failed(format!("TLS: {e}")))?;
            exchange(
                rustls::StreamOwned::new(conn, tcp.try_clone().map_err(io_error)?),
                &tcp,
                &request,
                deadline,
            )
        }
        _ => exchange(tcp.try_clone().map_err(io_error)?, &tcp, &request, deadline),
    }
}

fn io_error(e: std::io::Error) -> SendError {
    if matches!(
        e.kind(),
        std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock
    ) {
        SendError::TimedOut
    } else {
        SendError::Failed(format!("connection error: {}", e.kind()))
    }
}

/// The TLS client configuration: the system's root certificates, made once.
fn tls_config() -> Result<Arc<rustls::ClientConfig>, SendError> {
    static CONFIG: OnceLock<Result<Arc<rustls::ClientConfig>, String>> = OnceLock::new();
    CONFIG
        .get_or_init(|| {
            let mut roots = rustls::RootCertStore::empty();
            let found = rustls_native_certs::load_native_certs();
            for c in found.certs {
                let _ = roots.add(c);
            }
            if roots.is_empty() {
                return Err("TLS: the system has no root certificates".to_string());
            }
            let provider = Arc::new(rustls::crypto::ring::default_provider());
            let config = rustls::ClientConfig::builder_with_provider(provider)
                .with_safe_default_protocol_versions()
                .map_err(|e| format!("TLS: {e}"))?
                .with_root_certificates(roots)
                .with_no_client_auth();
            Ok(Arc::new(config))
        })
        .clone()
        .map_err(SendError::Failed)
}

/// The request: the URL's path and query, its host, and the headers.
fn request_bytes(url: &Url, headers: &[(&str, String)], body: &[u8]) -> Vec<u8> {
    let mut target = url.path().to_string();
    if let Some(q) = url.query() {
        target.push('?');
        target.push_str(q);
    }
    let host = match (url.host_str(), url.port()) {
        (Some(h), Some(p)) => format!("{h}:{p}"),
        (Some(h), None) => h.to_string(),
        _ => String::new(),
    };
    let mut head = format!(
        "POST {target} HTTP/1.1\r\nHost: {host}\r\nUser-Agent: clubcomp-webhooks\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    for (k, v) in headers {
        head.push_str(k);
        head.push_str(": ");
        head.push_str(v);
        head.push_str("\r\n");
    }
    head.push_str("\r\n");
    let mut out = head.into_bytes();
    out.extend_from_slice(body);
    out
}

/// Writes the request and reads the answer's status (and at most [`MAX_RESPONSE_BYTES`]),
/// each read and write within what is left of the deadline.
fn exchange<S: Read + Write>(
    mut stream: S,
    tcp: &TcpStream,
    request: &[u8],
    deadline: Instant,
) -> Result<u16, SendError> {
    let left = || {
        let d = deadline.saturating_duration_since(Instant::now());
        if d.is_zero() {
            Err(SendError::TimedOut)
        } else {
            Ok(d)
        }
    };
    tcp.set_write_timeout(Some(left()?)).map_err(io_error)?;
    tcp.set_read_timeout(Some(left()?)).map_err(io_error)?;
    stream.write_all(request).map_err(io_error)?;
    stream.flush().map_err(io_error)?;
    let mut got = Vec::with_capacity(1024);
    let mut buf = [0u8; 4096];
    let mut status = None;
    loop {
        tcp.set_read_timeout(Some(left()?)).map_err(io_error)?;
        let n = match stream.read(&mut buf) {
            Ok(n) => n,
            // a TLS peer that closes without close_notify after its answer
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof && status.is_some() => 0,
            Err(e) => return Err(io_error(e)),
        };
        if n == 0 {
            break;
        }
        got.extend_from_slice(&buf[..n]);
        if status.is_none() {
            if let Some(end) = find(&got, b"\r\n\r\n") {
                status = Some(status_of(&got[..end])?);
            } else if got.len() > MAX_HEAD_BYTES {
                return Err(SendError::Failed("the answer's head is too large".into()));
            }
        }
        if got.len() >= MAX_RESPONSE_BYTES {
            break;
        }
    }
    match status {
        Some(s) => Ok(s),
        None if got.is_empty() => Err(SendError::Failed(
            "the connection closed without an answer".into(),
        )),
        None => Err(SendError::Failed("the answer is not HTTP".into())),
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// The status code of an answer's head (`HTTP/1.x NNN …`).
fn status_of(head: &[u8]) -> Result<u16, SendError> {
    let line = head.split(|b| *b == b'\n').next().unwrap_or_default();
    let text = std::str::from_utf8(line).unwrap_or_default();
    let mut parts = text.split_whitespace();
    match (parts.next(), parts.next()) {
        (Some(v), Some(code)) if v.starts_with("HTTP/1.") && code.len() == 3 => code
            .parse::<u16>()
            .ok()
            .filter(|c| (100..600).contains(c))
            .ok_or_else(|| SendError::Failed("the answer is not HTTP".into())),
        _ => Err(SendError::Failed("the answer is not HTTP".into())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_status_line_is_read() {
        assert_eq!(status_of(b"HTTP/1.1 204 No Content\r\nA: b"), Ok(204));
        assert_eq!(status_of(b"HTTP/1.0 302 Found"), Ok(302));
        assert!(status_of(b"SSH-2.0-OpenSSH").is_err());
        assert!(status_of(b"HTTP/1.1 2000 x").is_err());
    }

    #[test]
    fn the_request_names_the_host_and_the_length() {
        let url = Url::parse("http://hooks.example:8081/in/x?k=1").unwrap();
        let r = request_bytes(&url, &[("webhook-id", "7".into())], b"{}");
        let text = String::from_utf8(r).unwrap();
        assert!(text.starts_with("POST /in/x?k=1 HTTP/1.1\r\nHost: hooks.example:8081\r\n"));
        assert!(text.contains("Content-Length: 2\r\n"));
        assert!(text.ends_with("webhook-id: 7\r\n\r\n{}"));
    }

    #[test]
    fn a_private_address_is_refused_without_the_flag() {
        let url = Url::parse("http://127.0.0.1:9/").unwrap();
        assert!(matches!(addresses(&url, false), Err(SendError::Refused(_))));
        assert_eq!(addresses(&url, true).unwrap().len(), 1);
        let url = Url::parse("http://[::ffff:10.0.0.1]:9/").unwrap();
        assert!(matches!(addresses(&url, false), Err(SendError::Refused(_))));
        // a name is resolved and its addresses checked
        let url = Url::parse("http://localhost:9/").unwrap();
        assert!(matches!(addresses(&url, false), Err(SendError::Refused(_))));
    }
}
