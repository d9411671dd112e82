//! The demo club as the club-page tests use it: its ids, and the text and table rows of a
//! page's HTML.

use super::{TestApp, paths};

/// The demo club's ids: season and the Keizer, rapid and draughts competitions.
pub struct Demo {
    pub season: i64,
    pub keizer: i64,
    pub rapid: i64,
    pub draughts: i64,
}

pub async fn seed(app: &TestApp) -> Demo {
    app.with_conn(|c| super::demo::seed_demo(c).unwrap()).await;
    let seasons = app.get(paths::SEASONS, None).await;
    let season = seasons.body["items"][0]["id"].as_i64().unwrap();
    let comps = app.get(&paths::season_competitions(season), None).await;
    let find = |kind: &str| {
        comps.body["items"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["kind"] == kind)
            .unwrap()["id"]
            .as_i64()
            .unwrap()
    };
    Demo {
        season,
        keizer: find("keizer"),
        rapid: find("swiss"),
        draughts: find("round_robin"),
    }
}

/// The text of an HTML fragment without its tags, entities of the renderer decoded, spaces
/// collapsed.
pub fn text(fragment: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for ch in fragment.chars() {
        match ch {
            '<' => in_tag = true,
            '>' => {
                in_tag = false;
                out.push(' ');
            }
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    let out = out
        .replace("&amp;", "&")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"");
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The body rows of the first table whose opening tag contains `marker`, as cell texts.
pub fn table_rows(html: &str, marker: &str) -> Vec<Vec<String>> {
    let start = html
        .find(&format!("<table class=\"{marker}"))
        .unwrap_or_else(|| panic!("no table {marker}"));
    let end = start + html[start..].find("</table>").unwrap();
    let table = &html[start..end];
    let body = &table[table.find("<tbody>").unwrap()..];
    body.split("<tr")
        .skip(1)
        .map(|row| {
            row.split("<t")
                .skip(1)
                .filter(|c| c.starts_with('d') || c.starts_with('h'))
                .map(|c| text(&format!("<t{c}")))
                .collect()
        })
        .collect()
}
