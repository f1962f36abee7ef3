//! The answer first: commit N GPUs monthly, run the rest elastic; the total and the saving.

use super::terms::term_words;
use super::{failed, Presented, Shown};
use crate::core::error::InputError;
use crate::core::fleet_plan::FleetPlan;
use crate::core::money::Money;
use crate::core::plan::Baseline;
use crate::core::pools::ThreePools;
use crate::core::sizing::SizingTable;
use crate::core::terms::Term;
use crate::format::Lang;
use crate::format::{money, percent};
use crate::i18n::pick;

#[derive(Debug, Clone, PartialEq)]
pub struct HeadlineView {
    /// The plan in one sentence; `data-value` = N.
    pub sentence: Shown,
    /// The plan's monthly total.
    pub total: Shown,
    /// What the plan saves against all on demand (or costs more).
    pub saving: Shown,
    pub formula: String,
    /// The usage mode asks for a history but none is usable: the figures come from the sliders.
    pub no_history: bool,
}

/// `data_mode`: the usage comes from a history; `have_history`: a history was read.
pub fn present(
    l: Lang,
    cur: &str,
    base: &Result<Baseline, InputError>,
    pools: &Result<ThreePools, InputError>,
    sizing: &Result<SizingTable, InputError>,
    data_mode: bool,
    have_history: bool,
) -> Presented<HeadlineView> {
    let (base, pools, sizing) = match (base, pools, sizing) {
        (Ok(b), Ok(p), Ok(s)) => (b, p, s),
        (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => return failed(l, e),
    };
    let n = base.gpus;
    let saving = sizing.all_on_demand - pools.total;
    let saving_share = saving.ratio(sizing.all_on_demand);
    let spot = pools.spot_gpu_hours > 0.0;
    let sentence = sentence(l, base, spot);
    let saving_text = saving_words(l, cur, saving, saving_share);
    let formula = format!(
        "{}: {} + {} + {} = {};  {}: {} − {} = {}",
        pick(l, "plan", "方案"),
        money(pools.reserved, cur, l),
        money(pools.on_demand, cur, l),
        money(pools.spot, cur, l),
        money(pools.total, cur, l),
        pick(
            l,
            "saving = all on demand (r × GPU-hours used) − plan",
            "节省 = 全部按量（r × 使用的 GPU 小时）− 方案"
        ),
        money(sizing.all_on_demand, cur, l),
        money(pools.total, cur, l),
        money(saving, cur, l),
    );
    Ok(HeadlineView {
        sentence: Shown::new(sentence, n.to_string()),
        total: Shown::new(money(pools.total, cur, l), pools.total.to_plain_string()),
        saving: Shown::new(saving_text, saving.to_plain_string()),
        formula,
        no_history: data_mode && !have_history,
    })
}

/// The fleet's headline (§ 16): the commitments per type, the fleet's total and saving;
/// `data-value` = the GPUs committed in all.
pub fn present_fleet(l: Lang, cur: &str, f: &FleetPlan) -> Presented<HeadlineView> {
    let n: u32 = f.rows.iter().map(|r| r.committed).sum();
    let saving_share = f.saving.ratio(f.all_on_demand);
    Ok(HeadlineView {
        sentence: Shown::new(super::fleet::sentence(l, f), n.to_string()),
        total: Shown::new(money(f.total, cur, l), f.total.to_plain_string()),
        saving: Shown::new(
            saving_words(l, cur, f.saving, saving_share),
            f.saving.to_plain_string(),
        ),
        formula: format!(
            "{}: {} + {} + {} = {};  {}: {} − {} = {}",
            pick(l, "fleet plan, all types", "机群方案（全部型号）"),
            money(f.fixed, cur, l),
            money(f.on_demand, cur, l),
            money(f.spot, cur, l),
            money(f.total, cur, l),
            pick(l, "saving = all on demand − plan", "节省 = 全部按量 − 方案"),
            money(f.all_on_demand, cur, l),
            money(f.total, cur, l),
            money(f.saving, cur, l),
        ),
        no_history: false,
    })
}

fn saving_words(l: Lang, cur: &str, saving: Money, share: f64) -> String {
    if saving.is_negative() {
        format!(
            "{} {} ({})",
            pick(l, "costing more than all on-demand by", "比全部按量多花"),
            money(-saving, cur, l),
            percent(-share, 1, l)
        )
    } else {
        format!(
            "{} {} ({})",
            pick(l, "saving vs all on-demand:", "比全部按量节省"),
            money(saving, cur, l),
            percent(share, 1, l)
        )
    }
}

/// The mark beside the headline when the history file's reading needs the user's look
/// (`ParseReport::needs_check`): English and Chinese, a link to the parse report.
pub const READ_CHECK: (&str, &str) = ("Check how your file was read", "请核对文件的读取方式");

/// The plan in one sentence: commit N GPUs on the plan's term, the rest on demand (the
/// page's headline and the Markdown export's).
pub fn sentence(lang: Lang, base: &Baseline, spot: bool) -> String {
    let n = base.gpus;
    let spot_en = if spot {
        " (+ spot for interruptible work)"
    } else {
        ""
    };
    let spot_zh = if spot {
        "（可中断任务用竞价实例）"
    } else {
        ""
    };
    let term = term_words(lang, base.term, base.payment);
    match lang {
        Lang::En if n == 0 => format!("Commit no GPU monthly: run everything on demand{spot_en}."),
        Lang::Zh if n == 0 => format!("不包月：全部按量{spot_zh}。"),
        Lang::En => format!(
            "Commit {n} GPU{} {term}, run the rest on demand{spot_en}.",
            if n == 1 { "" } else { "s" },
        ),
        Lang::Zh if base.term == Term::Monthly => {
            format!("包月固定 {n} 张 GPU，其余按量{spot_zh}。")
        }
        Lang::Zh => format!("固定 {n} 张 GPU {term}，其余按量{spot_zh}。"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::error::{Field, Problem};
    use crate::core::money::Money;
    use crate::core::plan::BaselineRule;
    use crate::core::terms::Payment;

    #[test]
    fn read_check_mark_in_both_languages() {
        assert_eq!(
            pick(Lang::En, READ_CHECK.0, READ_CHECK.1),
            "Check how your file was read"
        );
        assert_eq!(
            pick(Lang::Zh, READ_CHECK.0, READ_CHECK.1),
            "请核对文件的读取方式"
        );
    }

    fn pools(n: u32, reserved: i64, on_demand: i64, spot: i64, spot_hours: f64) -> ThreePools {
        let total = reserved + on_demand + spot;
        ThreePools {
            reserved_gpus: n,
            interruptible_share: 0.5,
            elastic_gpu_hours: 2.0 * spot_hours,
            spot_gpu_hours: spot_hours,
            on_demand_gpu_hours: spot_hours,
            reserved: Money::from_cents(reserved),
            spot: Money::from_cents(spot),
            on_demand: Money::from_cents(on_demand),
            total: Money::from_cents(total),
            reserved_share: 0.0,
            spot_share: 0.0,
            on_demand_share: 0.0,
            saving_vs_no_spot: Money::ZERO,
        }
    }

    fn sizing(all_on_demand: i64) -> SizingTable {
        SizingTable {
            rows: Vec::new(),
            all_on_demand: Money::from_cents(all_on_demand),
            all_peak: Money::ZERO,
        }
    }

    /// N = 2 at P = 9 000: 18 000 reserved + 2 500 on demand (100 h × 25) + 1 500 spot
    /// (187.5 h × 8) = 22 000 a month; all on demand 40 000 → saves 18 000 = 45 %.
    #[test]
    fn hand_example_in_both_languages() {
        let base = Ok(Baseline {
            rule: BaselineRule::Custom,
            gpus: 2,
            term: Term::Monthly,
            payment: Payment::NoUpfront,
        });
        let p = Ok(pools(2, 1_800_000, 250_000, 150_000, 187.5));
        let s = Ok(sizing(4_000_000));
        let en = present(Lang::En, "¥", &base, &p, &s, false, false).unwrap();
        assert_eq!(
            en.sentence,
            Shown::new(
                "Commit 2 GPUs monthly, run the rest on demand (+ spot for interruptible work).",
                "2"
            )
        );
        assert_eq!(en.total, Shown::new("¥22,000.00", "22000.00"));
        assert_eq!(
            en.saving,
            Shown::new("saving vs all on-demand: ¥18,000.00 (45 %)", "18000.00")
        );
        assert_eq!(
            en.formula,
            "plan: ¥18,000.00 + ¥2,500.00 + ¥1,500.00 = ¥22,000.00;  \
             saving = all on demand (r × GPU-hours used) − plan: ¥40,000.00 − ¥22,000.00 = ¥18,000.00"
        );
        assert!(!en.no_history);
        let zh = present(Lang::Zh, "¥", &base, &p, &s, true, false).unwrap();
        assert_eq!(
            zh.sentence.text,
            "包月固定 2 张 GPU，其余按量（可中断任务用竞价实例）。"
        );
        assert_eq!(zh.saving.text, "比全部按量节省 ¥18,000.00 (45%)");
        assert!(zh.formula.starts_with("方案: ¥18,000.00 + "));
        assert!(zh.no_history);
    }

    #[test]
    fn the_sentence_names_the_term() {
        let b = Baseline {
            rule: BaselineRule::Guarded,
            gpus: 4,
            term: Term::OneYear,
            payment: Payment::NoUpfront,
        };
        assert_eq!(
            sentence(Lang::En, &b, false),
            "Commit 4 GPUs for 1 year, no upfront, run the rest on demand."
        );
        assert_eq!(
            sentence(Lang::Zh, &b, true),
            "固定 4 张 GPU 包年（无预付），其余按量（可中断任务用竞价实例）。"
        );
        let b3 = Baseline {
            gpus: 1,
            term: Term::ThreeYear,
            payment: Payment::AllUpfront,
            ..b
        };
        assert_eq!(
            sentence(Lang::En, &b3, false),
            "Commit 1 GPU for 3 years, all upfront, run the rest on demand."
        );
    }

    /// N = 0, no spot, the plan dearer than all on demand: 1 000 against 800 costs 200 more
    /// (25 % of 800).
    #[test]
    fn no_gpu_costing_more_and_errors() {
        let base = Ok(Baseline {
            rule: BaselineRule::Custom,
            gpus: 0,
            term: Term::Monthly,
            payment: Payment::NoUpfront,
        });
        let p = Ok(pools(0, 0, 100_000, 0, 0.0));
        let s = Ok(sizing(80_000));
        let en = present(Lang::En, "$", &base, &p, &s, true, true).unwrap();
        assert_eq!(
            en.sentence,
            Shown::new("Commit no GPU monthly: run everything on demand.", "0")
        );
        assert_eq!(
            en.saving,
            Shown::new(
                "costing more than all on-demand by $200.00 (25 %)",
                "-200.00"
            )
        );
        assert!(!en.no_history);
        let zh = present(Lang::Zh, "$", &base, &p, &s, false, false).unwrap();
        assert_eq!(zh.sentence.text, "不包月：全部按量。");
        assert_eq!(zh.saving.text, "比全部按量多花 $200.00 (25%)");
        let err = Err(InputError::new(
            Field::OnDemandPrice,
            Problem::MustBePositive,
        ));
        assert!(present(Lang::En, "$", &base, &err, &s, false, false)
            .unwrap_err()
            .contains("must be greater than 0"));
    }
}
