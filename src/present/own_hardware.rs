//! § 12 The own-hardware card: P_own per GPU per month, its parts, and its break-even
//! against on demand in hours per day.

use super::{failed, Presented, Shown};
use crate::core::error::InputError;
use crate::core::money::Money;
use crate::core::own_hw::OwnHardware;
use crate::core::plan::PlanInputs;
use crate::format::Lang;
use crate::format::{money, number_trim, percent, plain};
use crate::i18n::pick;

#[derive(Debug, Clone, PartialEq)]
pub struct OwnHardwareView {
    /// The warning shown when owning never pays against on demand (then no verdict).
    pub never_pays: Option<String>,
    /// P_own.
    pub monthly: Shown,
    pub depreciation: Shown,
    pub electricity: Shown,
    /// The kWh inside the electricity figure.
    pub energy_kwh: Shown,
    pub colo_ops: Shown,
    /// Break-even in hours a day ("4.77 h a day"), with the hours a month and the
    /// utilization inside it.
    pub breakeven_per_day: Shown,
    pub breakeven_hours: Shown,
    pub breakeven_utilization: Shown,
    pub saving_vs_monthly: Shown,
    /// What owning costs and when it pays (absent when it never pays).
    pub verdict: Option<String>,
    pub formula: String,
}

/// `inputs`: the own-hardware inputs, H and the on-demand price r typed.
pub fn present(
    l: Lang,
    cur: &str,
    own: &Result<OwnHardware, InputError>,
    inputs: &PlanInputs,
) -> Presented<OwnHardwareView> {
    let o = own.as_ref().or_else(|e| failed(l, e))?;
    let m = |x: Money| money(x, cur, l);
    let p_own = m(o.monthly);
    let per_day = number_trim(o.breakeven_hours_per_day, 2, l);
    let h = inputs.hours_per_month;
    let never_pays = o.never_pays.then(|| match l {
        Lang::En => format!(
            "⚠ Owning never pays against on demand: {p_own} a month buys more than the {} hours of a month on demand ({} GPU-hours needed). Rent instead.",
            number_trim(h, 0, l),
            number_trim(o.breakeven_hours, 1, l)
        ),
        Lang::Zh => format!(
            "⚠ 自购永远比按量贵：每月 {p_own} 足够按量用满一个月的 {} 小时（需要 {} 个 GPU 小时才回本）。请租用。",
            number_trim(h, 0, l),
            number_trim(o.breakeven_hours, 1, l)
        ),
    });
    let s = o.saving_vs_monthly_rent;
    let rent = m(if s.is_negative() { -s } else { s });
    let verdict = (!o.never_pays).then(|| {
        let vs_rent = match (s.is_negative(), l) {
            (true, Lang::En) => format!("costs {rent} a month more than renting it monthly"),
            (true, Lang::Zh) => format!("比包月租用每月贵 {rent}"),
            (false, Lang::En) => format!("saves {rent} a month against renting it monthly"),
            (false, Lang::Zh) => format!("比包月租用每月省 {rent}"),
        };
        match l {
            Lang::En => format!(
                "Owning one GPU costs {p_own} a month. It beats on demand if the GPU is busy more than {per_day} h a day, and {vs_rent}."
            ),
            Lang::Zh => format!(
                "自购一张 GPU 每月 {p_own}。每天使用超过 {per_day} 小时就比按量便宜，并且{vs_rent}。"
            ),
        }
    });
    let formula = format!(
        "P_own = {} / {} + {} kW × {} × {} h × {} + {} = {} + {} + {} = {};  P_own / r = {} / {} = {} h;  × 24 / {} = {} h/{}",
        number_trim(inputs.own_purchase, 2, l),
        number_trim(inputs.own_depreciation_months, 2, l),
        number_trim(inputs.own_power_kw, 3, l),
        number_trim(inputs.own_pue, 2, l),
        number_trim(h, 0, l),
        number_trim(inputs.own_electricity_price, 4, l),
        number_trim(inputs.own_colo_ops_monthly, 2, l),
        m(o.depreciation),
        m(o.electricity),
        m(o.colo_ops),
        p_own,
        o.monthly.to_plain_string(),
        number_trim(inputs.on_demand_price, 2, l),
        number_trim(o.breakeven_hours, 2, l),
        number_trim(h, 0, l),
        per_day,
        pick(l, "day", "天"),
    );
    let figure = |x: Money| Shown::new(m(x), x.to_plain_string());
    Ok(OwnHardwareView {
        never_pays,
        monthly: Shown::new(p_own.clone(), o.monthly.to_plain_string()),
        depreciation: figure(o.depreciation),
        electricity: figure(o.electricity),
        energy_kwh: Shown::new(number_trim(o.energy_kwh, 1, l), plain(o.energy_kwh, 2)),
        colo_ops: figure(o.colo_ops),
        breakeven_per_day: Shown::new(
            format!("{per_day}{}", pick(l, " h a day", " 小时/天")),
            plain(o.breakeven_hours_per_day, 2),
        ),
        breakeven_hours: Shown::new(
            number_trim(o.breakeven_hours, 1, l),
            plain(o.breakeven_hours, 2),
        ),
        breakeven_utilization: Shown::new(
            percent(o.breakeven_utilization, 1, l),
            plain(o.breakeven_utilization, 4),
        ),
        saving_vs_monthly: figure(o.saving_vs_monthly_rent),
        verdict,
        formula,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::plan::plan;

    /// The card as the page presents it from `inputs`.
    fn presented(l: Lang, cur: &str, inputs: &PlanInputs) -> Presented<OwnHardwareView> {
        present(l, cur, &plan(inputs).own_hardware, inputs)
    }

    /// The defaults: 100 000 / 36 = 2 777.78; 0.4 kW × 1.5 × 730 h = 438 kWh × 0.8 = 350.40;
    /// colo 500.00 → P_own = 3 628.18. / 25 = 145.1272 h a month → × 24 / 730 = 4.77 h a
    /// day, 145.1272 / 730 = 19.9 %; against renting at 9 000: 9 000 − 3 628.18 = 5 371.82.
    #[test]
    fn hand_example_in_both_languages() {
        let inputs = PlanInputs::default();
        let en = presented(Lang::En, "¥", &inputs).unwrap();
        assert_eq!(en.never_pays, None);
        assert_eq!(en.monthly, Shown::new("¥3,628.18", "3628.18"));
        assert_eq!(en.depreciation, Shown::new("¥2,777.78", "2777.78"));
        assert_eq!(en.electricity, Shown::new("¥350.40", "350.40"));
        assert_eq!(en.energy_kwh, Shown::new("438", "438"));
        assert_eq!(en.colo_ops, Shown::new("¥500.00", "500.00"));
        assert_eq!(en.breakeven_per_day, Shown::new("4.77 h a day", "4.77"));
        assert_eq!(en.breakeven_hours, Shown::new("145.1", "145.13"));
        assert_eq!(en.breakeven_utilization, Shown::new("19.9 %", "0.1988"));
        assert_eq!(en.saving_vs_monthly, Shown::new("¥5,371.82", "5371.82"));
        assert_eq!(
            en.verdict.as_deref(),
            Some("Owning one GPU costs ¥3,628.18 a month. It beats on demand if the GPU is busy more than 4.77 h a day, and saves ¥5,371.82 a month against renting it monthly.")
        );
        assert_eq!(
            en.formula,
            "P_own = 100,000 / 36 + 0.4 kW × 1.5 × 730 h × 0.8 + 500 = ¥2,777.78 + ¥350.40 + ¥500.00 = ¥3,628.18;  \
             P_own / r = 3628.18 / 25 = 145.13 h;  × 24 / 730 = 4.77 h/day"
        );
        let zh = presented(Lang::Zh, "¥", &inputs).unwrap();
        assert_eq!(zh.breakeven_per_day.text, "4.77 小时/天");
        assert_eq!(zh.breakeven_utilization.text, "19.9%");
        assert_eq!(
            zh.verdict.as_deref(),
            Some("自购一张 GPU 每月 ¥3,628.18。每天使用超过 4.77 小时就比按量便宜，并且比包月租用每月省 ¥5,371.82。")
        );
        assert!(zh.formula.ends_with("× 24 / 730 = 4.77 h/天"));
    }

    /// 1 000 000 over 12 months = 83 333.33 + 350.40 + 500.00 = 84 183.73 a month;
    /// / 25 = 3 367.3 h > 730 → never pays; against renting 9 000 − 84 183.73 = −75 183.73.
    #[test]
    fn never_pays_and_errors() {
        let inputs = PlanInputs {
            own_purchase: 1_000_000.0,
            own_depreciation_months: 12.0,
            ..PlanInputs::default()
        };
        let en = presented(Lang::En, "¥", &inputs).unwrap();
        assert_eq!(en.verdict, None);
        assert_eq!(
            en.never_pays.as_deref(),
            Some("⚠ Owning never pays against on demand: ¥84,183.73 a month buys more than the 730 hours of a month on demand (3,367.3 GPU-hours needed). Rent instead.")
        );
        assert_eq!(en.saving_vs_monthly, Shown::new("-¥75,183.73", "-75183.73"));
        let zh = presented(Lang::Zh, "¥", &inputs).unwrap();
        assert_eq!(
            zh.never_pays.as_deref(),
            Some("⚠ 自购永远比按量贵：每月 ¥84,183.73 足够按量用满一个月的 730 小时（需要 3,367.3 个 GPU 小时才回本）。请租用。")
        );

        // Renting monthly cheaper than owning, yet owning beats on demand: P = 3 000.
        let dear = PlanInputs {
            monthly_price: 3000.0,
            ..PlanInputs::default()
        };
        let v = presented(Lang::En, "¥", &dear).unwrap();
        assert!(v
            .verdict
            .unwrap()
            .ends_with("and costs ¥628.18 a month more than renting it monthly."));

        let bad = PlanInputs {
            own_pue: 0.5,
            ..PlanInputs::default()
        };
        assert!(presented(Lang::En, "$", &bad).unwrap_err().contains("PUE"));
    }
}
