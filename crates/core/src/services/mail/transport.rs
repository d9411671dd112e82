//! Where mail goes: an SMTP server (`SMTP_URL`, one connection per mail, one recipient per
//! mail), or, without one, a folder of `.eml` files (`MAIL_DIR`), written whole and renamed
//! into place so a reader never sees half a file.
//!
//! The SMTP exchange is lettre's [`SmtpConnection`] driven step by step rather than lettre's
//! `SmtpTransport`, for two reasons. The message and its closing `.` line go out in one
//! write: written apart, the short second write waits under Nagle's algorithm for the
//! server's delayed acknowledgement of the first, some 40 ms a mail on Linux. And the
//! connection is closed (`QUIT`) only after the worker has recorded the server's answer, so
//! the time in which a mail is accepted but not yet recorded as sent is as short as it can be.

use super::{Outcome, Outgoing};
use crate::mail_config::{MailSettings, SmtpTls, header_safe};
use lettre::message::header::{Header, HeaderName, HeaderValue};
use lettre::message::{Mailbox, MultiPart};
use lettre::transport::smtp::authentication::{Credentials, DEFAULT_MECHANISMS};
use lettre::transport::smtp::client::{SmtpConnection, TlsParameters};
use lettre::transport::smtp::commands::{Data, Mail, Rcpt};
use lettre::transport::smtp::extension::{ClientId, Extension, MailBodyParameter, MailParameter};
use lettre::{Address, Message};
use std::path::PathBuf;
use std::time::Duration;

/// Where this process sends mail.
pub enum Transport {
    /// An SMTP server.
    Smtp(Box<Smtp>),
    /// A folder of `.eml` files.
    Dir(PathBuf),
}

impl std::fmt::Debug for Transport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Transport::Smtp(_) => f.write_str("Transport::Smtp"),
            Transport::Dir(d) => write!(f, "Transport::Dir({})", d.display()),
        }
    }
}

/// An SMTP server, reached with a new connection for each mail.
pub struct Smtp {
    host: String,
    port: u16,
    /// TLS from the first byte (`Tls`) or after `STARTTLS` (`StartTls`); none: plain.
    tls: Option<(SmtpTls, TlsParameters)>,
    credentials: Option<Credentials>,
    timeout: Duration,
    hello: ClientId,
}

/// One attempt at a mail: how it ended, and the SMTP connection it went over, still open so
/// that the answer can be recorded before the connection is closed ([`Attempt::close`]).
pub struct Attempt {
    /// How the attempt ended.
    pub outcome: Outcome,
    open: Option<SmtpConnection>,
}

impl Attempt {
    fn done(outcome: Outcome) -> Attempt {
        Attempt {
            outcome,
            open: None,
        }
    }

    /// Ends the SMTP session (`QUIT`) and closes its connection.
    pub fn close(mut self) {
        if let Some(mut c) = self.open.take() {
            c.abort();
        }
    }
}

impl Drop for Attempt {
    fn drop(&mut self) {
        if let Some(mut c) = self.open.take() {
            c.abort();
        }
    }
}

impl Transport {
    /// The transport of the settings; `data_dir` holds the default mail folder.
    pub fn of(settings: &MailSettings, data_dir: &std::path::Path) -> Result<Transport, String> {
        let Some(s) = &settings.smtp else {
            return Ok(Transport::Dir(settings.dir_under(data_dir)));
        };
        let tls = match s.tls {
            SmtpTls::None => None,
            mode => Some((
                mode,
                TlsParameters::new(s.host.clone()).map_err(|_| {
                    "SMTP_URL: the TLS settings for this host cannot be made".to_string()
                })?,
            )),
        };
        Ok(Transport::Smtp(Box::new(Smtp {
            host: s.host.clone(),
            port: s.port,
            tls,
            credentials: s
                .credentials
                .as_ref()
                .map(|(user, password)| Credentials::new(user.clone(), password.clone())),
            timeout: settings.timeout,
            hello: ClientId::default(),
        })))
    }

    /// Sends one stored mail; the caller records the outcome, then closes the attempt.
    pub fn send(&self, settings: &MailSettings, m: &Outgoing) -> Attempt {
        let message = match build(settings, m) {
            Ok(message) => message,
            Err(e) => return Attempt::done(Outcome::Permanent(e)),
        };
        match self {
            Transport::Smtp(s) => s.send(&message),
            Transport::Dir(dir) => {
                Attempt::done(match write_file(dir, m.id, &message.formatted()) {
                    Ok(()) => Outcome::Sent,
                    Err(e) => Outcome::Temporary(format!("the mail file cannot be written: {e}")),
                })
            }
        }
    }
}

impl Smtp {
    /// Connects, secures and signs in as configured, then sends `message`; the connection of
    /// an accepted mail stays open in the attempt.
    fn send(&self, message: &Message) -> Attempt {
        let wrapped = match &self.tls {
            Some((SmtpTls::Tls, p)) => Some(p),
            _ => None,
        };
        let mut conn = match SmtpConnection::connect(
            (self.host.as_str(), self.port),
            Some(self.timeout),
            &self.hello,
            wrapped,
            None,
        ) {
            Ok(c) => c,
            Err(e) => return Attempt::done(outcome_of(&e)),
        };
        match self.exchange(&mut conn, message) {
            Ok(None) => Attempt {
                outcome: Outcome::Sent,
                open: Some(conn),
            },
            Ok(Some(refused)) => {
                conn.abort();
                Attempt::done(refused)
            }
            Err(e) => {
                conn.abort();
                Attempt::done(outcome_of(&e))
            }
        }
    }

    /// `STARTTLS`, `AUTH`, `MAIL`, `RCPT`, `DATA` and the message; `Some` when the mail
    /// cannot be sent to this server at all.
    fn exchange(
        &self,
        conn: &mut SmtpConnection,
        message: &Message,
    ) -> Result<Option<Outcome>, lettre::transport::smtp::Error> {
        if let Some((SmtpTls::StartTls, p)) = &self.tls {
            conn.starttls(p, &self.hello)?;
        }
        if let Some(c) = &self.credentials {
            conn.auth(DEFAULT_MECHANISMS, c)?;
        }
        let envelope = message.envelope();
        let bytes = message.formatted();
        let info = conn.server_info();
        let mut options = Vec::new();
        let ascii = |a: &Address| AsRef::<str>::as_ref(a).is_ascii();
        if !(envelope.to().iter().all(ascii) && envelope.from().is_none_or(ascii)) {
            if !info.supports_feature(Extension::SmtpUtfEight) {
                return Ok(Some(Outcome::Permanent(
                    "the SMTP server takes no address outside ASCII (no SMTPUTF8)".into(),
                )));
            }
            options.push(MailParameter::SmtpUtfEight);
        }
        if !bytes.is_ascii() {
            if !info.supports_feature(Extension::EightBitMime) {
                return Ok(Some(Outcome::Permanent(
                    "the SMTP server takes no 8-bit message (no 8BITMIME)".into(),
                )));
            }
            options.push(MailParameter::Body(MailBodyParameter::EightBitMime));
        }
        conn.command(Mail::new(envelope.from().cloned(), options))?;
        for to in envelope.to() {
            conn.command(Rcpt::new(to.clone(), vec![]))?;
        }
        conn.command(Data)?;
        match std::str::from_utf8(&bytes) {
            // the message and its end in one write (see the module's comment)
            Ok(text) => conn.command(Terminated(text))?,
            Err(_) => conn.message(&bytes)?,
        };
        Ok(None)
    }
}

/// A failed SMTP step as an outcome: a 5xx answer is permanent, anything else temporary.
fn outcome_of(e: &lettre::transport::smtp::Error) -> Outcome {
    if e.is_permanent() {
        Outcome::Permanent(smtp_error(e))
    } else {
        Outcome::Temporary(smtp_error(e))
    }
}

/// A message as the `DATA` section sends it: dot-stuffed (RFC 5321 4.5.2: a line that starts
/// with `.` gets a second one) and ended by the line `.`.
struct Terminated<'a>(&'a str);

impl std::fmt::Display for Terminated<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&dot_stuffed(self.0))?;
        f.write_str("\r\n.\r\n")
    }
}

/// `text` with a `.` added before every line that starts with one; a line starts after
/// `\r\n` and at the very beginning.
fn dot_stuffed(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    let mut line_start = true;
    let mut after_cr = false;
    for ch in text.chars() {
        if line_start && ch == '.' {
            out.push('.');
        }
        out.push(ch);
        line_start = after_cr && ch == '\n';
        after_cr = ch == '\r';
    }
    out
}

/// An SMTP error in words, with the server's code when it answered one.
fn smtp_error(e: &lettre::transport::smtp::Error) -> String {
    match e.status() {
        Some(code) => format!("the SMTP server answered {code}: {e}"),
        None => format!("no answer from the SMTP server: {e}"),
    }
}

/// Writes `bytes` to `dir/mail-ID.eml` (through a temporary file and a rename).
fn write_file(dir: &std::path::Path, id: i64, bytes: &[u8]) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let name = format!("mail-{id:08}.eml");
    let tmp = dir.join(format!(".{name}.tmp"));
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, dir.join(name))
}

/// `List-Unsubscribe` (RFC 2369): the one-click link in angle brackets.
#[derive(Debug, Clone)]
struct ListUnsubscribe(String);

impl Header for ListUnsubscribe {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("List-Unsubscribe")
    }
    fn parse(s: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(ListUnsubscribe(s.to_string()))
    }
    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), format!("<{}>", self.0))
    }
}

/// `List-Unsubscribe-Post` (RFC 8058): the link unsubscribes with one POST.
#[derive(Debug, Clone)]
struct ListUnsubscribePost;

impl Header for ListUnsubscribePost {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("List-Unsubscribe-Post")
    }
    fn parse(_: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(ListUnsubscribePost)
    }
    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), "List-Unsubscribe=One-Click".to_string())
    }
}

/// The message of a stored mail: from `MAIL_FROM` to its one recipient, its stable
/// `Message-ID`, plain text and HTML as `multipart/alternative`. A field that could break a
/// header is refused (checked when queued, and again here).
pub fn build(settings: &MailSettings, m: &Outgoing) -> Result<Message, String> {
    for (what, text) in [
        ("recipient", &m.recipient),
        ("name", &m.recipient_name),
        ("subject", &m.subject),
        ("Message-ID", &m.message_id),
    ] {
        if !header_safe(text) {
            return Err(format!("the {what} holds a control character"));
        }
    }
    let from: Mailbox = settings
        .from
        .parse()
        .map_err(|_| "MAIL_FROM cannot be read".to_string())?;
    let address: lettre::Address = m
        .recipient
        .parse()
        .map_err(|_| "the recipient's address cannot be read".to_string())?;
    let name = (!m.recipient_name.is_empty()).then(|| m.recipient_name.clone());
    let mut b = Message::builder()
        .message_id(Some(m.message_id.clone()))
        .from(from)
        .to(Mailbox::new(name, address))
        .subject(m.subject.clone());
    if let Some(u) = &m.unsubscribe_url {
        if !header_safe(u) {
            return Err("the unsubscribe link holds a control character".into());
        }
        b = b
            .header(ListUnsubscribe(u.clone()))
            .header(ListUnsubscribePost);
    }
    b.multipart(MultiPart::alternative_plain_html(
        m.body_text.clone(),
        m.body_html.clone(),
    ))
    .map_err(|e| format!("the mail cannot be built: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_that_starts_with_a_dot_gets_a_second_one() {
        assert_eq!(
            dot_stuffed(".a\r\nb.\r\n.\r\n..c"),
            "..a\r\nb.\r\n..\r\n...c"
        );
        // a bare LF or CR does not start a line; only CR LF does
        assert_eq!(dot_stuffed("a\n.b\r.c"), "a\n.b\r.c");
        assert_eq!(
            Terminated("x\r\n.y\r\n").to_string(),
            "x\r\n..y\r\n\r\n.\r\n"
        );
    }
}
