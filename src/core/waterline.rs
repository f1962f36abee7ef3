//! § 5 Minimum stable waterline (最低稳定水位).
//!
//! Size the fixed quota from the lowest level that persistently appears over the
//! lookback, never the average: per time band (weekday day, weekday night, weekend) the
//! band's q-quantile of hourly usage (nearest rank; q = 0 is the strict minimum), and
//! overall the lowest band waterline. Without timestamps: the q-quantile of the whole
//! window. Buy floor(overall) whole GPUs.

use super::error::{non_negative, Field, InputError};
use super::profile::{Band, HistoryProfile, BANDS};

/// Largest accepted quantile, in percent.
pub const MAX_QUANTILE_PERCENT: f64 = 50.0;
/// Default quantile, in percent.
pub const DEFAULT_QUANTILE_PERCENT: f64 = 5.0;

/// One time band.
#[derive(Debug, Clone, PartialEq)]
pub struct BandWaterline {
    pub band: Band,
    /// Hours of the lookback window in this band.
    pub hours: f64,
    /// Average GPUs busy in the band; `None` when the band has no hours.
    pub average: Option<f64>,
    /// q-quantile of GPUs busy in the band; `None` when the band has no hours.
    pub waterline: Option<f64>,
}

/// § 5 result.
#[derive(Debug, Clone, PartialEq)]
pub struct Waterline {
    /// q as a fraction (0.05 for 5 %).
    pub quantile: f64,
    /// The three bands (order of `profile::BANDS`); `None` without timestamps.
    pub bands: Option<Vec<BandWaterline>>,
    /// Overall waterline in GPUs: lowest band waterline (or whole-window quantile).
    pub overall: f64,
    /// Band that sets the overall waterline; `None` without timestamps.
    pub lowest_band: Option<Band>,
    /// Average GPUs busy over the whole window (what the average rule would buy from).
    pub average: f64,
    /// Whole GPUs to buy: floor(overall).
    pub buy: u32,
}

/// Validate q given in percent (0..=50) and return it as a fraction.
pub fn quantile_fraction(percent: f64) -> Result<f64, InputError> {
    Ok(non_negative(Field::Quantile, percent, MAX_QUANTILE_PERCENT)? / 100.0)
}

/// § 5 on a profile. `quantile_percent` in 0..=50.
pub fn waterline(profile: &HistoryProfile, quantile_percent: f64) -> Result<Waterline, InputError> {
    let q = quantile_fraction(quantile_percent)?;
    let whole = profile.distribution.quantile(q).unwrap_or(0.0);
    let average = profile.distribution.mean().unwrap_or(0.0);
    let (bands, overall, lowest_band) = match &profile.bands {
        Some(dists) => {
            let rows: Vec<BandWaterline> = BANDS
                .iter()
                .zip(dists.iter())
                .map(|(&band, d)| BandWaterline {
                    band,
                    hours: d.hours(),
                    average: d.mean(),
                    waterline: d.quantile(q),
                })
                .collect();
            let lowest = rows
                .iter()
                .filter_map(|r| r.waterline.map(|w| (r.band, w)))
                .min_by(|a, b| a.1.total_cmp(&b.1));
            match lowest {
                Some((band, w)) => (Some(rows), w, Some(band)),
                None => (Some(rows), whole, None),
            }
        }
        None => (None, whole, None),
    };
    Ok(Waterline {
        quantile: q,
        bands,
        overall,
        lowest_band,
        average,
        buy: (overall + 1e-9).floor() as u32,
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::core::profile::{profile, ProfileSettings};
    use crate::core::series::UsageSeries;

    /// Seed 000's table, made into 28 days of hourly data from Monday 2024-01-01 00:00 local
    /// (UTC+8): weekday day (08–20) alternates 6/10 (avg 8, waterline 6), weekday night
    /// alternates 2/6 (avg 4, waterline 2), weekend alternates 1/5 (avg 3, waterline 1).
    pub(crate) fn seed_table_series() -> UsageSeries {
        let offset = 480;
        let t0 = 19_723_i64 * 86_400 - offset as i64 * 60; // local midnight Mon 2024-01-01
        let mut values = Vec::new();
        let mut ts = Vec::new();
        for i in 0..28 * 24_i64 {
            let day = i / 24;
            let hour = i % 24;
            let odd = i % 2 == 1;
            let v = if day % 7 >= 5 {
                if odd {
                    5.0
                } else {
                    1.0
                }
            } else if (8..20).contains(&hour) {
                if odd {
                    10.0
                } else {
                    6.0
                }
            } else if odd {
                6.0
            } else {
                2.0
            };
            values.push(v);
            ts.push(t0 + i * 3600);
        }
        UsageSeries {
            values,
            timestamps: Some(ts),
            utc_offset_minutes: offset,
            offset_changes: Vec::new(),
        }
    }

    #[test]
    fn seed_table_buys_one() {
        // Weekday day 8 / 6, weekday night 4 / 2, weekend 3 / 1 → overall 1 → buy 1.
        let p = profile(&seed_table_series(), &ProfileSettings::default()).unwrap();
        let w = waterline(&p, 5.0).unwrap();
        let bands = w.bands.as_ref().unwrap();
        let got: Vec<(f64, f64, f64)> = bands
            .iter()
            .map(|b| (b.hours, b.average.unwrap(), b.waterline.unwrap()))
            .collect();
        assert_eq!(
            got,
            vec![(240.0, 8.0, 6.0), (240.0, 4.0, 2.0), (192.0, 3.0, 1.0)]
        );
        assert_eq!(w.overall, 1.0);
        assert_eq!(w.lowest_band, Some(Band::Weekend));
        assert_eq!(w.buy, 1);
        // Average over all 672 h = (240·8 + 240·4 + 192·3)/672 = 3456/672 = 5.142857…
        assert!((w.average - 3456.0 / 672.0).abs() < 1e-12);
        // Strict minimum gives the same here.
        assert_eq!(waterline(&p, 0.0).unwrap().buy, 1);
    }

    #[test]
    fn quantile_ignores_rare_dips_strict_minimum_does_not() {
        // 100 hours without timestamps: 3 hours at 0, 97 at 4. 5 % of 100 = 5th value = 4;
        // the strict minimum (q = 0) is 0.
        let mut v = vec![4.0; 100];
        v[10] = 0.0;
        v[50] = 0.0;
        v[90] = 0.0;
        let s = UsageSeries::from_values(v);
        let p = profile(&s, &ProfileSettings::default()).unwrap();
        let w = waterline(&p, 5.0).unwrap();
        assert_eq!((w.overall, w.buy, w.bands.is_none()), (4.0, 4, true));
        assert_eq!(waterline(&p, 0.0).unwrap().buy, 0);
        // Fractional waterline 2.7 buys 2 whole GPUs.
        let p = profile(
            &UsageSeries::from_values(vec![2.7; 10]),
            &ProfileSettings::default(),
        )
        .unwrap();
        assert_eq!(waterline(&p, 5.0).unwrap().buy, 2);
    }

    #[test]
    fn bad_quantile() {
        let p = profile(
            &UsageSeries::from_values(vec![1.0]),
            &ProfileSettings::default(),
        )
        .unwrap();
        assert_eq!(waterline(&p, -1.0).unwrap_err().field, Field::Quantile);
        assert_eq!(waterline(&p, 60.0).unwrap_err().field, Field::Quantile);
        assert_eq!(waterline(&p, f64::NAN).unwrap_err().field, Field::Quantile);
    }
}
