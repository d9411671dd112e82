//! Where mail goes: an SMTP server (`SMTP_URL`, one connection per mail, one recipient per
//! mail), or, without one, a folder of `.eml` files (`MAIL_DIR`), written whole and renamed
//! into place so a reader never sees half a file.

use super::{Outcome, Outgoing};
use crate::mail_config::{MailSettings, SmtpTls, header_safe};
use lettre::message::header::{Header, HeaderName, HeaderValue};
use lettre::message::{Mailbox, MultiPart};
use lettre::transport::smtp::authentication::Credentials;
use lettre::{Message, SmtpTransport, Transport as _};
use std::path::PathBuf;

/// Where this process sends mail.
pub enum Transport {
    /// An SMTP server.
    Smtp(Box<SmtpTransport>),
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

impl Transport {
    /// The transport of the settings; `data_dir` holds the default mail folder.
    pub fn of(settings: &MailSettings, data_dir: &std::path::Path) -> Result<Transport, String> {
        let Some(s) = &settings.smtp else {
            return Ok(Transport::Dir(settings.dir_under(data_dir)));
        };
        let builder = match s.tls {
            SmtpTls::StartTls => SmtpTransport::starttls_relay(&s.host),
            SmtpTls::Tls => SmtpTransport::relay(&s.host),
            SmtpTls::None => Ok(SmtpTransport::builder_dangerous(&s.host)),
        }
        .map_err(|_| "SMTP_URL: the TLS settings for this host cannot be made".to_string())?;
        let mut builder = builder.port(s.port).timeout(Some(settings.timeout));
        if let Some((user, password)) = &s.credentials {
            builder = builder.credentials(Credentials::new(user.clone(), password.clone()));
        }
        Ok(Transport::Smtp(Box::new(builder.build())))
    }

    /// Sends one stored mail.
    pub fn send(&self, settings: &MailSettings, m: &Outgoing) -> Outcome {
        let message = match build(settings, m) {
            Ok(message) => message,
            Err(e) => return Outcome::Permanent(e),
        };
        match self {
            Transport::Smtp(t) => match t.send(&message) {
                Ok(_) => Outcome::Sent,
                Err(e) if e.is_permanent() => Outcome::Permanent(smtp_error(&e)),
                Err(e) => Outcome::Temporary(smtp_error(&e)),
            },
            Transport::Dir(dir) => match write_file(dir, m.id, &message.formatted()) {
                Ok(()) => Outcome::Sent,
                Err(e) => Outcome::Temporary(format!("the mail file cannot be written: {e}")),
            },
        }
    }
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
