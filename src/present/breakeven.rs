//! § 1 The break-even card: the hours a month above which the monthly price pays.

use super::{failed, Presented, Shown};
use crate::core::breakeven::BreakEven;
use crate::core::error::InputError;
use crate::format::Lang;
use crate::format::{number, number_trim, plain};
use crate::i18n::{breakeven_explainer, monthly_never_pays, utilization_of_month};

#[derive(Debug, Clone, PartialEq)]
pub struct BreakevenView {
    /// H* in hours per month.
    pub hours: Shown,
    /// H* as a share of the month; `data-value` in percent.
    pub utilization: Shown,
    /// H* exceeds the month.
    pub never_pays: bool,
    /// The warning then shown (after "⚠ ").
    pub never_pays_text: String,
    pub explainer: String,
    pub formula: String,
}

/// `p`, `r`: the monthly and on-demand prices typed.
pub fn present(
    l: Lang,
    b: &Result<BreakEven, InputError>,
    p: f64,
    r: f64,
) -> Presented<BreakevenView> {
    let b = b.as_ref().or_else(|e| failed(l, e))?;
    let hours = number_trim(b.hours, 1, l);
    let util_pct = b.utilization * 100.0;
    let formula = format!(
        "H* = P / r = {} / {} = {} h;  H* / H = {} / {} = {} %",
        number_trim(p, 2, l),
        number_trim(r, 4, l),
        number(b.hours, 2, l),
        number(b.hours, 2, l),
        number_trim(b.hours_per_month, 0, l),
        number(util_pct, 2, l),
    );
    Ok(BreakevenView {
        explainer: breakeven_explainer(l, &hours),
        hours: Shown::new(hours, plain(b.hours, 2)),
        utilization: Shown::new(
            utilization_of_month(l, b.utilization, b.hours_per_month),
            plain(util_pct, 2),
        ),
        never_pays: b.monthly_never_pays,
        never_pays_text: monthly_never_pays(l, b.hours_per_month),
        formula,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::breakeven::break_even;

    /// 9 000 / 25 = 360 h; 360 / 730 = 49.315… % of the month.
    #[test]
    fn hand_example_in_both_languages() {
        let b = break_even(9000.0, 25.0, 730.0);
        let en = present(Lang::En, &b, 9000.0, 25.0).unwrap();
        assert_eq!(en.hours, Shown::new("360", "360"));
        assert_eq!(
            en.utilization,
            Shown::new("(49.3 % utilization of a 730-hour month)", "49.32")
        );
        assert!(!en.never_pays);
        assert_eq!(
            en.explainer,
            "A GPU used less than 360 hours a month is cheaper on demand; used more, the monthly price wins."
        );
        assert_eq!(
            en.formula,
            "H* = P / r = 9,000 / 25 = 360.00 h;  H* / H = 360.00 / 730 = 49.32 %"
        );
        let zh = present(Lang::Zh, &b, 9000.0, 25.0).unwrap();
        assert_eq!(zh.utilization.text, "（即 730 小时月份的 49.3% 利用率）");
        assert_eq!(
            zh.explainer,
            "每卡每月使用少于 360 小时，按量更便宜；超过则包月更划算。"
        );
    }

    /// 20 000 / 25 = 800 h > 744 h: monthly never pays; 5 999.99 / 12.34 = 486.22 h.
    #[test]
    fn never_pays_cents_and_errors() {
        let b = break_even(20_000.0, 25.0, 744.0);
        let v = present(Lang::En, &b, 20_000.0, 25.0).unwrap();
        assert!(v.never_pays);
        assert_eq!(v.hours, Shown::new("800", "800"));
        assert!(v
            .never_pays_text
            .starts_with("More than the 744 hours in a month"));
        let b = break_even(5999.99, 12.34, 720.0);
        let v = present(Lang::En, &b, 5999.99, 12.34).unwrap();
        assert_eq!(v.hours, Shown::new("486.2", "486.22"));
        assert!(v
            .formula
            .starts_with("H* = P / r = 5,999.99 / 12.34 = 486.22 h"));
        let err = break_even(9000.0, 0.0, 730.0);
        assert!(present(Lang::En, &err, 9000.0, 0.0)
            .unwrap_err()
            .contains("must be greater than 0"));
    }
}
