//! The fleet's steps after a typed history is read, shared by the native bench
//! (`bench/native.rs`) and the browser bench's wasm (`bench/wasm_entry.rs`), so that both time
//! the same work.
use gpu_rent_planner::core::examples::FLEET_TYPES;
use gpu_rent_planner::core::fleet_plan::TypePlan;
use gpu_rent_planner::core::ingest::ParseOptions;
use gpu_rent_planner::core::plan::{plan_with_history, PlanInputs, PlanOutputs};
use gpu_rent_planner::core::profile::HistoryProfile;

/// The page's limit is 50 MiB; the long year is ~106 MB.
pub fn fleet_options() -> ParseOptions {
    ParseOptions {
        max_input_bytes: 256 * 1024 * 1024,
        ..ParseOptions::default()
    }
}

/// Each type planned on its own history (`plan_with_history`).
pub fn type_outputs(inputs: &[PlanInputs], profiles: &[HistoryProfile]) -> Vec<PlanOutputs> {
    inputs
        .iter()
        .zip(profiles)
        .map(|(i, h)| plan_with_history(i, Some(h)))
        .collect()
}

/// The types as `plan_fleet` takes them, named as the example fleet's.
pub fn type_plans<'a>(
    inputs: &'a [PlanInputs],
    profiles: &'a [HistoryProfile],
    outputs: &'a [PlanOutputs],
) -> Vec<TypePlan<'a>> {
    FLEET_TYPES
        .iter()
        .zip(inputs)
        .zip(profiles)
        .zip(outputs)
        .map(|(((name, i), h), o)| TypePlan {
            name,
            inputs: i,
            history: Some(h),
            outputs: o,
        })
        .collect()
}
