//! Small inline SVG line charts (no script, no external file): a polyline over labelled
//! points, with its own title for screen readers. Each chart on a page is followed by a table
//! of the same numbers.

use maud::{Markup, html};

const W: f64 = 600.0;
const H: f64 = 200.0;
const PAD_L: f64 = 64.0;
const PAD_R: f64 = 12.0;
const PAD_T: f64 = 12.0;
const PAD_B: f64 = 34.0;

/// A line chart of `points` (label, value). `inverted`: smaller values at the top (places).
pub fn line_chart(id: &str, title: &str, points: &[(String, f64)], inverted: bool) -> Markup {
    if points.is_empty() {
        return html! {};
    }
    let (mut lo, mut hi) = points.iter().fold((f64::MAX, f64::MIN), |(l, h), (_, v)| {
        (l.min(*v), h.max(*v))
    });
    if (hi - lo).abs() < f64::EPSILON {
        lo -= 1.0;
        hi += 1.0;
    }
    let n = points.len();
    let x = |i: usize| {
        if n == 1 {
            PAD_L + (W - PAD_L - PAD_R) / 2.0
        } else {
            PAD_L + (W - PAD_L - PAD_R) * i as f64 / (n - 1) as f64
        }
    };
    let y = |v: f64| {
        let f = (v - lo) / (hi - lo);
        let f = if inverted { f } else { 1.0 - f };
        PAD_T + (H - PAD_T - PAD_B) * f
    };
    let line: String = points
        .iter()
        .enumerate()
        .map(|(i, (_, v))| format!("{:.1},{:.1}", x(i), y(*v)))
        .collect::<Vec<_>>()
        .join(" ");
    let fmt = |v: f64| {
        if v.fract().abs() < 1e-9 {
            format!("{v:.0}")
        } else {
            format!("{v:.1}")
        }
    };
    let step = n.div_ceil(12).max(1);
    let title_id = format!("{id}-title");
    html! {
        svg class="chart" viewBox=(format!("0 0 {W} {H}")) role="img" aria-labelledby=(title_id)
            xmlns="http://www.w3.org/2000/svg" preserveAspectRatio="xMidYMid meet" {
            title id=(title_id) { (title) }
            line class="axis" x1=(PAD_L) y1=(PAD_T) x2=(PAD_L) y2=(H - PAD_B) {}
            line class="axis" x1=(PAD_L) y1=(H - PAD_B) x2=(W - PAD_R) y2=(H - PAD_B) {}
            text class="tick" x=(PAD_L - 6.0) y=(y(if inverted { lo } else { hi }) + 4.0) text-anchor="end" { (fmt(if inverted { lo } else { hi })) }
            text class="tick" x=(PAD_L - 6.0) y=(y(if inverted { hi } else { lo }) + 4.0) text-anchor="end" { (fmt(if inverted { hi } else { lo })) }
            @for (i, (label, _)) in points.iter().enumerate() {
                @if i % step == 0 || i == n - 1 {
                    text class="tick" x=(format!("{:.1}", x(i))) y=(H - 8.0) text-anchor="middle" { (label) }
                }
            }
            polyline class="line" points=(line) fill="none" {}
            @for (i, (label, v)) in points.iter().enumerate() {
                circle class="dot" cx=(format!("{:.1}", x(i))) cy=(format!("{:.1}", y(*v))) r="3.5" {
                    title { (label) ": " (fmt(*v)) }
                }
            }
        }
    }
}

/// A horizontal stacked bar of `parts` (class, count, label) scaled to `total`.
pub fn stacked_bar(label: &str, parts: &[(&str, u32, String)], total: u32) -> Markup {
    let total = total.max(parts.iter().map(|p| p.1).sum()).max(1) as f64;
    let mut x = 0.0;
    let rects: Vec<(&str, f64, f64, &str)> = parts
        .iter()
        .filter(|p| p.1 > 0)
        .map(|(class, n, text)| {
            let w = 200.0 * f64::from(*n) / total;
            let r = (*class, x, w, text.as_str());
            x += w;
            r
        })
        .collect();
    html! {
        svg class="bar" viewBox="0 0 200 14" role="img" aria-label=(label)
            xmlns="http://www.w3.org/2000/svg" preserveAspectRatio="none" {
            rect class="bar-bg" x="0" y="0" width="200" height="14" {}
            @for (class, x, w, text) in &rects {
                rect class=(class) x=(format!("{x:.2}")) y="0" width=(format!("{w:.2}")) height="14" {
                    title { (text) }
                }
            }
        }
    }
}
