//! Native tests: every chart rendered to SVG with plotters' SVG backend, asserting on
//! what was drawn (positions are read back through the axis tick labels, so a line at
//! the wrong value fails).
#![cfg(not(target_arch = "wasm32"))]

use std::collections::HashMap;

use gpu_rent_planner::charts::{self, ChartStyle, Palette};
use gpu_rent_planner::core::plan::{plan, plan_with_history, PlanInputs, PlanOutputs};
use gpu_rent_planner::core::profile::profile;
use gpu_rent_planner::core::samples::{self, Sample};
use gpu_rent_planner::i18n::Lang;
use plotters::prelude::*;

const W: u32 = 800;
const H: u32 = 450;
/// Monday 2024-01-01 00:00 UTC+8.
const START: i64 = 1_704_038_400;
const OFFSET: i32 = 480;

// ---------- a tiny SVG reader ----------

#[derive(Debug, Clone)]
struct El {
    tag: String,
    attrs: HashMap<String, String>,
    text: String,
}

impl El {
    fn get(&self, k: &str) -> &str {
        self.attrs.get(k).map(String::as_str).unwrap_or("")
    }
    fn num(&self, k: &str) -> f64 {
        self.get(k).parse().unwrap_or(f64::NAN)
    }
    fn points(&self) -> Vec<(f64, f64)> {
        self.get("points")
            .split_whitespace()
            .filter_map(|p| {
                let (x, y) = p.split_once(',')?;
                Some((x.parse().ok()?, y.parse().ok()?))
            })
            .collect()
    }
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

fn parse(svg: &str) -> Vec<El> {
    let mut out = Vec::new();
    let mut rest = svg;
    while let Some(i) = rest.find('<') {
        rest = &rest[i + 1..];
        if rest.starts_with('/') || rest.starts_with('?') || rest.starts_with('!') {
            continue;
        }
        let end = rest.find('>').unwrap_or(rest.len());
        let head = &rest[..end];
        let self_closing = head.ends_with('/');
        let head = head.trim_end_matches('/');
        let (tag, mut attrs_src) = head.split_once(char::is_whitespace).unwrap_or((head, ""));
        let mut attrs = HashMap::new();
        while let Some(eq) = attrs_src.find("=\"") {
            let key = attrs_src[..eq].trim().to_string();
            let after = &attrs_src[eq + 2..];
            let close = after.find('"').unwrap_or(after.len());
            attrs.insert(key, unescape(&after[..close]));
            attrs_src = &after[(close + 1).min(after.len())..];
        }
        let mut text = String::new();
        if !self_closing && tag == "text" {
            let body = &rest[end + 1..];
            let stop = body.find("</text>").unwrap_or(body.len());
            text = unescape(body[..stop].trim());
        }
        out.push(El {
            tag: tag.to_string(),
            attrs,
            text,
        });
        rest = &rest[end.min(rest.len())..];
    }
    out
}

struct Svg {
    raw: String,
    /// Elements of the plot (before the legend box).
    plot: Vec<El>,
    /// Elements of the legend box.
    legend: Vec<El>,
}

impl Svg {
    fn new(raw: String) -> Self {
        let all = parse(&raw);
        // The legend box is the only rect drawn at opacity 0.88.
        let split = all
            .iter()
            .position(|e| e.tag == "rect" && e.get("opacity") == "0.88")
            .unwrap_or(all.len());
        Svg {
            raw,
            plot: all[..split].to_vec(),
            legend: all[split..].to_vec(),
        }
    }

    fn texts(&self) -> Vec<String> {
        self.plot
            .iter()
            .chain(&self.legend)
            .filter(|e| e.tag == "text")
            .map(|e| e.text.clone())
            .collect()
    }

    fn has_text(&self, t: &str) -> bool {
        self.texts().iter().any(|x| x == t)
    }

    fn stroked(&self, tag: &str, color: RGBColor) -> Vec<&El> {
        let hex = Palette::hex(color);
        self.plot
            .iter()
            .filter(|e| e.tag == tag && e.get("stroke") == hex)
            .collect()
    }

    fn filled(&self, tag: &str, color: RGBColor) -> Vec<&El> {
        let hex = Palette::hex(color);
        self.plot
            .iter()
            .filter(|e| e.tag == tag && e.get("fill") == hex)
            .collect()
    }

    /// Linear map value → pixel from the numeric tick labels with the given anchor
    /// ("end" = y axis, "middle" = x axis), read from `coord` ("y" or "x").
    fn axis(&self, anchor: &str, coord: &str) -> Axis {
        let mut ticks: Vec<(f64, f64)> = self
            .plot
            .iter()
            .filter(|e| e.tag == "text" && e.get("text-anchor") == anchor)
            .filter_map(|e| {
                let cleaned: String = e
                    .text
                    .chars()
                    .filter(|c| c.is_ascii_digit() || *c == '.' || *c == '-')
                    .collect();
                let has_letters = e.text.chars().any(|c| c.is_alphabetic());
                if cleaned.is_empty() || has_letters {
                    return None;
                }
                Some((cleaned.parse().ok()?, e.num(coord)))
            })
            .collect();
        ticks.sort_by(|a, b| a.0.total_cmp(&b.0));
        ticks.dedup_by(|a, b| a.0 == b.0);
        assert!(ticks.len() >= 3, "too few {anchor} ticks: {ticks:?}");
        let (v0, p0) = ticks[0];
        let (v1, p1) = ticks[ticks.len() - 1];
        let slope = (p1 - p0) / (v1 - v0);
        // Every tick sits on the same line (within rounding).
        for &(v, p) in &ticks {
            assert!((p0 + slope * (v - v0) - p).abs() <= 1.5, "tick {v} at {p}");
        }
        Axis { v0, p0, slope }
    }
}

struct Axis {
    v0: f64,
    p0: f64,
    slope: f64,
}

impl Axis {
    fn value(&self, pixel: f64) -> f64 {
        self.v0 + (pixel - self.p0) / self.slope
    }
    /// Value difference of `px` pixels.
    fn tol(&self, px: f64) -> f64 {
        (px / self.slope).abs()
    }
}

fn render(
    size: (u32, u32),
    f: impl FnOnce(&DrawingArea<SVGBackend<'_>, plotters::coord::Shift>),
) -> Svg {
    let mut s = String::new();
    {
        let area = SVGBackend::with_string(&mut s, size).into_drawing_area();
        f(&area);
    }
    Svg::new(s)
}

/// With `CHARTS_SVG_DIR` set, keep the SVG for a look (`CHARTS_SVG_DIR=/tmp/c cargo test`).
fn dump(name: &str, svg: &Svg) {
    if let Ok(dir) = std::env::var("CHARTS_SVG_DIR") {
        let _ = std::fs::create_dir_all(&dir);
        let _ = std::fs::write(format!("{dir}/{name}.svg"), &svg.raw);
    }
}

fn bursty() -> (
    PlanInputs,
    PlanOutputs,
    gpu_rent_planner::core::series::UsageSeries,
) {
    let series = samples::series(Sample::BurstyLab, START, OFFSET);
    let inputs = PlanInputs::default();
    let prof = profile(&series, &inputs.profile_settings()).unwrap();
    let out = plan_with_history(&inputs, Some(&prof));
    (inputs, out, series)
}

fn light() -> ChartStyle {
    ChartStyle::new(Lang::En, "¥", false, 1.0)
}

// ---------- chart 2: load-duration curve ----------

#[test]
fn load_duration_breakeven_line_and_optimum_sit_at_their_values() {
    use charts::load_duration::{draw, summary, LoadDurationData};
    let (_, out, _) = bursty();
    let data = LoadDurationData::from_outputs(&out).unwrap();
    let n_star = out.commitment.as_ref().unwrap().n_star;
    assert_eq!(data.n_star, n_star);
    assert!(n_star > 0 && (n_star as usize) < data.levels());
    assert_eq!(data.breakeven_hours, 360.0);

    let style = light();
    let svg = render((W, H), |a| draw(a, &data, &style).unwrap());
    dump("load_duration", &svg);
    let p = style.palette;
    assert!(svg.has_text("H* = 360 h"), "{:?}", svg.texts());
    assert!(svg.has_text(&format!("N* = {n_star}")));
    for label in ["Busy hours per month", "Break-even H*", "Optimal N*"] {
        assert!(svg.legend.iter().any(|e| e.text == label), "legend {label}");
    }
    assert!(svg.has_text("Busy hours per month (h)"));

    let y = svg.axis("end", "y");
    let x = svg.axis("middle", "x");
    // The H* line: dashes of one colour, all at one height, spanning the levels.
    let dashes = svg.stroked("polyline", p.breakeven);
    assert!(dashes.len() > 5);
    let pts: Vec<(f64, f64)> = dashes.iter().flat_map(|e| e.points()).collect();
    let y0 = pts[0].1;
    assert!(pts.iter().all(|pt| pt.1 == y0));
    assert!(
        (y.value(y0) - 360.0).abs() <= y.tol(1.5),
        "H* drawn at {}",
        y.value(y0)
    );
    let (xmin, xmax) = pts.iter().fold((f64::MAX, f64::MIN), |(a, b), pt| {
        (a.min(pt.0), b.max(pt.0))
    });
    assert!(x.value(xmin).abs() <= x.tol(2.0));
    assert!((x.value(xmax) - data.levels() as f64).abs() <= x.tol(8.0));

    // N*: the circle where the curve crosses H*.
    let circles = svg.stroked("circle", p.optimal);
    assert_eq!(circles.len(), 1);
    let c = circles[0];
    assert!((x.value(c.num("cx")) - n_star as f64).abs() <= x.tol(1.5));
    assert!((y.value(c.num("cy")) - 360.0).abs() <= y.tol(1.5));

    // The step curve: level k's height is its monthly busy hours.
    let curve = svg.stroked("polyline", p.series);
    assert_eq!(curve.len(), 1);
    let cp = curve[0].points();
    assert_eq!(cp.len(), data.levels() * 2);
    for (k, &m) in data.monthly_hours.iter().enumerate() {
        assert!(
            (y.value(cp[2 * k].1) - m).abs() <= y.tol(1.5),
            "level {}",
            k + 1
        );
    }
    // It crosses H* between level N* and N*+1.
    let at = |k: usize| data.monthly_hours[k];
    assert!(at(n_star as usize - 1) > 360.0 && at(n_star as usize) <= 360.0);

    assert_eq!(
        summary(&data, Lang::En, "¥"),
        format!(
            "Load-duration curve: {} levels; break-even 360 h per month; optimal {n_star} GPUs",
            data.levels()
        )
    );
    assert!(summary(&data, Lang::Zh, "¥").contains("盈亏平衡每月 360 小时"));
}

#[test]
fn load_duration_handles_empty_and_idle_histories() {
    use charts::load_duration::{draw, LoadDurationData};
    // An all-idle history: no levels at all.
    let series = gpu_rent_planner::core::series::UsageSeries::from_values(vec![0.0; 48]);
    let inputs = PlanInputs::default();
    let out = plan_with_history(
        &inputs,
        Some(&profile(&series, &inputs.profile_settings()).unwrap()),
    );
    let data = LoadDurationData::from_outputs(&out).unwrap();
    assert_eq!(data.levels(), 0);
    let svg = render((W, H), |a| draw(a, &data, &light()).unwrap());
    assert!(svg.has_text("No data to chart yet"));
    // Too small to draw: nothing but the background, still Ok.
    let svg = render((40, 30), |a| draw(a, &data, &light()).unwrap());
    assert!(svg.texts().is_empty());
    // Degenerate numbers never panic.
    let weird = LoadDurationData {
        monthly_hours: vec![5.0, 5.0, 5.0],
        breakeven_hours: 0.0,
        hours_per_month: f64::NAN,
        n_star: 99,
    };
    let svg = render((W, H), |a| draw(a, &weird, &light()).unwrap());
    assert!(svg.has_text("N* = 99"));
}

#[test]
fn a_thousand_levels_draw_as_a_per_column_envelope() {
    use charts::load_duration::{draw, LoadDurationData};
    let data = LoadDurationData {
        monthly_hours: (0..5000).map(|i| 730.0 - i as f64 * 0.146).collect(),
        breakeven_hours: 360.0,
        hours_per_month: 730.0,
        n_star: 2534,
    };
    let style = light();
    let svg = render((W, H), |a| draw(a, &data, &style).unwrap());
    let curve = svg.stroked("polyline", style.palette.series);
    assert_eq!(curve.len(), 1);
    let n = curve[0].points().len();
    assert!(n < 2 * W as usize && n > W as usize, "{n} points");
}

// ---------- chart 5: break-even without data ----------

fn crossing(svg: &Svg, style: &ChartStyle) -> (f64, f64) {
    let p = style.palette;
    let monthly = svg.stroked("polyline", p.monthly);
    assert_eq!(monthly.len(), 1);
    let mp = monthly[0].points();
    assert!(mp.iter().all(|pt| pt.1 == mp[0].1));
    let y_monthly = mp[0].1;
    let od: Vec<(f64, f64)> = svg
        .stroked("polyline", p.on_demand)
        .iter()
        .flat_map(|e| e.points())
        .collect();
    assert!(od.len() > 10);
    let first = od[0];
    let last = od[od.len() - 1];
    let t = (y_monthly - first.1) / (last.1 - first.1);
    (first.0 + t * (last.0 - first.0), y_monthly)
}

#[test]
fn breakeven_lines_cross_at_h_star() {
    use charts::breakeven::{draw, summary, BreakevenData};
    let inputs = PlanInputs::default();
    let out = plan(&inputs);
    let data = BreakevenData::from_outputs(&inputs, &out).unwrap();
    assert_eq!((data.breakeven_hours, data.x_max()), (360.0, 730.0));
    let style = light();
    let svg = render((W, H), |a| draw(a, &data, &style).unwrap());
    dump("breakeven", &svg);
    let x = svg.axis("middle", "x");
    let y = svg.axis("end", "y");
    let (px, py) = crossing(&svg, &style);
    assert!(
        (x.value(px) - 360.0).abs() <= x.tol(2.0),
        "cross at {}",
        x.value(px)
    );
    assert!((y.value(py) - 9000.0).abs() <= y.tol(1.5));
    let c = svg.stroked("circle", style.palette.breakeven);
    assert_eq!(c.len(), 1);
    assert!((x.value(c[0].num("cx")) - 360.0).abs() <= x.tol(1.5));
    assert!(svg.has_text("H* = 360 h"));
    assert!(svg.has_text("Your usage 200 h"));
    assert!(svg.has_text("Cost per GPU per month (¥)"));
    assert!(svg.has_text("Hours used per GPU per month (h)"));
    assert!(
        svg.has_text("¥9,000") || svg.has_text("¥10,000"),
        "{:?}",
        svg.texts()
    );
    assert_eq!(
        summary(&data, Lang::En, "¥"),
        "Break-even without data: monthly ¥9,000 per GPU against on demand ¥25 per hour; \
         the lines cross at 360 h per month (49.3 % of 730 h); you use 200 h"
    );
}

#[test]
fn breakeven_past_the_month_extends_the_axis_and_speaks_chinese_in_dollars() {
    use charts::breakeven::{draw, summary, BreakevenData};
    let inputs = PlanInputs {
        monthly_price: 20_000.0,
        hours_per_month: 744.0,
        ..PlanInputs::default()
    };
    let data = BreakevenData::from_outputs(&inputs, &plan(&inputs)).unwrap();
    assert_eq!(data.breakeven_hours, 800.0);
    assert!((data.x_max() - 880.0).abs() < 1e-9);
    let style = ChartStyle::new(Lang::Zh, "$", true, 1.0);
    let svg = render((W, H), |a| draw(a, &data, &style).unwrap());
    dump("breakeven_zh_dark", &svg);
    let x = svg.axis("middle", "x");
    let (px, _) = crossing(&svg, &style);
    assert!((x.value(px) - 800.0).abs() <= x.tol(2.0));
    assert!(svg.has_text("H* = 800 小时"));
    assert!(svg.has_text("每卡每月成本（$）"));
    assert!(svg.raw.contains(&Palette::hex(Palette::DARK.background)));
    assert!(!svg.raw.contains(&Palette::hex(Palette::LIGHT.monthly)));
    assert!(summary(&data, Lang::Zh, "$").contains("两线交于每月 800 小时"));
    // Invalid prices give no data and a message, not a panic.
    let bad = PlanInputs {
        on_demand_price: 0.0,
        ..PlanInputs::default()
    };
    assert!(BreakevenData::from_outputs(&bad, &plan(&bad)).is_none());
    let zero = BreakevenData {
        on_demand_price: 0.0,
        ..data
    };
    let svg = render((W, H), |a| draw(a, &zero, &style).unwrap());
    assert!(svg.has_text("暂无可绘制的数据"));
}

#[test]
fn hidpi_scales_fonts_and_strokes() {
    use charts::breakeven::{draw, BreakevenData};
    let inputs = PlanInputs::default();
    let data = BreakevenData::from_outputs(&inputs, &plan(&inputs)).unwrap();
    let one = light();
    let two = ChartStyle {
        pixel_ratio: 2.0,
        ..light()
    };
    let a = render((W, H), |ar| draw(ar, &data, &one).unwrap());
    let b = render((2 * W, 2 * H), |ar| draw(ar, &data, &two).unwrap());
    let size = |s: &Svg, t: &str| {
        s.plot
            .iter()
            .chain(&s.legend)
            .find(|e| e.text == t)
            .map(|e| e.num("font-size"))
            .unwrap()
    };
    assert!((size(&b, "H* = 360 h") / size(&a, "H* = 360 h") - 2.0).abs() < 0.01);
    let width = |s: &Svg| s.stroked("polyline", one.palette.monthly)[0].num("stroke-width");
    assert_eq!(width(&b), 2.0 * width(&a));
    // The crossing still reads 360 on the doubled canvas.
    let x = b.axis("middle", "x");
    assert!((x.value(crossing(&b, &two).0) - 360.0).abs() <= x.tol(3.0));
}
