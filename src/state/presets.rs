//! The dated example prices ("illustrations, not quotes"): a price set per common GPU type,
//! with typical terms. Pure: the prices panel offers them, and a GPU type found in a history
//! starts from the preset of its kind.

use crate::core::ingest::normalize_type;
use crate::core::plan::PlanInputs;
use crate::format::Currency;

/// An example price set. Dated, editable, never a quote.
pub struct Preset {
    pub key: &'static str,
    /// Type keys (`core::ingest::normalize_type`) contain this to match the preset.
    pub matches: &'static str,
    pub name: &'static str,
    /// (monthly, on-demand, spot) in CNY and in USD.
    pub cny: (f64, f64, f64),
    pub usd: (f64, f64, f64),
}

/// The date the example prices were written down.
pub const PRESETS_DATE: &str = "2026-11";

/// The example terms, typical discounts in months of the monthly price P (illustrations):
/// 1 year all upfront at 10 × P (包年 ≈ ten months); 3 years partial upfront, 9 × P upfront and
/// P / 2 each month (27 months of P for 36).
pub const PRESET_1Y_UPFRONT_MONTHS: f64 = 10.0;
pub const PRESET_3Y_UPFRONT_MONTHS: f64 = 9.0;
pub const PRESET_3Y_MONTHLY_SHARE: f64 = 0.5;

pub const PRESETS: [Preset; 3] = [
    Preset {
        key: "a100-80g",
        matches: "a100",
        name: "A100 80GB",
        cny: (15_000.0, 35.0, 12.0),
        usd: (1_500.0, 3.0, 1.2),
    },
    Preset {
        key: "h100-80g",
        matches: "h100",
        name: "H100 80GB",
        cny: (28_000.0, 60.0, 22.0),
        usd: (2_200.0, 4.5, 2.0),
    },
    Preset {
        key: "rtx4090",
        matches: "4090",
        name: "RTX 4090",
        cny: (2_500.0, 5.0, 2.0),
        usd: (300.0, 0.6, 0.3),
    },
];

impl Preset {
    /// Fill a type's prices and the typical terms in `currency`.
    pub fn apply(&self, currency: Currency, i: &mut PlanInputs) {
        let (m, r, sp) = match currency {
            Currency::Cny => self.cny,
            Currency::Usd => self.usd,
        };
        i.monthly_price = m;
        i.on_demand_price = r;
        i.spot_price = sp;
        i.term_1y_upfront = PRESET_1Y_UPFRONT_MONTHS * m;
        i.term_1y_monthly = 0.0;
        i.term_3y_upfront = PRESET_3Y_UPFRONT_MONTHS * m;
        i.term_3y_monthly = PRESET_3Y_MONTHLY_SHARE * m;
    }

    /// The preset of a GPU type's name, if one matches (`NVIDIA A100-SXM4-80GB` → A100).
    pub fn of_type(name: &str) -> Option<&'static Preset> {
        let key = normalize_type(name);
        PRESETS.iter().find(|p| key.contains(p.matches))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_type_name_finds_its_preset() {
        assert_eq!(
            Preset::of_type("NVIDIA A100-SXM4-80GB").map(|p| p.key),
            Some("a100-80g")
        );
        assert_eq!(Preset::of_type("h100").map(|p| p.key), Some("h100-80g"));
        assert_eq!(
            Preset::of_type("GeForce RTX 4090").map(|p| p.key),
            Some("rtx4090")
        );
        assert!(Preset::of_type("L40S").is_none());
        let mut i = PlanInputs::default();
        PRESETS[1].apply(Currency::Cny, &mut i);
        assert_eq!(
            (i.monthly_price, i.on_demand_price, i.spot_price),
            (28_000.0, 60.0, 22.0)
        );
        assert_eq!(i.term_1y_upfront, 280_000.0);
        assert_eq!(
            (i.term_3y_upfront, i.term_3y_monthly),
            (252_000.0, 14_000.0)
        );
    }
}
