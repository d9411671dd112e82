//! The club as its pages name it: `CLUB_NAME` (in every title and the header), `CLUB_URL`
//! (the club's own website, linked from the header) and `CLUB_LOGO_URL` (an image shown
//! beside the name). All three are optional; without a name the titles carry only the
//! page's own.

/// The club's name, website and logo.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClubSite {
    /// `CLUB_NAME`: 1–100 characters on one line.
    pub name: Option<String>,
    /// `CLUB_URL`: an `http(s)://` address.
    pub url: Option<String>,
    /// `CLUB_LOGO_URL`: an `http(s)://` address or a path of this site (`/…`).
    pub logo_url: Option<String>,
}

/// The longest name and address.
const MAX_NAME: usize = 100;
const MAX_URL: usize = 500;

impl ClubSite {
    /// Reads the three settings through `get` (which answers only non-empty values); each
    /// problem is pushed onto `errs`.
    pub fn from_lookup(get: impl Fn(&str) -> Option<String>, errs: &mut Vec<String>) -> ClubSite {
        let mut s = ClubSite::default();
        if let Some(v) = get("CLUB_NAME") {
            let v = v.trim().to_string();
            if v.chars().count() > MAX_NAME || v.chars().any(char::is_control) {
                errs.push(format!(
                    "CLUB_NAME: at most {MAX_NAME} characters on one line"
                ));
            } else {
                s.name = Some(v);
            }
        }
        if let Some(v) = get("CLUB_URL") {
            match web_address(&v, false) {
                Ok(u) => s.url = Some(u),
                Err(e) => errs.push(format!("CLUB_URL: {e}")),
            }
        }
        if let Some(v) = get("CLUB_LOGO_URL") {
            match web_address(&v, true) {
                Ok(u) => s.logo_url = Some(u),
                Err(e) => errs.push(format!("CLUB_LOGO_URL: {e}")),
            }
        }
        s
    }

    /// The origin of an absolute logo address (`https://club.example`), which the pages'
    /// Content-Security-Policy must allow images from; `None` for a path of this site.
    pub fn logo_origin(&self) -> Option<String> {
        let u = url_origin(self.logo_url.as_deref()?)?;
        Some(u)
    }
}

/// An `http(s)://` address (or, when `path_ok`, a path of this site starting with one `/`)
/// without spaces, quotes or control characters.
fn web_address(v: &str, path_ok: bool) -> Result<String, String> {
    let v = v.trim();
    let bad = v.len() > MAX_URL
        || v.chars().any(|c| {
            c.is_control() || c.is_whitespace() || matches!(c, '"' | '\'' | '<' | '>' | ';')
        });
    let absolute = url_origin(v).is_some();
    let path = path_ok && v.starts_with('/') && !v.starts_with("//");
    if bad || !(absolute || path) {
        return Err(format!(
            "{v:?} is not an http(s):// address{} of at most {MAX_URL} characters",
            if path_ok { " or a path (/…)" } else { "" }
        ));
    }
    Ok(v.to_string())
}

/// `scheme://host[:port]` of an `http(s)://` address with a host.
fn url_origin(v: &str) -> Option<String> {
    let (scheme, rest) = v.split_once("://")?;
    if scheme != "http" && scheme != "https" {
        return None;
    }
    let host = rest.split(['/', '?', '#']).next().unwrap_or("");
    let valid = !host.is_empty()
        && !host.contains('@')
        && host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']'));
    valid.then(|| format!("{scheme}://{host}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site(vars: &[(&str, &str)]) -> (ClubSite, Vec<String>) {
        let mut errs = Vec::new();
        let s = ClubSite::from_lookup(
            |k| {
                vars.iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| v.to_string())
            },
            &mut errs,
        );
        (s, errs)
    }

    #[test]
    fn the_club_settings_are_read_and_checked() {
        let (s, errs) = site(&[
            ("CLUB_NAME", " SV De Toren "),
            ("CLUB_URL", "https://detoren.example/"),
            ("CLUB_LOGO_URL", "https://cdn.example:8443/logo.png"),
        ]);
        assert!(errs.is_empty(), "{errs:?}");
        assert_eq!(s.name.as_deref(), Some("SV De Toren"));
        assert_eq!(s.url.as_deref(), Some("https://detoren.example/"));
        assert_eq!(s.logo_origin().as_deref(), Some("https://cdn.example:8443"));
        let (s, errs) = site(&[("CLUB_LOGO_URL", "/static/logo.svg")]);
        assert!(errs.is_empty());
        assert_eq!(s.logo_origin(), None);
        let (_, errs) = site(&[
            ("CLUB_NAME", "a\nb"),
            ("CLUB_URL", "javascript:alert(1)"),
            ("CLUB_LOGO_URL", "//evil.example/x.png"),
        ]);
        assert_eq!(errs.len(), 3, "{errs:?}");
        assert!(errs[0].starts_with("CLUB_NAME"));
        assert!(errs[1].starts_with("CLUB_URL"));
        assert!(errs[2].starts_with("CLUB_LOGO_URL"));
    }
}
