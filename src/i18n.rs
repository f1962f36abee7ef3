//! The shared bilingual texts (the header, the break-even card, field names and input
//! error messages), English and Chinese as two values of one struct: a missing translation
//! does not compile. Cards keep their own sentences as `pick(lang, en, zh)` pairs beside
//! the figures they explain.

use crate::core::error::{Field, InputError, Problem};
use crate::format::number_trim;
pub use crate::format::Lang;

pub struct Text {
    pub app_title: &'static str,
    pub tagline: &'static str,
    pub privacy: &'static str,
    pub lang_toggle: &'static str,
    pub prices_heading: &'static str,
    pub monthly_price: &'static str,
    pub on_demand_price: &'static str,
    pub breakeven_heading: &'static str,
    pub breakeven_label: &'static str,
    pub hours_per_month_unit: &'static str,
    pub how_computed: &'static str,
    pub formulas_link: &'static str,
    pub last_good_note: &'static str,
}

pub const EN: Text = Text {
    app_title: "GPU Rent Planner",
    tagline: "Monthly or on-demand? Size the fixed baseline from your real usage.",
    privacy: "Everything is computed in your browser. Nothing you type leaves this page.",
    lang_toggle: "中文",
    prices_heading: "Prices",
    monthly_price: "Monthly price per GPU",
    on_demand_price: "On-demand price per GPU-hour",
    breakeven_heading: "Break-even",
    breakeven_label: "Break-even:",
    hours_per_month_unit: "hours per month",
    how_computed: "How is this computed?",
    formulas_link: "All formulas",
    last_good_note: "Showing the last valid result until the field is fixed.",
};

pub const ZH: Text = Text {
    app_title: "GPU 租用规划器",
    tagline: "包月还是按量？用真实用量确定固定配额基线。",
    privacy: "所有计算都在你的浏览器中完成，输入的内容不会离开本页面。",
    lang_toggle: "English",
    prices_heading: "价格",
    monthly_price: "每卡包月价格",
    on_demand_price: "每卡按量价格（每小时）",
    breakeven_heading: "盈亏平衡",
    breakeven_label: "盈亏平衡点：",
    hours_per_month_unit: "小时/月",
    how_computed: "怎么算的？",
    formulas_link: "全部公式",
    last_good_note: "字段修正前，显示上一次有效的结果。",
};

pub fn texts(lang: Lang) -> &'static Text {
    match lang {
        Lang::En => &EN,
        Lang::Zh => &ZH,
    }
}

/// "(49.3 % utilization of a 730-hour month)"
pub fn utilization_of_month(lang: Lang, utilization: f64, hours_per_month: f64) -> String {
    let u = number_trim(utilization * 100.0, 1, lang);
    let h = number_trim(hours_per_month, 0, lang);
    match lang {
        Lang::En => format!("({u} % utilization of a {h}-hour month)"),
        Lang::Zh => format!("（即 {h} 小时月份的 {u}% 利用率）"),
    }
}

/// The warning shown when H* exceeds the month.
pub fn monthly_never_pays(lang: Lang, hours_per_month: f64) -> String {
    let h = number_trim(hours_per_month, 0, lang);
    match lang {
        Lang::En => format!(
            "More than the {h} hours in a month: monthly never pays at these prices. Use on-demand."
        ),
        Lang::Zh => format!("超过一个月的 {h} 小时：按这组价格，包月永远不划算，请用按量。"),
    }
}

/// "below it on-demand is cheaper, above it monthly is"
pub fn breakeven_explainer(lang: Lang, hours: &str) -> String {
    match lang {
        Lang::En => format!(
            "A GPU used less than {hours} hours a month is cheaper on demand; used more, the monthly price wins."
        ),
        Lang::Zh => format!("每卡每月使用少于 {hours} 小时，按量更便宜；超过则包月更划算。"),
    }
}

/// Pick the string for the language: every UI string is written as a pair.
pub fn pick(lang: Lang, en: &'static str, zh: &'static str) -> &'static str {
    match lang {
        Lang::En => en,
        Lang::Zh => zh,
    }
}

pub fn field_name(lang: Lang, field: Field) -> &'static str {
    let (en, zh) = match field {
        Field::MonthlyPrice => (EN.monthly_price, ZH.monthly_price),
        Field::OnDemandPrice => (EN.on_demand_price, ZH.on_demand_price),
        Field::SpotPrice => ("Spot price per GPU-hour", "每卡竞价价格（每小时）"),
        Field::HoursPerMonth => ("Hours in a month", "每月小时数"),
        Field::UsedHours => ("Hours used per GPU per month", "每卡每月使用小时数"),
        Field::Gpus => ("GPUs", "GPU 数量"),
        Field::Budget => ("Monthly budget", "月度预算"),
        Field::BudgetShare => ("Budget shares", "预算比例"),
        Field::Quantile => ("Waterline quantile", "水位分位数"),
        Field::BandHours => ("Daytime band hours", "白天时段"),
        Field::InterruptionRate => ("Interruption rate", "中断率"),
        Field::CheckpointSave => ("Checkpoint save time", "检查点保存时间"),
        Field::RestartTime => ("Restart time", "重启时间"),
        Field::CheckpointInterval => ("Checkpoint interval", "检查点间隔"),
        Field::JobLength => ("Job length", "任务时长"),
        Field::InterruptibleShare => ("Interruptible share", "可中断比例"),
        Field::Jobs => ("Jobs", "任务数"),
        Field::GpusPerJob => ("GPUs per job", "每任务 GPU 数"),
        Field::JobHours => ("Hours per job", "每任务小时数"),
        Field::FixedGpus => ("Fixed GPUs", "固定 GPU 数"),
        Field::ElasticGpus => ("Elastic GPUs", "弹性 GPU 数"),
        Field::Purchase => ("Purchase price per GPU", "每卡采购价"),
        Field::DepreciationMonths => ("Depreciation months", "折旧月数"),
        Field::PowerKw => ("Power per GPU (kW)", "每卡功率（kW）"),
        Field::Pue => ("PUE", "PUE"),
        Field::ElectricityPrice => ("Electricity price per kWh", "电价（每千瓦时）"),
        Field::ColoOps => ("Colocation and operations per month", "托管与运维（每月）"),
        Field::HiddenCost => ("Hidden cost", "隐性成本"),
        Field::Threshold => ("Threshold", "阈值"),
        Field::TermPrice => ("Term price per GPU", "期限价格（每卡）"),
        Field::Horizon => ("Horizon (months)", "规划期（月）"),
        Field::MonthsLeft => ("Months left on the current commitment", "现有承诺剩余月数"),
        Field::UsageHistory => ("Usage history", "用量历史"),
        Field::Region => ("Second region", "第二区域"),
        Field::Autoscaler => ("Autoscaler settings", "自动扩缩容设置"),
        Field::TeamShares => ("Fixed shares per team", "各团队固定比例"),
        Field::Growth => ("Growth per month (%)", "每月增长（%）"),
        Field::GrowthEndLevel => (
            "Waterline at the horizon's end (GPUs)",
            "规划期末的水位（卡）",
        ),
        Field::GrowthDecline => (
            "If usage reverses: decline per month (%)",
            "若用量反转：每月下降（%）",
        ),
        Field::LadderCap => (
            "Commit at most (% of the projected waterline)",
            "最多承诺（预测水位的 %）",
        ),
    };
    pick(lang, en, zh)
}

/// A clear message for an input error, naming the field and the reason.
pub fn error_message(lang: Lang, err: &InputError) -> String {
    let name = field_name(lang, err.field);
    let why = match (&err.problem, lang) {
        (Problem::NotANumber, Lang::En) => "is not a number.".to_string(),
        (Problem::NotANumber, Lang::Zh) => "不是有效的数字。".to_string(),
        (Problem::MustBePositive, Lang::En) => "must be greater than 0.".to_string(),
        (Problem::MustBePositive, Lang::Zh) => "必须大于 0。".to_string(),
        (Problem::MustBeNonNegative, Lang::En) => "must be 0 or more.".to_string(),
        (Problem::MustBeNonNegative, Lang::Zh) => "不能为负数。".to_string(),
        (Problem::TooLarge { max }, Lang::En) => {
            format!("must be at most {}.", number_trim(*max, 2, lang))
        }
        (Problem::TooLarge { max }, Lang::Zh) => {
            format!("不能超过 {}。", number_trim(*max, 2, lang))
        }
        (Problem::TooSmall { min }, Lang::En) => {
            format!("must be at least {}.", crate::format::plain(*min, 12))
        }
        (Problem::TooSmall { min }, Lang::Zh) => {
            format!("不能小于 {}。", crate::format::plain(*min, 12))
        }
        (Problem::SharesDoNotSumTo100 { sum_percent }, Lang::En) => {
            format!(
                "add up to {} %, not 100 %.",
                number_trim(*sum_percent, 2, lang)
            )
        }
        (Problem::SharesDoNotSumTo100 { sum_percent }, Lang::Zh) => {
            format!(
                "各部分合计 {}%，不是 100%。",
                number_trim(*sum_percent, 2, lang)
            )
        }
        (Problem::NotWhole, Lang::En) => "must be a whole number.".to_string(),
        (Problem::NotWhole, Lang::Zh) => "必须是整数。".to_string(),
        (Problem::Empty, Lang::En) => "is empty.".to_string(),
        (Problem::Empty, Lang::Zh) => "为空。".to_string(),
        (Problem::Other(s), _) => s.clone(),
    };
    match lang {
        Lang::En => format!("{name} {why}"),
        Lang::Zh => format!("{name}{why}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn browser_language_picks_chinese_for_any_zh_tag() {
        assert_eq!(Lang::from_browser(["zh-CN", "en"]), Lang::Zh);
        assert_eq!(Lang::from_browser(["zh-TW"]), Lang::Zh);
        assert_eq!(Lang::from_browser(["fr", "en-US"]), Lang::En);
        assert_eq!(Lang::from_browser(["fr"]), Lang::En);
        assert_eq!(Lang::from_browser([]), Lang::En);
    }

    #[test]
    fn error_messages_name_the_field_in_each_language() {
        let e = InputError::new(Field::OnDemandPrice, Problem::MustBePositive);
        assert_eq!(
            error_message(Lang::En, &e),
            "On-demand price per GPU-hour must be greater than 0."
        );
        assert_eq!(
            error_message(Lang::Zh, &e),
            "每卡按量价格（每小时）必须大于 0。"
        );
    }

    #[test]
    fn utilization_sentence() {
        assert_eq!(
            utilization_of_month(Lang::En, 360.0 / 730.0, 730.0),
            "(49.3 % utilization of a 730-hour month)"
        );
        assert_eq!(
            utilization_of_month(Lang::Zh, 0.5, 720.0),
            "（即 720 小时月份的 50% 利用率）"
        );
    }
}
