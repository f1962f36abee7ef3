//! PromQL for Prometheus and Thanos (issue 38): the page writes one text in four sections,
//! each introduced by `#` comment lines, so the user copies the one they need:
//!
//! 1. **the query**, on the first line that is not a comment ([`expression`]): GPU-hours per
//!    hour per model (DCGM) or requested GPUs of running pods (kube-state-metrics), marked
//!    with the label `grp_answer="gpu_hours"` ([`MARKER_LABEL`]) so the page knows the values
//!    are already GPUs per hour (not one GPU's utilisation);
//! 2. **the export**: `curl` against `/api/v1/query_range` (the JSON the page reads, exactly
//!    as Prometheus answers), step 1 h, one command per range of at most [`MAX_POINTS`]
//!    hours; Thanos' `max_source_resolution`; `promtool query range` as an alternative;
//! 3. **recording rules** (YAML, names `level:metric:operations`): the per-model busy count
//!    every 15 s, and the query that exports it;
//!
//! **The hour's alignment.** A range query at step 1 h evaluates the expression at each hour
//! start `t` (`start`, `start + 1h`, …). A plain `[1h]` window would look back over
//! `(t − 1h, t]` (Prometheus 3; `[t − 1h, t]` in 2.x, whose windows are closed at both ends),
//! so the value would belong to the hour *before* its timestamp and the two versions would
//! disagree on the boundary sample. The query moves the window forward instead:
//! `[1h:15s] offset -3599999ms` looks at `(t − 1ms, t + 1h − 1ms]`, which on Prometheus'
//! millisecond clock is exactly the hour `[t, t + 1h)` in both versions (the subquery's
//! 15 s grid points `t, t+15s, …, t+3585s`: 240 of them, none on a boundary). The answer's
//! timestamp is then the start of the hour it measures, as in every SQL answer, and the
//! reader attributes it without any shift. Pinned by the real Prometheus
//! (`end2end/tests/real_prometheus.test.mjs`) and by a recorded answer
//! (`tests/fixtures/query/prometheus_dcgm.json`).
//!
//! **Exact and cheap.** `DCGM_FI_DEV_GPU_UTIL >= bool <t>` is 1 while a GPU is busy, 0 while
//! idle; summed over the hour's 240 grid points and divided by 240 it is the fraction of the
//! hour the GPU was busy, a GPU without a sample at a point (absent, or gone) counting as
//! not busy there (the page's own reading of per-GPU series). Each grid point takes the
//! latest sample at or before it, so a scrape interval that is a multiple of 15 s (15 s,
//! 30 s, 60 s) is counted sample by sample; other intervals are weighted by the time each
//! sample holds. Cost: 240 points per GPU per hour, the smallest grid that is exact for a
//! 15 s scrape. `sum by (modelName)` keeps one series per model (and team) in the answer.

use super::quote::{promql_label_name, promql_string, shell_word};
use super::{utc_text, PromSource, QueryError, QuerySpec};
use crate::core::ingest::normalize_type;

pub use crate::core::answer::{
    is_rule_metric, DCGM_RULE_METRIC, KUBE_RULE_METRIC, MARKER_LABEL, MARKER_VALUE, RULE_OPERATION,
};
/// The subquery's resolution (seconds) and its points per hour.
pub const RESOLUTION_S: i64 = 15;
pub const POINTS_PER_HOUR: i64 = 3600 / RESOLUTION_S;
/// The window's shift: evaluated at `t`, `[1h] offset -3599999ms` is `(t − 1ms, t + 1h − 1ms]`.
pub const HOUR_AHEAD: &str = "offset -3599999ms";
/// Prometheus refuses a range query of more than 11 000 points per series.
pub const MAX_POINTS: i64 = 11_000;
/// The DCGM utilisation metric (percent).
pub const DCGM_METRIC: &str = "DCGM_FI_DEV_GPU_UTIL";
/// The team labels the page's reader finds by itself (`core::ingest` Prometheus reader,
/// in its order of preference); another label is copied into `team` for it.
use crate::core::ingest::PROM_TEAM_LABELS as READER_TEAM_LABELS;
/// GPU memory sizes (GB) a model name may carry: for a type key without a size, the sizes
/// that make another type (`A100 40GB` is `a100-40g`, not `a100`) are excluded.
const SIZES: [u32; 30] = [
    4, 6, 8, 10, 11, 12, 16, 20, 24, 32, 40, 44, 45, 46, 48, 56, 64, 80, 94, 96, 120, 128, 141,
    144, 180, 186, 192, 256, 279, 288,
];
/// Vendor words glued to a model (`RTX4090`): the model may follow them directly.
const GLUED: &str = "rtx|gtx|tesla|nvidia|ascend";

/// The whole text (see the module doc).
pub fn write(spec: &QuerySpec) -> Result<String, QueryError> {
    let expr = expression(spec)?;
    let team = team_label(spec)?;
    let mut out = String::new();
    let what = match spec.prom {
        PromSource::Dcgm => format!(
            "busy GPUs per model per hour from DCGM ({DCGM_METRIC} >= {}%)",
            number(spec.busy_threshold_percent)
        ),
        PromSource::KubeRequests => {
            "GPUs requested by running pods per hour (kube-state-metrics)".to_string()
        }
    };
    out.push_str(&format!(
        "# GPU Rent Planner: PromQL for Prometheus / Thanos: {what},\n\
         # {} to {} UTC (hour starts; each value is the hour [t, t+1h) in GPU-hours).\n\
         # Three sections, each between comment lines: 1. the query (the next line),\n\
         # 2. the export commands (shell), 3. recording rules (YAML). Copy the one you need.\n\
         #\n\
         # 1. The query: run it as a range query, step 1h, from the first hour's start to the\n\
         #    last hour's start. `offset -3599999ms` moves the [1h] window onto [t, t+1h).\n",
        utc_text(spec.start),
        utc_text(spec.end - 3600),
    ));
    if spec.prom == PromSource::KubeRequests && !spec.types.is_empty() {
        out.push_str(
            "#    kube-state-metrics does not say which GPU model a pod got: every model is\n\
             #    counted (the types chosen apply to DCGM only).\n",
        );
    }
    out.push_str(&expr);
    out.push('\n');
    out.push_str(&export_section(spec, &expr));
    out.push_str(&rules_section(spec, team)?);
    Ok(out)
}

/// The query alone: one line, what section 1 holds.
pub fn expression(spec: &QuerySpec) -> Result<String, QueryError> {
    let team = team_label(spec)?;
    let inner = match spec.prom {
        PromSource::Dcgm => {
            let sel = dcgm_selector(spec)?;
            let by = by_labels("modelName", team);
            format!(
                "sum by ({by}) (sum_over_time(({sel} >= bool {})[1h:{RESOLUTION_S}s] {HOUR_AHEAD})) / {POINTS_PER_HOUR}",
                number(spec.busy_threshold_percent)
            )
        }
        PromSource::KubeRequests => {
            let requests = kube_requests(team);
            let by = team.unwrap_or("");
            format!(
                "sum by ({by}) (sum_over_time(({requests})[1h:{RESOLUTION_S}s] {HOUR_AHEAD})) / {POINTS_PER_HOUR}"
            )
        }
    };
    Ok(mark(&with_team_copy(inner, team)))
}

/// The recording rule's name for `spec` (`modelName:dcgm_gpu_busy:sum`,
/// `modelName_namespace:dcgm_gpu_busy:sum`, `namespace:kube_pod_gpu_requests_running:sum`).
pub fn rule_name(spec: &QuerySpec) -> Result<String, QueryError> {
    let team = team_label(spec)?;
    Ok(match spec.prom {
        PromSource::Dcgm => {
            let level = match team {
                Some(t) => format!("modelName_{t}"),
                None => "modelName".into(),
            };
            format!("{level}:{DCGM_RULE_METRIC}:{RULE_OPERATION}")
        }
        PromSource::KubeRequests => {
            let level = team.unwrap_or("cluster");
            format!("{level}:{KUBE_RULE_METRIC}:{RULE_OPERATION}")
        }
    })
}

/// The team label, checked (`None`: no team).
fn team_label(spec: &QuerySpec) -> Result<Option<&str>, QueryError> {
    match &spec.team {
        None => Ok(None),
        Some(t) => match promql_label_name(t) {
            Some(l) if !l.starts_with("__") && l != MARKER_LABEL && l != "modelName" => Ok(Some(l)),
            _ => Err(QueryError::BadTeam(t.chars().take(100).collect())),
        },
    }
}

fn by_labels(first: &str, team: Option<&str>) -> String {
    match team {
        Some(t) => format!("{first}, {t}"),
        None => first.to_string(),
    }
}

/// A team label the reader does not find by itself is copied into `team`.
fn with_team_copy(expr: String, team: Option<&str>) -> String {
    match team {
        Some(t) if !READER_TEAM_LABELS.contains(&t) => {
            format!("label_replace({expr}, \"team\", \"$1\", \"{t}\", \"(.*)\")")
        }
        _ => expr,
    }
}

fn mark(expr: &str) -> String {
    format!("label_replace({expr}, \"{MARKER_LABEL}\", \"{MARKER_VALUE}\", \"\", \"\")")
}

/// GPUs requested by running pods: requests summed per pod, kept where the pod's phase is
/// Running (the namespace label: the team's when set, which must then name the namespace).
fn kube_requests(team: Option<&str>) -> String {
    let ns = team.unwrap_or("namespace");
    format!(
        "sum by ({ns}, pod) (kube_pod_container_resource_requests{{resource=\"nvidia_com_gpu\"}}) \
         * on ({ns}, pod) group_left () (max by ({ns}, pod) (kube_pod_status_phase{{phase=\"Running\"}}) == 1)"
    )
}

/// The threshold as PromQL reads it (shortest exact decimal).
fn number(x: f64) -> String {
    format!("{x}")
}

/// `DCGM_FI_DEV_GPU_UTIL` with the model matchers of `spec.types`.
fn dcgm_selector(spec: &QuerySpec) -> Result<String, QueryError> {
    match model_matchers(&spec.types)? {
        None => Ok(DCGM_METRIC.to_string()),
        Some((keep, None)) => Ok(format!(
            "{DCGM_METRIC}{{modelName=~{}}}",
            promql_string(&keep)
        )),
        Some((keep, Some(drop))) => Ok(format!(
            "{DCGM_METRIC}{{modelName=~{}, modelName!~{}}}",
            promql_string(&keep),
            promql_string(&drop)
        )),
    }
}

/// A type key as a model (letters and digits) and a size in GB (`a100-40g` → (`a100`, 40)).
fn key_parts(t: &str) -> Result<(String, Option<u32>), QueryError> {
    let key = normalize_type(t);
    let bad = || QueryError::UnknownType(t.chars().take(100).collect());
    let alnum = |s: &str| {
        !s.is_empty()
            && s.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
    };
    if let Some((base, size)) = key.rsplit_once('-') {
        let g = size
            .strip_suffix('g')
            .filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|d| d.parse::<u32>().ok())
            .ok_or_else(bad)?;
        if alnum(base) {
            return Ok((base.to_string(), Some(g)));
        }
        return Err(bad());
    }
    if alnum(&key) {
        Ok((key, None))
    } else {
        Err(bad())
    }
}

/// The model as a case-insensitive pattern: letters and digits, a space, `_`, `.` or `-`
/// allowed between a letter run and a digit run (`6000ada` matches `RTX 6000 Ada`). Only
/// `[a-z0-9]` reach here, so the pattern needs no escape.
fn model_pattern(base: &str) -> String {
    let mut out = String::new();
    let mut prev: Option<bool> = None;
    for c in base.chars() {
        let digit = c.is_ascii_digit();
        if prev.is_some_and(|p| p != digit) {
            out.push_str("[ _.-]?");
        }
        prev = Some(digit);
        out.push(c);
    }
    out
}

/// Before the model: the start, a non-alphanumeric character, or a glued vendor word.
fn before() -> String {
    format!("(|.*[^a-z0-9]|.*({GLUED}))")
}

const AFTER: &str = "([^a-z0-9].*)?";
const BEFORE_SIZE: &str = "([^a-z0-9]|[^a-z0-9].*[^0-9])";
const SIZE_UNIT: &str = "[ _-]?(g|gb|gib)([^a-z0-9].*)?";

/// The `modelName` regexes (RE2, anchored by Prometheus) of the chosen type keys: the names
/// to keep, and those to drop (the other sizes of a model chosen without a size). `None`:
/// every model.
fn model_matchers(types: &[String]) -> Result<Option<(String, Option<String>)>, QueryError> {
    if types.is_empty() {
        return Ok(None);
    }
    let mut parts = Vec::new();
    for t in types {
        let p = key_parts(t)?;
        if !parts.contains(&p) {
            parts.push(p);
        }
    }
    let pre = before();
    let mut keep = Vec::new();
    let mut drop = Vec::new();
    for (base, size) in &parts {
        let m = model_pattern(base);
        match size {
            Some(g) => keep.push(format!("{pre}{m}{BEFORE_SIZE}{g}{SIZE_UNIT}")),
            None => {
                keep.push(format!("{pre}{m}{AFTER}"));
                // Sizes that name another type, unless that type is chosen too.
                let other: Vec<String> = SIZES
                    .iter()
                    .filter(|&&g| normalize_type(&format!("{base} {g}GB")) != *base)
                    .filter(|&&g| !parts.contains(&(base.clone(), Some(g))))
                    .map(u32::to_string)
                    .collect();
                if !other.is_empty() {
                    drop.push(format!(
                        "{pre}{m}{BEFORE_SIZE}({}){SIZE_UNIT}",
                        other.join("|")
                    ));
                }
            }
        }
    }
    let alt = |v: Vec<String>| format!("(?i)({})", v.join("|"));
    let drop = (!drop.is_empty()).then(|| alt(drop));
    Ok(Some((alt(keep), drop)))
}

/// RFC 3339 UTC of a Unix time.
fn rfc3339(t: i64) -> String {
    utc_text(t).replacen(' ', "T", 1) + "Z"
}

/// The evaluation ranges: hour starts `[first, last]`, at most [`MAX_POINTS`] each.
pub fn ranges(spec: &QuerySpec) -> Vec<(i64, i64)> {
    let mut out = Vec::new();
    let mut s = spec.start;
    while s < spec.end {
        let last = (s + (MAX_POINTS - 1) * 3600).min(spec.end - 3600);
        out.push((s, last));
        s = last + 3600;
    }
    out
}

fn export_section(spec: &QuerySpec, expr: &str) -> String {
    let rs = ranges(spec);
    let mut out = format!(
        "#\n\
         # 2. The export (shell): the JSON Prometheus answers, as the page reads it; one file\n\
         #    per range of at most {MAX_POINTS} hours (Prometheus' limit of points per query).\n\
         #    Thanos: add --data-urlencode max_source_resolution=0s (raw data: exact; 5m or 1h\n\
         #    read downsampled averages, approximate) and --data-urlencode dedup=true.\n\
         PROM='http://localhost:9090'\n\
         QUERY={}\n",
        shell_word(expr)
    );
    let file = |i: usize| {
        if rs.len() == 1 {
            "gpu-hours.json".to_string()
        } else {
            format!("gpu-hours-{}.json", i + 1)
        }
    };
    for (i, &(a, b)) in rs.iter().enumerate() {
        out.push_str(&format!(
            "curl -fsS -G \"$PROM/api/v1/query_range\" --data-urlencode \"query=$QUERY\" \
             --data-urlencode start={} --data-urlencode end={} --data-urlencode step=3600 -o {}\n",
            rfc3339(a),
            rfc3339(b),
            file(i)
        ));
    }
    out.push_str(
        "#    Or with promtool (its JSON is the result array alone; the page reads the curl file):\n",
    );
    for &(a, b) in &rs {
        out.push_str(&format!(
            "#    promtool query range -o json --start={} --end={} --step=1h \"$PROM\" \"$QUERY\"\n",
            rfc3339(a),
            rfc3339(b)
        ));
    }
    out
}

fn rules_section(spec: &QuerySpec, team: Option<&str>) -> Result<String, QueryError> {
    let name = rule_name(spec)?;
    let (rule_expr, by) = match spec.prom {
        PromSource::Dcgm => (
            format!(
                "sum by ({}) ({} >= bool {})",
                by_labels("modelName", team),
                dcgm_selector(spec)?,
                number(spec.busy_threshold_percent)
            ),
            by_labels("modelName", team),
        ),
        PromSource::KubeRequests => (
            format!("sum by ({}) ({})", team.unwrap_or(""), kube_requests(team)),
            team.unwrap_or("").to_string(),
        ),
    };
    let export = mark(&with_team_copy(
        format!("sum by ({by}) (sum_over_time({name}[1h] {HOUR_AHEAD})) / {POINTS_PER_HOUR}"),
        team,
    ));
    // YAML: the expression as a single-quoted scalar (a quote doubled).
    let yaml_expr = format!("'{}'", rule_expr.replace('\'', "''"));
    Ok(format!(
        "#\n\
         # 3. Recording rules (YAML, a rule file for Prometheus' rule_files or Thanos Ruler):\n\
         #    the GPUs counted at each evaluation, every {RESOLUTION_S}s; once recorded, the\n\
         #    export above can use this query instead (the same answer, cheaper to run):\n\
         #    {export}\n\
         groups:\n\
         \x20 - name: gpu_rent_planner\n\
         \x20   interval: {RESOLUTION_S}s\n\
         \x20   rules:\n\
         \x20     - record: {name}\n\
         \x20       expr: {yaml_expr}\n"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::query::Engine;

    const DAY: i64 = 86_400;
    const NOV1: i64 = 1_793_491_200; // 2026-11-01 00:00 UTC

    fn spec() -> QuerySpec {
        QuerySpec {
            engine: Engine::PromQl,
            start: NOV1,
            end: NOV1 + 7 * DAY,
            ..QuerySpec::default()
        }
    }

    /// The first line that is not a comment: the query (section 1).
    fn first_query_line(text: &str) -> &str {
        text.lines()
            .find(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .unwrap()
    }

    #[test]
    fn dcgm_query_shape() {
        let s = spec();
        let text = super::super::write(&s).unwrap();
        let q = first_query_line(&text);
        assert_eq!(
            q,
            "label_replace(sum by (modelName) (sum_over_time((DCGM_FI_DEV_GPU_UTIL >= bool 10)\
             [1h:15s] offset -3599999ms)) / 240, \"grp_answer\", \"gpu_hours\", \"\", \"\")"
        );
        assert_eq!(expression(&s).unwrap(), q);
        // The export names the first and the last hour's starts, step 1h.
        assert!(text.contains(
            "--data-urlencode start=2026-11-01T00:00:00Z --data-urlencode \
             end=2026-11-07T23:00:00Z --data-urlencode step=3600 -o gpu-hours.json"
        ));
        assert!(text.contains("max_source_resolution=0s"));
        assert!(text.contains("promtool query range -o json --start=2026-11-01T00:00:00Z"));
        // Every line is a comment, the query, shell or YAML: no stray text.
        assert!(text.ends_with('\n'));
    }

    /// The alignment decision, by hand: evaluated at an hour start t, the window of
    /// `[1h] offset -3599999ms` is (t − 1 ms, t + 3 599 999 ms], i.e. [t, t + 1h) on a
    /// millisecond clock; the 15 s grid points in it are t … t + 3585 s, 240 of them, and no
    /// grid point lies on either end (so Prometheus 2's closed and 3's left-open windows
    /// agree).
    #[test]
    fn window_is_the_hour_that_starts_at_the_timestamp() {
        let t_ms: i64 = NOV1 * 1000 + 5 * 3_600_000;
        let offset_ms: i64 = -3_599_999;
        let (lo, hi) = (t_ms - offset_ms - 3_600_000, t_ms - offset_ms);
        assert_eq!((lo, hi), (t_ms - 1, t_ms + 3_599_999));
        let grid: Vec<i64> = (lo / 15_000 - 1..=hi / 15_000 + 1)
            .map(|k| k * 15_000)
            .filter(|&p| p > lo && p <= hi)
            .collect();
        assert_eq!(grid.len() as i64, POINTS_PER_HOUR);
        assert_eq!(grid[0], t_ms);
        assert_eq!(*grid.last().unwrap(), t_ms + 3_585_000);
        // Closed window [lo, hi]: the same points.
        assert!(lo % 15_000 != 0 && hi % 15_000 != 0);
        assert!(HOUR_AHEAD.ends_with(&format!("{}ms", -offset_ms)));
    }

    /// A hand-computed hour: GPU A busy at 120 of the 240 points, GPU B at 60 → the query's
    /// sum over the points is 180, / 240 = 0.75 GPU-hours.
    #[test]
    fn hand_computed_hour() {
        let a: i64 = (0..240).filter(|p| p % 2 == 0).count() as i64;
        let b: i64 = (0..240).filter(|p| *p < 60).count() as i64;
        assert_eq!((a + b) as f64 / POINTS_PER_HOUR as f64, 0.75);
        assert!(expression(&spec()).unwrap().contains(" / 240,"));
    }

    #[test]
    fn team_and_types() {
        let mut s = spec();
        s.team = Some("exported_namespace".into());
        s.types = vec!["a100".into(), "h100".into()];
        s.busy_threshold_percent = 12.5;
        let q = expression(&s).unwrap();
        assert!(q.starts_with("label_replace(sum by (modelName, exported_namespace) ("));
        assert!(q.contains(">= bool 12.5)[1h:15s] offset -3599999ms"));
        assert!(q.contains("DCGM_FI_DEV_GPU_UTIL{modelName=~\"(?i)((|.*[^a-z0-9]|.*(rtx|gtx|tesla|nvidia|ascend))a[ _.-]?100([^a-z0-9].*)?|"));
        // a100 without a size: the sizes that make another type (40 GB) are dropped, its
        // own (80 GB) is not.
        let drop = q.split("modelName!~\"").nth(1).unwrap();
        let drop = &drop[..drop.find('"').unwrap()];
        assert!(drop.contains("|40|") && !drop.contains("|80|"), "{drop}");
        // a100 and a100-40g both: 40 GB is kept.
        s.types = vec!["a100".into(), "A100 40GB".into()];
        let q = expression(&s).unwrap();
        assert!(q.contains("100([^a-z0-9]|[^a-z0-9].*[^0-9])40[ _-]?(g|gb|gib)"));
        let drop = q.split("modelName!~\"").nth(1).unwrap();
        let drop = &drop[..drop.find('"').unwrap()];
        assert!(!drop.contains("|40|"), "{drop}");
        // A team label the reader does not look for is copied into `team`.
        s.team = Some("label_team".into());
        s.types.clear();
        let q = expression(&s).unwrap();
        assert!(
            q.contains("\"team\", \"$1\", \"label_team\", \"(.*)\")"),
            "{q}"
        );
    }

    #[test]
    fn kube_requests_shape() {
        let mut s = spec();
        s.prom = PromSource::KubeRequests;
        s.team = Some("namespace".into());
        let q = expression(&s).unwrap();
        assert_eq!(
            q,
            "label_replace(sum by (namespace) (sum_over_time((sum by (namespace, pod) \
             (kube_pod_container_resource_requests{resource=\"nvidia_com_gpu\"}) * on \
             (namespace, pod) group_left () (max by (namespace, pod) \
             (kube_pod_status_phase{phase=\"Running\"}) == 1))[1h:15s] offset -3599999ms)) \
             / 240, \"grp_answer\", \"gpu_hours\", \"\", \"\")"
        );
        assert_eq!(
            rule_name(&s).unwrap(),
            "namespace:kube_pod_gpu_requests_running:sum"
        );
        s.team = None;
        assert!(expression(&s)
            .unwrap()
            .contains("sum by () (sum_over_time("));
    }

    #[test]
    fn hostile_text_cannot_change_the_query() {
        let hostile = [
            "\"}[5m]) or vector(1)",
            "namespace\"} or vector(1) #",
            "a\\\"b",
            "line\nbreak",
            "x'; DROP",
            "",
            "__name__",
            "grp_answer",
            "9lives",
        ];
        for h in hostile {
            let mut s = spec();
            s.team = Some(h.into());
            assert!(
                matches!(super::super::write(&s), Err(QueryError::BadTeam(_))),
                "{h:?}"
            );
            let mut s = spec();
            s.types = vec![h.into()];
            match expression(&s) {
                Err(QueryError::UnknownType(_)) => {}
                Ok(q) => {
                    // Only a clean key (letters, digits) can enter, inside one string.
                    assert!(!q.contains("vector(1)") && !q.contains('\n'), "{q}");
                    let key = normalize_type(h);
                    assert!(key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'));
                }
                Err(e) => panic!("{e:?}"),
            }
        }
        // Hostile text that folds to a clean key is only that key.
        let mut s = spec();
        s.types = vec!["A100\"}[5m]) or vector(1)".into()];
        assert!(matches!(
            expression(&s),
            Err(QueryError::UnknownType(_)) | Ok(_)
        ));
        if let Ok(q) = expression(&s) {
            assert!(!q.contains("vector(1)"), "{q}");
        }
    }

    #[test]
    fn every_piece_of_user_text_is_quoted() {
        // The query is a shell word in the export: a quote inside cannot end it.
        let mut s = spec();
        s.team = Some("namespace".into());
        let text = super::super::write(&s).unwrap();
        let q = expression(&s).unwrap();
        assert!(text.contains(&format!("QUERY={}\n", shell_word(&q))));
    }

    #[test]
    fn long_windows_split_at_11000_points() {
        let mut s = spec();
        s.end = s.start + 25_000 * 3600;
        let r = ranges(&s);
        assert_eq!(r.len(), 3);
        assert_eq!(r[0], (s.start, s.start + 10_999 * 3600));
        assert_eq!(r[1].0, s.start + 11_000 * 3600);
        assert_eq!(r[2].1, s.end - 3600);
        let points: i64 = r.iter().map(|(a, b)| (b - a) / 3600 + 1).sum();
        assert_eq!(points, 25_000);
        assert!(r.iter().all(|(a, b)| (b - a) / 3600 < MAX_POINTS));
        let text = super::super::write(&s).unwrap();
        assert_eq!(text.matches("curl -fsS").count(), 3);
        assert!(text.contains("-o gpu-hours-3.json"));
    }

    #[test]
    fn rules_are_yaml_with_level_metric_operation_names() {
        let mut s = spec();
        s.team = Some("namespace".into());
        s.types = vec!["h100".into()];
        let text = super::super::write(&s).unwrap();
        let yaml = &text[text.find("groups:").unwrap()..];
        let v: yaml_serde::Value = yaml_serde::from_str(yaml).unwrap();
        let rule = &v["groups"][0]["rules"][0];
        assert_eq!(
            rule["record"].as_str(),
            Some("modelName_namespace:dcgm_gpu_busy:sum")
        );
        let expr = rule["expr"].as_str().unwrap();
        assert!(expr.starts_with("sum by (modelName, namespace) (DCGM_FI_DEV_GPU_UTIL{modelName=~"));
        assert!(expr.ends_with(">= bool 10)"));
        assert!(is_rule_metric("modelName_namespace:dcgm_gpu_busy:sum"));
        assert!(is_rule_metric(
            "namespace:kube_pod_gpu_requests_running:sum"
        ));
        assert!(!is_rule_metric("dcgm_gpu_busy"));
        assert!(!is_rule_metric("a:dcgm_gpu_busy:avg"));
        assert!(!is_rule_metric(":dcgm_gpu_busy:sum"));
    }

    #[test]
    fn errors() {
        let mut s = spec();
        s.team = Some("a-b".into());
        assert_eq!(
            super::super::write(&s),
            Err(QueryError::BadTeam("a-b".into()))
        );
        let mut s = spec();
        s.types = vec!["团队".into()];
        assert!(matches!(
            super::super::write(&s),
            Err(QueryError::UnknownType(_))
        ));
        let mut s = spec();
        s.busy_threshold_percent = 101.0;
        assert_eq!(super::super::write(&s), Err(QueryError::BadThreshold));
    }
}
