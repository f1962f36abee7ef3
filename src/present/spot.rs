//! § 8 The spot card: the price per useful GPU-hour with checkpoints (Young's interval, the
//! first-order validity range) and the expected run of a job without checkpoints.
//! δ and R are typed in minutes but the engine keeps hours; the texts here show hours.

use super::{failed, Presented, Shown};
use crate::core::error::InputError;
use crate::core::money::Money;
use crate::core::plan::PlanInputs;
use crate::core::spot::{NoCheckpointRun, SpotEffective, FIRST_ORDER_LIMIT};
use crate::format::Lang;
use crate::format::{money, number_trim, percent, plain};
use crate::i18n::pick;

/// With checkpoints.
#[derive(Debug, Clone, PartialEq)]
pub struct SpotView {
    /// Spot costs more than on demand even with checkpoints (`spot-warning`).
    pub warning: Option<String>,
    pub effective_price: Shown,
    pub saving: Shown,
    pub young_interval: Shown,
    /// τ used, and whose it is (yours or Young's).
    pub interval: Shown,
    pub checkpoint_overhead: Shown,
    pub reclaim_overhead: Shown,
    /// Whether the first-order formula is accurate (`data-value` "true" / "false").
    pub first_order: Shown,
    /// The saving against on demand, when spot is the cheaper (`spot-verdict`).
    pub verdict: Option<String>,
    pub formula: String,
}

/// Without checkpoints: a job that restarts from zero after every reclaim.
#[derive(Debug, Clone, PartialEq)]
pub struct NoCheckpointView {
    /// Spot without checkpoints costs more than on demand (`spot-no-checkpoint-warning`).
    pub warning: Option<String>,
    pub hours: Shown,
    pub cost: Shown,
    pub on_demand: Shown,
    pub price: Shown,
    pub formula: String,
}

/// § 8 with checkpoints; `inputs`: λ, δ, R, r and whether τ was typed.
pub fn present(
    l: Lang,
    cur: &str,
    se: &Result<SpotEffective, InputError>,
    inputs: &PlanInputs,
) -> Presented<SpotView> {
    let se = se.as_ref().or_else(|e| failed(l, e))?;
    let lambda = inputs.interruption_rate;
    let delta = inputs.checkpoint_save_hours;
    let restart = inputs.restart_hours;
    let eff = money(se.effective_price_money, cur, l);
    let on_demand = money(Money::from_f64(inputs.on_demand_price), cur, l);
    let hours = |v: Option<f64>| {
        v.map(|h| format!("{}{}", number_trim(h, 2, l), pick(l, " h", " 小时")))
            .unwrap_or_else(|| pick(l, "— (never reclaimed)", "—（从不回收）").to_string())
    };
    let validity_product = se
        .interval_hours
        .map(|t| lambda * (t + restart))
        .unwrap_or(0.0);
    let verdict = if se.costs_more_than_on_demand {
        None
    } else {
        let saving = money(se.saving_vs_on_demand, cur, l);
        Some(match l {
            Lang::En => format!(
                "Each useful spot GPU-hour costs {eff} with checkpoints: {saving} less than on demand ({on_demand})."
            ),
            Lang::Zh => format!(
                "带检查点时，竞价实例每有效 GPU 小时 {eff}，比按量（{on_demand}）便宜 {saving}。"
            ),
        })
    };
    let warning = se.costs_more_than_on_demand.then(|| {
        let extra = money(-se.saving_vs_on_demand, cur, l);
        match l {
            Lang::En => format!(
                "⚠ Spot costs more than on demand here: {eff} per useful GPU-hour with checkpoints, {extra} above the on-demand {on_demand}. Use on demand for this work."
            ),
            Lang::Zh => format!(
                "⚠ 这种情况下竞价比按量还贵：带检查点每有效 GPU 小时 {eff}，比按量 {on_demand} 高 {extra}。这类任务请用按量。"
            ),
        }
    });
    let formula = match se.interval_hours {
        Some(tau) => {
            let tau_line = match (se.young_interval_hours, inputs.checkpoint_interval_hours) {
                (Some(_), None) => format!(
                    "τ = √(2δ/λ) = √(2 × {} / {}) = {} h;  ",
                    number_trim(delta, 4, l),
                    number_trim(lambda, 4, l),
                    number_trim(tau, 3, l)
                ),
                _ => format!("τ = {} h;  ", number_trim(tau, 3, l)),
            };
            format!(
                "{tau_line}s_eff = s·(1 + δ/τ + λ(τ/2 + R)) = {} × (1 + {} / {} + {} × ({} / 2 + {})) = {} × {} = {};  λ(τ + R) = {}, δ/τ = {} ({} ≤ {})",
                number_trim(se.list_price.to_f64(), 2, l),
                number_trim(delta, 4, l),
                number_trim(tau, 3, l),
                number_trim(lambda, 4, l),
                number_trim(tau, 3, l),
                number_trim(restart, 4, l),
                number_trim(se.list_price.to_f64(), 2, l),
                number_trim(se.factor, 4, l),
                eff,
                number_trim(validity_product, 4, l),
                number_trim(se.checkpoint_overhead, 4, l),
                pick(l, "first order valid while both", "两者都"),
                number_trim(FIRST_ORDER_LIMIT, 1, l),
            )
        }
        None => format!("λ = 0: s_eff = s = {eff}"),
    };
    let product = number_trim(validity_product, 3, l);
    let overhead = number_trim(se.checkpoint_overhead, 3, l);
    let limit = number_trim(FIRST_ORDER_LIMIT, 1, l);
    let valid_text = match (se.first_order_valid, l) {
        (true, Lang::En) => {
            format!("Yes: λ(τ + R) = {product} and δ/τ = {overhead} are both ≤ {limit}.")
        }
        (true, Lang::Zh) => format!("是：λ(τ + R) = {product}，δ/τ = {overhead}，均 ≤ {limit}。"),
        (false, Lang::En) => format!(
            "⚠ No: λ(τ + R) = {product} and δ/τ = {overhead} must both be ≤ {limit}. Outside this range the true overhead is larger than shown."
        ),
        (false, Lang::Zh) => format!(
            "⚠ 否：λ(τ + R) = {product}、δ/τ = {overhead} 须都 ≤ {limit}。超出此范围时，实际开销比这里显示的更大。"
        ),
    };
    let whose = if inputs.checkpoint_interval_hours.is_some() {
        pick(l, " (yours)", "（自定）")
    } else if se.interval_hours.is_some() {
        pick(l, " (Young's optimum)", "（Young 最优）")
    } else {
        ""
    };
    let value_hours = |v: Option<f64>| v.map(|v| plain(v, 2)).unwrap_or_default();
    Ok(SpotView {
        warning,
        effective_price: Shown::new(
            format!(
                "{eff} ({} {} × {})",
                pick(l, "list price", "标价"),
                money(se.list_price, cur, l),
                number_trim(se.factor, 4, l)
            ),
            se.effective_price_money.to_plain_string(),
        ),
        saving: Shown::new(
            money(se.saving_vs_on_demand, cur, l),
            se.saving_vs_on_demand.to_plain_string(),
        ),
        young_interval: Shown::new(
            hours(se.young_interval_hours),
            value_hours(se.young_interval_hours),
        ),
        interval: Shown::new(
            format!("{}{whose}", hours(se.interval_hours)),
            value_hours(se.interval_hours),
        ),
        checkpoint_overhead: Shown::new(
            percent(se.checkpoint_overhead, 2, l),
            plain(se.checkpoint_overhead, 4),
        ),
        reclaim_overhead: Shown::new(
            percent(se.reclaim_overhead, 2, l),
            plain(se.reclaim_overhead, 4),
        ),
        first_order: Shown::new(
            valid_text,
            if se.first_order_valid {
                "true"
            } else {
                "false"
            },
        ),
        verdict,
        formula,
    })
}

/// § 8 without checkpoints; `inputs`: λ, R, s and r.
pub fn present_no_checkpoint(
    l: Lang,
    cur: &str,
    n: &Result<NoCheckpointRun, InputError>,
    inputs: &PlanInputs,
) -> Presented<NoCheckpointView> {
    let n = n.as_ref().or_else(|e| failed(l, e))?;
    let lambda = inputs.interruption_rate;
    let cost = money(n.expected_cost, cur, l);
    let on_demand = money(n.on_demand_cost, cur, l);
    let warning = n.costs_more_than_on_demand.then(|| match l {
        Lang::En => format!(
            "⚠ Without checkpoints this job costs more on spot ({cost}) than on demand ({on_demand}). Add checkpoints or run it on demand."
        ),
        Lang::Zh => format!(
            "⚠ 不做检查点时，这个任务用竞价（{cost}）比按量（{on_demand}）还贵。请加检查点，或改用按量。"
        ),
    });
    let formula = if lambda > 0.0 {
        format!(
            "E[wall] = (1/λ + R)(e^(λJ) − 1) = ({} + {}) × (e^{} − 1) = {} h;  s × E[wall] = {} × {} = {};  r × J = {} × {} = {}",
            number_trim(1.0 / lambda, 3, l),
            number_trim(inputs.restart_hours, 4, l),
            number_trim(lambda * n.job_hours, 4, l),
            number_trim(n.expected_hours, 2, l),
            number_trim(inputs.spot_price, 2, l),
            number_trim(n.expected_hours, 2, l),
            cost,
            number_trim(inputs.on_demand_price, 2, l),
            number_trim(n.job_hours, 2, l),
            on_demand,
        )
    } else {
        format!("λ = 0: E[wall] = J = {} h", number_trim(n.job_hours, 2, l))
    };
    Ok(NoCheckpointView {
        warning,
        hours: Shown::new(
            format!(
                "{}{}",
                number_trim(n.expected_hours, 2, l),
                pick(l, " h", " 小时")
            ),
            plain(n.expected_hours, 2),
        ),
        cost: Shown::new(cost, n.expected_cost.to_plain_string()),
        on_demand: Shown::new(on_demand, n.on_demand_cost.to_plain_string()),
        price: Shown::new(
            money(n.effective_price, cur, l),
            n.effective_price.to_plain_string(),
        ),
        formula,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::error::{Field, Problem};
    use crate::core::plan::plan;

    /// formulas.md § 8: s = 8, r = 25, λ = 0.02/h, δ = 0.04 h, R = 0.5 h → Young's
    /// τ = √(2 × 0.04 / 0.02) = 2 h; δ/τ = 0.02, λ(τ/2 + R) = 0.02 × 1.5 = 0.03; factor 1.05
    /// → 8 × 1.05 = 8.40, 25 − 8.40 = 16.60 saved; λ(τ + R) = 0.05 and δ/τ = 0.02 ≤ 0.1.
    fn hand_inputs() -> PlanInputs {
        PlanInputs {
            checkpoint_save_hours: 0.04,
            restart_hours: 0.5,
            ..PlanInputs::default()
        }
    }

    /// λ = 1/h, R = 2 h: reclaimed every hour, two hours to restart.
    fn reclaimed_hourly() -> PlanInputs {
        PlanInputs {
            interruption_rate: 1.0,
            restart_hours: 2.0,
            ..PlanInputs::default()
        }
    }

    /// λ = 0: never reclaimed.
    fn never_reclaimed() -> PlanInputs {
        PlanInputs {
            interruption_rate: 0.0,
            ..PlanInputs::default()
        }
    }

    /// The with-checkpoints card as the page presents it from `i`.
    fn with_checkpoints(l: Lang, cur: &str, i: &PlanInputs) -> SpotView {
        present(l, cur, &plan(i).spot, i).unwrap()
    }

    /// The without-checkpoints card as the page presents it from `i`, in yuan.
    fn without_checkpoints(l: Lang, i: &PlanInputs) -> NoCheckpointView {
        present_no_checkpoint(l, "¥", &plan(i).spot_no_checkpoint, i).unwrap()
    }

    #[test]
    fn with_checkpoints_hand_example_in_both_languages() {
        let i = hand_inputs();
        let en = with_checkpoints(Lang::En, "¥", &i);
        assert_eq!(
            en.effective_price,
            Shown::new("¥8.40 (list price ¥8.00 × 1.05)", "8.40")
        );
        assert_eq!(en.saving, Shown::new("¥16.60", "16.60"));
        assert_eq!(en.young_interval, Shown::new("2 h", "2"));
        assert_eq!(en.interval, Shown::new("2 h (Young's optimum)", "2"));
        assert_eq!(en.checkpoint_overhead, Shown::new("2 %", "0.02"));
        assert_eq!(en.reclaim_overhead, Shown::new("3 %", "0.03"));
        assert_eq!(
            en.first_order,
            Shown::new(
                "Yes: λ(τ + R) = 0.05 and δ/τ = 0.02 are both ≤ 0.1.",
                "true"
            )
        );
        assert_eq!(
            en.verdict.as_deref(),
            Some("Each useful spot GPU-hour costs ¥8.40 with checkpoints: ¥16.60 less than on demand (¥25.00).")
        );
        assert_eq!(en.warning, None);
        assert_eq!(
            en.formula,
            "τ = √(2δ/λ) = √(2 × 0.04 / 0.02) = 2 h;  s_eff = s·(1 + δ/τ + λ(τ/2 + R)) = 8 × (1 + 0.04 / 2 + 0.02 × (2 / 2 + 0.5)) = 8 × 1.05 = ¥8.40;  λ(τ + R) = 0.05, δ/τ = 0.02 (first order valid while both ≤ 0.1)"
        );
        let zh = with_checkpoints(Lang::Zh, "¥", &i);
        assert_eq!(zh.interval.text, "2 小时（Young 最优）");
        assert_eq!(zh.checkpoint_overhead.text, "2%");
        assert_eq!(
            zh.first_order.text,
            "是：λ(τ + R) = 0.05，δ/τ = 0.02，均 ≤ 0.1。"
        );
        assert_eq!(
            zh.verdict.as_deref(),
            Some("带检查点时，竞价实例每有效 GPU 小时 ¥8.40，比按量（¥25.00）便宜 ¥16.60。")
        );
        assert!(zh.formula.ends_with("(两者都 ≤ 0.1)"), "{}", zh.formula);
    }

    /// Own τ = 10 h on the hand example: δ/τ = 0.004, λ(5 + 0.5) = 0.11 → factor 1.114
    /// → 8.912 → 8.91; λ(τ + R) = 0.21 > 0.1: outside the first-order range.
    #[test]
    fn own_interval_outside_the_first_order_range() {
        let i = PlanInputs {
            checkpoint_interval_hours: Some(10.0),
            ..hand_inputs()
        };
        let v = with_checkpoints(Lang::En, "$", &i);
        assert_eq!(v.interval, Shown::new("10 h (yours)", "10"));
        assert_eq!(v.young_interval.value, "2");
        assert_eq!(v.effective_price.value, "8.91");
        assert_eq!(v.first_order.value, "false");
        assert!(v
            .first_order
            .text
            .starts_with("⚠ No: λ(τ + R) = 0.21 and δ/τ = 0.004 must both be ≤ 0.1."));
        assert!(v.formula.starts_with("τ = 10 h;  s_eff"), "{}", v.formula);
    }

    /// λ = 1/h, δ = 0.5 h, R = 2 h → τ = 1 h, factor 1 + 0.5 + 1 × 2.5 = 4 → 32.00 > 25:
    /// the warning (7.00 above), no verdict. λ = 0: never reclaimed, s_eff = s.
    #[test]
    fn costs_more_than_on_demand_and_never_reclaimed() {
        let i = PlanInputs {
            checkpoint_save_hours: 0.5,
            ..reclaimed_hourly()
        };
        let v = with_checkpoints(Lang::En, "¥", &i);
        assert_eq!(v.verdict, None);
        assert_eq!(v.saving, Shown::new("-¥7.00", "-7.00"));
        assert_eq!(
            v.warning.as_deref(),
            Some("⚠ Spot costs more than on demand here: ¥32.00 per useful GPU-hour with checkpoints, ¥7.00 above the on-demand ¥25.00. Use on demand for this work.")
        );
        let zh = with_checkpoints(Lang::Zh, "¥", &i);
        assert_eq!(
            zh.warning.as_deref(),
            Some("⚠ 这种情况下竞价比按量还贵：带检查点每有效 GPU 小时 ¥32.00，比按量 ¥25.00 高 ¥7.00。这类任务请用按量。")
        );

        let i = never_reclaimed();
        let v = with_checkpoints(Lang::En, "¥", &i);
        assert_eq!(v.young_interval, Shown::new("— (never reclaimed)", ""));
        assert_eq!(v.interval, Shown::new("— (never reclaimed)", ""));
        assert_eq!(v.formula, "λ = 0: s_eff = s = ¥8.00");
        assert_eq!(
            v.first_order.text,
            "Yes: λ(τ + R) = 0 and δ/τ = 0 are both ≤ 0.1."
        );
        let zh = with_checkpoints(Lang::Zh, "¥", &i);
        assert_eq!(zh.interval.text, "—（从不回收）");
    }

    /// Defaults, J = 8 h, λ = 0.02, R = 0.25 h: (1/0.02 + 0.25)(e^0.16 − 1) = 50.25 ×
    /// 0.1735109 = 8.7189 h; 8 × 8.7189 = 69.75 against 25 × 8 = 200.00; 69.75 / 8 → 8.72.
    #[test]
    fn without_checkpoints_hand_example_in_both_languages() {
        let i = PlanInputs::default();
        let en = without_checkpoints(Lang::En, &i);
        assert_eq!(en.hours, Shown::new("8.72 h", "8.72"));
        assert_eq!(en.cost, Shown::new("¥69.75", "69.75"));
        assert_eq!(en.on_demand, Shown::new("¥200.00", "200.00"));
        assert_eq!(en.price, Shown::new("¥8.72", "8.72"));
        assert_eq!(en.warning, None);
        assert_eq!(
            en.formula,
            "E[wall] = (1/λ + R)(e^(λJ) − 1) = (50 + 0.25) × (e^0.16 − 1) = 8.72 h;  s × E[wall] = 8 × 8.72 = ¥69.75;  r × J = 25 × 8 = ¥200.00"
        );
        let zh = without_checkpoints(Lang::Zh, &i);
        assert_eq!(zh.hours.text, "8.72 小时");

        // λ = 1: 3 × (e^8 − 1) = 8939.87 h, 8 × that = 71 518.99 > 200.00: the warning.
        let zh = without_checkpoints(Lang::Zh, &reclaimed_hourly());
        assert_eq!(zh.cost.value, "71518.99");
        assert_eq!(
            zh.warning.as_deref(),
            Some("⚠ 不做检查点时，这个任务用竞价（¥71,518.99）比按量（¥200.00）还贵。请加检查点，或改用按量。")
        );
        let v = without_checkpoints(Lang::En, &never_reclaimed());
        assert_eq!(v.formula, "λ = 0: E[wall] = J = 8 h");
    }

    #[test]
    fn errors_are_the_messages() {
        let err = Err(InputError::new(
            Field::CheckpointSave,
            Problem::MustBePositive,
        ));
        let i = PlanInputs::default();
        let zh = present(Lang::Zh, "¥", &err, &i).unwrap_err();
        assert!(zh.contains("检查点保存时间必须大于 0"), "{zh}");
        let err = Err(InputError::new(Field::JobLength, Problem::MustBePositive));
        assert!(present_no_checkpoint(Lang::En, "$", &err, &i)
            .unwrap_err()
            .contains("must be greater than 0"));
    }
}
