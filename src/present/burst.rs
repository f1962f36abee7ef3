//! § 11 The burst card: J jobs × g GPUs × d hours on F free fixed GPUs, with or without up
//! to E elastic GPUs.

use super::{failed, Presented, Shown};
use crate::core::burst::{Burst, BurstScenario};
use crate::core::error::InputError;
use crate::core::plan::PlanInputs;
use crate::format::Lang;
use crate::format::{money, number_trim, plain};
use crate::i18n::pick;

#[derive(Debug, Clone, PartialEq)]
pub struct BurstView {
    /// The fixed-only column (`—` and an empty value when the fixed GPUs cannot run a job).
    pub fixed_parallel: Shown,
    pub fixed_batches: Shown,
    pub fixed_wall_hours: Shown,
    pub fixed_cost: Shown,
    /// The with-elastic column.
    pub elastic_parallel: Shown,
    pub elastic_batches: Shown,
    pub elastic_wall_hours: Shown,
    pub elastic_gpus_used: Shown,
    pub elastic_gpu_hours: Shown,
    pub elastic_cost: Shown,
    pub hours_saved: Shown,
    pub cost_per_hour_saved: Shown,
    /// Whether to rent, what it buys and what it costs.
    pub verdict: String,
    pub formula: String,
}

fn hours_text(h: f64, l: Lang) -> String {
    format!("{}{}", number_trim(h, 2, l), pick(l, " h", " 小时"))
}

/// `inputs`: the burst's J, g, d, F, E and the on-demand price r typed.
pub fn present(
    l: Lang,
    cur: &str,
    burst: &Result<Burst, InputError>,
    inputs: &PlanInputs,
) -> Presented<BurstView> {
    let b = burst.as_ref().or_else(|e| failed(l, e))?;
    let w = &b.with_elastic;
    let fixed = |f: &dyn Fn(&BurstScenario) -> Shown| {
        b.fixed_only
            .as_ref()
            .map(f)
            .unwrap_or_else(|| Shown::new("—", ""))
    };
    let verdict = match (&b.fixed_only, b.hours_saved, b.cost_per_hour_saved) {
        (None, _, _) => match l {
            Lang::En => format!(
                "The {} fixed GPUs cannot run even one {}-GPU job: the burst needs elastic GPUs. It takes {} and costs {}.",
                inputs.burst_fixed_gpus,
                inputs.burst_gpus_per_job,
                hours_text(w.wall_hours, l),
                money(w.cost, cur, l)
            ),
            Lang::Zh => format!(
                "{} 张固定 GPU 连一个 {} 卡任务都跑不了，必须用弹性 GPU：耗时 {}，费用 {}。",
                inputs.burst_fixed_gpus,
                inputs.burst_gpus_per_job,
                hours_text(w.wall_hours, l),
                money(w.cost, cur, l)
            ),
        },
        (Some(f), Some(saved), Some(per)) => match l {
            Lang::En => format!(
                "Renting {} elastic GPUs finishes in {} instead of {} for {} extra: {} per hour saved.",
                w.elastic_gpus_used,
                hours_text(w.wall_hours, l),
                hours_text(f.wall_hours, l),
                money(w.cost, cur, l),
                money(per, cur, l)
            ),
            Lang::Zh => format!(
                "租 {} 张弹性 GPU，{}完成，而不是 {}；多花 {}，提前 {}，每节省 1 小时 {}。",
                w.elastic_gpus_used,
                hours_text(w.wall_hours, l),
                hours_text(f.wall_hours, l),
                money(w.cost, cur, l),
                hours_text(saved, l),
                money(per, cur, l)
            ),
        },
        (Some(_), _, _) => pick(
            l,
            "Elastic GPUs save no time here: the fixed GPUs alone finish as fast.",
            "这里加弹性 GPU 并不能更快完成：只用固定 GPU 一样快。",
        )
        .to_string(),
    };
    let g = inputs.burst_gpus_per_job.max(1) as u64;
    let slots_max = |gpus: u64| (gpus / g).max(1);
    let fixed_gpus = inputs.burst_fixed_gpus as u64;
    let all_gpus = fixed_gpus + inputs.burst_elastic_gpus as u64;
    let d = number_trim(inputs.burst_job_hours, 2, l);
    // `label: ⌊gpus / g⌋ = slots; ⌈jobs / slots⌉ = batches × d h = wall h` for one side.
    let batches = |label: &str, gpus: u64, batches, wall_hours| {
        format!(
            "{}: ⌊{} / {}⌋ = {} {}; ⌈{} / {}⌉ = {} {} × {} h = {} h",
            label,
            gpus,
            g,
            slots_max(gpus),
            pick(l, "slots", "个并行位"),
            inputs.burst_jobs,
            slots_max(gpus),
            batches,
            pick(l, "batches", "批"),
            d,
            number_trim(wall_hours, 2, l)
        )
    };
    let fixed_line = match &b.fixed_only {
        Some(f) => {
            let label = pick(l, "Fixed only", "仅固定");
            format!("{}.  ", batches(label, fixed_gpus, f.batches, f.wall_hours))
        }
        None => String::new(),
    };
    let elastic = pick(l, "With elastic", "加弹性");
    let formula = format!(
        "{fixed_line}{}; {} max(0, {} × {} − {}) = {} GPU; {} {} GPU·h × {} = {}",
        batches(elastic, all_gpus, w.batches, w.wall_hours),
        pick(l, "rented", "租用"),
        w.parallel_jobs,
        g,
        fixed_gpus,
        w.elastic_gpus_used,
        pick(l, "billed", "计费"),
        number_trim(w.elastic_gpu_hours_billed, 2, l),
        number_trim(inputs.on_demand_price, 2, l),
        money(w.cost, cur, l),
    );
    Ok(BurstView {
        fixed_parallel: fixed(&|s| count(s.parallel_jobs)),
        fixed_batches: fixed(&|s| count(s.batches)),
        fixed_wall_hours: fixed(&|s| wall(s, l)),
        fixed_cost: fixed(&|s| cost(s, l, cur)),
        elastic_parallel: count(w.parallel_jobs),
        elastic_batches: count(w.batches),
        elastic_wall_hours: wall(w, l),
        elastic_gpus_used: count(w.elastic_gpus_used),
        elastic_gpu_hours: Shown::new(
            number_trim(w.elastic_gpu_hours_billed, 2, l),
            plain(w.elastic_gpu_hours_billed, 2),
        ),
        elastic_cost: cost(w, l, cur),
        hours_saved: Shown::new(
            b.hours_saved.map(|h| hours_text(h, l)).unwrap_or_else(|| {
                pick(l, "— (no fixed-only run)", "—（固定 GPU 无法单独运行）").to_string()
            }),
            b.hours_saved.map(|h| plain(h, 2)).unwrap_or_default(),
        ),
        cost_per_hour_saved: Shown::new(
            b.cost_per_hour_saved
                .map(|m| money(m, cur, l))
                .unwrap_or_else(|| pick(l, "— (no hour saved)", "—（没有节省时间）").to_string()),
            b.cost_per_hour_saved
                .map(|m| m.to_plain_string())
                .unwrap_or_default(),
        ),
        verdict,
        formula,
    })
}

fn count(n: u32) -> Shown {
    Shown::new(n.to_string(), n.to_string())
}

fn wall(s: &BurstScenario, l: Lang) -> Shown {
    Shown::new(hours_text(s.wall_hours, l), plain(s.wall_hours, 2))
}

fn cost(s: &BurstScenario, l: Lang, cur: &str) -> Shown {
    Shown::new(money(s.cost, cur, l), s.cost.to_plain_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::plan::plan;

    /// The defaults: 36 jobs × 4 GPUs × 4 h, 6 fixed GPUs free, up to 48 elastic at r = 25,
    /// billed per minute. Fixed only: ⌊6 / 4⌋ = 1 job at a time → 36 batches → 144 h. With
    /// elastic: ⌊54 / 4⌋ = 13 slots → ⌈36 / 13⌉ = 3 batches → 12 h; 3 batches need
    /// ⌈36 / 3⌉ = 12 slots = 48 GPUs → 42 elastic × 12 h = 504 GPU-h × 25 = 12 600; 132 h
    /// saved at 12 600 / 132 = 95.45 an hour.
    #[test]
    fn hand_example_in_both_languages() {
        let inputs = PlanInputs::default();
        let b = plan(&inputs).burst;
        let en = present(Lang::En, "¥", &b, &inputs).unwrap();
        assert_eq!(en.fixed_parallel, Shown::new("1", "1"));
        assert_eq!(en.fixed_batches, Shown::new("36", "36"));
        assert_eq!(en.fixed_wall_hours, Shown::new("144 h", "144"));
        assert_eq!(en.fixed_cost, Shown::new("¥0.00", "0.00"));
        assert_eq!(en.elastic_parallel, Shown::new("12", "12"));
        assert_eq!(en.elastic_batches, Shown::new("3", "3"));
        assert_eq!(en.elastic_wall_hours, Shown::new("12 h", "12"));
        assert_eq!(en.elastic_gpus_used, Shown::new("42", "42"));
        assert_eq!(en.elastic_gpu_hours, Shown::new("504", "504"));
        assert_eq!(en.elastic_cost, Shown::new("¥12,600.00", "12600.00"));
        assert_eq!(en.hours_saved, Shown::new("132 h", "132"));
        assert_eq!(en.cost_per_hour_saved, Shown::new("¥95.45", "95.45"));
        assert_eq!(
            en.verdict,
            "Renting 42 elastic GPUs finishes in 12 h instead of 144 h for ¥12,600.00 extra: ¥95.45 per hour saved."
        );
        assert_eq!(
            en.formula,
            "Fixed only: ⌊6 / 4⌋ = 1 slots; ⌈36 / 1⌉ = 36 batches × 4 h = 144 h.  \
             With elastic: ⌊54 / 4⌋ = 13 slots; ⌈36 / 13⌉ = 3 batches × 4 h = 12 h; \
             rented max(0, 12 × 4 − 6) = 42 GPU; billed 504 GPU·h × 25 = ¥12,600.00"
        );
        let zh = present(Lang::Zh, "¥", &b, &inputs).unwrap();
        assert_eq!(zh.fixed_wall_hours, Shown::new("144 小时", "144"));
        assert_eq!(
            zh.verdict,
            "租 42 张弹性 GPU，12 小时完成，而不是 144 小时；多花 ¥12,600.00，提前 132 小时，每节省 1 小时 ¥95.45。"
        );
        assert!(zh
            .formula
            .starts_with("仅固定: ⌊6 / 4⌋ = 1 个并行位; ⌈36 / 1⌉ = 36 批 × 4 h = 144 h.  加弹性"));
    }

    /// 2 fixed GPUs cannot run a 4-GPU job: ⌊50 / 4⌋ = 12 slots → ⌈36 / 12⌉ = 3 batches,
    /// 12 h; 12 × 4 − 2 = 46 elastic × 12 h = 552 GPU-h × 25 = 13 800.
    #[test]
    fn no_fixed_only_run_and_errors() {
        let inputs = PlanInputs {
            burst_fixed_gpus: 2,
            ..PlanInputs::default()
        };
        let b = plan(&inputs).burst;
        let en = present(Lang::En, "$", &b, &inputs).unwrap();
        assert_eq!(en.fixed_wall_hours, Shown::new("—", ""));
        assert_eq!(en.fixed_cost, Shown::new("—", ""));
        assert_eq!(en.elastic_gpus_used, Shown::new("46", "46"));
        assert_eq!(en.elastic_cost, Shown::new("$13,800.00", "13800.00"));
        assert_eq!(en.hours_saved, Shown::new("— (no fixed-only run)", ""));
        assert_eq!(en.cost_per_hour_saved, Shown::new("— (no hour saved)", ""));
        assert_eq!(
            en.verdict,
            "The 2 fixed GPUs cannot run even one 4-GPU job: the burst needs elastic GPUs. It takes 12 h and costs $13,800.00."
        );
        assert!(en.formula.starts_with("With elastic: ⌊50 / 4⌋ = 12 slots"));
        let zh = present(Lang::Zh, "$", &b, &inputs).unwrap();
        assert_eq!(zh.hours_saved.text, "—（固定 GPU 无法单独运行）");

        let bad = PlanInputs {
            burst_jobs: 0,
            ..PlanInputs::default()
        };
        assert!(present(Lang::En, "$", &plan(&bad).burst, &bad)
            .unwrap_err()
            .contains("must be greater than 0"));
    }
}
