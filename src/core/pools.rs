//! § 9 Three pools: N reserved (monthly) GPUs, and the elastic GPU-hours above them split
//! by the interruptible share f between spot (at its effective price per useful hour,
//! § 8) and on demand (at r).

use super::commitment::month_scale;
use super::error::{non_negative, Field, InputError};
use super::money::Money;
use super::prices::Prices;
use super::profile::LevelProfile;

/// § 9 result, per month.
#[derive(Debug, Clone, PartialEq)]
pub struct ThreePools {
    /// N: reserved (monthly) GPUs.
    pub reserved_gpus: u32,
    /// f: interruptible share of the elastic GPU-hours, 0..=1.
    pub interruptible_share: f64,
    /// E(N)·H/T: elastic GPU-hours per month.
    pub elastic_gpu_hours: f64,
    /// f·E: useful GPU-hours per month on spot.
    pub spot_gpu_hours: f64,
    /// (1 − f)·E: GPU-hours per month on demand.
    pub on_demand_gpu_hours: f64,
    /// N·P.
    pub reserved: Money,
    /// s_eff·f·E.
    pub spot: Money,
    /// r·(1 − f)·E.
    pub on_demand: Money,
    /// reserved + spot + on_demand (exact).
    pub total: Money,
    /// Each pool's share of the total (sum to 1; all 0 when the total is 0).
    pub reserved_share: f64,
    pub spot_share: f64,
    pub on_demand_share: f64,
    /// Same N with every elastic hour on demand, minus `total` (what spot saves; may be negative).
    pub saving_vs_no_spot: Money,
}

/// Validate f given in percent (0..=100) and return it as a fraction.
pub fn interruptible_fraction(percent: f64) -> Result<f64, InputError> {
    Ok(non_negative(Field::InterruptibleShare, percent, 100.0)? / 100.0)
}

/// § 9. `spot_effective_price` is s·(1 + δ/τ + λ(τ/2 + R)) from § 8.
pub fn three_pools(
    levels: &LevelProfile,
    prices: &Prices,
    reserved_gpus: u32,
    interruptible_percent: f64,
    spot_effective_price: f64,
) -> Result<ThreePools, InputError> {
    let f = interruptible_fraction(interruptible_percent)?;
    let elastic_gpu_hours = levels.excess(reserved_gpus) * month_scale(levels, prices);
    let spot_gpu_hours = f * elastic_gpu_hours;
    let on_demand_gpu_hours = elastic_gpu_hours - spot_gpu_hours;
    let reserved = prices.monthly_money * reserved_gpus as u64;
    let spot = Money::from_f64(spot_effective_price * spot_gpu_hours);
    let on_demand = Money::from_f64(prices.on_demand * on_demand_gpu_hours);
    let total = reserved + spot + on_demand;
    let no_spot = reserved + Money::from_f64(prices.on_demand * elastic_gpu_hours);
    Ok(ThreePools {
        reserved_gpus,
        interruptible_share: f,
        elastic_gpu_hours,
        spot_gpu_hours,
        on_demand_gpu_hours,
        reserved,
        spot,
        on_demand,
        total,
        reserved_share: reserved.ratio(total),
        spot_share: spot.ratio(total),
        on_demand_share: on_demand.ratio(total),
        saving_vs_no_spot: no_spot - total,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_pools_example() {
        // u = [0, 1.5, 3, 2.25], T = 4, H = 730 (H/T = 182.5); N = 1 → E(1) = 3.75 → 684.375 h/month.
        // f = 40 %: spot 273.75 h at 8.40 = 2299.50; on demand 410.625 h at 25 = 10265.625 → 10265.63;
        // reserved 9000.00; total 21565.13. Shares 9000/21565.13 = 0.41734…, etc.
        // No spot: 9000 + 25·684.375 = 9000 + 17109.38 = 26109.38 → saving 4544.25.
        let lv = LevelProfile::from_values(&[0.0, 1.5, 3.0, 2.25]);
        let p = Prices::new(9000.0, 25.0, 730.0).unwrap();
        let t = three_pools(&lv, &p, 1, 40.0, 8.4).unwrap();
        assert_eq!(t.elastic_gpu_hours, 684.375);
        assert!((t.spot_gpu_hours - 273.75).abs() < 1e-9);
        assert_eq!(t.spot.to_plain_string(), "2299.50");
        assert_eq!(t.on_demand.to_plain_string(), "10265.63");
        assert_eq!(t.reserved.to_plain_string(), "9000.00");
        assert_eq!(t.total.to_plain_string(), "21565.13");
        assert_eq!(t.saving_vs_no_spot.to_plain_string(), "4544.25");
        assert!((t.reserved_share + t.spot_share + t.on_demand_share - 1.0).abs() < 1e-12);
        assert!((t.reserved_share - 900_000.0 / 2_156_513.0).abs() < 1e-15);
    }

    #[test]
    fn bad_share() {
        let lv = LevelProfile::from_values(&[1.0]);
        let p = Prices::new(9000.0, 25.0, 730.0).unwrap();
        assert_eq!(
            three_pools(&lv, &p, 0, 101.0, 8.0).unwrap_err().field,
            Field::InterruptibleShare
        );
        assert_eq!(
            three_pools(&lv, &p, 0, -1.0, 8.0).unwrap_err().field,
            Field::InterruptibleShare
        );
        // 0 % and 100 % are fine; a profile with no usage gives a zero total and zero shares.
        let z = three_pools(&LevelProfile::from_values(&[0.0]), &p, 0, 100.0, 8.0).unwrap();
        assert_eq!((z.total, z.spot_share), (Money::ZERO, 0.0));
    }
}
