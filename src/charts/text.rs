//! The charts' own strings, English and Chinese. Both tables fill the same struct, so a
//! string missing from one language is a compile error.

use crate::i18n::Lang;

pub struct Words {
    pub no_data: &'static str,
    pub download_png: &'static str,
    pub hours_unit: &'static str,
    pub gpus_unit: &'static str,
    // 1 usage over time
    pub usage_title: &'static str,
    pub usage_x_date: &'static str,
    pub usage_x_days: &'static str,
    pub usage_y: &'static str,
    pub usage_series: &'static str,
    pub average: &'static str,
    pub waterline: &'static str,
    pub recommended: &'static str,
    pub weekend: &'static str,
    /// A fleet's type in the legend: "A100: commit 3".
    pub type_commit: &'static str,
    /// The legend entry of the fleet's committed lines, stacked.
    pub stacked_commit: &'static str,
    // 2 load-duration curve
    pub ld_title: &'static str,
    pub ld_x: &'static str,
    pub ld_y: &'static str,
    pub ld_series: &'static str,
    pub breakeven: &'static str,
    pub optimal: &'static str,
    // 3 cost vs committed GPUs
    pub cost_title: &'static str,
    pub cost_x: &'static str,
    pub cost_y: &'static str,
    pub cost_series: &'static str,
    pub cost_flat: &'static str,
    pub rule_average: &'static str,
    pub rule_waterline: &'static str,
    pub rule_optimal: &'static str,
    pub rule_peak: &'static str,
    // 4 budget split
    pub budget_title: &'static str,
    pub budget_y: &'static str,
    pub budget_target: &'static str,
    pub budget_implied: &'static str,
    pub fixed: &'static str,
    pub elastic: &'static str,
    pub spot: &'static str,
    // 5 break-even without data
    pub be_title: &'static str,
    pub be_x: &'static str,
    pub be_y: &'static str,
    pub be_monthly: &'static str,
    pub be_on_demand: &'static str,
    pub be_used: &'static str,
    // 6 cumulative cost by term
    pub terms_x: &'static str,
    pub terms_y: &'static str,
    pub terms_on_demand: &'static str,
    pub terms_monthly: &'static str,
    pub terms_one_year: &'static str,
    pub terms_three_years: &'static str,
    pub terms_breakeven: &'static str,
    pub terms_horizon: &'static str,
}

pub const EN: Words = Words {
    no_data: "No data to chart yet",
    download_png: "Download PNG",
    hours_unit: "h",
    gpus_unit: "GPUs",
    usage_title: "Usage over time",
    usage_x_date: "Date (local time)",
    usage_x_days: "Days",
    usage_y: "GPUs busy",
    usage_series: "GPUs busy",
    average: "Average",
    waterline: "Minimum stable waterline",
    recommended: "Recommended N",
    weekend: "Weekend",
    type_commit: "commit",
    stacked_commit: "Committed N per type, stacked",
    ld_title: "Load-duration curve",
    ld_x: "GPU level k (sorted by busy hours)",
    ld_y: "Busy hours per month (h)",
    ld_series: "Busy hours per month",
    breakeven: "Break-even H*",
    optimal: "Optimal N*",
    cost_title: "Cost vs committed GPUs",
    cost_x: "GPUs committed monthly (N)",
    cost_y: "Monthly cost",
    cost_series: "Total monthly cost C(N)",
    cost_flat: "Within 2 % of the optimum",
    rule_average: "average",
    rule_waterline: "waterline",
    rule_optimal: "N*",
    rule_peak: "peak",
    budget_title: "Budget split",
    budget_y: "Share of monthly spend (%)",
    budget_target: "Your split",
    budget_implied: "Plan implies",
    fixed: "Fixed (monthly)",
    elastic: "Elastic (on demand)",
    spot: "Spot & emergency",
    be_title: "Break-even without data",
    be_x: "Hours used per GPU per month (h)",
    be_y: "Cost per GPU per month",
    be_monthly: "Monthly price P",
    be_on_demand: "On demand r × h",
    be_used: "Your usage",
    terms_x: "Months from the start",
    terms_y: "Cumulative cost",
    terms_on_demand: "On demand",
    terms_monthly: "Monthly",
    terms_one_year: "1 year",
    terms_three_years: "3 years",
    terms_breakeven: "pays back",
    terms_horizon: "horizon",
};

pub const ZH: Words = Words {
    no_data: "暂无可绘制的数据",
    download_png: "下载 PNG",
    hours_unit: "小时",
    gpus_unit: "张 GPU",
    usage_title: "用量随时间变化",
    usage_x_date: "日期（本地时间）",
    usage_x_days: "天",
    usage_y: "在用 GPU 数",
    usage_series: "在用 GPU 数",
    average: "平均",
    waterline: "最低稳定水位",
    recommended: "建议包月 N",
    weekend: "周末",
    type_commit: "固定",
    stacked_commit: "各型号固定 N（逐层累加）",
    ld_title: "负荷持续曲线",
    ld_x: "GPU 档位 k（按忙碌时长排序）",
    ld_y: "每月忙碌小时（h）",
    ld_series: "每月忙碌小时",
    breakeven: "盈亏平衡 H*",
    optimal: "最优 N*",
    cost_title: "成本与包月 GPU 数",
    cost_x: "包月 GPU 数（N）",
    cost_y: "每月成本",
    cost_series: "每月总成本 C(N)",
    cost_flat: "距最优不超过 2 %",
    rule_average: "平均",
    rule_waterline: "水位",
    rule_optimal: "N*",
    rule_peak: "峰值",
    budget_title: "预算分配",
    budget_y: "占每月支出（%）",
    budget_target: "你的分配",
    budget_implied: "方案实际",
    fixed: "固定（包月）",
    elastic: "弹性（按量）",
    spot: "竞价与应急",
    be_title: "无数据时的盈亏平衡",
    be_x: "每卡每月使用小时（h）",
    be_y: "每卡每月成本",
    be_monthly: "包月价 P",
    be_on_demand: "按量 r × h",
    be_used: "你的用量",
    terms_x: "自开始起的月数",
    terms_y: "累计成本",
    terms_on_demand: "按量",
    terms_monthly: "包月",
    terms_one_year: "包年",
    terms_three_years: "三年",
    terms_breakeven: "回本",
    terms_horizon: "规划期",
};

/// The chart strings of `lang`.
pub fn words(lang: Lang) -> &'static Words {
    match lang {
        Lang::En => &EN,
        Lang::Zh => &ZH,
    }
}

/// "Monthly cost (¥)" / "每月成本（¥）".
pub fn with_currency(lang: Lang, label: &str, currency: &str) -> String {
    match lang {
        Lang::En => format!("{label} ({currency})"),
        Lang::Zh => format!("{label}（{currency}）"),
    }
}

/// "; you use 200 h" / "；你的用量 200 小时" (empty without a value).
pub fn where_used(lang: Lang, used: Option<f64>) -> String {
    match used {
        None => String::new(),
        Some(h) => {
            let h = crate::format::number_trim(h, 1, lang);
            match lang {
                Lang::En => format!("; you use {h} h"),
                Lang::Zh => format!("；你的用量 {h} 小时"),
            }
        }
    }
}
