//! The usage history the engine plans from: hourly GPUs busy.
//!
//! Produced by `core::ingest` (parsing/resampling) or by the built-in example histories (`core::examples`);
//! consumed by the analysis modules. Gaps have already been resolved by ingestion
//! (either excluded, or filled with 0, as the user chose).

/// Hourly GPUs-busy history. `values[i]` is the average number of GPUs busy during
/// hour `i` (GPU-hours in that hour), `>= 0`, fractions allowed.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize, serde::Deserialize)]
pub struct UsageSeries {
    /// GPUs busy per hour, in time order. Always finite and `>= 0`.
    pub values: Vec<f64>,
    /// When known: the UTC unix time (seconds) at which each hour starts, same length as
    /// `values`, strictly increasing (gaps allowed when the user excluded missing hours).
    pub timestamps: Option<Vec<i64>>,
    /// Offset of the planning time zone from UTC in minutes (e.g. +480 for Beijing),
    /// used to assign hours to local time bands (weekday day / night / weekend). With
    /// daylight saving, the offset before the first of `offset_changes`; hours are aligned
    /// to it.
    pub utc_offset_minutes: i32,
    /// Daylight saving: `(UTC unix seconds, minutes east of UTC)` from that instant on
    /// (see [`crate::core::zone::Zone`]); empty for a fixed offset.
    pub offset_changes: Vec<(i64, i32)>,
}

impl UsageSeries {
    /// A series without timestamps (consecutive hours).
    pub fn from_values(values: Vec<f64>) -> Self {
        Self {
            values,
            timestamps: None,
            utc_offset_minutes: 0,
            offset_changes: Vec::new(),
        }
    }

    /// Local wall-clock seconds (as if UTC) of the UTC instant `utc_s` in the planning zone.
    pub fn local_s(&self, utc_s: i64) -> i64 {
        utc_s
            + i64::from(crate::core::zone::offset_at(
                self.utc_offset_minutes,
                &self.offset_changes,
                utc_s,
            )) * 60
    }

    /// The planning zone of this series.
    pub fn zone(&self) -> crate::core::zone::Zone {
        crate::core::zone::Zone {
            base_minutes: self.utc_offset_minutes,
            changes: self.offset_changes.clone(),
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
