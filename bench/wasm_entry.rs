//! The browser bench's wasm side (built as the `bench_wasm` example, never shipped): the same
//! engine calls as `bench/native.rs`, exported to the bench page (bench/index.html), which
//! times them with performance.now() next to the JavaScript baseline (bench/js_baseline.js).
//! The mixed fleet (8 GPU types) runs the page's per-type pipeline as bench/native.rs does.
use gpu_rent_planner::core::examples::{
    generate_fleet_long_csv, generate_fleet_wide_csv, generate_hourly_csv, generate_minutely_csv,
};
use gpu_rent_planner::core::fleet_plan::plan_fleet;
use gpu_rent_planner::core::ingest::{parse, ParseOptions, Parsed, Stepper, TypedSeries};
use gpu_rent_planner::core::plan::{plan_with_history, PlanInputs, PlanOutputs};
use gpu_rent_planner::core::profile::{profile, HistoryProfile};
use gpu_rent_planner::core::series::UsageSeries;
use gpu_rent_planner::state::fleet::{row_series, sync_with_history, type_inputs};
use gpu_rent_planner::state::{AppState, Lang};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;

#[path = "source_plan.rs"]
mod source_plan;

#[path = "fleet_pipeline.rs"]
mod fleet_pipeline;
use fleet_pipeline::{fleet_options, type_outputs, type_plans};

/// A planned fleet: each type's inputs, profile and plan (for the one-type re-plan).
#[derive(Default)]
struct Fleet {
    inputs: Vec<PlanInputs>,
    profiles: Vec<HistoryProfile>,
    outputs: Vec<PlanOutputs>,
}

thread_local! {
    static TEXT: RefCell<String> = const { RefCell::new(String::new()) };
    static SERIES: RefCell<UsageSeries> = RefCell::new(UsageSeries::default());
    static TYPES: RefCell<Vec<TypedSeries>> = const { RefCell::new(Vec::new()) };
    static FLEET: RefCell<Fleet> = RefCell::new(Fleet::default());
}

/// The mixed-fleet year as a wide table (`core::examples::generate_fleet_wide_csv`).
#[wasm_bindgen]
pub fn gen_fleet_wide(rows: usize) -> String {
    generate_fleet_wide_csv(rows)
}

/// The same as a long table `timestamp,gpu_type,gpus` (~106 MB for the year).
#[wasm_bindgen]
pub fn gen_fleet_long(rows: usize) -> String {
    generate_fleet_long_csv(rows)
}

/// Parse + resample the loaded text at once with `opts`: `keep` takes the reading and returns
/// its size (0 on error).
fn parse_loaded_with(opts: &ParseOptions, keep: impl FnOnce(Parsed) -> usize) -> usize {
    TEXT.with(|t| parse(&t.borrow(), opts).map_or(0, keep))
}

/// The same through a Stepper in `slice`-byte slices: the reading's `size` (0 on error).
fn step_parse_loaded_with(opts: &ParseOptions, slice: usize, size: fn(&Parsed) -> usize) -> usize {
    TEXT.with(|t| {
        let t = t.borrow();
        let mut st = Stepper::new(&t, opts);
        while !st.step(slice) {}
        st.finish().map(|p| size(&p)).unwrap_or(0)
    })
}

/// Parse + resample the loaded fleet text; returns the typed series read (0 on error).
#[wasm_bindgen]
pub fn parse_loaded_fleet() -> usize {
    parse_loaded_with(&fleet_options(), |p| {
        let n = p.types.len();
        TYPES.with(|s| *s.borrow_mut() = p.types);
        n
    })
}

/// The same through a Stepper in `slice`-byte slices, as the page reads a paste or a file.
#[wasm_bindgen]
pub fn step_parse_loaded_fleet(slice: usize) -> usize {
    step_parse_loaded_with(&fleet_options(), slice, |p| p.types.len())
}

/// The page's fleet pipeline on the last parsed types (`fleet::sync_with_history`, then per
/// type its quantised history's profile and `plan_with_history`, then `plan_fleet`). Returns
/// the fleet's monthly total (or -1).
#[wasm_bindgen]
pub fn analyse_fleet() -> f64 {
    TYPES.with(|types| {
        let types = types.borrow();
        let mut s = AppState::new(PlanInputs::default(), Lang::En);
        sync_with_history(&mut s, &types);
        let inputs: Vec<PlanInputs> = (0..s.fleet.types.len())
            .map(|k| type_inputs(&s, k))
            .collect();
        let mut profiles = Vec::with_capacity(inputs.len());
        for (row, i) in s.fleet.types.iter().zip(&inputs) {
            let Some(series) = row_series(&row.keys, &types) else {
                return -1.0;
            };
            match profile(
                &gpu_rent_planner::link::quantize(&series),
                &i.profile_settings(),
            ) {
                Ok(p) => profiles.push(p),
                Err(_) => return -1.0,
            }
        }
        let outputs = type_outputs(&inputs, &profiles);
        let fleet = Fleet {
            inputs,
            profiles,
            outputs,
        };
        let total = fleet_total(&fleet);
        FLEET.with(|f| *f.borrow_mut() = fleet);
        total
    })
}

fn fleet_total(f: &Fleet) -> f64 {
    plan_fleet(&type_plans(&f.inputs, &f.profiles, &f.outputs))
        .map(|p| p.total.to_f64())
        .unwrap_or(-1.0)
}

/// A monthly price typed for the first type: that type re-planned and the fleet re-allocated
/// (the page's price change, without the DOM). Returns the fleet's monthly total.
#[wasm_bindgen]
pub fn replan_fleet_first(monthly_price: f64) -> f64 {
    FLEET.with(|f| {
        let mut f = f.borrow_mut();
        let Some(i) = f.inputs.first_mut() else {
            return -1.0;
        };
        i.monthly_price = monthly_price;
        let out = plan_with_history(&f.inputs[0], f.profiles.first());
        f.outputs[0] = out;
        fleet_total(&f)
    })
}

/// Typed series of the last fleet parse.
#[wasm_bindgen]
pub fn fleet_type_count() -> usize {
    TYPES.with(|t| t.borrow().len())
}

/// Type `k`'s label as read.
#[wasm_bindgen]
pub fn fleet_type_label(k: usize) -> String {
    TYPES.with(|t| {
        t.borrow()
            .get(k)
            .map(|t| t.label.clone())
            .unwrap_or_default()
    })
}

/// Type `k`'s hours.
#[wasm_bindgen]
pub fn fleet_type_hours(k: usize) -> usize {
    TYPES.with(|t| t.borrow().get(k).map_or(0, |t| t.series.values.len()))
}

/// Type `k`'s average GPUs busy (to compare with the JS baseline).
#[wasm_bindgen]
pub fn fleet_type_mean(k: usize) -> f64 {
    TYPES.with(|t| {
        t.borrow().get(k).map_or(f64::NAN, |t| {
            t.series.values.iter().sum::<f64>() / t.series.values.len().max(1) as f64
        })
    })
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
    let text = gpu_rent_planner::web::browser::js_text(&text).unwrap_or_default();
    let n = text.len();
    TEXT.with(|t| *t.borrow_mut() = text);
    n
}

/// Parse + resample the loaded text at once; returns the hours read (0 on error).
#[wasm_bindgen]
pub fn parse_loaded() -> usize {
    parse_loaded_with(&ParseOptions::default(), |p| {
        let n = p.series.values.len();
        SERIES.with(|s| *s.borrow_mut() = p.series);
        n
    })
}

/// The same through a Stepper in `slice`-byte slices (the page uses 64 KiB).
#[wasm_bindgen]
pub fn step_parse_loaded(slice: usize) -> usize {
    step_parse_loaded_with(&ParseOptions::default(), slice, |p| p.series.values.len())
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

/// A source file's bytes to its plan as `bench_sources` times it natively
/// (`source_plan::plan_source`, bytes already in wasm memory): `[ms, hours, waterline, N*]`,
/// the time from the wasm side's clock.
#[wasm_bindgen]
pub fn plan_source_bytes(bytes: &[u8]) -> Vec<f64> {
    let t = js_sys::Date::now();
    let (hours, waterline, n) = source_plan::plan_source(bytes);
    vec![js_sys::Date::now() - t, hours as f64, waterline, n as f64]
}

fn main() {}
