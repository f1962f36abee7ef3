//! § 9 The three-pools card: N reserved GPUs + the elastic hours split between spot and
//! on demand, per month.

use super::{failed, Presented, Shown};
use crate::core::error::InputError;
use crate::core::money::Money;
use crate::core::pools::ThreePools;
use crate::format::Lang;
use crate::format::{money, number_trim, percent};
use crate::i18n::pick;

/// One pool's row: what it holds, what it costs a month, its share of the total.
#[derive(Debug, Clone, PartialEq)]
pub struct PoolRow {
    /// GPUs (the monthly pool) or GPU-hours (the elastic pools).
    pub amount: String,
    pub cost: Shown,
    pub share: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct PoolsView {
    pub reserved: PoolRow,
    pub on_demand: PoolRow,
    pub spot: PoolRow,
    pub total: Shown,
    /// The shares' sum.
    pub total_share: String,
    /// What spot instead of on demand saves a month.
    pub spot_saving: String,
    pub formula: String,
}

/// `p`, `r`: the monthly and on-demand prices typed.
pub fn present(
    l: Lang,
    cur: &str,
    pools: &Result<ThreePools, InputError>,
    p: f64,
    r: f64,
) -> Presented<PoolsView> {
    let pools = pools.as_ref().or_else(|e| failed(l, e))?;
    let cost = |m: Money| Shown::new(money(m, cur, l), m.to_plain_string());
    let share = |f: f64| percent(f, 1, l);
    let hours = |h: f64| format!("{} h", number_trim(h, 1, l));
    let s_eff = if pools.spot_gpu_hours > 0.0 {
        pools.spot.to_f64() / pools.spot_gpu_hours
    } else {
        0.0
    };
    let formula = format!(
        "{} × {} + {} h × {} + {} h × {} = {} + {} + {} = {}",
        pools.reserved_gpus,
        number_trim(p, 2, l),
        number_trim(pools.on_demand_gpu_hours, 2, l),
        number_trim(r, 4, l),
        number_trim(pools.spot_gpu_hours, 2, l),
        number_trim(s_eff, 4, l),
        money(pools.reserved, cur, l),
        money(pools.on_demand, cur, l),
        money(pools.spot, cur, l),
        money(pools.total, cur, l),
    );
    Ok(PoolsView {
        reserved: PoolRow {
            amount: format!("{}{}", pools.reserved_gpus, pick(l, " GPUs", " 张")),
            cost: cost(pools.reserved),
            share: share(pools.reserved_share),
        },
        on_demand: PoolRow {
            amount: hours(pools.on_demand_gpu_hours),
            cost: cost(pools.on_demand),
            share: share(pools.on_demand_share),
        },
        spot: PoolRow {
            amount: hours(pools.spot_gpu_hours),
            cost: cost(pools.spot),
            share: share(pools.spot_share),
        },
        total: cost(pools.total),
        total_share: share(pools.reserved_share + pools.on_demand_share + pools.spot_share),
        spot_saving: money(pools.saving_vs_no_spot, cur, l),
        formula,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::error::{Field, Problem};

    /// N = 2 at P = 9 000 → 18 000; 600 elastic GPU-hours, half interruptible: 300 h on demand
    /// at r = 25 → 7 500, 300 h on spot at s_eff = 10 → 3 000; total 28 500 (63.2 % / 26.3 % /
    /// 10.5 %). All 600 h on demand would cost 15 000: spot saves 4 500.
    #[test]
    fn hand_example_in_both_languages() {
        let pools = Ok(ThreePools {
            reserved_gpus: 2,
            interruptible_share: 0.5,
            elastic_gpu_hours: 600.0,
            spot_gpu_hours: 300.0,
            on_demand_gpu_hours: 300.0,
            reserved: Money::from_cents(1_800_000),
            spot: Money::from_cents(300_000),
            on_demand: Money::from_cents(750_000),
            total: Money::from_cents(2_850_000),
            reserved_share: 18_000.0 / 28_500.0,
            spot_share: 3_000.0 / 28_500.0,
            on_demand_share: 7_500.0 / 28_500.0,
            saving_vs_no_spot: Money::from_cents(450_000),
        });
        let en = present(Lang::En, "¥", &pools, 9000.0, 25.0).unwrap();
        assert_eq!(en.reserved.amount, "2 GPUs");
        assert_eq!(en.reserved.cost, Shown::new("¥18,000.00", "18000.00"));
        assert_eq!(en.reserved.share, "63.2 %");
        assert_eq!(en.on_demand.amount, "300 h");
        assert_eq!(en.on_demand.cost, Shown::new("¥7,500.00", "7500.00"));
        assert_eq!(en.on_demand.share, "26.3 %");
        assert_eq!(en.spot.cost, Shown::new("¥3,000.00", "3000.00"));
        assert_eq!(en.spot.share, "10.5 %");
        assert_eq!(en.total, Shown::new("¥28,500.00", "28500.00"));
        assert_eq!(en.total_share, "100 %");
        assert_eq!(en.spot_saving, "¥4,500.00");
        assert_eq!(
            en.formula,
            "2 × 9,000 + 300 h × 25 + 300 h × 10 = ¥18,000.00 + ¥7,500.00 + ¥3,000.00 = ¥28,500.00"
        );
        let zh = present(Lang::Zh, "$", &pools, 9000.0, 25.0).unwrap();
        assert_eq!(zh.reserved.amount, "2 张");
        assert_eq!(zh.reserved.share, "63.2%");
        assert_eq!(zh.total_share, "100%");
        assert_eq!(zh.total.text, "$28,500.00");
    }

    #[test]
    fn no_spot_hours_and_errors() {
        let pools = Ok(ThreePools {
            reserved_gpus: 1,
            interruptible_share: 0.0,
            elastic_gpu_hours: 10.5,
            spot_gpu_hours: 0.0,
            on_demand_gpu_hours: 10.5,
            reserved: Money::from_cents(900_000),
            spot: Money::ZERO,
            on_demand: Money::from_cents(26_250),
            total: Money::from_cents(926_250),
            reserved_share: 0.97,
            spot_share: 0.0,
            on_demand_share: 0.03,
            saving_vs_no_spot: Money::ZERO,
        });
        let v = present(Lang::En, "¥", &pools, 9000.0, 25.0).unwrap();
        assert_eq!(v.reserved.amount, "1 GPUs");
        assert_eq!(v.on_demand.amount, "10.5 h");
        assert_eq!(v.spot.amount, "0 h");
        assert!(v.formula.contains("+ 0 h × 0 = "), "{}", v.formula);
        let err = Err(InputError::new(
            Field::InterruptibleShare,
            Problem::TooLarge { max: 100.0 },
        ));
        assert!(present(Lang::En, "¥", &err, 9000.0, 25.0)
            .unwrap_err()
            .starts_with("Interruptible share"));
    }
}
