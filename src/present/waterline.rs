//! § 5 The waterline card: the minimum stable waterline per time band (weekday day / night /
//! weekend) and the whole GPUs it buys.

use super::{failed, Presented, Shown};
use crate::core::error::InputError;
use crate::core::profile::Band;
use crate::core::waterline::Waterline;
use crate::format::Lang;
use crate::format::{number_trim, plain};
use crate::i18n::pick;

#[derive(Debug, Clone, PartialEq)]
pub struct WaterlineView {
    /// The overall waterline, in GPUs busy.
    pub overall: Shown,
    /// Whole GPUs to buy monthly.
    pub buy: Shown,
    /// The average GPUs busy (what not to buy from).
    pub average: Shown,
    /// The band table is shown (the history has timestamps).
    pub has_bands: bool,
    pub caption: String,
    /// One row per time band (empty without timestamps).
    pub bands: Vec<BandRow>,
    pub formula: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct BandRow {
    /// `band-…` of the row; the figures' test ids add `-average` and `-waterline`.
    pub testid: String,
    /// The band's name, "(lowest)" after the band that sets the waterline.
    pub name: String,
    pub hours: String,
    pub average: Shown,
    pub waterline: Shown,
}

impl WaterlineView {
    /// Row `i` of the band table (`None` past its end).
    pub fn band(&self, i: usize) -> Option<&BandRow> {
        self.bands.get(i)
    }
}

fn band_name(l: Lang, b: Band, start: u32, end: u32) -> String {
    match (b, l) {
        (Band::WeekdayDay, Lang::En) => format!("Weekday day ({start:02}:00–{end:02}:00)"),
        (Band::WeekdayDay, Lang::Zh) => format!("工作日白天（{start:02}:00–{end:02}:00）"),
        (Band::WeekdayNight, _) => pick(l, "Weekday night", "工作日夜间").to_string(),
        (Band::Weekend, _) => pick(l, "Weekend", "周末全天").to_string(),
    }
}

/// A band figure: two decimals at most, "—" (and an empty `data-value`) for a band without hours.
fn band_figure(v: Option<f64>, l: Lang) -> Shown {
    Shown::new(
        v.map(|v| number_trim(v, 2, l))
            .unwrap_or_else(|| "—".into()),
        v.map(|v| plain(v, 2)).unwrap_or_default(),
    )
}

/// `start`, `end`: the weekday day band's hours.
pub fn present(
    l: Lang,
    w: &Result<Waterline, InputError>,
    start: u32,
    end: u32,
) -> Presented<WaterlineView> {
    let w = w.as_ref().or_else(|e| failed(l, e))?;
    let q = number_trim(w.quantile * 100.0, 1, l);
    let overall = number_trim(w.overall, 2, l);
    let bands = w
        .bands
        .iter()
        .flatten()
        .map(|b| {
            let lowest = w.lowest_band == Some(b.band);
            let key = b.band.key();
            BandRow {
                testid: format!("band-{key}"),
                name: format!(
                    "{}{}",
                    band_name(l, b.band, start, end),
                    if lowest {
                        pick(l, " (lowest)", "（最低）")
                    } else {
                        ""
                    }
                ),
                hours: number_trim(b.hours, 0, l),
                average: band_figure(b.average, l),
                waterline: band_figure(b.waterline, l),
            }
        })
        .collect();
    let (caption, formula) = match l {
        Lang::En => (
            format!("GPUs busy per time band (waterline = {q} % quantile)"),
            format!(
                "Each band's waterline is its {q} % quantile of hourly GPUs busy; overall = the lowest band = {overall}; buy ⌊{overall}⌋ = {}.",
                w.buy
            ),
        ),
        Lang::Zh => (
            format!("各时段 GPU 用量（水位 = {q}% 分位数）"),
            format!(
                "每个时段的水位 = 该时段每小时用量的 {q}% 分位数；总体 = 最低时段 = {overall}；固定配额 = ⌊{overall}⌋ = {}。",
                w.buy
            ),
        ),
    };
    Ok(WaterlineView {
        overall: Shown::new(overall, plain(w.overall, 2)),
        buy: Shown::new(w.buy.to_string(), w.buy.to_string()),
        average: Shown::new(number_trim(w.average, 2, l), plain(w.average, 2)),
        has_bands: w.bands.is_some(),
        caption,
        bands,
        formula,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::error::{Field, Problem};
    use crate::core::waterline::BandWaterline;

    /// q = 5 %: weekday day 6 (average 8), weekday night 1.5 (average 4.25, the lowest) →
    /// overall 1.5, buy ⌊1.5⌋ = 1, against an average of 5.234 (shown 5.23); the weekend
    /// has no hours: "—" and an empty data-value.
    fn seed() -> Waterline {
        let row = |band, hours, average, waterline| BandWaterline {
            band,
            hours,
            average,
            waterline,
        };
        Waterline {
            quantile: 0.05,
            bands: Some(vec![
                row(Band::WeekdayDay, 240.0, Some(8.0), Some(6.0)),
                row(Band::WeekdayNight, 240.0, Some(4.25), Some(1.5)),
                row(Band::Weekend, 0.0, None, None),
            ]),
            overall: 1.5,
            lowest_band: Some(Band::WeekdayNight),
            average: 5.234,
            buy: 1,
        }
    }

    #[test]
    fn hand_example_in_both_languages() {
        let w = Ok(seed());
        let en = present(Lang::En, &w, 8, 20).unwrap();
        assert_eq!(en.overall, Shown::new("1.5", "1.5"));
        assert_eq!(en.buy, Shown::new("1", "1"));
        assert_eq!(en.average, Shown::new("5.23", "5.23"));
        assert!(en.has_bands);
        assert_eq!(
            en.caption,
            "GPUs busy per time band (waterline = 5 % quantile)"
        );
        let day = en.band(0).unwrap();
        assert_eq!(day.testid, "band-weekday-day");
        assert_eq!(day.name, "Weekday day (08:00–20:00)");
        assert_eq!(day.hours, "240");
        assert_eq!(day.average, Shown::new("8", "8"));
        assert_eq!(en.band(1).unwrap().name, "Weekday night (lowest)");
        assert_eq!(en.band(1).unwrap().average, Shown::new("4.25", "4.25"));
        let weekend = en.band(2).unwrap();
        assert_eq!(weekend.testid, "band-weekend");
        assert_eq!(weekend.waterline, Shown::new("—", ""));
        assert_eq!(en.band(3), None);
        assert_eq!(
            en.formula,
            "Each band's waterline is its 5 % quantile of hourly GPUs busy; overall = the lowest band = 1.5; buy ⌊1.5⌋ = 1."
        );
        let zh = present(Lang::Zh, &w, 9, 18).unwrap();
        assert_eq!(zh.caption, "各时段 GPU 用量（水位 = 5% 分位数）");
        assert_eq!(zh.band(0).unwrap().name, "工作日白天（09:00–18:00）");
        assert_eq!(zh.band(1).unwrap().name, "工作日夜间（最低）");
        assert_eq!(zh.band(2).unwrap().name, "周末全天");
        assert_eq!(
            zh.formula,
            "每个时段的水位 = 该时段每小时用量的 5% 分位数；总体 = 最低时段 = 1.5；固定配额 = ⌊1.5⌋ = 1。"
        );
    }

    #[test]
    fn without_timestamps_and_errors() {
        let w = Ok(Waterline {
            bands: None,
            lowest_band: None,
            ..seed()
        });
        let v = present(Lang::En, &w, 8, 20).unwrap();
        assert!(!v.has_bands && v.bands.is_empty());
        let err = Err(InputError::new(
            Field::Quantile,
            Problem::TooLarge { max: 50.0 },
        ));
        assert!(present(Lang::En, &err, 8, 20)
            .unwrap_err()
            .starts_with("Waterline quantile"));
    }
}
