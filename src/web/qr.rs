//! QR codes as inline SVG, made on the server (docs/decisions/0346-qr-codes-on-the-pages.md):
//! the `qrcode` crate encodes the text, and one `<path>` draws each row's runs of dark modules,
//! so that a code stays a few kilobytes on a page of many boards. No script and no image
//! request: the page's CSP needs nothing more.

use maud::{Markup, PreEscaped, html};
use std::fmt::Write;

/// The blank modules around the code that scanners need (the standard's quiet zone).
pub const QUIET_ZONE: usize = 4;

/// The longest text a code is made of (a page address with a code or an id is far shorter).
pub const MAX_TEXT: usize = 512;

/// The modules of `text`'s code, row by row (`true` is dark), without the quiet zone; `None`
/// when the text is empty or longer than [`MAX_TEXT`].
pub fn modules(text: &str) -> Option<Vec<Vec<bool>>> {
    if text.is_empty() || text.len() > MAX_TEXT {
        return None;
    }
    // medium error correction: a scratched slip or a glare on the screen still scans
    let code =
        qrcode::QrCode::with_error_correction_level(text.as_bytes(), qrcode::EcLevel::M).ok()?;
    let width = code.width();
    let colors = code.to_colors();
    Some(
        colors
            .chunks(width)
            .map(|row| row.iter().map(|c| *c == qrcode::Color::Dark).collect())
            .collect(),
    )
}

/// The path of the dark modules, the quiet zone included in the coordinates: one rectangle per
/// run of dark modules in a row (`M{x} {y}h{n}v1h-{n}z`).
fn path(rows: &[Vec<bool>]) -> String {
    let mut d = String::new();
    for (y, row) in rows.iter().enumerate() {
        let mut x = 0;
        while x < row.len() {
            if !row[x] {
                x += 1;
                continue;
            }
            let start = x;
            while x < row.len() && row[x] {
                x += 1;
            }
            let n = x - start;
            let _ = write!(d, "M{} {}h{n}v1h-{n}z", start + QUIET_ZONE, y + QUIET_ZONE);
        }
    }
    d
}

/// `text` as an inline SVG QR code of `size` CSS pixels square, labelled `label` for screen
/// readers; nothing when the text cannot be encoded (the page shows the text beside it anyway).
pub fn svg(text: &str, size: u32, label: &str) -> Markup {
    let Some(rows) = modules(text) else {
        return html! {};
    };
    let n = rows.len() + 2 * QUIET_ZONE;
    let view = format!("0 0 {n} {n}");
    html! {
        svg class="qr" xmlns="http://www.w3.org/2000/svg" viewBox=(view) width=(size) height=(size)
            shape-rendering="crispEdges" role="img" aria-label=(label) {
            rect width=(n) height=(n) fill="#fff" {}
            path fill="#000" d=(PreEscaped(path(&rows))) {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_is_square_with_its_finder_patterns_in_three_corners() {
        let rows = modules("https://club.example/club/games/7/report").unwrap_or_default();
        let w = rows.len();
        // version 3 (29 modules) holds the 40 bytes at level M
        assert_eq!(w, 29);
        assert!(rows.iter().all(|r| r.len() == w));
        // a finder pattern: a dark 7×7 ring around a light ring around a dark 3×3
        for (x0, y0) in [(0, 0), (w - 7, 0), (0, w - 7)] {
            for i in 0..7 {
                assert!(rows[y0][x0 + i] && rows[y0 + 6][x0 + i]);
                assert!(rows[y0 + i][x0] && rows[y0 + i][x0 + 6]);
            }
            assert!(!rows[y0 + 1][x0 + 1] && rows[y0 + 3][x0 + 3]);
        }
    }

    #[test]
    fn no_code_is_made_of_an_empty_or_overlong_text() {
        assert!(modules("").is_none());
        assert!(modules(&"a".repeat(MAX_TEXT + 1)).is_none());
        assert!(svg("", 100, "x").into_string().is_empty());
    }

    #[test]
    fn each_run_of_dark_modules_is_one_rectangle_past_the_quiet_zone() {
        let rows = vec![vec![true, true, false, true]];
        assert_eq!(path(&rows), "M4 4h2v1h-2zM7 4h1v1h-1z");
    }
}
