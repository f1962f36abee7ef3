//! § 10 The budget card: what a monthly budget split fixed / elastic / spot buys, and the
//! split the chosen plan implies.

use super::{failed, Presented, Shown};
use crate::core::budget::{BudgetSplit, ImpliedSplit};
use crate::core::error::InputError;
use crate::core::money::Money;
use crate::core::plan::PlanInputs;
use crate::format::Lang;
use crate::format::{money, number_trim, percent};
use crate::i18n::pick;

#[derive(Debug, Clone, PartialEq)]
pub struct BudgetView {
    /// The fixed part of the budget.
    pub fixed: Shown,
    /// The monthly GPUs it buys and what is left; `data-value` = the GPUs.
    pub fixed_gpus: Shown,
    /// The elastic part and the on-demand GPU-hours it buys.
    pub elastic: Shown,
    /// The spot-and-emergency part and the spot GPU-hours it buys.
    pub spot: Shown,
    /// The shares the chosen plan implies, and its total (`None` when the plan has an error).
    pub implied: Option<String>,
    pub formula: String,
}

/// `inputs`: the shares and prices typed, for the formula.
pub fn present(
    l: Lang,
    cur: &str,
    split: &Result<BudgetSplit, InputError>,
    implied: &Result<ImpliedSplit, InputError>,
    inputs: &PlanInputs,
) -> Presented<BudgetView> {
    let b = split.as_ref().or_else(|e| failed(l, e))?;
    let m = |x| money(x, cur, l);
    // What a share buys: its money — its GPU-hours.
    let bought = |share: Money, hours: f64, (en, zh)| {
        Shown::new(
            format!(
                "{} — {}{}",
                m(share),
                number_trim(hours, 1, l),
                pick(l, en, zh)
            ),
            share.to_plain_string(),
        )
    };
    let gpus = match l {
        Lang::En => format!(
            "buys {} monthly GPU{} ({} left over)",
            b.fixed_gpus,
            if b.fixed_gpus == 1 { "" } else { "s" },
            m(b.fixed_remainder)
        ),
        Lang::Zh => format!(
            "可包月 {} 张 GPU（剩余 {}）",
            b.fixed_gpus,
            m(b.fixed_remainder)
        ),
    };
    let implied = implied.as_ref().ok().map(|i| {
        let shares = format!(
            "{} / {} / {}",
            percent(i.fixed_share, 1, l),
            percent(i.elastic_share, 1, l),
            percent(i.spot_share, 1, l)
        );
        match l {
            Lang::En => format!("{shares} (of {})", m(i.total)),
            Lang::Zh => format!("{shares}（共 {}）", m(i.total)),
        }
    });
    let i = inputs;
    let formula = format!(
        "{} × {} % = {} → ⌊{} / {}⌋ = {} ({} {});  {} × {} % = {} → {} / {} = {} h;  {} × {} % = {} → {} / {} = {} h",
        m(b.budget), number_trim(i.budget_fixed_percent, 2, l), m(b.fixed),
        m(b.fixed), number_trim(i.monthly_price, 2, l), b.fixed_gpus,
        m(b.fixed_remainder), pick(l, "left", "剩余"),
        m(b.budget), number_trim(i.budget_elastic_percent, 2, l), m(b.elastic),
        m(b.elastic), number_trim(i.on_demand_price, 4, l), number_trim(b.on_demand_gpu_hours, 2, l),
        m(b.budget), number_trim(i.budget_spot_percent, 2, l), m(b.spot),
        m(b.spot), number_trim(i.spot_price, 4, l), number_trim(b.spot_gpu_hours, 2, l),
    );
    Ok(BudgetView {
        fixed: Shown::new(m(b.fixed), b.fixed.to_plain_string()),
        fixed_gpus: Shown::new(gpus, b.fixed_gpus.to_string()),
        elastic: bought(
            b.elastic,
            b.on_demand_gpu_hours,
            (" on-demand GPU-hours", " 按量 GPU 小时"),
        ),
        spot: bought(
            b.spot,
            b.spot_gpu_hours,
            (" spot GPU-hours", " 竞价 GPU 小时"),
        ),
        implied,
        formula,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::budget::{budget_split, implied_split, DEFAULT_SHARES};
    use crate::core::error::{Field, Problem};
    use crate::core::money::Money;
    use crate::core::prices::example_prices;

    /// B = 100 000 at 60 / 25 / 15, P = 9 000, r = 25, s = 8: 60 000 buys ⌊60 000 / 9 000⌋ = 6
    /// GPUs (6 000 left), 25 000 buys 1 000 on-demand GPU-hours, 15 000 buys 1 875 spot
    /// GPU-hours. A plan of 18 000 + 2 500 + 1 500 = 22 000 implies 81.8 % / 11.4 % / 6.8 %.
    #[test]
    fn hand_example_in_both_languages() {
        let split = budget_split(100_000.0, DEFAULT_SHARES, &example_prices(), 8.0, None);
        let implied = Ok(implied_split(
            Money::from_cents(1_800_000),
            Money::from_cents(250_000),
            Money::from_cents(150_000),
        ));
        let inputs = PlanInputs::default();
        let en = present(Lang::En, "¥", &split, &implied, &inputs).unwrap();
        assert_eq!(en.fixed, Shown::new("¥60,000.00", "60000.00"));
        assert_eq!(
            en.fixed_gpus,
            Shown::new("buys 6 monthly GPUs (¥6,000.00 left over)", "6")
        );
        assert_eq!(
            en.elastic,
            Shown::new("¥25,000.00 — 1,000 on-demand GPU-hours", "25000.00")
        );
        assert_eq!(
            en.spot,
            Shown::new("¥15,000.00 — 1,875 spot GPU-hours", "15000.00")
        );
        assert_eq!(
            en.implied.as_deref(),
            Some("81.8 % / 11.4 % / 6.8 % (of ¥22,000.00)")
        );
        assert_eq!(
            en.formula,
            "¥100,000.00 × 60 % = ¥60,000.00 → ⌊¥60,000.00 / 9,000⌋ = 6 (¥6,000.00 left);  \
             ¥100,000.00 × 25 % = ¥25,000.00 → ¥25,000.00 / 25 = 1,000 h;  \
             ¥100,000.00 × 15 % = ¥15,000.00 → ¥15,000.00 / 8 = 1,875 h"
        );
        let zh = present(Lang::Zh, "¥", &split, &implied, &inputs).unwrap();
        assert_eq!(zh.fixed_gpus.text, "可包月 6 张 GPU（剩余 ¥6,000.00）");
        assert_eq!(zh.elastic.text, "¥25,000.00 — 1,000 按量 GPU 小时");
        assert_eq!(zh.spot.text, "¥15,000.00 — 1,875 竞价 GPU 小时");
        assert_eq!(
            zh.implied.as_deref(),
            Some("81.8% / 11.4% / 6.8%（共 ¥22,000.00）")
        );
        assert!(zh.formula.contains("(¥6,000.00 剩余)"), "{}", zh.formula);
    }

    /// 10 000 at 100 % fixed buys one GPU (1 000 left); without an implied split there is no
    /// sentence; bad shares stop the card.
    #[test]
    fn one_gpu_no_implied_split_and_errors() {
        let prices = example_prices();
        let split = budget_split(10_000.0, [100.0, 0.0, 0.0], &prices, 8.0, None);
        let no_plan = Err(InputError::new(
            Field::OnDemandPrice,
            Problem::MustBePositive,
        ));
        let v = present(Lang::En, "$", &split, &no_plan, &PlanInputs::default()).unwrap();
        assert_eq!(
            v.fixed_gpus.text,
            "buys 1 monthly GPU ($1,000.00 left over)"
        );
        assert_eq!(v.implied, None);
        let bad = budget_split(10_000.0, [70.0, 25.0, 15.0], &prices, 8.0, None);
        assert!(
            present(Lang::En, "$", &bad, &no_plan, &PlanInputs::default())
                .unwrap_err()
                .starts_with("Budget shares")
        );
    }
}
