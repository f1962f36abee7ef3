//! From a source file's bytes to its plan, as the page reads a picked file: `ByteStepper` in
//! 1 MiB pieces, the link's rounding, the fleet a typed history makes (its new types at their
//! example prices), the selected type's profile and plan. Timed natively by `bench_sources`
//! and in the browser's wasm by the bench page (`bench_wasm`'s `plan_source_bytes`), so the
//! two times are of the same work on the same bytes in memory.
use gpu_rent_planner::core::ingest::{ByteStepper, ParseOptions};
use gpu_rent_planner::core::plan::{plan_with_history, PlanInputs};
use gpu_rent_planner::page::pipeline;
use gpu_rent_planner::state::fleet::sync_with_history;
use gpu_rent_planner::state::{AppState, Lang, UsageMode};

/// Hours read, the waterline and N* of the cards' type (-1 where there is none), with the
/// default inputs; a file may be as large as the page reads one (512 MiB).
pub fn plan_source(bytes: &[u8]) -> (usize, f64, i64) {
    let opts = ParseOptions {
        max_input_bytes: 512 * 1024 * 1024,
        ..ParseOptions::default()
    };
    let inputs = PlanInputs::default();
    let mut s = ByteStepper::new(bytes.len() as u64, &opts);
    while let Some(at) = s.wants() {
        let at = at as usize;
        s.feed(&bytes[at..(at + (1 << 20)).min(bytes.len())]);
    }
    let parsed = pipeline::quantized(s.finish()).expect("generated source parses");
    let mut state = AppState::new(inputs, Lang::En);
    state.mode = UsageMode::Data;
    if parsed.types.len() >= 2 {
        sync_with_history(&mut state, &parsed.types);
    }
    let settings = state.inputs.profile_settings();
    let profiles = pipeline::type_profiles(pipeline::typed_keys(&state), Some(&parsed), &settings);
    let p = pipeline::selected_profile(
        state.mode,
        &profiles,
        state.fleet.selected,
        Some(&parsed),
        &settings,
    )
    .expect("data mode")
    .expect("valid series");
    let out = plan_with_history(&state.inputs, Some(&p));
    (
        parsed.series.values.len(),
        out.waterline.as_ref().map_or(-1.0, |w| w.overall),
        out.commitment.as_ref().map_or(-1, |c| i64::from(c.n_star)),
    )
}
