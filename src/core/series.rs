//! The usage history the engine plans from: hourly GPUs busy.
//!
//! Produced by `core::ingest` (parsing/resampling) or by the built-in samples;
//! consumed by the analysis modules. Gaps have already been resolved by ingestion
//! (either excluded, or filled with 0, as the user chose).

/// Hourly GPUs-busy history. `values[i]` is the average number of GPUs busy during
/// hour `i` (GPU-hours in that hour), `>= 0`, fractions allowed.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct UsageSeries {
    /// GPUs busy per hour, in time order. Always finite and `>= 0`.
    pub values: Vec<f64>,
    /// When known: the UTC unix time (seconds) at which each hour starts, same length as
    /// `values`, strictly increasing (gaps allowed when the user excluded missing hours).
    pub timestamps: Option<Vec<i64>>,
    /// Offset of the planning time zone from UTC in minutes (e.g. +480 for Beijing),
    /// used to assign hours to local time bands (weekday day / night / weekend).
    pub utc_offset_minutes: i32,
}

impl UsageSeries {
    /// A series without timestamps (consecutive hours).
    pub fn from_values(values: Vec<f64>) -> Self {
        Self {
            values,
            timestamps: None,
            utc_offset_minutes: 0,
        }
    }

    /// T: number of hours in the series.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
}
