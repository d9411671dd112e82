//! The page frame: `<html lang>`, the viewport, the stylesheet, the site chrome (header,
//! navigation, language switch, footer) — left out with `?embed=1` — and the error page.

use super::Lang;
use actix_web::http::StatusCode;
use clubcomp_core::club_site::ClubSite;
use maud::{DOCTYPE, Markup, html};
use std::sync::Arc;

/// What a template needs to know about the request: language, embedding and the page's own
/// path (for the language switch).
#[derive(Debug, Clone)]
pub struct Ctx {
    /// The club's name, website and logo.
    pub site: Arc<ClubSite>,
    /// The language.
    pub lang: Lang,
    /// Whether the language was chosen in the query (then links keep it).
    pub lang_chosen: bool,
    /// Without the site chrome.
    pub embed: bool,
    /// The page's path (without the query).
    pub path: String,
    /// The `after` of a standings page.
    pub after: Option<u32>,
    /// The event stream the page follows (`data-live-stream`), which loads the live script.
    pub live: Option<String>,
}

impl Ctx {
    /// A context for a page at `path`.
    pub fn new(q: super::PageQuery, path: impl Into<String>) -> Ctx {
        Ctx {
            site: q.site,
            lang: q.lang,
            lang_chosen: q.lang_chosen,
            embed: q.embed,
            path: path.into(),
            after: q.after,
            live: None,
        }
    }

    /// This context for a page that follows the event stream `stream` (its regions marked
    /// `data-live`).
    pub fn following(mut self, stream: String) -> Ctx {
        self.live = Some(stream);
        self
    }

    /// The Dutch or English text.
    pub fn t(&self, nl: &'static str, en: &'static str) -> &'static str {
        self.lang.t(nl, en)
    }

    /// A link to another page that keeps the embedding and a language chosen in the query
    /// (a language that came from `Accept-Language` comes from it again on the next page).
    pub fn href(&self, path: &str) -> String {
        self.href_with(path, "")
    }

    /// A player's name linking to their page; a hidden player's label without a link (their
    /// page is not found, [decision 0326](../../docs/decisions/0326-player-publication.md)).
    pub fn player(&self, id: impl std::fmt::Display, name: &str) -> Markup {
        if clubcomp_core::publication::is_hidden_label(name) {
            return html! { (name) };
        }
        html! { a href=(self.href(&format!("/club/players/{id}"))) { (name) } }
    }

    /// [`Ctx::href`] with a further query parameter (`name=value`; empty for none) first.
    pub fn href_with(&self, path: &str, param: &str) -> String {
        let mut s = path.to_string();
        let mut sep = '?';
        if !param.is_empty() {
            s.push(sep);
            s.push_str(param);
            sep = '&';
        }
        if self.lang_chosen {
            s.push(sep);
            s.push_str("lang=");
            s.push_str(self.lang.code());
            sep = '&';
        }
        if self.embed {
            s.push(sep);
            s.push_str("embed=1");
        }
        s
    }

    /// This page in `lang`.
    fn switch(&self, lang: Lang) -> String {
        let mut s = format!("{}?lang={}", self.path, lang.code());
        if self.embed {
            s.push_str("&embed=1");
        }
        if let Some(a) = self.after {
            s.push_str(&format!("&after={a}"));
        }
        s
    }
}

/// A page's HTML text: the markup with the end tags of table cells and rows left out, which
/// HTML allows wherever the next cell, the next row or the end of the row group follows — as
/// it always does in these templates, whose text is escaped. A 60-row table is a third
/// smaller, and every browser builds the same document from it.
pub fn finish(page: Markup) -> String {
    let mut s = page.into_string();
    for end in ["</td>", "</th>", "</tr>"] {
        if s.contains(end) {
            s = s.replace(end, "");
        }
    }
    s
}

/// The page's title in the head: its own, then the club's name when one is configured.
fn head_title(ctx: &Ctx, title: &str) -> String {
    match &ctx.site.name {
        Some(club) => format!("{title} · {club}"),
        None => title.to_string(),
    }
}

/// The page's description for search engines and link previews.
fn description(ctx: &Ctx, title: &str) -> String {
    let what = ctx.t(
        "Competities, indelingen, uitslagen en standen",
        "Competitions, pairings, results and standings",
    );
    match &ctx.site.name {
        Some(club) => format!("{title}. {what}: {club}."),
        None => format!("{title}. {what}."),
    }
}

/// The header's link to the front page: the club's logo and name (else "front page").
fn home_link(ctx: &Ctx) -> Markup {
    html! {
        a href=(ctx.href("/club/")) class="home" {
            @if let Some(logo) = &ctx.site.logo_url {
                img src=(logo) alt="" width="32" height="32" class="logo";
                " "
            }
            @match &ctx.site.name {
                Some(club) => (club),
                None => (ctx.t("Voorpagina", "Front page")),
            }
        }
    }
}

/// A whole page: `title` in the head and as the first heading, `body` below it.
pub fn frame(ctx: &Ctx, title: &str, body: Markup) -> Markup {
    let other = match ctx.lang {
        Lang::Nl => Lang::En,
        Lang::En => Lang::Nl,
    };
    let head_title = head_title(ctx, title);
    let description = description(ctx, title);
    let og_image = ctx
        .site
        .logo_url
        .as_deref()
        .filter(|u| u.starts_with("http"));
    html! {
        (DOCTYPE)
        html lang=(ctx.lang.code()) {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta name="color-scheme" content="light";
                meta name="referrer" content="same-origin";
                title { (head_title) }
                meta name="description" content=(description);
                meta property="og:type" content="website";
                meta property="og:title" content=(head_title);
                meta property="og:description" content=(description);
                meta property="og:locale" content=(ctx.t("nl_NL", "en_GB"));
                @if let Some(club) = &ctx.site.name { meta property="og:site_name" content=(club); }
                @if let Some(img) = og_image { meta property="og:image" content=(img); }
                link rel="stylesheet" href=(super::site::stylesheet_url());
                link rel="icon" href="/club/favicon.svg" type="image/svg+xml";
                @if ctx.live.is_some() { script src=(super::live::script_url()) defer {} }
                @if ctx.embed { script src=(super::live::embed_script_url()) defer {} }
            }
            body class=[ctx.embed.then_some("embed")] data-live-stream=[ctx.live.as_deref()] {
                @if !ctx.embed {
                    a class="skip" href="#main" { (ctx.t("Naar de inhoud", "Skip to content")) }
                    header class="site" {
                        nav aria-label=(ctx.t("Hoofdmenu", "Main menu")) {
                            (home_link(ctx))
                            " "
                            @if let Some(url) = &ctx.site.url {
                                a href=(url) class="club-site" rel="noopener" { (ctx.t("Website van de club", "Club website")) }
                                " "
                            }
                            a href=(ctx.switch(other)) hreflang=(other.code()) lang=(other.code()) class="lang" {
                                (ctx.t("English", "Nederlands"))
                            }
                        }
                    }
                }
                main id="main" {
                    h1 { (title) }
                    (body)
                }
                @if !ctx.embed {
                    footer class="site" {
                        p {
                            (ctx.t("Gepubliceerd met clubcomp. Tijden in de tijdzone van de club.",
                                   "Published with clubcomp. Times in the club's time zone."))
                        }
                    }
                }
            }
        }
    }
}

/// The error page.
pub fn error(lang: Lang, site: Arc<ClubSite>, status: StatusCode, detail: Option<&str>) -> Markup {
    let title = match status.as_u16() {
        404 => lang.t("Pagina niet gevonden", "Page not found"),
        400 | 422 => lang.t("Ongeldige aanvraag", "Invalid request"),
        401 => lang.t("Inloggen vereist", "Login required"),
        403 => lang.t("Geen toegang", "No access"),
        405 => lang.t("Methode niet toegestaan", "Method not allowed"),
        409 => lang.t(
            "Niet beschikbaar voor deze competitie",
            "Not available for this competition",
        ),
        503 => lang.t("Even geduld", "Please wait"),
        _ => lang.t("Er ging iets mis", "Something went wrong"),
    };
    let ctx = Ctx {
        site,
        lang,
        lang_chosen: true,
        embed: false,
        path: "/club/".into(),
        after: None,
        live: None,
    };
    frame(
        &ctx,
        title,
        html! {
            p class="status" { (lang.t("Foutcode", "Error code")) " " (status.as_u16()) }
            @if let Some(d) = detail { p class="detail" { (d) } }
            p { a href=(ctx.href("/club/")) { (lang.t("Naar de voorpagina", "To the front page")) } }
        },
    )
}

/// A table wrapped so that it scrolls sideways on a narrow screen (a focusable region).
pub fn scroll(label: &str, table: Markup) -> Markup {
    html! {
        div class="scroll" role="region" aria-label=(label) tabindex="0" { (table) }
    }
}
