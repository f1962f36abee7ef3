//! Native tests: every chart rendered to SVG with plotters' SVG backend, asserting on
//! what was drawn (positions are read back through the axis tick labels, so a line at
//! the wrong value fails).
#![cfg(not(target_arch = "wasm32"))]

use std::collections::HashMap;

use gpu_rent_planner::charts::{self, ChartStyle, Palette};
use gpu_rent_planner::core::examples::{self, Example};
use gpu_rent_planner::core::plan::{plan, plan_with_history, PlanInputs, PlanOutputs};
use gpu_rent_planner::core::profile::profile;
use gpu_rent_planner::core::zone::Zone;
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

    /// Panics unless the legend has an entry for each of `entries`.
    fn assert_legend(&self, entries: &[impl AsRef<str>]) {
        for t in entries.iter().map(AsRef::as_ref) {
            assert!(self.legend.iter().any(|e| e.text == t), "legend {t}");
        }
    }

    /// The plot's `tag` elements whose `paint` attribute ("stroke" or "fill") is `color`.
    fn painted(&self, tag: &str, paint: &str, color: RGBColor) -> Vec<&El> {
        let hex = Palette::hex(color);
        self.plot
            .iter()
            .filter(|e| e.tag == tag && e.get(paint) == hex)
            .collect()
    }

    /// The one circle stroked `color`, which must sit at `at` on the x axis `x` (±1.5 px).
    fn circle_at(&self, color: RGBColor, x: &Axis, at: f64) -> &El {
        let c = self.stroked("circle", color);
        assert_eq!(c.len(), 1);
        assert!((x.value(c[0].num("cx")) - at).abs() <= x.tol(1.5));
        c[0]
    }

    /// The plot's translucent bands: rects filled `color` at `opacity`.
    fn bands(&self, color: RGBColor, opacity: &str) -> Vec<&El> {
        self.filled("rect", color)
            .into_iter()
            .filter(|e| e.get("opacity") == opacity)
            .collect()
    }

    fn stroked(&self, tag: &str, color: RGBColor) -> Vec<&El> {
        self.painted(tag, "stroke", color)
    }

    fn filled(&self, tag: &str, color: RGBColor) -> Vec<&El> {
        self.painted(tag, "fill", color)
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
    let series = examples::series(Example::BurstyLab, START, OFFSET);
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
    svg.assert_legend(&["Busy hours per month", "Break-even H*", "Optimal N*"]);
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
    let c = svg.circle_at(p.optimal, &x, n_star as f64);
    assert!((y.value(c.num("cy")) - 360.0).abs() <= y.tol(1.5));

    // The step curve: level k's height is its monthly busy hours.
    let curve = svg.stroked("polyline", p.series);
    assert_eq!(curve.len(), 1);
    let cp = curve[0].points();
    assert_eq!(cp.len(), data.levels() * 2);
    // The legend (top right) sits above the curve on this canvas and on a phone's.
    for (size, drawn) in [
        ((W, H), svg),
        (
            (300, 260),
            render((300, 260), |a| draw(a, &data, &style).unwrap()),
        ),
    ] {
        let boxed = drawn.legend.iter().find(|e| e.tag == "rect").unwrap();
        let bottom = boxed.num("y") + boxed.num("height");
        let curve = drawn.stroked("polyline", p.series);
        let top = curve[0].points().iter().fold(f64::MAX, |a, pt| a.min(pt.1));
        assert!(
            bottom <= top,
            "{size:?}: legend bottom {bottom} below the curve top {top}"
        );
    }
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
    svg.circle_at(style.palette.breakeven, &x, 360.0);
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

// ---------- chart 3: cost vs committed GPUs ----------

#[test]
fn cost_curve_marks_the_four_rules_and_the_flat_region() {
    use charts::cost::{draw, summary, CostData, FLAT_TOLERANCE};
    use gpu_rent_planner::core::sizing::SizingRule;
    let (_, out, _) = bursty();
    let data = CostData::from_outputs(&out).unwrap();
    let c = out.commitment.as_ref().unwrap();
    assert_eq!(data.totals.len(), c.rows.len());
    assert_eq!(data.rules.len(), 4);
    let n_star = data.n_star;
    let best = data.cost(n_star).unwrap();
    assert!(data.totals.iter().all(|&t| t >= best));
    let (lo, hi) = data.flat;
    assert!(lo <= n_star && n_star <= hi);
    for n in lo..=hi {
        assert!(data.cost(n).unwrap() <= best * (1.0 + FLAT_TOLERANCE) + 1e-6);
    }
    if lo > 0 {
        assert!(data.cost(lo - 1).unwrap() > best * (1.0 + FLAT_TOLERANCE));
    }

    let style = light();
    let p = style.palette;
    let svg = render((W, H), |a| draw(a, &data, &style).unwrap());
    dump("cost", &svg);
    let x = svg.axis("middle", "x");
    let y = svg.axis("end", "y");
    // C(N): one point per N at its cost.
    let line = svg.stroked("polyline", p.series);
    assert_eq!(line.len(), 1);
    let pts = line[0].points();
    assert_eq!(pts.len(), data.totals.len());
    for (n, pt) in pts.iter().enumerate() {
        assert!((x.value(pt.0) - n as f64).abs() <= x.tol(1.5));
        assert!(
            (y.value(pt.1) - data.totals[n]).abs() <= y.tol(1.5),
            "C({n})"
        );
    }
    // N*: the big filled circle at (N*, C(N*)).
    let star: Vec<_> = svg
        .filled("circle", p.optimal)
        .into_iter()
        .filter(|e| e.num("r") == 6.0)
        .collect();
    assert_eq!(star.len(), 1);
    assert!((x.value(star[0].num("cx")) - n_star as f64).abs() <= x.tol(1.5));
    assert!((y.value(star[0].num("cy")) - best).abs() <= y.tol(1.5));
    // Each rule's label names its N.
    for (rule, n) in &data.rules {
        let name = match rule {
            SizingRule::Average => "average",
            SizingRule::Waterline => "waterline",
            SizingRule::CostOptimal => "N*",
            SizingRule::Peak => "peak",
        };
        assert!(
            svg.has_text(&format!("{name} {n}")),
            "{name} {n}: {:?}",
            svg.texts()
        );
        svg.assert_legend(&[name]);
    }
    // The flat region: a translucent band from lo − 0.3 to hi + 0.3.
    let band = svg.bands(p.optimal, "0.13");
    assert_eq!(band.len(), 1);
    let bx0 = x.value(band[0].num("x"));
    let bx1 = x.value(band[0].num("x") + band[0].num("width"));
    assert!((bx0 - (lo as f64 - 0.3)).abs() <= x.tol(1.5), "{bx0}");
    assert!((bx1 - (hi as f64 + 0.3)).abs() <= x.tol(1.5), "{bx1}");
    assert!(svg.has_text("Monthly cost (¥)"));

    let s = summary(&data, Lang::En, "¥");
    assert!(s.starts_with(&format!(
        "Cost vs committed GPUs: N from 0 to {}; cheapest N* = {n_star} at ¥",
        data.totals.len() - 1
    )));
    assert!(s.contains(&format!("from N = {lo} to {hi}")));
    assert!(summary(&data, Lang::Zh, "$").contains(&format!("最便宜 N* = {n_star}，每月 $")));
}

#[test]
fn cost_chart_with_only_n_zero_and_without_rules() {
    use charts::cost::{draw, CostData};
    let data = CostData {
        totals: vec![0.0],
        n_star: 0,
        rules: vec![],
        flat: (0, 0),
    };
    let svg = render((W, H), |a| draw(a, &data, &light()).unwrap());
    assert_eq!(svg.stroked("polyline", light().palette.series).len(), 1);
    let empty = CostData {
        totals: vec![],
        ..data
    };
    let svg = render((W, H), |a| draw(a, &empty, &light()).unwrap());
    assert!(svg.has_text("No data to chart yet"));
}

#[test]
fn cost_chart_on_a_phone_keeps_labels_apart_and_the_legend_short() {
    use charts::cost::{draw, CostData};
    use gpu_rent_planner::core::sizing::SizingRule;
    // The "usage dropped last week" shape: C(N) falls to its minimum at N = 10, the peak is
    // 11, so three labels sit at neighbouring N at the right edge.
    let totals: Vec<f64> = (0..=11)
        .map(|n| 156_000.0 - 6_000.0 * n as f64 + 300.0 * (n as f64 - 10.0).powi(2))
        .collect();
    let data = CostData {
        totals,
        n_star: 10,
        rules: vec![
            (SizingRule::Average, 10),
            (SizingRule::Waterline, 3),
            (SizingRule::CostOptimal, 10),
            (SizingRule::Peak, 11),
        ],
        flat: (9, 10),
    };
    // A 375 px phone's canvas.
    let svg = render((300, 260), |a| draw(a, &data, &light()).unwrap());
    let label = |t: &str| {
        let e = svg
            .plot
            .iter()
            .find(|e| e.tag == "text" && e.text == t)
            .unwrap_or_else(|| panic!("no label {t:?}"));
        (e.num("x"), e.num("y"))
    };
    let (avg, star, peak) = (label("average 10"), label("N* 10"), label("peak 11"));
    // Each on its own line.
    assert!(
        avg.1 != star.1 && star.1 != peak.1 && avg.1 != peak.1,
        "{avg:?} {star:?} {peak:?}"
    );
    // The peak's label ends at its marker instead of running off the right edge.
    let peak_el = svg.plot.iter().find(|e| e.text == "peak 11").unwrap();
    assert_eq!(peak_el.get("text-anchor"), "end");
    // The legend keeps only what the chart does not label in place.
    let legend: Vec<&str> = svg
        .legend
        .iter()
        .filter(|e| e.tag == "text")
        .map(|e| e.text.as_str())
        .collect();
    assert_eq!(legend.len(), 2, "{legend:?}");
    // A desktop canvas keeps all six entries.
    let wide = render((W, H), |a| draw(a, &data, &light()).unwrap());
    assert_eq!(wide.legend.iter().filter(|e| e.tag == "text").count(), 6);
}

// ---------- chart 4: budget split ----------

/// Heights in percent of the stacked segments, per colour, left bar first.
fn segments(svg: &Svg, style: &ChartStyle) -> Vec<Vec<f64>> {
    let y = svg.axis("end", "y");
    let p = style.palette;
    [p.fixed, p.elastic, p.spot]
        .iter()
        .map(|&c| {
            let mut rects = svg.filled("rect", c);
            rects.sort_by(|a, b| a.num("x").total_cmp(&b.num("x")));
            rects
                .iter()
                .map(|r| (r.num("height") / y.slope).abs())
                .collect()
        })
        .collect()
}

#[test]
fn budget_bars_are_as_tall_as_their_shares() {
    use charts::budget::{draw, summary, BudgetData};
    let (inputs, out, _) = bursty();
    let data = BudgetData::from_outputs(&inputs, &out);
    assert_eq!(data.target, [60.0, 25.0, 15.0]);
    let implied = data.implied.unwrap();
    assert!((implied.iter().sum::<f64>() - 100.0).abs() < 1e-9);
    assert!(implied.iter().all(|&v| v > 0.0), "{implied:?}");
    let style = light();
    let svg = render((W, H), |a| draw(a, &data, &style).unwrap());
    dump("budget", &svg);
    let seg = segments(&svg, &style);
    for i in 0..3 {
        assert_eq!(seg[i].len(), 2, "colour {i}: {seg:?}");
        assert!((seg[i][0] - data.target[i]).abs() <= 0.6, "{seg:?}");
        assert!((seg[i][1] - implied[i]).abs() <= 0.6, "{seg:?}");
    }
    for t in ["60 %", "25 %", "15 %", "Your split", "Plan implies"] {
        assert!(svg.has_text(t), "{t}: {:?}", svg.texts());
    }
    svg.assert_legend(&["Fixed (monthly)", "Elastic (on demand)", "Spot & emergency"]);
    let s = summary(&data, Lang::En, "¥");
    assert!(s.starts_with(
        "Budget split: your split 60 % fixed, 25 % elastic, 15 % spot and emergency; the plan implies "
    ));
}

#[test]
fn budget_user_split_and_a_plan_without_fixed_gpus() {
    use charts::budget::{draw, summary, BudgetData};
    // Sliders only: N* = 0, so the plan has no fixed part.
    let inputs = PlanInputs {
        budget_fixed_percent: 50.0,
        budget_elastic_percent: 30.0,
        budget_spot_percent: 20.0,
        ..PlanInputs::default()
    };
    let data = BudgetData::from_outputs(&inputs, &plan(&inputs));
    assert_eq!(data.implied.unwrap()[0], 0.0);
    let style = ChartStyle::new(Lang::Zh, "¥", true, 1.0);
    let svg = render((W, H), |a| draw(a, &data, &style).unwrap());
    let seg = segments(&svg, &style);
    assert_eq!(seg[0].len(), 1);
    assert!((seg[0][0] - 50.0).abs() <= 0.6);
    assert!((seg[1][0] - 30.0).abs() <= 0.6 && (seg[2][0] - 20.0).abs() <= 0.6);
    assert!(svg.has_text("方案实际"));
    assert!(summary(&data, Lang::Zh, "¥").starts_with(
        "预算分配：你的分配为固定 50 %、弹性 30 %、竞价与应急 20 %；方案实际为固定 0 %"
    ));
    // No implied split: a dash instead of a bar.
    let none = BudgetData {
        implied: None,
        ..data
    };
    let svg = render((W, H), |a| draw(a, &none, &style).unwrap());
    assert!(svg.has_text("—"));
    assert_eq!(segments(&svg, &style)[0].len(), 1);
}

// ---------- chart 1: usage over time ----------

fn flat_y(svg: &Svg, color: RGBColor) -> f64 {
    let pts: Vec<(f64, f64)> = svg
        .stroked("polyline", color)
        .iter()
        .flat_map(|e| e.points())
        .collect();
    assert!(!pts.is_empty(), "no line of {}", Palette::hex(color));
    assert!(pts.iter().all(|pt| pt.1 == pts[0].1));
    pts[0].1
}

#[test]
fn usage_lines_sit_at_average_waterline_and_recommended_n() {
    use charts::usage::{draw, summary, UsageData};
    let (inputs, out, series) = bursty();
    let data = UsageData::from_series(&series, inputs.lookback, &out);
    assert_eq!(data.values.len(), 30 * 24);
    let wl = out.waterline.as_ref().unwrap();
    let n = out.baseline.as_ref().unwrap().gpus;
    assert_eq!(data.average, Some(wl.average));
    assert_eq!(data.waterline, Some(wl.overall));
    assert_eq!(data.recommended, Some(n));
    // Mon 2024-01-01 … Tue 01-30 local: four weekends of 48 hours.
    assert_eq!(
        data.weekends,
        vec![(120, 168), (288, 336), (456, 504), (624, 672)]
    );

    let style = light();
    let p = style.palette;
    let svg = render((W, H), |a| draw(a, &data, &style).unwrap());
    dump("usage", &svg);
    let y = svg.axis("end", "y");
    let close = |px: f64, v: f64| (y.value(px) - v).abs() <= y.tol(1.5);
    assert!(close(flat_y(&svg, p.average), wl.average));
    assert!(close(flat_y(&svg, p.waterline), wl.overall));
    assert!(close(flat_y(&svg, p.recommended), n as f64));
    // The usage path reaches the true peak and the true minimum.
    let path = svg.stroked("polyline", p.series);
    assert_eq!(path.len(), 1);
    let ys: Vec<f64> = path[0].points().iter().map(|pt| y.value(pt.1)).collect();
    let hi = ys.iter().copied().fold(f64::MIN, f64::max);
    let lo = ys.iter().copied().fold(f64::MAX, f64::min);
    let max = data.peak();
    let min = data.values.iter().copied().fold(f64::MAX, f64::min);
    assert!((hi - max).abs() <= y.tol(1.5) && (lo - min).abs() <= y.tol(1.5));
    // Four weekend bands, two days wide, a week apart.
    let bands = svg.bands(p.weekend, "0.16");
    assert_eq!(bands.len(), 4);
    let ratio = (bands[1].num("x") - bands[0].num("x")) / bands[0].num("width");
    assert!((ratio - 3.5).abs() < 0.05, "{ratio}");
    assert!(svg.has_text("01-06") || svg.has_text("01-07") || svg.has_text("01-05"));
    assert!(svg.has_text("Date (local time)"));
    svg.assert_legend(&[
        "Weekend".to_string(),
        format!("Recommended N = {n}"),
        format!(
            "Minimum stable waterline {}",
            gpu_rent_planner::format::number_trim(wl.overall, 2, Lang::En)
        ),
    ]);
    let s = summary(&data, Lang::En, "¥");
    assert!(s.starts_with("Usage over time: 30 days, peak "), "{s}");
    assert!(s.contains(&format!("recommended N {n}; 4 weekend stretches shaded")));
}

#[test]
fn a_year_per_minute_draws_fast_and_keeps_its_one_spike() {
    use charts::usage::{draw, UsageData};
    let n = 365 * 24 * 60;
    let mut values: Vec<f64> = (0..n).map(|i| 4.0 + ((i / 97) % 5) as f64).collect();
    values[123_457] = 60.0;
    values[400_001] = 0.0;
    let t0 = 1_704_038_400_i64;
    let ts: Vec<i64> = (0..n as i64).map(|i| t0 + i * 60).collect();
    let data = UsageData::new(
        values,
        Some(&ts),
        &Zone::fixed(480),
        Some(6.0),
        Some(4.0),
        Some(5),
    );
    assert!((data.step_hours - 1.0 / 60.0).abs() < 1e-12);
    assert_eq!(data.weekends.len(), 52);
    let style = light();
    let started = std::time::Instant::now();
    let svg = render((1200, 400), |a| draw(a, &data, &style).unwrap());
    let took = started.elapsed();
    eprintln!("year of minutes drawn to SVG in {took:?}");
    // Generous for an unoptimised test build; the release wasm build is far faster.
    assert!(took.as_millis() < 1500, "{took:?}");
    let y = svg.axis("end", "y");
    let path = svg.stroked("polyline", style.palette.series);
    let pts = path[0].points();
    assert!(pts.len() <= 2 * 1200, "{} points", pts.len());
    let hi = pts.iter().map(|pt| y.value(pt.1)).fold(f64::MIN, f64::max);
    let lo = pts.iter().map(|pt| y.value(pt.1)).fold(f64::MAX, f64::min);
    assert!((hi - 60.0).abs() <= y.tol(1.5), "{hi}");
    assert!(lo.abs() <= y.tol(1.5), "{lo}");
}

#[test]
fn usage_empty_flat_and_untimed() {
    use charts::usage::{draw, summary, UsageData};
    let empty = UsageData::new(vec![], None, &Zone::fixed(0), None, None, None);
    let svg = render((W, H), |a| draw(a, &empty, &light()).unwrap());
    assert!(svg.has_text("No data to chart yet"));
    assert!(summary(&empty, Lang::Zh, "¥").starts_with("用量随时间变化：0 天"));
    // All zero, one value, no timestamps: axes and lines still draw.
    for values in [vec![0.0; 48], vec![3.0]] {
        let d = UsageData::new(values, None, &Zone::fixed(0), Some(0.0), Some(0.0), Some(0));
        let svg = render((W, H), |a| draw(a, &d, &light()).unwrap());
        assert!(svg.has_text("Days"));
        assert_eq!(svg.stroked("polyline", light().palette.series).len(), 1);
    }
}

/// `(hours, gpus)` parts hourly from START (UTC+8), as one type of a typed history.
fn typed_series(parts: &[(usize, f64)]) -> gpu_rent_planner::core::series::UsageSeries {
    let values: Vec<f64> = parts
        .iter()
        .flat_map(|&(h, g)| std::iter::repeat_n(g, h))
        .collect();
    gpu_rent_planner::core::series::UsageSeries {
        timestamps: Some((0..values.len() as i64).map(|h| START + h * 3600).collect()),
        values,
        utc_offset_minutes: OFFSET,
        offset_changes: Vec::new(),
    }
}

/// The polylines of `color` drawn `width` px wide (a band's edge is 1 px, a committed line 3).
fn stroked_width<'a>(svg: &'a Svg, color: RGBColor, width: &str) -> Vec<&'a El> {
    svg.stroked("polyline", color)
        .into_iter()
        .filter(|e| e.get("stroke-width") == width)
        .collect()
}

/// The lowest and highest value a set of polylines reaches, read through the y axis.
fn y_span(svg: &Svg, lines: &[&El]) -> (f64, f64) {
    let y = svg.axis("end", "y");
    lines
        .iter()
        .flat_map(|e| e.points())
        .map(|pt| y.value(pt.1))
        .fold((f64::MAX, f64::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)))
}

#[test]
fn usage_stacks_the_fleet_by_type_with_cumulative_committed_lines() {
    use charts::usage::{draw, summary, UsageData};
    use gpu_rent_planner::core::profile::Lookback;
    // The two types of formulas § 16: A100 200 h at 6 then 530 h at 4; H100 300 h at 4 then
    // 430 h at 3; the budget buys 3 A100 and 1 H100.
    let a100 = typed_series(&[(200, 6.0), (530, 4.0)]);
    let h100 = typed_series(&[(300, 4.0), (430, 3.0)]);
    let mut data = UsageData::from_types(&[("A100", &a100), ("H100", &h100)], Lookback::All);
    assert!(data.stacked());
    assert_eq!(data.values.len(), 730);
    // The total is the stack's top: 10 for 200 h, 8 for 100 h, 7 after.
    assert_eq!(data.values[0], 10.0);
    assert_eq!(data.values[250], 8.0);
    assert_eq!(data.values[729], 7.0);
    assert_eq!(data.weekends.len(), 4);
    assert!(data.average.is_none() && data.waterline.is_none() && data.recommended.is_none());
    // No lines until the fleet is planned.
    assert!(data.committed_levels().is_empty());
    data.types[0].committed = Some(3);
    data.types[1].committed = Some(1);
    assert_eq!(data.committed_levels(), vec![(3, 3), (1, 4)]);

    let style = light();
    let p = style.palette;
    let svg = render((W, H), |a| draw(a, &data, &style).unwrap());
    dump("usage_stacked", &svg);
    let y = svg.axis("end", "y");
    let close = |v: f64, want: f64| (v - want).abs() <= y.tol(1.5);
    // Band 1 (A100) runs 4…6; the top of band 2 (A100 + H100) is the total, 7…10.
    let (lo, hi) = y_span(&svg, &stroked_width(&svg, p.types[0], "1"));
    assert!(close(lo, 4.0) && close(hi, 6.0), "A100 band {lo}…{hi}");
    let (lo, hi) = y_span(&svg, &stroked_width(&svg, p.types[1], "1"));
    assert!(
        close(lo, 7.0) && close(hi, data.peak()),
        "stack top {lo}…{hi}"
    );
    assert_eq!(data.peak(), 10.0);
    // One filled band per type, in its colour.
    for k in 0..2 {
        assert_eq!(svg.filled("polygon", p.types[k]).len(), 1, "band {k}");
    }
    // The committed lines: A100's at 3, H100's stacked on it at 3 + 1 = 4.
    for (k, at) in [(0, 3.0), (1, 4.0)] {
        let line = stroked_width(&svg, p.types[k], "3");
        assert!(!line.is_empty(), "no committed line for type {k}");
        let (lo, hi) = y_span(&svg, &line);
        assert!(close(lo, at) && close(hi, at), "type {k} line {lo}…{hi}");
    }
    assert!(svg.has_text("A100 3"));
    assert!(svg.has_text("H100 +1 = 4"));
    // A legend entry per type with its commitment, and one for the lines.
    svg.assert_legend(&[
        "A100: commit 3",
        "H100: commit 1",
        "Committed N per type, stacked",
        "Weekend",
    ]);
    assert!(!svg
        .legend
        .iter()
        .any(|e| e.text.starts_with("Recommended N")));
    assert_eq!(
        summary(&data, Lang::En, "¥"),
        "Usage over time, stacked by GPU type: 30.4 days, peak 10 GPUs busy in all; committed N per type, stacked: A100 3 (line at 3), H100 1 (line at 4); 4 weekend stretches shaded"
    );

    // Chinese, dark: the same stack in the dark scheme's type colours.
    let zh = ChartStyle::new(Lang::Zh, "¥", true, 1.0);
    let svg = render((W, H), |a| draw(a, &data, &zh).unwrap());
    svg.assert_legend(&[
        "A100：固定 3",
        "H100：固定 1",
        "各型号固定 N（逐层累加）",
        "周末",
    ]);
    assert_eq!(stroked_width(&svg, Palette::DARK.types[1], "1").len(), 1);
    assert!(svg.has_text("日期（本地时间）"));
    assert_eq!(
        summary(&data, Lang::Zh, "¥"),
        "用量随时间变化（按 GPU 型号堆叠）：30.4 天，合计峰值 10 张 GPU；各型号固定 N（逐层累加）：A100 3（线在 3），H100 1（线在 4）；已标出 4 段周末"
    );

    // On a phone the lines at 3 and 4 are a few pixels apart: A100's label goes below its
    // line, H100's above its own, so neither covers the other.
    let phone = render((320, 260), |a| draw(a, &data, &style).unwrap());
    let line_y = |k: usize| stroked_width(&phone, p.types[k], "3")[0].points()[0].1;
    let text_y = |t: &str| {
        phone
            .plot
            .iter()
            .find(|e| e.tag == "text" && e.text == t)
            .unwrap_or_else(|| panic!("no label {t}"))
            .num("y")
    };
    assert!(
        line_y(0) - line_y(1) < 20.0,
        "lines {} px apart",
        line_y(0) - line_y(1)
    );
    assert!(text_y("A100 3") > line_y(0), "A100's label below its line");
    assert!(
        text_y("H100 +1 = 4") < line_y(1),
        "H100's label above its line"
    );

    // A type the budget buys none of draws no line; the next one's stacks on what is below.
    data.types[0].committed = Some(0);
    data.types[1].committed = Some(2);
    let svg = render((W, H), |a| draw(a, &data, &style).unwrap());
    assert!(stroked_width(&svg, p.types[0], "3").is_empty());
    let (lo, hi) = y_span(&svg, &stroked_width(&svg, p.types[1], "3"));
    assert!(close(lo, 2.0) && close(hi, 2.0));
    assert!(svg.has_text("H100 2"));
    svg.assert_legend(&["A100: commit 0"]);
}

#[test]
fn a_long_stacked_history_keeps_every_peak_of_the_total() {
    use charts::usage::{draw, UsageData};
    use gpu_rent_planner::core::profile::Lookback;
    use gpu_rent_planner::core::series::UsageSeries;
    // A year per minute of three types; each has one spike of its own, at different minutes,
    // and the total's highest minute is where type 3 spikes alone.
    let n = 365 * 24 * 60;
    let t0 = 1_704_038_400_i64;
    let ts: Vec<i64> = (0..n as i64).map(|i| t0 + i * 60).collect();
    let typed = |base: f64, spike: usize, high: f64| {
        let mut values: Vec<f64> = (0..n).map(|i| base + ((i / 89) % 3) as f64).collect();
        values[spike] = high;
        UsageSeries {
            values,
            timestamps: Some(ts.clone()),
            utc_offset_minutes: 480,
            offset_changes: Vec::new(),
        }
    };
    let a = typed(4.0, 100_003, 30.0);
    let b = typed(2.0, 300_007, 25.0);
    let c = typed(1.0, 500_009, 50.0);
    let mut data = UsageData::from_types(&[("A", &a), ("B", &b), ("C", &c)], Lookback::All);
    for (k, n) in [5, 3, 2].into_iter().enumerate() {
        data.types[k].committed = Some(n);
    }
    let peak = data.peak();
    let style = light();
    let started = std::time::Instant::now();
    let svg = render((1200, 400), |a| draw(a, &data, &style).unwrap());
    eprintln!(
        "a year of minutes, three types stacked, drawn in {:?}",
        started.elapsed()
    );
    let y = svg.axis("end", "y");
    let top = stroked_width(&svg, style.palette.types[2], "1");
    assert_eq!(top.len(), 1);
    assert!(
        top[0].points().len() <= 2 * 1200,
        "{} points",
        top[0].points().len()
    );
    let (_, hi) = y_span(&svg, &top);
    // The total's true peak (C's spike over A and B at that minute), not dropped.
    assert!((hi - peak).abs() <= y.tol(1.5), "{hi} vs {peak}");
    assert!(peak >= 50.0 + 1.0 + 4.0);
    // A's spike alone still reaches every layer above it: layers 1 and 2 peak there.
    let (_, hi_a) = y_span(&svg, &stroked_width(&svg, style.palette.types[0], "1"));
    assert!((hi_a - 30.0).abs() <= y.tol(1.5), "{hi_a}");
    let (_, hi_ab) = y_span(&svg, &stroked_width(&svg, style.palette.types[1], "1"));
    assert!(hi_ab >= 30.0 + 2.0 - y.tol(1.5), "{hi_ab}");
    // The lines stacked at 5, 8 and 10.
    for (k, at) in [(0, 5.0), (1, 8.0), (2, 10.0)] {
        let (lo, hi) = y_span(&svg, &stroked_width(&svg, style.palette.types[k], "3"));
        assert!(
            (lo - at).abs() <= y.tol(1.5) && (hi - at).abs() <= y.tol(1.5),
            "{k}"
        );
    }
}

#[test]
fn one_type_is_the_usage_chart_as_always() {
    use charts::usage::{draw, UsageData};
    use gpu_rent_planner::core::profile::Lookback;
    let a100 = typed_series(&[(200, 6.0), (530, 4.0)]);
    let data = UsageData::from_types(&[("A100", &a100)], Lookback::Days(7));
    assert!(!data.stacked());
    assert_eq!(data.values.len(), 7 * 24);
    let svg = render((W, H), |a| draw(a, &data, &light()).unwrap());
    assert_eq!(svg.stroked("polyline", light().palette.series).len(), 1);
    assert!(svg.filled("polygon", light().palette.types[1]).is_empty());
}

// ---------- chart 6: cumulative cost by term ----------

#[test]
fn terms_chart_marks_the_break_even_month_and_the_upfront_steps() {
    use charts::terms::{draw, summary, TermsData};
    use gpu_rent_planner::core::terms::Term;
    // The worked example of § 15 with a 24-month horizon: the year's upfront is paid again
    // after month 12.
    let inputs = PlanInputs {
        gpus: 1,
        used_hours: 500.0,
        term_1y_upfront: 90_000.0,
        horizon_months: 24,
        ..PlanInputs::default()
    };
    let out = plan(&inputs);
    let data = TermsData::from_outputs(&out).unwrap();
    assert_eq!((data.months, data.horizon, data.lines.len()), (24, 24, 3));
    let y1 = data.lines.iter().find(|l| l.term == Term::OneYear).unwrap();
    assert_eq!(y1.breakeven, Some((8.0, 90_000.0)));
    assert!(y1.points.contains(&(12.0, 90_000.0)) && y1.points.contains(&(12.0, 180_000.0)));
    assert_eq!(y1.points.last(), Some(&(24.0, 180_000.0)));
    let style = light();
    let svg = render((W, H), |a| draw(a, &data, &style).unwrap());
    dump("terms", &svg);
    let x = svg.axis("middle", "x");
    svg.circle_at(style.palette.waterline, &x, 8.0);
    assert!(svg.has_text("pays back 8"));
    assert!(svg.has_text("Cumulative cost (¥)"));
    assert!(svg.has_text("horizon"));
    assert_eq!(
        summary(&data, Lang::En, "¥"),
        "Cumulative cost over 24 months: On demand ¥300,000; Monthly ¥216,000; 1 year ¥180,000, pays back in month 8"
    );
    let zh = summary(&data, Lang::Zh, "¥");
    assert!(zh.starts_with("24 个月的累计成本：按量 ¥300,000；"), "{zh}");
}
