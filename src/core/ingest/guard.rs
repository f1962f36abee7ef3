//! The plausibility guard: before a plan is shown, check what the file can hold, for every
//! reader. Each finding names the column (or series) and the figure; the page shows them in
//! the report and beside the headline (docs/formats.md, "The plausibility guard").

use super::meaning::ColumnMeaning;
use super::{ColumnUse, Format, IngestError, NotUsage, ParseResult, Parsed, PromReading};

/// Neighbouring hours this many times apart (both at least one GPU) are a jump of orders
/// of magnitude: a unit or a column misread, rarely a real change.
pub const JUMP_FACTOR: f64 = 100.0;

/// Something the file cannot hold as it was read.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Warning {
    /// More GPUs busy in an hour than the file has per-GPU columns or series.
    MoreThanGpus {
        /// The most GPUs busy in an hour, and when (UTC unix seconds; `None`: a row).
        busy: f64,
        at: Option<i64>,
        /// Per-GPU columns or series in the file.
        gpus: usize,
        /// The columns are series of a Prometheus answer (not table columns).
        series: bool,
    },
    /// Cells written with `%` read as GPU counts: the column's name and a cell.
    PercentAsCounts { column: String, example: String },
    /// A GPU-count column under a utilisation-like header whose values all lie within
    /// 0–100: the column and its largest value.
    UtilisationAsCounts { column: String, max: f64 },
    /// A jump of orders of magnitude between neighbouring hours: the hour (UTC unix
    /// seconds; `None`: the row's position `index`), the values before and after.
    Jump {
        at: Option<i64>,
        index: usize,
        from: f64,
        to: f64,
    },
}

/// The largest hourly value and where.
fn peak(p: &Parsed) -> Option<(usize, f64)> {
    p.series
        .values
        .iter()
        .copied()
        .enumerate()
        .fold(None, |best, (i, v)| match best {
            Some((_, b)) if b >= v => best,
            _ if v.is_finite() => Some((i, v)),
            _ => best,
        })
}

fn hour_at(p: &Parsed, i: usize) -> Option<i64> {
    let ts = p.series.timestamps.as_ref()?;
    ts.get(i).copied()
}

/// The end of every reader: a Prometheus metric that is not usage (read by its name) is
/// refused; otherwise the guard's findings are set on the report.
pub(crate) fn finish(out: ParseResult) -> ParseResult {
    let mut p = out?;
    if let Some(pr) = p.report.prometheus.as_ref().filter(|pr| pr.by_name) {
        if let Some(m) = super::meaning::not_usage(&pr.metric) {
            return Err(IngestError::NotUsage(NotUsage::Metric(m)));
        }
    }
    p.report.warnings = check(&p);
    Ok(p)
}

/// The guard's findings for a reading (in the order the page lists them).
pub fn check(p: &Parsed) -> Vec<Warning> {
    let r = &p.report;
    let mut out = Vec::new();
    let name = |k: usize| {
        r.columns
            .get(k)
            .map(|c| {
                if c.name.is_empty() {
                    format!("#{}", c.field + 1)
                } else {
                    super::excerpt(&c.name)
                }
            })
            .unwrap_or_default()
    };
    // Per-GPU columns or series: no more GPUs can be busy than there are.
    let per_gpu = match (&r.meaning, &r.prometheus) {
        (Some(m), _) if m.read != ColumnMeaning::Utilisation && m.gpu_columns == m.columns => {
            Some((m.gpu_columns, false))
        }
        (_, Some(pr)) if pr.reading == PromReading::Values && pr.per_gpu_series == pr.series => {
            Some((pr.series, true))
        }
        _ => None,
    };
    if let (Some((gpus, series)), Some((i, busy))) = (per_gpu.filter(|g| g.0 > 0), peak(p)) {
        if busy > gpus as f64 + 1e-9 {
            out.push(Warning::MoreThanGpus {
                busy,
                at: hour_at(p, i),
                gpus,
                series,
            });
        }
    }
    // Only the columns read count (one picked, or all summed).
    let read = |k: usize| match r.used {
        ColumnUse::One(i) => i == k,
        ColumnUse::Sum => true,
    };
    if let Some(m) = r
        .meaning
        .as_ref()
        .filter(|m| m.read != ColumnMeaning::Utilisation)
    {
        if let Some((k, example)) = m.percent.as_ref().filter(|(k, _)| read(*k)) {
            out.push(Warning::PercentAsCounts {
                column: name(*k),
                example: example.clone(),
            });
        }
        if let Some((k, max)) = m.util_like.filter(|(k, _)| read(*k)) {
            out.push(Warning::UtilisationAsCounts {
                column: name(k),
                max,
            });
        }
    }
    // A jump of orders of magnitude between neighbouring hours (the first one).
    if r.format != Format::Values || p.series.values.len() > 1 {
        let v = &p.series.values;
        if let Some(i) = (1..v.len()).find(|&i| {
            let (a, b) = (v[i - 1], v[i]);
            a.min(b) >= 1.0 && a.max(b) >= JUMP_FACTOR * a.min(b)
        }) {
            out.push(Warning::Jump {
                at: hour_at(p, i),
                index: i,
                from: v[i - 1],
                to: v[i],
            });
        }
    }
    out
}
