//! The mail settings (docs/operations.md#mail): where mail goes (an SMTP server, or `.eml`
//! files in a folder when none is set), who it is from, the public address links point to,
//! the club's name in the mails and how fast and how often mail is sent.

use crate::vocab::NotifyKind;
use std::path::PathBuf;
use std::time::Duration;

/// How the connection to the SMTP server is secured (`SMTP_TLS`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SmtpTls {
    /// Plain connection upgraded with `STARTTLS`, which must succeed (the default).
    StartTls,
    /// TLS from the first byte (`smtps://`, port 465).
    Tls,
    /// No encryption: only for a server on the same machine or in tests.
    None,
}

/// The SMTP server: host, port, credentials and TLS. Never logged (the password).
#[derive(Clone, PartialEq, Eq)]
pub struct SmtpServer {
    /// Host name or address.
    pub host: String,
    /// Port.
    pub port: u16,
    /// User name and password, when the URL holds them.
    pub credentials: Option<(String, String)>,
    /// TLS.
    pub tls: SmtpTls,
}

impl std::fmt::Debug for SmtpServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SmtpServer")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("credentials", &self.credentials.as_ref().map(|_| "…"))
            .field("tls", &self.tls)
            .finish()
    }
}

/// The mail settings.
#[derive(Debug, Clone)]
pub struct MailSettings {
    /// `SMTP_URL` with `SMTP_TLS`: the server; none: mails are written to [`Self::dir`].
    pub smtp: Option<SmtpServer>,
    /// `MAIL_FROM`: the sender (`Name <address>` or an address).
    pub from: String,
    /// `PUBLIC_URL`: the address the links in mails start with (no trailing `/`).
    pub public_url: String,
    /// `MAIL_DIR`: the folder for `.eml` files without an SMTP server (default `DATA_DIR/mail`).
    pub dir: Option<PathBuf>,
    /// `MAIL_MAX_PER_MINUTE`: the most mails sent in any minute.
    pub max_per_minute: u32,
    /// `MAIL_MAX_ATTEMPTS`: attempts before a temporarily failing mail is marked failed.
    pub max_attempts: i32,
    /// `MAIL_BACKOFF_BASE_MS`: the wait after the first failed attempt (doubling, at most an hour).
    pub backoff_base: Duration,
    /// `MAIL_POLL_MS`: the pause between two looks at the outbox.
    pub poll: Duration,
    /// `MAIL_TIMEOUT_SECS`: the longest wait for the SMTP server.
    pub timeout: Duration,
    /// The club's name in mails: `CLUB_NAME` as the pages read it
    /// ([`crate::club_site::ClubSite`]); none: "De club" / "The club".
    pub club_name: Option<String>,
    /// `INVITE_TTL_HOURS`: how long an invitation's link works.
    pub invite_ttl: chrono::Duration,
    /// `NOTIFY_DEFAULTS`: the kinds of notification on for a member who chose nothing
    /// (default `pairing,reminder`).
    pub notify_defaults: Vec<NotifyKind>,
    /// `MAIL_RETENTION_DAYS`: how long a sent or failed mail (its address, subject and
    /// bodies) is kept before the worker deletes it (default 30 days).
    pub retention: chrono::Duration,
    /// `REMINDER_HOURS_BEFORE`: how long before an evening's sign-up deadline its reminders
    /// go out (default 24 hours).
    pub reminder_lead: chrono::Duration,
}

impl Default for MailSettings {
    fn default() -> MailSettings {
        MailSettings {
            smtp: None,
            from: "clubcomp <noreply@localhost>".into(),
            public_url: "http://127.0.0.1:8080".into(),
            dir: None,
            max_per_minute: 60,
            max_attempts: 10,
            backoff_base: Duration::from_secs(30),
            poll: Duration::from_millis(500),
            timeout: Duration::from_secs(30),
            club_name: None,
            invite_ttl: chrono::Duration::hours(168),
            notify_defaults: vec![NotifyKind::Pairing, NotifyKind::Reminder],
            retention: chrono::Duration::days(30),
            reminder_lead: chrono::Duration::hours(24),
        }
    }
}

impl MailSettings {
    /// The folder `.eml` files are written to.
    pub fn dir_under(&self, data_dir: &std::path::Path) -> PathBuf {
        self.dir.clone().unwrap_or_else(|| data_dir.join("mail"))
    }
}

/// Reads `SMTP_URL` and `SMTP_TLS` into a server.
fn read_smtp(url: &str, tls: Option<&str>) -> Result<SmtpServer, String> {
    let u = url::Url::parse(url.trim())
        .map_err(|_| "SMTP_URL: is not smtp://HOST:PORT or smtps://HOST:PORT".to_string())?;
    let implied = match u.scheme() {
        "smtp" => SmtpTls::StartTls,
        "smtps" => SmtpTls::Tls,
        _ => return Err("SMTP_URL: must start with smtp:// or smtps://".into()),
    };
    let host = match u.host_str() {
        Some(h) if !h.is_empty() => h.trim_matches(['[', ']']).to_string(),
        _ => return Err("SMTP_URL: must name a host".into()),
    };
    let tls = match tls.map(|t| t.trim().to_ascii_lowercase()).as_deref() {
        None => implied,
        Some("starttls") => SmtpTls::StartTls,
        Some("tls") => SmtpTls::Tls,
        Some("none") => SmtpTls::None,
        Some(other) => return Err(format!("SMTP_TLS: {other:?} is not starttls, tls or none")),
    };
    if implied == SmtpTls::Tls && tls != SmtpTls::Tls {
        return Err(
            "SMTP_TLS: an smtps:// URL is TLS from the start; set tls or use smtp://".into(),
        );
    }
    let port = u.port().unwrap_or(match tls {
        SmtpTls::Tls => 465,
        _ => 587,
    });
    let decode = |s: &str| {
        percent_decode(s).ok_or_else(|| "SMTP_URL: the credentials are not valid UTF-8".to_string())
    };
    let credentials = if u.username().is_empty() {
        None
    } else {
        Some((
            decode(u.username())?,
            decode(u.password().unwrap_or_default())?,
        ))
    };
    Ok(SmtpServer {
        host,
        port,
        credentials,
        tls,
    })
}

/// Decodes `%XX` escapes of a URL's user name or password.
fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// Whether a text may go into a mail header: no control characters (CR and LF above all).
pub fn header_safe(text: &str) -> bool {
    !text.chars().any(char::is_control)
}

/// Reads a comma-separated list of notification kinds (`none`: no kind).
fn read_kinds(text: &str) -> Result<Vec<NotifyKind>, String> {
    let mut out = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        if part.eq_ignore_ascii_case("none") {
            continue;
        }
        let k = part
            .to_ascii_lowercase()
            .parse::<NotifyKind>()
            .map_err(|e| e.to_string())?;
        if !out.contains(&k) {
            out.push(k);
        }
    }
    Ok(out)
}

/// Reads the mail settings from `get` into `m`, adding a message naming each bad variable.
pub fn read(get: &impl Fn(&str) -> Option<String>, m: &mut MailSettings, errs: &mut Vec<String>) {
    if let Some(url) = get("SMTP_URL") {
        match read_smtp(&url, get("SMTP_TLS").as_deref()) {
            Ok(s) => m.smtp = Some(s),
            Err(e) => errs.push(e),
        }
        if get("MAIL_FROM").is_none() {
            errs.push("MAIL_FROM: is required with SMTP_URL".into());
        }
    }
    if let Some(from) = get("MAIL_FROM") {
        let from = from.trim().to_string();
        if !header_safe(&from) || from.parse::<lettre::message::Mailbox>().is_err() {
            errs.push(format!(
                "MAIL_FROM: {from:?} is not an address or Name <address>"
            ));
        } else {
            m.from = from;
        }
    }
    if let Some(p) = get("PUBLIC_URL") {
        match url::Url::parse(p.trim()) {
            Ok(u) if matches!(u.scheme(), "http" | "https") && u.host().is_some() => {
                m.public_url = p.trim().trim_end_matches('/').to_string();
            }
            _ => errs.push(format!(
                "PUBLIC_URL: {p:?} is not an http or https URL (e.g. https://club.example)"
            )),
        }
    }
    if let Some(d) = get("MAIL_DIR") {
        m.dir = Some(PathBuf::from(d));
    }
    if let Some(d) = get("NOTIFY_DEFAULTS") {
        match read_kinds(&d) {
            Ok(k) => m.notify_defaults = k,
            Err(e) => errs.push(format!("NOTIFY_DEFAULTS: {e}")),
        }
    }
    let mut num = |key: &str, min: u64, max: u64, out: &mut u64| {
        if let Some(v) = get(key) {
            match v.trim().parse::<u64>() {
                Ok(n) if (min..=max).contains(&n) => *out = n,
                _ => errs.push(format!("{key}: {v:?} is not a number from {min} to {max}")),
            }
        }
    };
    let mut per_minute = u64::from(m.max_per_minute);
    num("MAIL_MAX_PER_MINUTE", 1, 100_000, &mut per_minute);
    let mut attempts = m.max_attempts as u64;
    num("MAIL_MAX_ATTEMPTS", 1, 50, &mut attempts);
    let mut base = m.backoff_base.as_millis() as u64;
    num("MAIL_BACKOFF_BASE_MS", 10, 3_600_000, &mut base);
    let mut poll = m.poll.as_millis() as u64;
    num("MAIL_POLL_MS", 10, 60_000, &mut poll);
    let mut timeout = m.timeout.as_secs();
    num("MAIL_TIMEOUT_SECS", 1, 300, &mut timeout);
    let mut invite_hours = m.invite_ttl.num_hours().unsigned_abs();
    num("INVITE_TTL_HOURS", 1, 24 * 90, &mut invite_hours);
    m.invite_ttl = chrono::Duration::hours(i64::try_from(invite_hours).unwrap_or(168));
    let mut retention_days = m.retention.num_days().unsigned_abs();
    num("MAIL_RETENTION_DAYS", 1, 3650, &mut retention_days);
    m.retention = chrono::Duration::days(i64::try_from(retention_days).unwrap_or(30));
    let mut reminder_hours = m.reminder_lead.num_hours().unsigned_abs();
    num("REMINDER_HOURS_BEFORE", 1, 24 * 14, &mut reminder_hours);
    m.reminder_lead = chrono::Duration::hours(i64::try_from(reminder_hours).unwrap_or(24));
    m.max_per_minute = u32::try_from(per_minute).unwrap_or(u32::MAX);
    m.max_attempts = i32::try_from(attempts).unwrap_or(50);
    m.backoff_base = Duration::from_millis(base);
    m.poll = Duration::from_millis(poll);
    m.timeout = Duration::from_secs(timeout);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn read_map(vars: &[(&str, &str)]) -> (MailSettings, Vec<String>) {
        let map: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let mut m = MailSettings::default();
        let mut errs = Vec::new();
        read(&|k: &str| map.get(k).cloned(), &mut m, &mut errs);
        (m, errs)
    }

    #[test]
    fn an_smtp_url_gives_host_port_credentials_and_starttls_by_default() {
        let (m, errs) = read_map(&[
            (
                "SMTP_URL",
                "smtp://club%40mail:p%3Ass@mail.club.example:2525",
            ),
            ("MAIL_FROM", "De Toren <wedstrijd@club.example>"),
        ]);
        assert!(errs.is_empty(), "{errs:?}");
        let s = m.smtp.unwrap();
        assert_eq!((s.host.as_str(), s.port), ("mail.club.example", 2525));
        assert_eq!(
            s.credentials,
            Some(("club@mail".to_string(), "p:ss".to_string()))
        );
        assert_eq!(s.tls, SmtpTls::StartTls);
        assert!(!format!("{s:?}").contains("p:ss"));
    }

    #[test]
    fn smtps_is_tls_from_the_start_and_cannot_be_downgraded() {
        let (m, errs) = read_map(&[
            ("SMTP_URL", "smtps://mail.club.example"),
            ("MAIL_FROM", "a@club.example"),
        ]);
        assert!(errs.is_empty(), "{errs:?}");
        let s = m.smtp.unwrap();
        assert_eq!((s.port, s.tls), (465, SmtpTls::Tls));
        let (_, errs) = read_map(&[
            ("SMTP_URL", "smtps://mail.club.example"),
            ("SMTP_TLS", "none"),
            ("MAIL_FROM", "a@club.example"),
        ]);
        assert!(errs[0].starts_with("SMTP_TLS"), "{errs:?}");
    }

    #[test]
    fn bad_mail_settings_are_named() {
        let (_, errs) = read_map(&[
            ("SMTP_URL", "http://mail.club.example"),
            ("PUBLIC_URL", "club.example"),
            ("MAIL_MAX_PER_MINUTE", "0"),
        ]);
        let names: Vec<&str> = errs.iter().map(|e| e.split(':').next().unwrap()).collect();
        assert_eq!(
            names,
            ["SMTP_URL", "MAIL_FROM", "PUBLIC_URL", "MAIL_MAX_PER_MINUTE"]
        );
        let (_, errs) = read_map(&[("MAIL_FROM", "x@y.example\r\nBcc: z@y.example")]);
        assert!(errs[0].starts_with("MAIL_FROM"), "{errs:?}");
    }

    #[test]
    fn the_notification_defaults_are_a_list_of_kinds() {
        let (m, errs) = read_map(&[]);
        assert!(errs.is_empty());
        assert_eq!(
            m.notify_defaults,
            [NotifyKind::Pairing, NotifyKind::Reminder]
        );
        let (m, errs) = read_map(&[("NOTIFY_DEFAULTS", "result, Pairing,result")]);
        assert!(errs.is_empty(), "{errs:?}");
        assert_eq!(m.notify_defaults, [NotifyKind::Result, NotifyKind::Pairing]);
        let (m, _) = read_map(&[("NOTIFY_DEFAULTS", "none")]);
        assert!(m.notify_defaults.is_empty());
        let (_, errs) = read_map(&[("NOTIFY_DEFAULTS", "pairing,sms")]);
        assert!(errs[0].starts_with("NOTIFY_DEFAULTS"), "{errs:?}");
    }

    #[test]
    fn without_smtp_mail_goes_to_a_folder_under_the_data_folder() {
        let (m, errs) = read_map(&[("PUBLIC_URL", "https://club.example/")]);
        assert!(errs.is_empty());
        assert!(m.smtp.is_none());
        assert_eq!(m.public_url, "https://club.example");
        assert_eq!(
            m.dir_under(std::path::Path::new("data")),
            PathBuf::from("data/mail")
        );
    }
}
