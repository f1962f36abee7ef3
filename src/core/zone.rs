//! The planning time zone: a fixed UTC offset, or a named zone's offsets over time
//! (daylight saving), as a table of changes. The engine holds no time-zone database: the
//! page asks the browser (`Intl`) for a named zone's changes and passes them in.
//!
//! Local time = UTC + the offset in force at that instant. A local time that does not exist
//! (the hour skipped when clocks go forward) is read with the offset before the change; a
//! local time that occurs twice (clocks go back) is read as its first occurrence.

/// A planning time zone.
#[derive(Debug, Clone, PartialEq, Eq, Default, Hash)]
pub struct Zone {
    /// Minutes east of UTC before the first change (the only offset of a fixed zone).
    /// Hours of a series are aligned to this offset (all real zones change by whole hours).
    pub base_minutes: i32,
    /// `(UTC unix seconds, minutes east of UTC)`: the offset in force from that instant on.
    /// Strictly increasing instants.
    pub changes: Vec<(i64, i32)>,
}

/// Largest offset accepted, minutes (±18 h, as ISO 8601 and browsers allow).
pub const MAX_OFFSET_MINUTES: i32 = 18 * 60;

impl Zone {
    /// A zone with one offset for all time.
    pub fn fixed(minutes: i32) -> Self {
        Self {
            base_minutes: minutes,
            changes: Vec::new(),
        }
    }

    /// A zone from a table of changes. Changes out of order, repeated or beyond
    /// ±[`MAX_OFFSET_MINUTES`] are dropped (the table comes from outside the engine).
    pub fn with_changes(base_minutes: i32, changes: Vec<(i64, i32)>) -> Self {
        let mut out: Vec<(i64, i32)> = Vec::with_capacity(changes.len());
        let mut last = base_minutes;
        for (t, m) in changes {
            if m.abs() > MAX_OFFSET_MINUTES || out.last().is_some_and(|&(lt, _)| t <= lt) {
                continue;
            }
            if m != last {
                out.push((t, m));
                last = m;
            }
        }
        Self {
            base_minutes: base_minutes.clamp(-MAX_OFFSET_MINUTES, MAX_OFFSET_MINUTES),
            changes: out,
        }
    }

    /// No daylight saving: one offset.
    pub fn is_fixed(&self) -> bool {
        self.changes.is_empty()
    }

    /// Minutes east of UTC in force at `utc_s` (UTC unix seconds).
    pub fn offset_at(&self, utc_s: i64) -> i32 {
        offset_at(self.base_minutes, &self.changes, utc_s)
    }

    /// Local wall-clock seconds (as if UTC) of the instant `utc_s`.
    pub fn local_s(&self, utc_s: i64) -> i64 {
        utc_s + i64::from(self.offset_at(utc_s)) * 60
    }

    /// The UTC instant (milliseconds) of a local wall-clock time (milliseconds, as if UTC).
    pub fn utc_ms_from_local(&self, local_ms: i64) -> i64 {
        // The first reading of the local time: try the offset before each nearby change.
        let local_s = local_ms.div_euclid(1000);
        let i = self
            .changes
            .partition_point(|&(t, m)| t + i64::from(m) * 60 <= local_s);
        if i == 0 {
            // Before any change (or a fixed zone): the base offset.
            return local_ms - i64::from(self.base_minutes) * 60_000;
        }
        // Candidates: the offset in force before change i-1, and after it.
        let before = if i >= 2 {
            self.changes[i - 2].1
        } else {
            self.base_minutes
        };
        let (t, after) = self.changes[i - 1];
        let with_before = local_ms - i64::from(before) * 60_000;
        if with_before.div_euclid(1000) < t {
            // Still before the change when read with the old offset: the first occurrence
            // (clocks back) or a skipped hour (clocks forward).
            with_before
        } else {
            local_ms - i64::from(after) * 60_000
        }
    }
}

/// The planning zone the user chose (or a link carried).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub enum ZoneChoice {
    /// The timestamps' own offset when they carry one (the team's clock), else the
    /// browser's zone.
    #[default]
    Auto,
    /// A fixed offset, minutes east of UTC.
    Offset(i32),
    /// A named zone with its daylight saving (`America/Los_Angeles`), as the browser knows it.
    Named(String),
}

impl ZoneChoice {
    /// The link's and the picker's value: `auto`, minutes (`480`, `-420`), or the name.
    pub fn key(&self) -> String {
        match self {
            ZoneChoice::Auto => "auto".to_string(),
            ZoneChoice::Offset(m) => m.to_string(),
            ZoneChoice::Named(n) => n.clone(),
        }
    }

    /// Read a key (text from a link: validated, never trusted).
    pub fn from_key(key: &str) -> Option<Self> {
        let k = key.trim();
        if k == "auto" {
            return Some(ZoneChoice::Auto);
        }
        if let Ok(m) = k.parse::<i32>() {
            return (m.abs() <= MAX_OFFSET_MINUTES).then_some(ZoneChoice::Offset(m));
        }
        Self::valid_name(k).then(|| ZoneChoice::Named(k.to_string()))
    }

    /// An IANA-style zone name: `Area/Place[/More]` or `UTC`, letters, digits, `_ + - /`,
    /// at most 64 characters.
    pub fn valid_name(name: &str) -> bool {
        !name.is_empty()
            && name.len() <= 64
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'+' | b'-' | b'/'))
            && name.bytes().next().is_some_and(|b| b.is_ascii_alphabetic())
            && !name.contains("//")
            && !name.ends_with('/')
    }
}

/// `UTC+08:00`, `UTC−05:30` (a true minus sign), `UTC`.
pub fn offset_label(minutes: i32) -> String {
    if minutes == 0 {
        return "UTC".to_string();
    }
    let sign = if minutes < 0 { '\u{2212}' } else { '+' };
    let m = minutes.unsigned_abs();
    format!("UTC{sign}{:02}:{:02}", m / 60, m % 60)
}

/// Minutes east of UTC in force at `utc_s`, given a zone's base and changes.
pub fn offset_at(base_minutes: i32, changes: &[(i64, i32)], utc_s: i64) -> i32 {
    match changes.partition_point(|&(t, _)| t <= utc_s) {
        0 => base_minutes,
        i => changes[i - 1].1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// America/Los_Angeles in 2026: PDT from 2026-03-08 10:00 UTC, PST from 2026-11-01 09:00 UTC.
    fn la() -> Zone {
        Zone::with_changes(-480, vec![(1_772_964_000, -420), (1_793_523_600, -480)])
    }

    #[test]
    fn fixed_zone() {
        let z = Zone::fixed(480);
        assert!(z.is_fixed());
        assert_eq!(z.offset_at(0), 480);
        assert_eq!(z.local_s(0), 8 * 3600);
        assert_eq!(z.utc_ms_from_local(8 * 3_600_000), 0);
    }

    #[test]
    fn offsets_over_the_year() {
        let z = la();
        assert_eq!(z.offset_at(1_772_964_000 - 1), -480);
        assert_eq!(z.offset_at(1_772_964_000), -420);
        assert_eq!(z.offset_at(1_793_523_600 - 1), -420);
        assert_eq!(z.offset_at(1_793_523_600), -480);
    }

    #[test]
    fn local_to_utc_round_trips_and_edges() {
        let z = la();
        // Every hour of 2026 that exists once in local time reads back to itself.
        for h in 0..8760 {
            let utc = 1_767_225_600 + h * 3600; // 2026-01-01T00:00Z
            let local = z.local_s(utc);
            let back = z.utc_ms_from_local(local * 1000) / 1000;
            // The repeated hour (01:00-02:00 on 1 Nov) reads as its first occurrence.
            if back != utc {
                assert_eq!(utc - back, 3600, "hour {h}");
                assert_eq!(z.local_s(back), local);
            }
        }
        // 2026-03-08 02:30 local does not exist: read with PST (-8) = 10:30 UTC.
        let local_0230 = (1_772_928_000 + 2 * 3600 + 1800) * 1000; // 2026-03-08T02:30 as if UTC
        assert_eq!(z.utc_ms_from_local(local_0230), local_0230 + 8 * 3_600_000);
        // 2026-11-01 01:30 local happens twice: the first (PDT, -7) = 08:30 UTC.
        let local_0130 = (1_793_491_200 + 3600 + 1800) * 1000;
        assert_eq!(z.utc_ms_from_local(local_0130), local_0130 + 7 * 3_600_000);
    }

    #[test]
    fn choices_and_labels() {
        for (k, c) in [
            ("auto", ZoneChoice::Auto),
            ("480", ZoneChoice::Offset(480)),
            ("-330", ZoneChoice::Offset(-330)),
            (
                "America/Los_Angeles",
                ZoneChoice::Named("America/Los_Angeles".into()),
            ),
            ("Etc/GMT+5", ZoneChoice::Named("Etc/GMT+5".into())),
            ("UTC", ZoneChoice::Named("UTC".into())),
        ] {
            assert_eq!(ZoneChoice::from_key(k), Some(c.clone()), "{k}");
            assert_eq!(ZoneChoice::from_key(&c.key()), Some(c));
        }
        for bad in [
            "",
            "1200",
            "-1081",
            "<script>",
            "a b",
            "/etc",
            "Asia//X",
            "9/x",
            &"A".repeat(65),
        ] {
            assert_eq!(ZoneChoice::from_key(bad), None, "{bad}");
        }
        assert_eq!(offset_label(480), "UTC+08:00");
        assert_eq!(offset_label(-330), "UTC\u{2212}05:30");
        assert_eq!(offset_label(0), "UTC");
    }

    #[test]
    fn bad_tables_are_cleaned() {
        let z = Zone::with_changes(60, vec![(10, 120), (5, 0), (20, 120), (30, 5000), (40, 60)]);
        assert_eq!(z.changes, vec![(10, 120), (40, 60)]);
    }
}
