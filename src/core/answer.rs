//! What the page's queries (`core::query`) answer and its readers (`core::ingest`) recognise:
//! the contract between the two, named once, so that neither depends on the other for it
//! (issue 38; `core::query` uses the reader's type keys, the reader uses only this).

/// The answer's column names, in order (`team` only when grouped by team).
pub const HOUR: &str = "hour_utc";
pub const TYPE: &str = "gpu_type";
pub const TEAM: &str = "team";
pub const VALUE: &str = "gpu_hours";
pub const ANSWER_HEADER: [&str; 4] = [HOUR, TYPE, TEAM, VALUE];

/// The bills' second query (`core::query::QuerySpec::rates`): effective rates per GPU model and
/// pricing over the window, one row per (`gpu_type`, `pricing`, `currency`), for the
/// bill-price fill: `gpu_hours` and `cost` (the effective cost: unblended for on demand and
/// spot, the reservation's / Savings Plan's effective cost for covered usage, GCP cost plus
/// credits). `pricing` is one of [`PRICINGS`].
pub const RATES_HEADER: [&str; 5] = ["gpu_type", "pricing", "gpu_hours", "cost", "currency"];
pub const PRICINGS: [&str; 4] = ["on_demand", "spot", "reserved", "savings_plan"];

/// The label the PromQL query adds to its answer, and its value: the values are GPU-hours per
/// hour, not one GPU's utilisation.
pub const MARKER_LABEL: &str = "grp_answer";
pub const MARKER_VALUE: &str = "gpu_hours";
/// The `metric` part of the recording rules' names (`level:metric:operations`).
pub const DCGM_RULE_METRIC: &str = "dcgm_gpu_busy";
pub const KUBE_RULE_METRIC: &str = "kube_pod_gpu_requests_running";
/// The `operations` part: a sum of GPUs at each evaluation.
pub const RULE_OPERATION: &str = "sum";

/// Whether a metric name is one of the recording rules' (any level): its values are GPUs.
pub fn is_rule_metric(name: &str) -> bool {
    let mut parts = name.split(':');
    let (Some(level), Some(metric), Some(op), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return false;
    };
    !level.is_empty()
        && (metric == DCGM_RULE_METRIC || metric == KUBE_RULE_METRIC)
        && op == RULE_OPERATION
}
