//! The browser bench's wasm side (built as the `bench_wasm` example, never shipped): the same
//! engine calls as `bench/native.rs`, exported to the bench page (bench/index.html), which
//! times them with performance.now() next to the JavaScript baseline (bench/js_baseline.js).
use gpu_rent_planner::core::examples::{generate_hourly_csv, generate_minutely_csv};
use gpu_rent_planner::core::ingest::{parse, ParseOptions, Stepper};
use gpu_rent_planner::core::plan::{plan_with_history, PlanInputs};
use gpu_rent_planner::core::profile::profile;
use gpu_rent_planner::core::series::UsageSeries;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;

thread_local! {
    static TEXT: RefCell<String> = const { RefCell::new(String::new()) };
    static SERIES: RefCell<UsageSeries> = RefCell::new(UsageSeries::default());
}

/// A year of per-minute rows (`rows` = 525 600), the native bench's input.
#[wasm_bindgen]
pub fn gen_minutely(rows: usize) -> String {
    generate_minutely_csv(rows)
}

/// `hours` hourly rows (`core::examples::generate_hourly_csv`, as bench/native.rs).
#[wasm_bindgen]
pub fn gen_hourly(hours: usize) -> String {
    generate_hourly_csv(hours)
}

/// Bring a JS string into wasm memory exactly as the page does with a paste or a file
/// (`browser::js_text`: the browser's TextEncoder, one copy, a UTF-8 check).
#[wasm_bindgen]
pub fn load_text(text: JsValue) -> usize {
    let text = gpu_rent_planner::browser::js_text(&text).unwrap_or_default();
    let n = text.len();
    TEXT.with(|t| *t.borrow_mut() = text);
    n
}

/// Parse + resample the loaded text at once; returns the hours read (0 on error).
#[wasm_bindgen]
pub fn parse_loaded() -> usize {
    TEXT.with(|t| match parse(&t.borrow(), &ParseOptions::default()) {
        Ok(p) => {
            let n = p.series.values.len();
            SERIES.with(|s| *s.borrow_mut() = p.series);
            n
        }
        Err(_) => 0,
    })
}

/// The same through a Stepper in `slice`-byte slices (the page uses 64 KiB).
#[wasm_bindgen]
pub fn step_parse_loaded(slice: usize) -> usize {
    TEXT.with(|t| {
        let t = t.borrow();
        let mut st = Stepper::new(&t, &ParseOptions::default());
        while !st.step(slice) {}
        st.finish().map(|p| p.series.values.len()).unwrap_or(0)
    })
}

/// Profile + plan on the last parsed series; returns the waterline purchase (or -1).
#[wasm_bindgen]
pub fn analyse() -> f64 {
    let inputs = PlanInputs::default();
    SERIES.with(|s| match profile(&s.borrow(), &inputs.profile_settings()) {
        Ok(p) => plan_with_history(&inputs, Some(&p))
            .waterline
            .map(|w| f64::from(w.buy))
            .unwrap_or(-1.0),
        Err(_) => -1.0,
    })
}

/// The average GPUs busy of the last parsed series (to compare with the JS baseline).
#[wasm_bindgen]
pub fn series_mean() -> f64 {
    SERIES.with(|s| {
        let s = s.borrow();
        s.values.iter().sum::<f64>() / s.values.len().max(1) as f64
    })
}

fn main() {}
