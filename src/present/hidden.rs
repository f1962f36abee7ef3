//! § 13 The hidden-costs card: storage, public IP, snapshots, egress and auto-stop waste per
//! month, spread over the plan's elastic GPU-hours (§ 9).

use super::{failed, Presented, Shown};
use crate::core::error::InputError;
use crate::core::hidden::HiddenCosts;
use crate::core::money::Money;
use crate::core::plan::PlanInputs;
use crate::format::Lang;
use crate::format::{money, number_trim, plain};
use crate::i18n::pick;

#[derive(Debug, Clone, PartialEq)]
pub struct HiddenView {
    pub storage: Shown,
    pub public_ip: Shown,
    pub snapshots: Shown,
    pub egress: Shown,
    pub autostop_waste: Shown,
    /// The idle GPU-hours inside the auto-stop figure.
    pub autostop_gpu_hours: Shown,
    pub total: Shown,
    /// The plan's elastic GPU-hours (`—` when the plan failed).
    pub elastic_gpu_hours: Shown,
    pub per_elastic_hour: Shown,
    pub effective_on_demand: Shown,
    /// What the hidden costs add, and the real on-demand price.
    pub verdict: String,
    pub formula: String,
}

/// `elastic_gpu_hours`: the plan's elastic GPU-hours per month (`None` when § 9 failed);
/// `inputs`: the hidden costs and the on-demand price r typed.
pub fn present(
    l: Lang,
    cur: &str,
    hidden: &Result<HiddenCosts, InputError>,
    elastic_gpu_hours: Option<f64>,
    inputs: &PlanInputs,
) -> Presented<HiddenView> {
    let h = hidden.as_ref().or_else(|e| failed(l, e))?;
    let m = |x: Money| money(x, cur, l);
    let r = Money::from_f64(inputs.on_demand_price);
    let total = m(h.total);
    let verdict = match (h.per_elastic_gpu_hour, h.effective_on_demand_price) {
        (Some(per), Some(real)) => match l {
            Lang::En => format!(
                "Hidden costs add {total} a month: {} per elastic GPU-hour, so on demand really costs {} per GPU-hour, not {}.",
                m(per),
                m(real),
                m(r)
            ),
            Lang::Zh => format!(
                "隐性成本每月 {total}，摊到每个弹性 GPU 小时 {}，按量的真实价格是每 GPU 小时 {}，而不是 {}。",
                m(per),
                m(real),
                m(r)
            ),
        },
        _ => match l {
            Lang::En => format!(
                "Hidden costs add {total} a month. The plan uses no elastic GPU-hours, so there is nothing to spread them over."
            ),
            Lang::Zh => format!("隐性成本每月 {total}。当前方案没有弹性 GPU 小时，无法分摊。"),
        },
    };
    let hours = elastic_gpu_hours
        .map(|e| number_trim(e, 2, l))
        .unwrap_or_else(|| "—".to_string());
    let or_dash = |x: Option<Money>| x.map(m).unwrap_or_else(|| "—".into());
    let formula = format!(
        "{} + {} + {} + {} × {} + {} × {} × {} h × {} = {};  {} / {} GPU·h = {};  {} + {} = {}",
        number_trim(inputs.hidden_storage_monthly, 2, l),
        number_trim(inputs.hidden_public_ip_monthly, 2, l),
        number_trim(inputs.hidden_snapshots_monthly, 2, l),
        number_trim(inputs.hidden_egress_per_gb, 4, l),
        number_trim(inputs.hidden_egress_gb, 2, l),
        pick(l, "auto-stop", "自动关机"),
        number_trim(inputs.hidden_sessions, 2, l),
        number_trim(inputs.hidden_idle_timeout_hours, 4, l),
        number_trim(inputs.on_demand_price, 2, l),
        total,
        total,
        hours,
        or_dash(h.per_elastic_gpu_hour),
        number_trim(inputs.on_demand_price, 2, l),
        or_dash(h.per_elastic_gpu_hour),
        or_dash(h.effective_on_demand_price),
    );
    let figure = |x: Money| Shown::new(m(x), x.to_plain_string());
    let per_hour = |x: Option<Money>| {
        Shown::new(
            x.map(m).unwrap_or_else(|| {
                pick(l, "— (no elastic hours)", "—（没有弹性小时）").to_string()
            }),
            x.map(|x| x.to_plain_string()).unwrap_or_default(),
        )
    };
    Ok(HiddenView {
        storage: figure(h.storage),
        public_ip: figure(h.public_ip),
        snapshots: figure(h.snapshots),
        egress: figure(h.egress),
        autostop_waste: figure(h.autostop_waste),
        autostop_gpu_hours: Shown::new(
            number_trim(h.autostop_gpu_hours, 2, l),
            plain(h.autostop_gpu_hours, 2),
        ),
        total: Shown::new(total, h.total.to_plain_string()),
        elastic_gpu_hours: Shown::new(
            hours,
            elastic_gpu_hours.map(|e| plain(e, 2)).unwrap_or_default(),
        ),
        per_elastic_hour: per_hour(h.per_elastic_gpu_hour),
        effective_on_demand: per_hour(h.effective_on_demand_price),
        verdict,
        formula,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::plan::plan;

    /// The card as the page presents it: the plan's hidden costs over its elastic GPU-hours.
    fn presented(l: Lang, cur: &str, inputs: &PlanInputs) -> Presented<HiddenView> {
        let out = plan(inputs);
        let e = out.pools.ok().map(|p| p.elastic_gpu_hours);
        present(l, cur, &out.hidden, e, inputs)
    }

    /// The defaults: storage 200 + IP 20 + snapshots 50 + egress 0.8 × 100 = 80 + auto-stop
    /// 60 sessions × 0.5 h = 30 GPU-h × 25 = 750 → 1 100.00 a month. The plan (4 GPUs ×
    /// 200 h, N* = 0) runs 800 elastic GPU-hours: 1 100 / 800 = 1.375 → 1.38 an hour;
    /// 25 + 1.38 = 26.38.
    #[test]
    fn hand_example_in_both_languages() {
        let inputs = PlanInputs::default();
        let en = presented(Lang::En, "¥", &inputs).unwrap();
        assert_eq!(en.storage, Shown::new("¥200.00", "200.00"));
        assert_eq!(en.public_ip, Shown::new("¥20.00", "20.00"));
        assert_eq!(en.snapshots, Shown::new("¥50.00", "50.00"));
        assert_eq!(en.egress, Shown::new("¥80.00", "80.00"));
        assert_eq!(en.autostop_waste, Shown::new("¥750.00", "750.00"));
        assert_eq!(en.autostop_gpu_hours, Shown::new("30", "30"));
        assert_eq!(en.total, Shown::new("¥1,100.00", "1100.00"));
        assert_eq!(en.elastic_gpu_hours, Shown::new("800", "800"));
        assert_eq!(en.per_elastic_hour, Shown::new("¥1.38", "1.38"));
        assert_eq!(en.effective_on_demand, Shown::new("¥26.38", "26.38"));
        assert_eq!(
            en.verdict,
            "Hidden costs add ¥1,100.00 a month: ¥1.38 per elastic GPU-hour, so on demand really costs ¥26.38 per GPU-hour, not ¥25.00."
        );
        assert_eq!(
            en.formula,
            "200 + 20 + 50 + 0.8 × 100 + auto-stop × 60 × 0.5 h × 25 = ¥1,100.00;  \
             ¥1,100.00 / 800 GPU·h = ¥1.38;  25 + ¥1.38 = ¥26.38"
        );
        let zh = presented(Lang::Zh, "¥", &inputs).unwrap();
        assert_eq!(
            zh.verdict,
            "隐性成本每月 ¥1,100.00，摊到每个弹性 GPU 小时 ¥1.38，按量的真实价格是每 GPU 小时 ¥26.38，而不是 ¥25.00。"
        );
        assert!(zh.formula.contains("+ 自动关机 × 60"));
    }

    /// 4 GPUs × 400 h > H* = 360 → N* = 4: no elastic hour to spread the 1 100 over.
    #[test]
    fn no_elastic_hours_and_errors() {
        let inputs = PlanInputs {
            used_hours: 400.0,
            ..PlanInputs::default()
        };
        let zh = presented(Lang::Zh, "¥", &inputs).unwrap();
        assert_eq!(zh.elastic_gpu_hours, Shown::new("0", "0"));
        assert_eq!(zh.per_elastic_hour, Shown::new("—（没有弹性小时）", ""));
        assert_eq!(
            zh.verdict,
            "隐性成本每月 ¥1,100.00。当前方案没有弹性 GPU 小时，无法分摊。"
        );
        let en = present(Lang::En, "$", &plan(&inputs).hidden, None, &inputs).unwrap();
        assert_eq!(en.elastic_gpu_hours, Shown::new("—", ""));
        assert_eq!(en.effective_on_demand.text, "— (no elastic hours)");
        assert!(en.formula.ends_with("$1,100.00 / — GPU·h = —;  25 + — = —"));

        let bad = PlanInputs {
            hidden_egress_gb: -1.0,
            ..PlanInputs::default()
        };
        assert!(present(Lang::En, "$", &plan(&bad).hidden, None, &bad)
            .unwrap_err()
            .contains("Hidden cost"));
    }
}
