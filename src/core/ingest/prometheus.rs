//! Prometheus HTTP API responses (`/api/v1/query_range` matrix, `/api/v1/query` vector).

use super::json::{self, JsonValue};
use super::number::{parse_number, MAX_VALUE};
use super::resample::{hourly, hourly_typed, sort_and_collapse, Sample};
use super::timestamp::{MAX_MS, MIN_MS};
use super::types::{positions, typed_series, TypeSource, TypeTable, TYPE_LABELS};
use super::{
    ColumnUse, Delimiter, Format, IngestError, ParseOptions, ParseReport, ParseResult, Parsed,
    RejectReason, TimestampStyle, ValueColumn, MAX_SERIES,
};
use crate::core::series::UsageSeries;

/// Maps increasing byte offsets to 1-based line numbers in one pass.
struct Lines<'a> {
    b: &'a [u8],
    pos: usize,
    line: usize,
}

impl Lines<'_> {
    fn at(&mut self, at: usize) -> usize {
        let at = at.min(self.b.len());
        if at < self.pos {
            self.pos = 0;
            self.line = 1;
        }
        self.line += self.b[self.pos..at].iter().filter(|&&c| c == b'\n').count();
        self.pos = at;
        self.line
    }
}

fn label(metric: Option<&JsonValue>) -> String {
    let Some(JsonValue::Obj(kv)) = metric else {
        return String::new();
    };
    let name = kv
        .iter()
        .find(|(k, _)| k == "__name__")
        .and_then(|(_, v)| v.as_str())
        .unwrap_or("");
    let labels: Vec<String> = kv
        .iter()
        .filter(|(k, _)| k != "__name__")
        .map(|(k, v)| format!("{k}=\"{}\"", v.as_str().unwrap_or("")))
        .collect();
    let s = if labels.is_empty() {
        name.to_string()
    } else {
        format!("{name}{{{}}}", labels.join(","))
    };
    s.chars().take(200).collect()
}

pub(crate) fn parse_json(text: &str, opts: &ParseOptions) -> ParseResult {
    let mut lines = Lines {
        b: text.as_bytes(),
        pos: 0,
        line: 1,
    };
    let root = json::parse(text).map_err(|e| IngestError::InvalidJson {
        line: lines.at(e.at),
    })?;
    if root.get("status").and_then(JsonValue::as_str) == Some("error") {
        let msg = root
            .get("error")
            .and_then(JsonValue::as_str)
            .or_else(|| root.get("errorType").and_then(JsonValue::as_str))
            .unwrap_or("");
        return Err(IngestError::PrometheusError {
            message: msg.chars().take(500).collect(),
        });
    }
    let data = root.get("data").unwrap_or(&root);
    let Some(JsonValue::Arr(result)) = data.get("result") else {
        return Err(IngestError::NotPrometheus);
    };
    let mut report = ParseReport::new(Format::PrometheusJson, opts);
    report.delimiter = Delimiter::None;
    report.timestamp_style = Some(TimestampStyle::EpochSeconds);
    report.lines = text.lines().count();
    let series: Vec<&JsonValue> = result.iter().map(|(_, s)| s).take(MAX_SERIES).collect();
    report.columns = series
        .iter()
        .enumerate()
        .map(|(i, s)| ValueColumn {
            field: i,
            name: label(s.get("metric")),
        })
        .collect();
    report.used = opts.column.for_series(report.columns.len().max(1))?;
    let mut samples: Vec<Sample> = Vec::new();
    let mut sorted = true;
    let mut last_key = (i64::MIN, 0u32);
    let mut last_per: Vec<i64> = vec![i64::MIN; series.len()];
    for (i, s) in series.iter().enumerate() {
        let pairs: Vec<(usize, &JsonValue)> = match (s.get("values"), s.get("value")) {
            (Some(JsonValue::Arr(v)), _) => v.iter().map(|(at, p)| (*at, p)).collect(),
            (None, Some(v @ JsonValue::Arr(_))) => vec![(0, v)],
            _ => continue,
        };
        for (at, pair) in pairs {
            let (ts, val) = match pair {
                JsonValue::Arr(p) if p.len() == 2 => (&p[0].1, &p[1].1),
                _ => {
                    let line = lines.at(at);
                    report.reject(line, RejectReason::BadSample, &excerpt_at(text, at));
                    continue;
                }
            };
            let ms = match ts {
                JsonValue::Num(t) => (t * 1000.0).floor(),
                JsonValue::Str(t) => super::number::parse_f64(t.trim())
                    .map(|t| (t * 1000.0).floor())
                    .unwrap_or(f64::NAN),
                _ => f64::NAN,
            };
            let v = match val {
                JsonValue::Str(v) => parse_number(v).map_err(|e| match e {
                    super::number::NumError::NotFinite => RejectReason::NotFinite,
                    super::number::NumError::Empty => RejectReason::MissingValue,
                    super::number::NumError::NotANumber => RejectReason::NotANumber,
                }),
                JsonValue::Num(v) => Ok(*v),
                _ => Err(RejectReason::BadSample),
            };
            let reason = if !ms.is_finite() {
                Some(RejectReason::BadTimestamp)
            } else if !(MIN_MS as f64..MAX_MS as f64).contains(&ms) {
                Some(RejectReason::TimestampOutOfRange)
            } else {
                match v {
                    Err(r) => Some(r),
                    Ok(v) if v < 0.0 => Some(RejectReason::Negative),
                    Ok(v) if v > MAX_VALUE => Some(RejectReason::TooLarge),
                    Ok(_) => None,
                }
            };
            if let Some(r) = reason {
                let line = lines.at(at);
                report.reject(line, r, &excerpt_at(text, at));
                continue;
            }
            let (ms, v) = (ms as i64, v.unwrap_or(0.0));
            report.rows_read += 1;
            if let ColumnUse::One(k) = report.used {
                if k != i {
                    continue;
                }
            }
            let key = (ms, i as u32);
            if key < last_key {
                sorted = false;
            }
            last_key = key;
            if ms < last_per[i] {
                report.unsorted = true;
            }
            last_per[i] = ms;
            samples.push(Sample {
                ms,
                col: i as u32,
                v,
            });
        }
    }
    if samples.is_empty() {
        return Err(IngestError::NoUsableRows(Box::new(report)));
    }
    // GPU types: a label every series carries (`modelName` of the DCGM exporter, …).
    let type_label = TYPE_LABELS.iter().copied().find(|&l| {
        series
            .iter()
            .all(|s| metric_label(s, l).is_some_and(|v| !v.trim().is_empty()))
    });
    if let Some(label) = type_label {
        report.type_source = Some(TypeSource::Label(label.to_string()));
        let mut table = TypeTable::default();
        let sub_type: Vec<u16> = series
            .iter()
            .map(|s| {
                table
                    .intern(metric_label(s, label).unwrap_or(""))
                    .unwrap_or(0)
            })
            .collect();
        let mut present = vec![false; table.len()];
        for x in &samples {
            present[usize::from(sub_type[x.col as usize])] = true;
        }
        match table.select(&present) {
            Ok(order) => {
                let pos = positions(&order, table.len());
                let col_type: Vec<u8> = sub_type.iter().map(|&t| pos[usize::from(t)]).collect();
                let dups = sort_and_collapse(&mut samples, sorted);
                let off = opts.utc_offset_minutes;
                let h = hourly_typed(&samples[..], dups, &col_type, order.len(), off, opts.gaps)?;
                h.total.fill_report(&mut report);
                let zone = opts.zone();
                let types = typed_series(&table, &order, h.types, Some(&h.total.starts), &zone);
                return Ok(Parsed {
                    series: UsageSeries {
                        values: h.total.values,
                        timestamps: Some(h.total.starts),
                        utc_offset_minutes: off,
                        offset_changes: zone.changes,
                    },
                    report,
                    types,
                });
            }
            Err(too_many) => report.too_many_types = Some(too_many),
        }
    }
    let h = hourly(
        &mut samples,
        sorted,
        series.len(),
        opts.utc_offset_minutes,
        opts.gaps,
    )?;
    h.fill_report(&mut report);
    Ok(Parsed {
        series: UsageSeries {
            values: h.values,
            timestamps: Some(h.starts),
            utc_offset_minutes: opts.utc_offset_minutes,
            offset_changes: opts.zone().changes,
        },
        report,
        types: Vec::new(),
    })
}

/// The value of label `name` of a result's `metric`.
fn metric_label<'a>(s: &'a JsonValue, name: &str) -> Option<&'a str> {
    match s.get("metric") {
        Some(JsonValue::Obj(kv)) => kv.iter().find(|(k, _)| k == name)?.1.as_str(),
        _ => None,
    }
}

/// The JSON text at a byte offset (up to the end of its array element), char-safe.
fn excerpt_at(text: &str, at: usize) -> String {
    let mut a = at.min(text.len());
    while !text.is_char_boundary(a) {
        a -= 1;
    }
    let rest = &text[a..];
    let end = rest.find(']').map_or(rest.len(), |i| i + 1);
    super::excerpt(&rest[..end])
}
