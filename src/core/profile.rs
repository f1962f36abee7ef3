//! Everything that depends only on the usage history, computed once.
//!
//! [`profile`] turns a [`UsageSeries`] plus the history settings (lookback, day band)
//! into a [`HistoryProfile`]: per-level occupancy O(k), prefix/suffix sums of it, the
//! sorted usage distribution (overall and per time band), the 3-day and 30-day windows
//! of the recent-drop guard and one level profile per calendar month. Building it is
//! O(T log T); every price-dependent function on it is O(peak) (or O(months × peak)),
//! so the page can recompute on every keystroke even for a year of data.
//!
//! Without a history the page uses sliders; [`HistoryProfile::from_sliders`] builds the
//! equivalent *on/off* profile: G GPUs all busy for h hours of an H-hour month and idle
//! otherwise (see `docs/formulas.md` § "Without a history").

use super::error::{non_negative, Field, InputError, Problem};
use super::series::UsageSeries;
use crate::core::calendar::{civil_from_days, weekday};

/// Largest number of GPUs busy in one hour the planner accepts (history or slider).
pub const MAX_GPUS: f64 = 100_000.0;
/// Longest lookback in days (10 years).
pub const MAX_LOOKBACK_DAYS: u32 = 3650;
/// Days of the short window of the recent-drop guard.
pub const GUARD_RECENT_DAYS: u32 = 3;
/// Days of the long window of the recent-drop guard.
pub const GUARD_LONG_DAYS: u32 = 30;
/// Hours per block when a history without timestamps is cut into "months" for review.
pub const UNTIMED_MONTH_HOURS: usize = 730;

/// How much of the history the sizing looks at: the last `Days(n)` days or `All`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lookback {
    Days(u32),
    All,
}

/// The lookbacks the page offers.
pub const LOOKBACK_CHOICES: [Lookback; 5] = [
    Lookback::Days(7),
    Lookback::Days(30),
    Lookback::Days(60),
    Lookback::Days(90),
    Lookback::All,
];

impl Default for Lookback {
    fn default() -> Self {
        Lookback::Days(30)
    }
}

/// History settings: everything the profile depends on besides the series itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ProfileSettings {
    /// Lookback window for sizing (default 30 days).
    pub lookback: Lookback,
    /// Local hour (0–23) at which the weekday *day* band starts (default 8).
    pub day_start_hour: u32,
    /// Local hour (1–24) at which the weekday *day* band ends, exclusive (default 20).
    pub day_end_hour: u32,
}

impl Default for ProfileSettings {
    fn default() -> Self {
        Self {
            lookback: Lookback::Days(30),
            day_start_hour: 8,
            day_end_hour: 20,
        }
    }
}

impl ProfileSettings {
    /// Validate: lookback 1..=3650 days, 0 <= start < end <= 24.
    pub fn validate(&self) -> Result<(), InputError> {
        if let Lookback::Days(d) = self.lookback {
            if d == 0 {
                return Err(InputError::new(
                    Field::UsageHistory,
                    Problem::TooSmall { min: 1.0 },
                ));
            }
            if d > MAX_LOOKBACK_DAYS {
                return Err(InputError::new(
                    Field::UsageHistory,
                    Problem::TooLarge {
                        max: MAX_LOOKBACK_DAYS as f64,
                    },
                ));
            }
        }
        if self.day_end_hour > 24 {
            return Err(InputError::new(
                Field::BandHours,
                Problem::TooLarge { max: 24.0 },
            ));
        }
        if self.day_start_hour >= self.day_end_hour {
            return Err(InputError::new(
                Field::BandHours,
                Problem::Other("the day band must start before it ends".into()),
            ));
        }
        Ok(())
    }
}

/// Load per integer level: O(k) and its prefix and suffix sums, for one stretch of history.
#[derive(Debug, Clone, PartialEq)]
pub struct LevelProfile {
    hours: f64,
    total: f64,
    peak: f64,
    occupancy: Vec<f64>,
    covered: Vec<f64>,
    excess: Vec<f64>,
}

impl LevelProfile {
    /// Build from hourly values (each finite, `0 <= u <= MAX_GPUS`; checked by the caller).
    /// O(T + peak): each hour adds 1 to levels 1..=floor(u) (difference array of integer
    /// counts, exact) and its fraction to level floor(u)+1.
    pub fn from_values(values: &[f64]) -> Self {
        let peak = values.iter().copied().fold(0.0_f64, f64::max);
        let levels = peak.ceil() as usize;
        let mut full_diff = vec![0_i64; levels + 2];
        let mut frac = vec![0.0_f64; levels + 2];
        let mut total = 0.0;
        for &u in values {
            total += u;
            let f = u.floor() as usize;
            full_diff[1] += 1;
            full_diff[f + 1] -= 1;
            let rest = u - f as f64;
            if rest > 0.0 {
                frac[f + 1] += rest;
            }
        }
        let mut occupancy = Vec::with_capacity(levels);
        let mut count = 0_i64;
        for k in 1..=levels {
            count += full_diff[k];
            occupancy.push(count as f64 + frac[k]);
        }
        Self::from_occupancy(values.len() as f64, total, peak, occupancy)
    }

    /// The on/off profile of the sliders: `gpus` GPUs all busy `busy_hours` out of `period_hours`.
    pub fn flat(gpus: u32, busy_hours: f64, period_hours: f64) -> Self {
        let occupancy = if busy_hours > 0.0 {
            vec![busy_hours; gpus as usize]
        } else {
            Vec::new()
        };
        let peak = if occupancy.is_empty() {
            0.0
        } else {
            gpus as f64
        };
        Self::from_occupancy(period_hours, gpus as f64 * busy_hours, peak, occupancy)
    }

    fn from_occupancy(hours: f64, total: f64, peak: f64, occupancy: Vec<f64>) -> Self {
        let k = occupancy.len();
        let mut covered = vec![0.0; k + 1];
        for i in 0..k {
            covered[i + 1] = covered[i] + occupancy[i];
        }
        let mut excess = vec![0.0; k + 1];
        for i in (0..k).rev() {
            excess[i] = excess[i + 1] + occupancy[i];
        }
        Self {
            hours,
            total,
            peak,
            occupancy,
            covered,
            excess,
        }
    }

    /// T: hours of history in this stretch.
    pub fn hours(&self) -> f64 {
        self.hours
    }
    /// Σ u_t: GPU-hours used in this stretch.
    pub fn total_gpu_hours(&self) -> f64 {
        self.total
    }
    /// max u_t: peak GPUs busy (fractional possible).
    pub fn peak(&self) -> f64 {
        self.peak
    }
    /// K = ceil(peak): number of integer levels.
    pub fn levels(&self) -> u32 {
        self.occupancy.len() as u32
    }
    /// Mean GPUs busy Σu/T (0 for an empty stretch).
    pub fn mean(&self) -> f64 {
        if self.hours > 0.0 {
            self.total / self.hours
        } else {
            0.0
        }
    }
    /// O(k) for k = 1..=K (index k−1): busy hours of the k-th GPU over the stretch.
    pub fn occupancy(&self) -> &[f64] {
        &self.occupancy
    }
    /// Σ_t min(u_t, N) = Σ_{k≤N} O(k): GPU-hours N committed GPUs cover.
    pub fn covered(&self, n: u32) -> f64 {
        let n = (n as usize).min(self.occupancy.len());
        self.covered[n]
    }
    /// Σ_t max(0, u_t − N) = Σ_{k>N} O(k): GPU-hours above N (bought on demand).
    pub fn excess(&self, n: u32) -> f64 {
        let n = (n as usize).min(self.occupancy.len());
        self.excess[n]
    }
}

/// A weighted, sorted distribution of hourly usage (for quantiles and band averages).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Distribution {
    /// (value, hours) sorted by value, equal values merged, hours > 0.
    points: Vec<(f64, f64)>,
    weight: f64,
    sum: f64,
}

impl Distribution {
    /// From unweighted hourly values.
    pub fn from_values(values: &[f64]) -> Self {
        let mut v: Vec<f64> = values.to_vec();
        v.sort_by(|a, b| a.total_cmp(b));
        Self::from_sorted_weighted(v.into_iter().map(|x| (x, 1.0)))
    }

    fn from_sorted_weighted(it: impl Iterator<Item = (f64, f64)>) -> Self {
        let mut points: Vec<(f64, f64)> = Vec::new();
        let (mut weight, mut sum) = (0.0, 0.0);
        for (x, w) in it {
            if w <= 0.0 {
                continue;
            }
            weight += w;
            sum += x * w;
            match points.last_mut() {
                Some(last) if last.0 == x => last.1 += w,
                _ => points.push((x, w)),
            }
        }
        Self {
            points,
            weight,
            sum,
        }
    }

    /// (value, hours) sorted by value, equal values merged.
    pub fn points(&self) -> &[(f64, f64)] {
        &self.points
    }

    /// Hours in the distribution.
    pub fn hours(&self) -> f64 {
        self.weight
    }

    /// Mean GPUs busy; `None` when empty.
    pub fn mean(&self) -> Option<f64> {
        (self.weight > 0.0).then(|| self.sum / self.weight)
    }

    /// Nearest-rank q-quantile: the smallest observed value v such that at least a
    /// fraction q of the hours have usage ≤ v. q = 0 gives the minimum. `None` when empty.
    pub fn quantile(&self, q: f64) -> Option<f64> {
        let first = self.points.first()?;
        let target = q * self.weight * (1.0 - 1e-12) - 1e-9;
        let mut cum = 0.0;
        for &(x, w) in &self.points {
            cum += w;
            if cum >= target {
                return Some(x);
            }
        }
        Some(self.points.last().map_or(first.0, |p| p.0))
    }
}

/// Time bands of the waterline rule (local time).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Band {
    /// Monday–Friday, day_start_hour ≤ hour < day_end_hour.
    WeekdayDay,
    /// Monday–Friday, other hours.
    WeekdayNight,
    /// Saturday and Sunday, all day.
    Weekend,
}

pub const BANDS: [Band; 3] = [Band::WeekdayDay, Band::WeekdayNight, Band::Weekend];

impl Band {
    pub fn key(self) -> &'static str {
        match self {
            Band::WeekdayDay => "weekday-day",
            Band::WeekdayNight => "weekday-night",
            Band::Weekend => "weekend",
        }
    }
}

/// One calendar month (or 730-hour block without timestamps) of the whole history.
#[derive(Debug, Clone, PartialEq)]
pub struct MonthProfile {
    /// "2025-03" (local calendar month) or "M1", "M2"… for histories without timestamps.
    pub label: String,
    pub levels: LevelProfile,
}

/// Where the profile came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProfileSource {
    History,
    /// Synthesized from the sliders (GPUs, hours used per GPU per month).
    Sliders,
}

/// One day of the lookback window: its day number (local, or the 24-hour block without
/// timestamps) and its hourly values (§ 22's trend).
pub type DayHours = (i64, Vec<f64>);

/// Everything history-dependent; build once with [`profile`], reuse for every price change.
#[derive(Debug, Clone, PartialEq)]
pub struct HistoryProfile {
    pub source: ProfileSource,
    pub settings: ProfileSettings,
    /// Hours in the whole series.
    pub series_hours: usize,
    /// True when the lookback asks for more days than the history holds (all of it is used).
    pub lookback_exceeds_history: bool,
    /// Levels of the lookback window (what sizing uses).
    pub window: LevelProfile,
    /// Usage distribution of the lookback window.
    pub distribution: Distribution,
    /// Per band (order of [`BANDS`]) distributions of the window; `None` without timestamps.
    pub bands: Option<[Distribution; 3]>,
    /// Recent-drop guard windows (last 3 days, last 30 days of the whole series); `None` for sliders.
    pub guard: Option<(LevelProfile, LevelProfile)>,
    /// Per calendar month of the whole series (chronological); empty for sliders.
    pub months: Vec<MonthProfile>,
    /// The lookback window's days (local day number, or 24-hour block without timestamps)
    /// and their hourly values, for § 22's trend; empty for sliders.
    pub days: Vec<DayHours>,
}

/// Validate a series: non-empty, finite, 0 ≤ u ≤ MAX_GPUS, timestamps matching and increasing.
pub fn validate_series(series: &UsageSeries) -> Result<(), InputError> {
    if series.values.is_empty() {
        return Err(InputError::new(Field::UsageHistory, Problem::Empty));
    }
    for &u in &series.values {
        non_negative(Field::UsageHistory, u, MAX_GPUS)?;
    }
    if let Some(ts) = &series.timestamps {
        if ts.len() != series.values.len() {
            return Err(InputError::new(
                Field::UsageHistory,
                Problem::Other("timestamps and values differ in length".into()),
            ));
        }
        if ts.windows(2).any(|w| w[1] <= w[0]) {
            return Err(InputError::new(
                Field::UsageHistory,
                Problem::Other("timestamps must be strictly increasing".into()),
            ));
        }
    }
    Ok(())
}

/// The first hour (index) of the lookback window `profile` sizes on.
pub fn lookback_start(series: &UsageSeries, lookback: Lookback) -> usize {
    match lookback {
        Lookback::All => 0,
        Lookback::Days(d) => window_start(series, d),
    }
}

/// Index of the first hour of the last `days` days (by timestamps when present).
pub(crate) fn window_start(series: &UsageSeries, days: u32) -> usize {
    let n = series.values.len();
    match &series.timestamps {
        Some(ts) => {
            let last = ts[n - 1];
            let span = days as i64 * 86_400;
            // keep hours with last − ts < span
            ts.partition_point(|&t| last - t >= span)
        }
        None => n.saturating_sub(days as usize * 24),
    }
}

/// Local (days since epoch, seconds into the day) for a UTC timestamp, in the series'
/// planning zone (daylight saving included).
fn local_day_and_second(series: &UsageSeries, ts: i64) -> (i64, i64) {
    let local = series.local_s(ts);
    (local.div_euclid(86_400), local.rem_euclid(86_400))
}

/// Civil (year, month) of a day number.
fn year_month(days: i64) -> (i64, u32) {
    let (y, m, _) = civil_from_days(days);
    (y, m as u32)
}

/// Band of one hour, given local day and second of day.
fn band_of(days: i64, second: i64, s: &ProfileSettings) -> Band {
    if weekday(days) >= 5 {
        return Band::Weekend;
    }
    let hour = (second / 3600) as u32;
    if hour >= s.day_start_hour && hour < s.day_end_hour {
        Band::WeekdayDay
    } else {
        Band::WeekdayNight
    }
}

/// Build the history profile. O(T log T). Errors name `UsageHistory` or `BandHours`.
pub fn profile(
    series: &UsageSeries,
    settings: &ProfileSettings,
) -> Result<HistoryProfile, InputError> {
    settings.validate()?;
    validate_series(series)?;
    let n = series.values.len();
    let (start, exceeds) = match settings.lookback {
        Lookback::All => (0, false),
        Lookback::Days(d) => {
            let s = window_start(series, d);
            let covers_span = match &series.timestamps {
                Some(ts) => ts[n - 1] - ts[0] >= d as i64 * 86_400 - 3600,
                None => n >= d as usize * 24,
            };
            (s, !covers_span)
        }
    };
    let window_values = &series.values[start..];
    let window = LevelProfile::from_values(window_values);
    let distribution = Distribution::from_values(window_values);

    let (bands, months) = match &series.timestamps {
        Some(ts) => {
            let mut per_band: [Vec<f64>; 3] = [Vec::new(), Vec::new(), Vec::new()];
            for (i, &u) in series.values.iter().enumerate().skip(start) {
                let (d, sec) = local_day_and_second(series, ts[i]);
                let b = band_of(d, sec, settings);
                let idx = BANDS.iter().position(|&x| x == b).unwrap_or(0);
                per_band[idx].push(u);
            }
            let bands = [
                Distribution::from_values(&per_band[0]),
                Distribution::from_values(&per_band[1]),
                Distribution::from_values(&per_band[2]),
            ];
            let mut months = Vec::new();
            let mut i = 0;
            while i < n {
                let (d, _) = local_day_and_second(series, ts[i]);
                let ym = year_month(d);
                let mut j = i + 1;
                while j < n && year_month(local_day_and_second(series, ts[j]).0) == ym {
                    j += 1;
                }
                months.push(MonthProfile {
                    label: format!("{:04}-{:02}", ym.0, ym.1),
                    levels: LevelProfile::from_values(&series.values[i..j]),
                });
                i = j;
            }
            (Some(bands), months)
        }
        None => {
            let months = series
                .values
                .chunks(UNTIMED_MONTH_HOURS)
                .enumerate()
                .map(|(i, c)| MonthProfile {
                    label: format!("M{}", i + 1),
                    levels: LevelProfile::from_values(c),
                })
                .collect();
            (None, months)
        }
    };

    let mut days: Vec<DayHours> = Vec::new();
    for (i, &u) in series.values.iter().enumerate().skip(start) {
        let day = match &series.timestamps {
            Some(ts) => local_day_and_second(series, ts[i]).0,
            None => ((i - start) / 24) as i64,
        };
        match days.last_mut() {
            Some((d, v)) if *d == day => v.push(u),
            _ => days.push((day, vec![u])),
        }
    }

    let recent =
        LevelProfile::from_values(&series.values[window_start(series, GUARD_RECENT_DAYS)..]);
    let long = LevelProfile::from_values(&series.values[window_start(series, GUARD_LONG_DAYS)..]);

    Ok(HistoryProfile {
        source: ProfileSource::History,
        settings: *settings,
        series_hours: n,
        lookback_exceeds_history: exceeds,
        window,
        distribution,
        bands,
        guard: Some((recent, long)),
        months,
        days,
    })
}

impl HistoryProfile {
    /// The on/off profile of the sliders: `gpus` GPUs each busy `used_hours` of an
    /// `hours_per_month`-hour month, all at the same time, idle otherwise.
    /// `hours_per_month` must already be validated.
    pub fn from_sliders(
        gpus: u32,
        used_hours: f64,
        hours_per_month: f64,
    ) -> Result<Self, InputError> {
        if gpus as f64 > MAX_GPUS {
            return Err(InputError::new(
                Field::Gpus,
                Problem::TooLarge { max: MAX_GPUS },
            ));
        }
        let h = non_negative(Field::UsedHours, used_hours, hours_per_month)?;
        let window = LevelProfile::flat(gpus, h, hours_per_month);
        let distribution = Distribution::from_sorted_weighted(
            [(0.0, hours_per_month - h), (gpus as f64, h)].into_iter(),
        );
        Ok(Self {
            source: ProfileSource::Sliders,
            settings: ProfileSettings::default(),
            series_hours: 0,
            lookback_exceeds_history: false,
            window,
            distribution,
            bands: None,
            guard: None,
            months: Vec::new(),
            days: Vec::new(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Brute force O(k) = Σ clamp(u − (k−1), 0, 1).
    fn brute_occupancy(values: &[f64], k: u32) -> f64 {
        values
            .iter()
            .map(|&u| (u - (k as f64 - 1.0)).clamp(0.0, 1.0))
            .sum()
    }

    #[test]
    fn occupancy_hand_computed() {
        // u = [0, 1.5, 3, 2.25]: level 1 busy 0+1+1+1 = 3 h; level 2: 0+0.5+1+1 = 2.5 h;
        // level 3: 0+0+1+0.25 = 1.25 h. Σu = 6.75 = 3 + 2.5 + 1.25.
        let p = LevelProfile::from_values(&[0.0, 1.5, 3.0, 2.25]);
        assert_eq!(p.occupancy(), &[3.0, 2.5, 1.25]);
        assert_eq!(p.levels(), 3);
        assert_eq!(p.total_gpu_hours(), 6.75);
        assert_eq!(p.covered(1), 3.0); // Σ min(u,1) = 0+1+1+1
        assert_eq!(p.excess(1), 3.75); // Σ max(0,u−1) = 0+0.5+2+1.25
        assert_eq!(p.excess(0), 6.75);
        assert_eq!(p.excess(3), 0.0);
        assert_eq!(p.excess(99), 0.0);
        assert_eq!(p.covered(99), 6.75);
        for k in 1..=3 {
            assert_eq!(
                p.occupancy()[k as usize - 1],
                brute_occupancy(&[0.0, 1.5, 3.0, 2.25], k)
            );
        }
    }

    #[test]
    fn quantile_nearest_rank() {
        // 20 values 1..=20: 5 % of 20 = 1 → 1st value; 10 % → 2nd; 0 % → min; 100 % → max.
        let v: Vec<f64> = (1..=20).rev().map(f64::from).collect();
        let d = Distribution::from_values(&v);
        assert_eq!(d.quantile(0.0), Some(1.0));
        assert_eq!(d.quantile(0.05), Some(1.0));
        assert_eq!(d.quantile(0.10), Some(2.0));
        assert_eq!(d.quantile(0.12), Some(3.0)); // 2.4 → 3rd
        assert_eq!(d.quantile(1.0), Some(20.0));
        assert_eq!(d.mean(), Some(10.5));
        assert_eq!(Distribution::from_values(&[]).quantile(0.05), None);
    }

    #[test]
    fn calendar_and_weekday() {
        assert_eq!(year_month(0), (1970, 1));
        assert_eq!(weekday(0), 3); // Thursday
                                   // 2024-03-01 is day 19783, a Friday; 2024-02-29 is day 19782.
        assert_eq!(year_month(19_783), (2024, 3));
        assert_eq!(year_month(19_782), (2024, 2));
        assert_eq!(weekday(19_783), 4);
        // Beijing (+480): 2024-03-01 16:00 UTC is Saturday 00:00 local.
        let beijing = UsageSeries {
            utc_offset_minutes: 480,
            ..UsageSeries::default()
        };
        let (d, s) = local_day_and_second(&beijing, 19_783 * 86_400 + 16 * 3600);
        assert_eq!((weekday(d), s), (5, 0));
        // Los Angeles in March 2024 (PDT from 2024-03-10 10:00 UTC): 2024-03-16 07:00 UTC is
        // Saturday 00:00 local, not Friday 23:00 as the winter offset would say.
        let la = UsageSeries {
            utc_offset_minutes: -480,
            offset_changes: vec![(1_710_064_800, -420)],
            ..UsageSeries::default()
        };
        let (d, s) = local_day_and_second(&la, 1_710_572_400);
        assert_eq!((weekday(d), s), (5, 0));
    }

    #[test]
    fn lookback_window_and_months() {
        // 40 days of hourly data starting Monday 2024-01-01 00:00 UTC (day 19723).
        let t0 = 19_723_i64 * 86_400;
        let n = 40 * 24;
        let ts: Vec<i64> = (0..n as i64).map(|i| t0 + i * 3600).collect();
        let values: Vec<f64> = (0..n)
            .map(|i| if i < 10 * 24 { 5.0 } else { 2.0 })
            .collect();
        let s = UsageSeries {
            values,
            timestamps: Some(ts),
            utc_offset_minutes: 0,
            offset_changes: Vec::new(),
        };
        let p = profile(&s, &ProfileSettings::default()).unwrap();
        assert_eq!(p.window.hours(), 720.0); // last 30 days, all 2.0
        assert_eq!(p.window.peak(), 2.0);
        assert!(!p.lookback_exceeds_history);
        assert_eq!(p.months.len(), 2);
        assert_eq!(p.months[0].label, "2024-01");
        assert_eq!(p.months[0].levels.hours(), 31.0 * 24.0);
        assert_eq!(p.months[1].label, "2024-02");
        let (recent, long) = p.guard.as_ref().unwrap();
        assert_eq!(recent.hours(), 72.0);
        assert_eq!(long.hours(), 720.0);
        let all = profile(
            &s,
            &ProfileSettings {
                lookback: Lookback::All,
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(all.window.peak(), 5.0);
        let long90 = profile(
            &s,
            &ProfileSettings {
                lookback: Lookback::Days(90),
                ..Default::default()
            },
        )
        .unwrap();
        assert!(long90.lookback_exceeds_history);
        assert_eq!(long90.window.hours(), n as f64);
        // Bands: 30 days from 2024-01-11 (Thu) … 2024-02-09 (Fri): weekend days = 8.
        let b = p.bands.as_ref().unwrap();
        assert_eq!(b[2].hours(), 8.0 * 24.0);
        assert_eq!(b[0].hours(), 22.0 * 12.0);
        assert_eq!(b[1].hours(), 22.0 * 12.0);
    }

    #[test]
    fn bad_series_and_settings_are_typed_errors() {
        let e = profile(&UsageSeries::default(), &ProfileSettings::default()).unwrap_err();
        assert_eq!((e.field, e.problem), (Field::UsageHistory, Problem::Empty));
        let e = profile(
            &UsageSeries::from_values(vec![1.0, -1.0]),
            &ProfileSettings::default(),
        )
        .unwrap_err();
        assert_eq!(e.field, Field::UsageHistory);
        let e = profile(
            &UsageSeries::from_values(vec![f64::NAN]),
            &ProfileSettings::default(),
        )
        .unwrap_err();
        assert_eq!(e.problem, Problem::NotANumber);
        let e = profile(
            &UsageSeries::from_values(vec![1e9]),
            &ProfileSettings::default(),
        )
        .unwrap_err();
        assert!(matches!(e.problem, Problem::TooLarge { .. }));
        let bad = ProfileSettings {
            day_start_hour: 20,
            day_end_hour: 8,
            ..Default::default()
        };
        assert_eq!(
            profile(&UsageSeries::from_values(vec![1.0]), &bad)
                .unwrap_err()
                .field,
            Field::BandHours
        );
        let bad = ProfileSettings {
            lookback: Lookback::Days(0),
            ..Default::default()
        };
        assert!(profile(&UsageSeries::from_values(vec![1.0]), &bad).is_err());
    }

    #[test]
    fn slider_profile_is_on_off() {
        // 4 GPUs × 200 h of a 730 h month: each level busy 200 h; Σu = 800; waterline 0.
        let p = HistoryProfile::from_sliders(4, 200.0, 730.0).unwrap();
        assert_eq!(p.window.occupancy(), &[200.0; 4]);
        assert_eq!(p.window.total_gpu_hours(), 800.0);
        assert_eq!(p.distribution.quantile(0.05), Some(0.0));
        assert_eq!(p.distribution.mean(), Some(800.0 / 730.0));
        // Busy all month: waterline is all 4 GPUs.
        let p = HistoryProfile::from_sliders(4, 730.0, 730.0).unwrap();
        assert_eq!(p.distribution.quantile(0.0), Some(4.0));
        assert_eq!(
            HistoryProfile::from_sliders(4, 800.0, 730.0)
                .unwrap_err()
                .field,
            Field::UsedHours
        );
    }

    use proptest::prelude::*;
    proptest! {
        #[test]
        fn occupancy_matches_brute_force(values in proptest::collection::vec(0.0f64..12.0, 1..200)) {
            let p = LevelProfile::from_values(&values);
            for k in 1..=p.levels() {
                let b = brute_occupancy(&values, k);
                prop_assert!((p.occupancy()[k as usize - 1] - b).abs() < 1e-9);
            }
            for n in 0..=p.levels() + 1 {
                let ex: f64 = values.iter().map(|&u| (u - n as f64).max(0.0)).sum();
                let cov: f64 = values.iter().map(|&u| u.min(n as f64)).sum();
                prop_assert!((p.excess(n) - ex).abs() < 1e-9);
                prop_assert!((p.covered(n) - cov).abs() < 1e-9);
            }
        }
    }
}
