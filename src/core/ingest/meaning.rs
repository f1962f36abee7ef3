//! What the value columns (or series) of a table hold: GPU counts, one GPU's utilisation
//! each, or series to sum. Decided from what real exports carry: metric names in headers
//! (`DCGM_FI_DEV_GPU_UTIL`, `nvidia_smi_utilization_gpu_ratio`, `kube_pod_container_resource_requests`),
//! Prometheus label sets as Grafana writes them (`DCGM_FI_DEV_GPU_UTIL{gpu="0", UUID="GPU-…",
//! modelName="NVIDIA A100-SXM4-80GB"}`), percent signs in cells, utilisation words in headers
//! and the legends of the public GPU dashboards (`GPU 0`, `GPU {{gpu}}`). When the headers only
//! name one GPU each (`GPU 0 … GPU 9`) the values decide the more plausible reading and the
//! report asks the user to confirm it (docs/formats.md, "Per-GPU utilisation tables").

use super::number::parse_number;
use super::types::TYPE_LABELS;

/// What the value columns of a table hold (the "column meaning" choice).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
pub enum ColumnMeaning {
    /// Decide from the headers and cells.
    #[default]
    Auto,
    /// GPU counts per column: by GPU type when the headers name types, else the column picker.
    Counts,
    /// One GPU's utilisation per column: GPUs busy = columns at or above the busy threshold.
    Utilisation,
    /// One series per column, summed into one untyped count.
    Sum,
}

/// Why the columns were read as they were.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum MeaningWhy {
    /// A metric named in the headers (at most 40 characters).
    Metric(String),
    /// Cells written with `%`.
    Percent,
    /// A utilisation word in every header (`util`, `利用率`, `%`).
    HeaderWord,
    /// Prometheus label sets naming one GPU each (`UUID`, `gpu`), without a metric name.
    LabelSets,
    /// Headers naming one GPU each (`GPU 0`, `gpu1`), as dashboards' legends write them.
    GpuNames,
    /// Columns of one pool measured several ways (`capacity`, `allocatable`, `reserved`,
    /// `usage`): never summed; the one to plan on is taken, to confirm.
    Measures,
    /// Several value columns under one name (`Value`, `Value`): what they are is lost.
    SameNames,
    /// Nothing says otherwise: GPU counts, as any table.
    Default,
    /// The user chose it.
    Choice,
}

/// What a table's value columns were read as, and why ([`super::ParseReport::meaning`]).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MeaningReport {
    /// [`ColumnMeaning::Counts`], [`ColumnMeaning::Utilisation`] or [`ColumnMeaning::Sum`].
    pub read: ColumnMeaning,
    pub why: MeaningWhy,
    /// Another reading is as plausible: the page says so and asks the user to confirm.
    pub ask: bool,
    /// Utilisation as a ratio 0–1 (compared with the threshold ÷ 100).
    pub ratio: bool,
    /// Value columns (or series) that name one GPU each (label sets with a GPU id, GPU
    /// names, a per-GPU utilisation metric); 0 when none does.
    pub gpu_columns: usize,
    /// Value columns (or series) in all.
    pub columns: usize,
    /// A value column written with `%` (its position among the value columns, a cell).
    pub percent: Option<(usize, String)>,
    /// A value column under a utilisation-like header whose cells all lie within 0–100
    /// (its position among the value columns, the largest value).
    pub util_like: Option<(usize, f64)>,
}

/// Headers of a pool's ceiling (never what is used, never a part of a sum).
const CEILING_WORDS: &[&str] = &[
    "capacity",
    "allocatable",
    "limit",
    "quota",
    "容量",
    "可分配",
    "上限",
    "配额",
];
/// Headers of what must be rented (requested, reserved), then of what was used: the
/// columns of one pool measured several ways are read from the first that matches.
const MEASURE_PREFERENCE: &[&[&str]] = &[
    &["reserved", "request", "allocated", "预留", "请求", "已分配"],
    &["usage", "used", "in use", "busy", "使用"],
];

/// Value columns that measure one pool several ways (a ceiling beside what is used):
/// the position of the column to read, when one is named like a measure to plan on.
pub(crate) fn measure_to_read(headers: &[&str]) -> Option<usize> {
    let lower: Vec<String> = headers.iter().map(|h| h.to_ascii_lowercase()).collect();
    if headers.len() < 2
        || !lower
            .iter()
            .any(|h| CEILING_WORDS.iter().any(|w| h.contains(w)))
    {
        return None;
    }
    MEASURE_PREFERENCE.iter().find_map(|words| {
        lower.iter().position(|h| {
            words.iter().any(|w| h.contains(w)) && !CEILING_WORDS.iter().any(|w| h.contains(w))
        })
    })
}

/// The metric that is not usage named by `header`, as written, if any.
pub(crate) fn not_usage(header: &str) -> Option<String> {
    let lower = header.to_ascii_lowercase();
    NOT_USAGE
        .iter()
        .find(|m| lower.contains(*m))
        .map(|m| written_key(header, m))
}

/// The GPU model a legend writes beside the GPU's number (`#0 NVIDIA GeForce RTX 4090`,
/// `GPU 1 A100`): the header without its number, when that is a GPU type.
fn model_in_name(h: &str) -> Option<String> {
    let digits = |t: &str| !t.is_empty() && t.len() <= 4 && t.bytes().all(|b| b.is_ascii_digit());
    let words: Vec<&str> = h.split_whitespace().collect();
    let mut rest: Vec<&str> = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let l = words[i].to_ascii_lowercase();
        let inner = l.trim_matches(|c| matches!(c, '[' | ']' | '(' | ')'));
        if l == "gpu" && words.get(i + 1).is_some_and(|n| digits(n)) {
            i += 2;
            continue;
        }
        let index = inner.strip_prefix('#').is_some_and(digits)
            || inner
                .strip_prefix("gpu")
                .map(|t| t.trim_start_matches(['-', '_', '#', ':']))
                .is_some_and(digits)
            || (inner.len() < l.len() && digits(inner));
        if !index {
            rest.push(words[i]);
        }
        i += 1;
    }
    let rest = rest.join(" ");
    (rest != h.trim() && super::types::looks_like_gpu_type(&rest)).then_some(rest)
}

/// Metrics of one GPU's utilisation in percent (0–100).
pub(crate) const UTIL_PERCENT: &[&str] = &[
    "DCGM_FI_DEV_GPU_UTIL",
    "nvidia_gpu_duty_cycle",
    "container_accelerator_duty_cycle",
    "nvidia_smi_utilization_gpu",
    "utilization.gpu",
    "gpu_utilization",
    "gpu_gfx_activity",
    "amd_gpu_use_percent",
];
/// Metrics of one GPU's activity as a ratio 0–1.
pub(crate) const UTIL_RATIO: &[&str] = &[
    "DCGM_FI_PROF_GR_ENGINE_ACTIVE",
    "DCGM_FI_PROF_SM_ACTIVE",
    "nvidia_smi_utilization_gpu_ratio",
];
/// Metrics that are not usage: temperatures, memory, power, clocks (lowercase parts).
pub const NOT_USAGE: &[&str] = &[
    "dcgm_fi_dev_gpu_temp",
    "dcgm_fi_dev_memory_temp",
    "dcgm_fi_dev_fb_used",
    "dcgm_fi_dev_fb_free",
    "dcgm_fi_dev_power_usage",
    "dcgm_fi_dev_total_energy_consumption",
    "dcgm_fi_dev_sm_clock",
    "dcgm_fi_dev_mem_clock",
    "dcgm_fi_dev_mem_copy_util",
    "nvidia_smi_temperature_gpu",
    "nvidia_smi_memory_used_bytes",
    "nvidia_smi_power_draw_watts",
    "nvidia_gpu_temperature_celsius",
    "nvidia_gpu_memory_used_bytes",
    "nvidia_gpu_power_usage_milliwatts",
    "gpu_junction_temperature",
    "gpu_power_usage",
    "gpu_used_vram",
];

/// Metrics that count GPUs (requests, allocatable, a `count(…)`).
const COUNT_METRICS: &[&str] = &[
    "kube_pod_container_resource_requests",
    "kube_pod_container_resource_limits",
    "kube_node_status_allocatable",
    "kube_node_status_capacity",
    "kube_pod_resource_request",
    "container_gpu_allocation",
    "node_gpu_count",
    "nvidia_gpu_num_devices",
    "count(",
    "count by",
    "dcgm_fi_dev_count",
];
/// Labels that name one GPU (DCGM, nvidia_gpu_exporter, cAdvisor, AMD).
const GPU_ID_LABELS: &[&str] = &[
    "uuid",
    "gpu",
    "gpu_uuid",
    "device",
    "minor_number",
    "gpu_id",
    "gpu_index",
    "index",
    "card",
    "gpu_i_id",
];
/// Whether a Prometheus label names one GPU (`UUID`, `gpu`, `device`, …).
pub(crate) fn is_gpu_id_label(key: &str) -> bool {
    GPU_ID_LABELS.iter().any(|l| l.eq_ignore_ascii_case(key))
}

/// Labels that name a GPU's model besides the Prometheus reader's ([`TYPE_LABELS`]):
/// nvidia_gpu_exporter's `name`, AMD's `card_model`.
const MORE_MODEL_LABELS: &[&str] = &["name", "card_model", "product_name"];
/// Header words of a utilisation (lowercase).
const UTIL_WORDS: &[&str] = &[
    "util",
    "利用率",
    "使用率",
    "%",
    "percent",
    "duty",
    "occupancy",
];

/// Whether the lowercase header names one of `metrics` (anywhere: `avg(DCGM_FI_…)`).
fn names_any(lower: &str, metrics: &[&str]) -> Option<String> {
    metrics
        .iter()
        .find(|m| lower.contains(&m.to_ascii_lowercase()))
        .map(|m| m.to_string())
}

/// The labels of a header written as a Prometheus label set (`name{k="v", k2="v2"}` or
/// `{k="v"}`; values quoted or not), keys lowercase; `None` when it is not one.
pub(crate) fn label_set(h: &str) -> Option<Vec<(String, String)>> {
    let open = h.find('{')?;
    let close = h.rfind('}')?;
    if close <= open {
        return None;
    }
    let inner = &h[open + 1..close];
    let mut out = Vec::new();
    let mut rest = inner;
    while !rest.trim().is_empty() {
        let eq = rest.find('=')?;
        let key = rest[..eq].trim().trim_start_matches(',').trim();
        let after = rest[eq + 1..].trim_start();
        let after = after.strip_prefix('~').unwrap_or(after);
        let (value, next) = if let Some(q) = after.strip_prefix('"') {
            let end = q.find('"')?;
            (&q[..end], &q[end + 1..])
        } else {
            let end = after.find(',').unwrap_or(after.len());
            (after[..end].trim(), &after[end..])
        };
        if key.is_empty() || !key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            return None;
        }
        out.push((key.to_ascii_lowercase(), value.to_string()));
        rest = next.trim_start().trim_start_matches(',');
        if out.len() > 64 {
            break;
        }
    }
    (!out.is_empty()).then_some(out)
}

/// A label's key as the header writes it (`modelName`), from its lowercase form.
fn written_key(h: &str, lower: &str) -> String {
    h.to_ascii_lowercase()
        .find(lower)
        .and_then(|at| h.get(at..at + lower.len()))
        .unwrap_or(lower)
        .to_string()
}

/// A header that names one GPU as dashboards' legends do: `GPU 0`, `gpu0`, `GPU-1`,
/// `GPU #2`, `node-1 GPU 3`, `GPU 0 (node-1)`, `gpu0_util`, `cuda:0`, `卡 0`, or a GPU UUID.
pub(crate) fn names_one_gpu(h: &str) -> bool {
    let lower = h.to_ascii_lowercase();
    let b = lower.as_bytes();
    // `#0 NVIDIA GeForce RTX 4090` (nvidia_gpu_exporter's `#{{index}} {{name}}`) and
    // `node-1[0]` (AMD's `{{hostname}}[{{gpu_id}}]`).
    let t = lower.trim();
    if let Some(rest) = t.strip_prefix('#') {
        let d = rest.bytes().take_while(u8::is_ascii_digit).count();
        if (1..=4).contains(&d) && rest.as_bytes().get(d).is_none_or(|c| *c == b' ') {
            return true;
        }
    }
    if let Some(rest) = t.strip_suffix(']') {
        if let Some(open) = rest.rfind('[') {
            let inner = &rest[open + 1..];
            if open > 0
                && (1..=4).contains(&inner.len())
                && inner.bytes().all(|c| c.is_ascii_digit())
            {
                return true;
            }
        }
    }
    for word in ["gpu", "cuda", "card", "卡"] {
        let mut from = 0;
        while let Some(p) = lower[from..].find(word) {
            let at = from + p;
            from = at + word.len();
            // Not the end of a longer word (`nogpu` is fine: a prefix is allowed).
            let mut i = at + word.len();
            let mut seps = 0;
            while i < b.len() && matches!(b[i], b' ' | b'_' | b'-' | b'#' | b':' | b'.') && seps < 2
            {
                i += 1;
                seps += 1;
            }
            let digits = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
            if digits == 0 || digits > 4 {
                continue;
            }
            let end = i + digits;
            if end == b.len() || !b[end].is_ascii_alphanumeric() {
                return true;
            }
            // A GPU UUID: `GPU-` then 8 hex digits and `-`.
            if word == "gpu"
                && b.get(at + 3) == Some(&b'-')
                && b.len() >= at + 13
                && b[at + 4..at + 12].iter().all(u8::is_ascii_hexdigit)
                && b[at + 12] == b'-'
            {
                return true;
            }
        }
    }
    false
}

/// What the cells of one value column look like (from the first lines of the file).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct CellFacts {
    pub numbers: usize,
    pub percent: usize,
    pub percent_example: Option<String>,
    pub max: f64,
    pub fractions: bool,
    /// Every value is 0 or 1.
    pub zero_one: bool,
}

impl CellFacts {
    pub fn of<'a>(cells: impl Iterator<Item = &'a str>) -> CellFacts {
        let mut f = CellFacts {
            zero_one: true,
            ..CellFacts::default()
        };
        for c in cells {
            let t = c.trim().trim_matches('"').trim();
            let Ok(v) = parse_number(t) else { continue };
            f.numbers += 1;
            if t.ends_with('%') {
                f.percent += 1;
                f.percent_example.get_or_insert_with(|| super::excerpt(t));
            }
            f.max = f.max.max(v);
            if v.fract() != 0.0 {
                f.fractions = true;
            }
            if v != 0.0 && v != 1.0 {
                f.zero_one = false;
            }
        }
        f
    }

    fn merge(all: &[CellFacts]) -> CellFacts {
        let mut f = CellFacts {
            zero_one: true,
            ..CellFacts::default()
        };
        for c in all {
            f.numbers += c.numbers;
            f.percent += c.percent;
            f.max = f.max.max(c.max);
            f.fractions |= c.fractions;
            f.zero_one &= c.zero_one;
        }
        f
    }
}

/// What one header says.
struct HeaderFacts {
    util: Option<(String, bool)>,
    count: Option<String>,
    one_gpu: bool,
    util_word: bool,
    label_set: bool,
    /// The model label's key (as written) and value.
    model: Option<(String, String)>,
}

fn header_facts(h: &str) -> HeaderFacts {
    let lower = h.to_ascii_lowercase();
    let labels = label_set(h);
    let util = names_any(&lower, UTIL_RATIO)
        .map(|m| (m, true))
        .or_else(|| names_any(&lower, UTIL_PERCENT).map(|m| (m, false)));
    let count = names_any(&lower, COUNT_METRICS);
    // `count(DCGM_FI_DEV_GPU_UTIL > 10)` counts GPUs: a count names no utilisation.
    let util = util.filter(|_| count.is_none());
    let label_gpu = labels
        .as_ref()
        .is_some_and(|l| l.iter().any(|(k, _)| GPU_ID_LABELS.contains(&k.as_str())));
    let model = labels.as_ref().and_then(|l| {
        TYPE_LABELS.iter().chain(MORE_MODEL_LABELS).find_map(|m| {
            l.iter()
                .find(|(k, v)| k.eq_ignore_ascii_case(m) && !v.trim().is_empty())
                .map(|(_, v)| (written_key(h, &m.to_ascii_lowercase()), v.clone()))
        })
    });
    let model = model.or_else(|| {
        (labels.is_none() && names_one_gpu(h))
            .then(|| model_in_name(h))
            .flatten()
            .map(|m| (String::new(), m))
    });
    // The words of the header outside a label set (a label value may say anything).
    let words = lower.split('{').next().unwrap_or("");
    HeaderFacts {
        util,
        count,
        one_gpu: label_gpu || (labels.is_none() && names_one_gpu(h)),
        util_word: UTIL_WORDS.iter().any(|w| words.contains(w)),
        label_set: labels.is_some(),
        model,
    }
}

/// The decision for a table's value columns: what they are read as and the GPU model of
/// each column when every header's label set names one (a mixed fleet by `modelName`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Decision {
    pub report: MeaningReport,
    /// The label that named the models (`modelName`) and each column's model.
    pub models: Option<(String, Vec<String>)>,
}

/// Decide what `headers` (one per value column; empty without a header) hold, given the
/// facts of their cells and the user's choice.
pub(crate) fn decide(headers: &[&str], cells: &[CellFacts], choice: ColumnMeaning) -> Decision {
    let n = headers.len().max(cells.len());
    let facts: Vec<HeaderFacts> = headers.iter().map(|h| header_facts(h)).collect();
    let all = CellFacts::merge(cells);
    let percent = cells
        .iter()
        .enumerate()
        .find(|(_, c)| c.percent > 0 && c.percent * 2 >= c.numbers)
        .map(|(i, c)| (i, c.percent_example.clone().unwrap_or_default()));
    let util_like = facts
        .iter()
        .zip(cells)
        .enumerate()
        .find(|(_, (f, c))| (f.util_word || f.util.is_some()) && c.numbers > 0 && c.max <= 100.0)
        .map(|(i, (_, c))| (i, c.max));
    let util_metric = facts.iter().find_map(|f| f.util.clone());
    let every = |p: &dyn Fn(&HeaderFacts) -> bool| !facts.is_empty() && facts.iter().all(p);
    let gpu_columns = facts
        .iter()
        .filter(|f| f.one_gpu || f.util.is_some())
        .count();
    let within_100 = all.max <= 100.0;
    let ratio_values = all.max <= 1.0 && all.fractions;
    let (read, why, ask, ratio) = match choice {
        ColumnMeaning::Counts | ColumnMeaning::Sum => (choice, MeaningWhy::Choice, false, false),
        ColumnMeaning::Utilisation => {
            let ratio = match &util_metric {
                Some((_, r)) => *r,
                None => ratio_values,
            };
            (choice, MeaningWhy::Choice, false, ratio)
        }
        ColumnMeaning::Auto => {
            if let Some((m, r)) = util_metric.clone().filter(|_| every(&|f| f.util.is_some())) {
                (ColumnMeaning::Utilisation, MeaningWhy::Metric(m), false, r)
            } else if let Some(m) = facts.iter().find_map(|f| f.count.clone()) {
                (ColumnMeaning::Counts, MeaningWhy::Metric(m), false, false)
            } else if let Some((m, r)) = util_metric.clone() {
                // Some headers name a utilisation metric, others not: the more plausible
                // reading, to confirm.
                (ColumnMeaning::Utilisation, MeaningWhy::Metric(m), true, r)
            } else if n >= 2 && percent.is_some() && within_100 {
                (
                    ColumnMeaning::Utilisation,
                    MeaningWhy::Percent,
                    false,
                    false,
                )
            } else if n >= 2 && every(&|f| f.util_word) && within_100 {
                (
                    ColumnMeaning::Utilisation,
                    MeaningWhy::HeaderWord,
                    false,
                    ratio_values,
                )
            } else if measure_to_read(headers).is_some() {
                (ColumnMeaning::Counts, MeaningWhy::Measures, true, false)
            } else if every(&|f| f.one_gpu) && within_100 && all.numbers > 0 {
                let why = if every(&|f| f.label_set) {
                    MeaningWhy::LabelSets
                } else {
                    MeaningWhy::GpuNames
                };
                if all.zero_one {
                    // 0 or 1 per GPU: busy flags, i.e. counts.
                    (ColumnMeaning::Counts, why, true, false)
                } else {
                    (ColumnMeaning::Utilisation, why, true, ratio_values)
                }
            } else if n >= 2 && headers.len() == n && {
                let first = headers[0].trim();
                !first.is_empty() && headers.iter().all(|h| h.trim() == first)
            } {
                (ColumnMeaning::Counts, MeaningWhy::SameNames, true, false)
            } else {
                (ColumnMeaning::Counts, MeaningWhy::Default, false, false)
            }
        }
    };
    let models = (read == ColumnMeaning::Utilisation && !facts.is_empty())
        .then(|| {
            let m = facts
                .iter()
                .map(|f| f.model.as_ref().map(|(_, v)| v.clone()))
                .collect::<Option<Vec<_>>>()?;
            let key = facts[0].model.as_ref()?.0.clone();
            Some((key, m))
        })
        .flatten();
    Decision {
        report: MeaningReport {
            read,
            why,
            ask,
            ratio,
            gpu_columns,
            columns: n,
            percent,
            util_like,
        },
        models,
    }
}

/// The busy threshold in a column's (or series') unit: percent, or a ratio (÷ 100).
pub(crate) fn threshold(percent: f64, ratio: bool) -> f64 {
    if ratio {
        percent / 100.0
    } else {
        percent
    }
}

/// One GPU's utilisation → 1 GPU busy at or above the threshold, else 0: the one rule of
/// the DCGM Prometheus reader and the utilisation tables (the same metric read from
/// Prometheus or from Grafana's CSV gives the same hours).
#[inline(always)]
pub(crate) fn busy(v: f64, threshold: f64) -> f64 {
    f64::from(u8::from(v >= threshold))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn label_sets_as_grafana_writes_them() {
        let h = r#"DCGM_FI_DEV_GPU_UTIL{Hostname="node-1", UUID="GPU-0aa", gpu="0", modelName="NVIDIA A100-SXM4-80GB"}"#;
        let l = label_set(h).unwrap();
        assert_eq!(l[0], ("hostname".into(), "node-1".into()));
        assert_eq!(l[3], ("modelname".into(), "NVIDIA A100-SXM4-80GB".into()));
        let bare = label_set("{gpu=0, instance=10.0.0.1:9400}").unwrap();
        assert_eq!(bare[1], ("instance".into(), "10.0.0.1:9400".into()));
        assert_eq!(label_set("team_a"), None);
        assert_eq!(label_set("{not a label set}"), None);
    }

    #[test]
    fn headers_that_name_one_gpu() {
        for h in [
            "GPU 0",
            "gpu0",
            "GPU-1",
            "GPU #2",
            "node-1 GPU 3",
            "GPU 0 (node-1)",
            "gpu0_util",
            "cuda:0",
            "卡 0",
            "GPU-0aa3e1f2-9c1d-4b7e",
            "#0 NVIDIA GeForce RTX 4090",
            "node-1[3]",
        ] {
            assert!(names_one_gpu(h), "{h}");
        }
        for h in [
            "gpus",
            "gpu_busy",
            "GPUs busy",
            "A100",
            "team_a",
            "total",
            "gpu 12345",
            "#comment",
            "[3]",
        ] {
            assert!(!names_one_gpu(h), "{h}");
        }
    }

    fn facts(rows: &[&[&str]]) -> Vec<CellFacts> {
        let n = rows[0].len();
        (0..n)
            .map(|j| CellFacts::of(rows.iter().map(|r| r[j])))
            .collect()
    }

    #[test]
    fn a_dcgm_metric_in_the_headers_decides_utilisation() {
        let h = [
            r#"DCGM_FI_DEV_GPU_UTIL{gpu="0", modelName="NVIDIA A100-SXM4-80GB"}"#,
            r#"DCGM_FI_DEV_GPU_UTIL{gpu="1", modelName="NVIDIA H100 80GB HBM3"}"#,
        ];
        let d = decide(
            &h,
            &facts(&[&["87", "3"], &["100", "0"]]),
            ColumnMeaning::Auto,
        );
        assert_eq!(d.report.read, ColumnMeaning::Utilisation);
        assert_eq!(
            d.report.why,
            MeaningWhy::Metric("DCGM_FI_DEV_GPU_UTIL".into())
        );
        assert!(!d.report.ask && !d.report.ratio);
        assert_eq!(d.report.gpu_columns, 2);
        assert_eq!(
            d.models,
            Some((
                "modelName".into(),
                vec![
                    "NVIDIA A100-SXM4-80GB".into(),
                    "NVIDIA H100 80GB HBM3".into()
                ]
            ))
        );
        let r = decide(
            &["DCGM_FI_PROF_GR_ENGINE_ACTIVE{gpu=\"0\"}"],
            &facts(&[&["0.5"]]),
            ColumnMeaning::Auto,
        );
        assert!(r.report.ratio);
    }

    #[test]
    fn gpu_names_ask_and_take_the_plausible_reading() {
        let h = ["GPU 0", "GPU 1"];
        let util = decide(
            &h,
            &facts(&[&["37", "0"], &["88", "12.5"]]),
            ColumnMeaning::Auto,
        );
        assert_eq!(util.report.read, ColumnMeaning::Utilisation);
        assert!(util.report.ask);
        assert_eq!(util.report.why, MeaningWhy::GpuNames);
        let flags = decide(&h, &facts(&[&["1", "0"], &["1", "1"]]), ColumnMeaning::Auto);
        assert_eq!(flags.report.read, ColumnMeaning::Counts);
        assert!(flags.report.ask);
        let big = decide(&h, &facts(&[&["370", "0"]]), ColumnMeaning::Auto);
        assert_eq!(big.report.read, ColumnMeaning::Counts);
        assert!(!big.report.ask);
        let chosen = decide(&h, &facts(&[&["37", "0"]]), ColumnMeaning::Counts);
        assert_eq!(chosen.report.why, MeaningWhy::Choice);
        assert!(!chosen.report.ask);
    }

    #[test]
    fn legends_carry_the_model_beside_the_number() {
        assert_eq!(
            model_in_name("#0 NVIDIA GeForce RTX 4090").as_deref(),
            Some("NVIDIA GeForce RTX 4090")
        );
        assert_eq!(model_in_name("GPU 1 A100").as_deref(), Some("A100"));
        assert_eq!(model_in_name("GPU 1"), None);
        assert_eq!(model_in_name("A100"), None);
    }

    #[test]
    fn measures_of_one_pool_are_not_summed() {
        let h = ["capacity", "allocatable", "reserved", "usage", "util"];
        assert_eq!(measure_to_read(&h), Some(2));
        assert_eq!(measure_to_read(&["capacity", "usage"]), Some(1));
        assert_eq!(measure_to_read(&["team_a", "team_b"]), None);
        assert_eq!(measure_to_read(&["reserved", "usage"]), None);
        let d = decide(
            &h,
            &facts(&[&["16", "16", "8", "1", "0.85"]]),
            ColumnMeaning::Auto,
        );
        assert_eq!((d.report.why, d.report.ask), (MeaningWhy::Measures, true));
    }

    #[test]
    fn teams_and_types_stay_counts() {
        for h in [["team_a", "team_b"], ["A100", "H100"], ["gpus", "total"]] {
            let d = decide(
                &h,
                &facts(&[&["3", "4.5"], &["5", "2"]]),
                ColumnMeaning::Auto,
            );
            assert_eq!(d.report.read, ColumnMeaning::Counts, "{h:?}");
            assert!(!d.report.ask);
            assert_eq!(d.report.why, MeaningWhy::Default);
        }
        let busy = decide(
            &["count(DCGM_FI_DEV_GPU_UTIL > 10) staging"],
            &facts(&[&["4"]]),
            ColumnMeaning::Auto,
        );
        assert_eq!(busy.report.read, ColumnMeaning::Counts);
        let k8s = decide(
            &[r#"sum(kube_pod_container_resource_requests{resource="nvidia_com_gpu"})"#],
            &facts(&[&["12"]]),
            ColumnMeaning::Auto,
        );
        assert!(matches!(k8s.report.why, MeaningWhy::Metric(_)));
        assert_eq!(k8s.report.read, ColumnMeaning::Counts);
    }

    #[test]
    fn percent_cells_decide_utilisation_from_two_columns() {
        let d = decide(
            &["a", "b"],
            &facts(&[&["45%", "3 %"], &["100%", "0%"]]),
            ColumnMeaning::Auto,
        );
        assert_eq!(d.report.read, ColumnMeaning::Utilisation);
        assert_eq!(d.report.why, MeaningWhy::Percent);
        let one = decide(&["gpus"], &facts(&[&["45%"], &["5%"]]), ColumnMeaning::Auto);
        assert_eq!(one.report.read, ColumnMeaning::Counts);
        assert_eq!(one.report.percent, Some((0, "45%".into())));
    }
}
