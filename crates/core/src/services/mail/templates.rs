//! The mails' words in Dutch and English, as plain text and as HTML: a greeting, paragraphs,
//! at most one button link and the club's name as signature. Every value put into the HTML is
//! escaped.

use crate::mail_config::MailSettings;

/// The language of a mail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    /// Dutch (the default).
    Nl,
    /// English.
    En,
}

impl Language {
    /// `nl` or `en`; anything else is Dutch.
    pub fn parse(code: Option<&str>) -> Language {
        match code.map(str::trim) {
            Some(c) if c.eq_ignore_ascii_case("en") => Language::En,
            _ => Language::Nl,
        }
    }

    /// The code.
    pub fn code(self) -> &'static str {
        match self {
            Language::Nl => "nl",
            Language::En => "en",
        }
    }
}

/// The club's name: `CLUB_NAME`, or "De club" / "The club".
pub fn club_name(settings: &MailSettings, lang: Language) -> String {
    settings.club_name.clone().unwrap_or_else(|| match lang {
        Language::Nl => "De club".into(),
        Language::En => "The club".into(),
    })
}

/// The name of a kind of notification mail, in the plural: "uitslagmails" / "result mails".
pub fn kind_name(lang: Language, kind: crate::vocab::NotifyKind) -> &'static str {
    use crate::vocab::NotifyKind as K;
    let (nl, en) = match kind {
        K::Pairing => ("indelingsmails", "pairing mails"),
        K::Reminder => ("herinneringen", "reminders"),
        K::Result => ("uitslagmails", "result mails"),
        K::Decision => ("mails over beslissingen", "decision mails"),
        K::Prizes => ("prijsmails", "prize mails"),
    };
    match lang {
        Language::Nl => nl,
        Language::En => en,
    }
}

/// Escapes text for HTML.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A mail's content before it is laid out.
#[derive(Debug, Clone, Default)]
pub struct Content {
    /// The recipient's name in the greeting (empty: a greeting without name).
    pub name: String,
    /// The paragraphs.
    pub paragraphs: Vec<String>,
    /// A link: its label and URL.
    pub link: Option<(String, String)>,
    /// A last line (why the mail came, how to stop it).
    pub footer: Option<String>,
}

/// Lays a mail out: (plain text, HTML).
pub fn layout(lang: Language, club: &str, c: &Content) -> (String, String) {
    let greeting = match (lang, c.name.is_empty()) {
        (Language::Nl, true) => "Hallo,".to_string(),
        (Language::Nl, false) => format!("Hallo {},", c.name),
        (Language::En, true) => "Hello,".to_string(),
        (Language::En, false) => format!("Hello {},", c.name),
    };
    let regards = match lang {
        Language::Nl => "Met vriendelijke groet,",
        Language::En => "Kind regards,",
    };
    let mut text = format!("{greeting}\n\n");
    let mut html = format!(
        "<!DOCTYPE html>\n<html lang=\"{}\"><head><meta charset=\"utf-8\"></head>\
         <body style=\"font-family:sans-serif;line-height:1.5\">\n<p>{}</p>\n",
        lang.code(),
        escape(&greeting)
    );
    for p in &c.paragraphs {
        text.push_str(p);
        text.push_str("\n\n");
        html.push_str(&format!("<p>{}</p>\n", escape(p)));
    }
    if let Some((label, url)) = &c.link {
        text.push_str(&format!("{label}:\n{url}\n\n"));
        html.push_str(&format!(
            "<p><a href=\"{}\">{}</a></p>\n",
            escape(url),
            escape(label)
        ));
    }
    text.push_str(&format!("{regards}\n{club}\n"));
    html.push_str(&format!("<p>{}<br>{}</p>\n", escape(regards), escape(club)));
    if let Some(f) = &c.footer {
        text.push_str(&format!("\n-- \n{f}\n"));
        html.push_str(&format!(
            "<p style=\"color:#666;font-size:small\">{}</p>\n",
            escape(f)
        ));
    }
    html.push_str("</body></html>\n");
    (text, html)
}

/// Lays a notification mail out ([`layout`]) with the link that stops mails of its kind
/// (its label and URL) under the footer.
pub fn layout_with_unsubscribe(
    lang: Language,
    club: &str,
    c: &Content,
    (label, url): (&str, &str),
) -> (String, String) {
    let (mut text, mut html) = layout(lang, club, c);
    text.push_str(&format!("{label}: {url}\n"));
    let end = "</body></html>\n";
    if html.ends_with(end) {
        html.truncate(html.len() - end.len());
    }
    html.push_str(&format!(
        "<p style=\"color:#666;font-size:small\"><a href=\"{}\">{}</a></p>\n{end}",
        escape(url),
        escape(label)
    ));
    (text, html)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_html_escapes_every_value_and_the_text_keeps_it() {
        let c = Content {
            name: "Jan <b>".into(),
            paragraphs: vec!["Zet & pion".into()],
            link: Some(("Ga".into(), "https://club.example/a?b=1&c=\"2\"".into())),
            footer: None,
        };
        let (text, html) = layout(Language::Nl, "De Toren", &c);
        assert!(
            text.starts_with("Hallo Jan <b>,\n\nZet & pion\n\n"),
            "{text}"
        );
        assert!(text.contains("https://club.example/a?b=1&c=\"2\""));
        assert!(
            text.ends_with("Met vriendelijke groet,\nDe Toren\n"),
            "{text}"
        );
        assert!(html.contains("<p>Hallo Jan &lt;b&gt;,</p>"), "{html}");
        assert!(html.contains("href=\"https://club.example/a?b=1&amp;c=&quot;2&quot;\""));
        assert!(!html.contains("<b>"));
    }

    #[test]
    fn the_stop_link_comes_last_in_both_bodies() {
        let c = Content {
            name: "Ann".into(),
            paragraphs: vec!["Uitslag".into()],
            link: None,
            footer: Some("Omdat het aan staat.".into()),
        };
        let url = "https://club.example/mail/unsubscribe?token=1.result.x";
        let (text, html) = layout_with_unsubscribe(Language::Nl, "De Toren", &c, ("Stop", url));
        assert!(
            text.ends_with(&format!("Omdat het aan staat.\nStop: {url}\n")),
            "{text}"
        );
        assert!(
            html.ends_with(&format!("<a href=\"{url}\">Stop</a></p>\n</body></html>\n")),
            "{html}"
        );
    }

    #[test]
    fn the_club_name_defaults_per_language() {
        let s = MailSettings::default();
        assert_eq!(club_name(&s, Language::Nl), "De club");
        assert_eq!(club_name(&s, Language::En), "The club");
        assert_eq!(Language::parse(Some("EN")), Language::En);
        assert_eq!(Language::parse(Some("fr")), Language::Nl);
    }
}
