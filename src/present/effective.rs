//! § 2 The effective-cost card: what a monthly GPU used h hours a month really costs.

use super::{failed, Presented, Shown};
use crate::core::effective::{Cheaper, EffectiveCost};
use crate::core::error::InputError;
use crate::format::Lang;
use crate::format::{money, number_trim, percent, plain};
use crate::i18n::pick;

#[derive(Debug, Clone, PartialEq)]
pub struct EffectiveView {
    /// Where h and the GPU count come from (the history or the sliders).
    pub source: String,
    pub hourly: Shown,
    pub idle_hours: Shown,
    pub idle_cost: Shown,
    pub on_demand: Shown,
    pub fleet_idle: Shown,
    /// Which of monthly and on demand is cheaper at h, and by how much.
    pub verdict: String,
    pub formula: String,
}

/// `p`, `r`: the monthly and on-demand prices typed; `from_history`: a history was read.
pub fn present(
    l: Lang,
    cur: &str,
    ec: &Result<EffectiveCost, InputError>,
    p: f64,
    r: f64,
    from_history: bool,
) -> Presented<EffectiveView> {
    let ec = ec.as_ref().or_else(|e| failed(l, e))?;
    let h = number_trim(ec.used_hours, 1, l);
    let per_hour = ec.cost_per_used_hour.map(|m| money(m, cur, l));
    let verdict = match (ec.cheaper, l) {
        (Cheaper::OnDemand, Lang::En) => format!(
            "At {h} h a month, on-demand is cheaper by {} per GPU.",
            money(ec.difference, cur, l)
        ),
        (Cheaper::OnDemand, Lang::Zh) => {
            format!(
                "每月用 {h} 小时，按量每卡便宜 {}。",
                money(ec.difference, cur, l)
            )
        }
        (Cheaper::Monthly, Lang::En) => format!(
            "At {h} h a month, monthly is cheaper by {} per GPU.",
            money(-ec.difference, cur, l)
        ),
        (Cheaper::Monthly, Lang::Zh) => {
            format!(
                "每月用 {h} 小时，包月每卡便宜 {}。",
                money(-ec.difference, cur, l)
            )
        }
        (Cheaper::Same, Lang::En) => format!("At {h} h a month both cost the same."),
        (Cheaper::Same, Lang::Zh) => format!("每月用 {h} 小时，两者成本相同。"),
    };
    let source = match (from_history, l) {
        (true, Lang::En) => format!(
            "From your history: each of the {} committed GPU(s) worked {h} h a month on average.",
            ec.gpus
        ),
        (true, Lang::Zh) => format!(
            "来自你的用量历史：{} 张包月 GPU 平均每张每月工作 {h} 小时。",
            ec.gpus
        ),
        (false, Lang::En) => {
            format!(
                "From the sliders: {} GPU(s), each used {h} h a month.",
                ec.gpus
            )
        }
        (false, Lang::Zh) => format!("来自滑块：{} 张 GPU，每张每月使用 {h} 小时。", ec.gpus),
    };
    let hourly_text = format!(
        "{}{}",
        per_hour
            .clone()
            .unwrap_or_else(|| pick(l, "— (no hour used)", "—（未使用）").to_string()),
        ec.multiple_of_on_demand
            .map(|x| format!(
                " · {}× {}",
                number_trim(x, 2, l),
                pick(l, "on-demand", "按量价")
            ))
            .unwrap_or_default()
    );
    let month = number_trim(ec.used_hours + ec.idle_hours, 0, l);
    let formula = format!(
        "P / h = {} / {} = {};  {}: P·(H − h)/H = {} × ({} − {}) / {} = {};  r·h = {} × {} = {}",
        number_trim(p, 2, l),
        h,
        per_hour.unwrap_or_else(|| "—".into()),
        pick(l, "idle", "闲置"),
        number_trim(p, 2, l),
        month,
        h,
        month,
        money(ec.idle_money, cur, l),
        number_trim(r, 4, l),
        h,
        money(ec.on_demand, cur, l),
    );
    Ok(EffectiveView {
        source,
        hourly: Shown::new(
            hourly_text,
            ec.cost_per_used_hour
                .map(|m| m.to_plain_string())
                .unwrap_or_default(),
        ),
        idle_hours: Shown::new(
            format!(
                "{} h ({})",
                number_trim(ec.idle_hours, 1, l),
                percent(ec.idle_fraction, 1, l)
            ),
            plain(ec.idle_hours, 2),
        ),
        idle_cost: Shown::new(
            money(ec.idle_money, cur, l),
            ec.idle_money.to_plain_string(),
        ),
        on_demand: Shown::new(money(ec.on_demand, cur, l), ec.on_demand.to_plain_string()),
        fleet_idle: Shown::new(
            format!("{} ({} GPU)", money(ec.fleet_idle_money, cur, l), ec.gpus),
            ec.fleet_idle_money.to_plain_string(),
        ),
        verdict,
        formula,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::effective::effective_cost;
    use crate::core::error::{Field, Problem};
    use crate::core::prices::example_prices;

    /// P = 9 000, H = 730, r = 25, 4 GPUs used 200 h: a used hour costs 9 000 / 200 = 45
    /// (1.8× on demand); 530 idle hours (72.6 %) burn 9 000 × 530 / 730 = 6 534.25 per GPU,
    /// 4 × 6 534.25 = 26 137.00 for the fleet (the fleet is four rounded GPUs).
    #[test]
    fn hand_example_in_both_languages() {
        let ec = effective_cost(&example_prices(), 200.0, 4);
        let en = present(Lang::En, "¥", &ec, 9000.0, 25.0, false).unwrap();
        assert_eq!(en.hourly, Shown::new("¥45.00 · 1.8× on-demand", "45.00"));
        assert_eq!(en.idle_hours, Shown::new("530 h (72.6 %)", "530"));
        assert_eq!(en.idle_cost, Shown::new("¥6,534.25", "6534.25"));
        assert_eq!(en.on_demand, Shown::new("¥5,000.00", "5000.00"));
        assert_eq!(en.fleet_idle.text, "¥26,137.00 (4 GPU)");
        assert_eq!(
            en.verdict,
            "At 200 h a month, on-demand is cheaper by ¥4,000.00 per GPU."
        );
        assert_eq!(
            en.source,
            "From the sliders: 4 GPU(s), each used 200 h a month."
        );
        let zh = present(Lang::Zh, "¥", &ec, 9000.0, 25.0, true).unwrap();
        assert_eq!(zh.verdict, "每月用 200 小时，按量每卡便宜 ¥4,000.00。");
        assert_eq!(
            zh.source,
            "来自你的用量历史：4 张包月 GPU 平均每张每月工作 200 小时。"
        );
        assert!(zh
            .formula
            .starts_with("P / h = 9,000 / 200 = ¥45.00;  闲置"));
    }

    #[test]
    fn no_hour_used_and_errors() {
        let ec = effective_cost(&example_prices(), 0.0, 1);
        let v = present(Lang::En, "$", &ec, 9000.0, 25.0, false).unwrap();
        assert_eq!(v.hourly, Shown::new("— (no hour used)", ""));
        assert!(v.verdict.contains("monthly") || v.verdict.contains("on-demand"));
        let err = Err(InputError::new(
            Field::OnDemandPrice,
            Problem::MustBePositive,
        ));
        assert!(present(Lang::En, "$", &err, 9000.0, 0.0, false)
            .unwrap_err()
            .contains("must be greater than 0"));
    }
}
