//! § 11 Burst what-if: J jobs × g GPUs × d hours on F free fixed GPUs, with or without up
//! to E elastic GPUs billed at r per second, minute or hour.

use leptos::prelude::*;

use crate::components::bilingual;

use crate::components::slider_field::SliderField;
use crate::context::{bind_input, use_ctx};
use crate::core::burst::{BillingIncrement, BurstScenario, MAX_JOBS, MAX_JOB_HOURS};
use crate::core::error::{positive, whole, Field};
use crate::core::profile::MAX_GPUS;
use crate::format::{money, number_trim, plain};
use crate::i18n::{error_message, pick, Lang};

fn increment_label(l: Lang, inc: BillingIncrement) -> &'static str {
    match inc {
        BillingIncrement::Second => pick(l, "Per second", "按秒计费"),
        BillingIncrement::Minute => pick(l, "Per minute", "按分钟计费"),
        BillingIncrement::Hour => pick(l, "Per started hour", "按小时计费（不足一小时按一小时）"),
    }
}

fn hours_text(h: f64, l: Lang) -> String {
    format!("{}{}", number_trim(h, 2, l), pick(l, " h", " 小时"))
}

#[component]
pub fn BurstCard() -> impl IntoView {
    let ctx = use_ctx();
    let state = ctx.state;
    let lang = ctx.lang;
    let label = move |en: &'static str, zh: &'static str| {
        Signal::derive(move || pick(lang.get(), en, zh).to_string())
    };

    let (jobs, set_jobs) = bind_input(
        state,
        |i| i.burst_jobs as f64,
        |i, v| i.burst_jobs = v as u32,
    );
    let (per_job, set_per_job) = bind_input(
        state,
        |i| i.burst_gpus_per_job as f64,
        |i, v| i.burst_gpus_per_job = v as u32,
    );
    let (job_hours, set_job_hours) =
        bind_input(state, |i| i.burst_job_hours, |i, v| i.burst_job_hours = v);
    let (fixed, set_fixed) = bind_input(
        state,
        |i| i.burst_fixed_gpus as f64,
        |i, v| i.burst_fixed_gpus = v as u32,
    );
    let (elastic, set_elastic) = bind_input(
        state,
        |i| i.burst_elastic_gpus as f64,
        |i, v| i.burst_elastic_gpus = v as u32,
    );
    let on_increment = move |ev| {
        let inc = match event_target_value(&ev).as_str() {
            "second" => BillingIncrement::Second,
            "hour" => BillingIncrement::Hour,
            _ => BillingIncrement::Minute,
        };
        state.update(|s| s.inputs.billing_increment = inc);
    };
    let increment = move || state.with(|s| s.inputs.billing_increment);

    view! {
        <section class="card" aria-labelledby="burst-heading">
            <h2 id="burst-heading">
                {bilingual(lang, "Burst: add elastic GPUs to a batch of jobs?", "突发任务：要不要加弹性 GPU？")}
            </h2>
            <SliderField
                testid="burst-jobs"
                label=label("Jobs", "任务数")
                hint=label("How many jobs the burst has.", "这次突发一共有多少个任务。")
                value=jobs
                on_commit=set_jobs
                field=Field::Jobs
                validate=|v| whole(Field::Jobs, v, MAX_JOBS).and_then(|v| positive(Field::Jobs, v, MAX_JOBS))
                lang
                min=1.0
                max=200.0
                step=1.0
            />
            <SliderField
                testid="burst-gpus-per-job"
                label=label("GPUs per job", "每任务 GPU 数")
                hint=label("GPUs one job needs at once.", "单个任务同时需要的 GPU 数。")
                value=per_job
                on_commit=set_per_job
                field=Field::GpusPerJob
                validate=|v| whole(Field::GpusPerJob, v, MAX_GPUS).and_then(|v| positive(Field::GpusPerJob, v, MAX_GPUS))
                lang
                min=1.0
                max=16.0
                step=1.0
            />
            <SliderField
                testid="burst-job-hours"
                label=label("Hours per job", "每任务小时数")
                hint=label("How long one job runs.", "单个任务运行多长时间。")
                value=job_hours
                on_commit=set_job_hours
                field=Field::JobHours
                validate=|v| positive(Field::JobHours, v, MAX_JOB_HOURS)
                lang
                min=0.25
                max=48.0
                step=0.25
            />
            <SliderField
                testid="burst-fixed-gpus"
                label=label("Fixed GPUs free for the burst", "可用于突发的固定 GPU 数")
                hint=label(
                    "Monthly GPUs already paid for and idle during the burst.",
                    "已包月付费、突发期间空闲的 GPU。",
                )
                value=fixed
                on_commit=set_fixed
                field=Field::FixedGpus
                validate=|v| whole(Field::FixedGpus, v, MAX_GPUS)
                lang
                min=0.0
                max=64.0
                step=1.0
            />
            <SliderField
                testid="burst-elastic-gpus"
                label=label("Elastic GPUs at most", "弹性 GPU 上限")
                hint=label(
                    "The most on-demand GPUs you may rent for the burst (quota).",
                    "这次突发最多能租的按量 GPU 数（配额）。",
                )
                value=elastic
                on_commit=set_elastic
                field=Field::ElasticGpus
                validate=|v| whole(Field::ElasticGpus, v, MAX_GPUS)
                lang
                min=0.0
                max=256.0
                step=1.0
            />
            <div class="field">
                <label class="field-label" for="billing-increment">
                    {bilingual(lang, "Billing increment of elastic GPUs", "弹性 GPU 计费粒度")}
                </label>
                <select id="billing-increment" data-testid="billing-increment" on:change=on_increment>
                    {[BillingIncrement::Second, BillingIncrement::Minute, BillingIncrement::Hour]
                        .into_iter()
                        .map(|inc| {
                            view! {
                                <option value=inc.key() selected=move || increment() == inc>
                                    {move || increment_label(lang.get(), inc)}
                                </option>
                            }
                        })
                        .collect_view()}
                </select>
            </div>
            {move || {
                let l = lang.get();
                let cur = ctx.currency.get();
                let inputs = state.with(|s| s.inputs.clone());
                match ctx.outputs.with(|o| o.burst.clone()) {
                    Err(e) => view! { <p class="error" role="alert">{error_message(l, &e)}</p> }.into_any(),
                    Ok(b) => {
                        let w = b.with_elastic.clone();
                        let cell = |s: &Option<BurstScenario>, f: &dyn Fn(&BurstScenario) -> (String, String)| {
                            s.as_ref().map(f).unwrap_or_else(|| (String::new(), "—".to_string()))
                        };
                        let fo = b.fixed_only.clone();
                        let (fp_v, fp_t) = cell(&fo, &|s| (s.parallel_jobs.to_string(), s.parallel_jobs.to_string()));
                        let (fb_v, fb_t) = cell(&fo, &|s| (s.batches.to_string(), s.batches.to_string()));
                        let (fw_v, fw_t) = cell(&fo, &|s| (plain(s.wall_hours, 2), hours_text(s.wall_hours, l)));
                        let (fc_v, fc_t) = cell(&fo, &|s| (s.cost.to_plain_string(), money(s.cost, cur, l)));
                        let verdict = match (&b.fixed_only, b.hours_saved, b.cost_per_hour_saved) {
                            (None, _, _) => match l {
                                Lang::En => format!(
                                    "The {} fixed GPUs cannot run even one {}-GPU job: the burst needs elastic GPUs. It takes {} and costs {}.",
                                    inputs.burst_fixed_gpus, inputs.burst_gpus_per_job,
                                    hours_text(w.wall_hours, l), money(w.cost, cur, l)
                                ),
                                Lang::Zh => format!(
                                    "{} 张固定 GPU 连一个 {} 卡任务都跑不了，必须用弹性 GPU：耗时 {}，费用 {}。",
                                    inputs.burst_fixed_gpus, inputs.burst_gpus_per_job,
                                    hours_text(w.wall_hours, l), money(w.cost, cur, l)
                                ),
                            },
                            (Some(f), Some(saved), Some(per)) => match l {
                                Lang::En => format!(
                                    "Renting {} elastic GPUs finishes in {} instead of {} for {} extra: {} per hour saved.",
                                    w.elastic_gpus_used, hours_text(w.wall_hours, l), hours_text(f.wall_hours, l),
                                    money(w.cost, cur, l), money(per, cur, l)
                                ),
                                Lang::Zh => format!(
                                    "租 {} 张弹性 GPU，{}完成，而不是 {}；多花 {}，提前 {}，每节省 1 小时 {}。",
                                    w.elastic_gpus_used, hours_text(w.wall_hours, l), hours_text(f.wall_hours, l),
                                    money(w.cost, cur, l), hours_text(saved, l), money(per, cur, l)
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
                        let fixed_line = match &b.fixed_only {
                            Some(f) => format!(
                                "{}: ⌊{} / {}⌋ = {} {}; ⌈{} / {}⌉ = {} {} × {} h = {} h.  ",
                                pick(l, "Fixed only", "仅固定"),
                                fixed_gpus, g, slots_max(fixed_gpus),
                                pick(l, "slots", "个并行位"),
                                inputs.burst_jobs, slots_max(fixed_gpus), f.batches,
                                pick(l, "batches", "批"),
                                d,
                                number_trim(f.wall_hours, 2, l)
                            ),
                            None => String::new(),
                        };
                        let formula = format!(
                            "{fixed_line}{}: ⌊{} / {}⌋ = {} {}; ⌈{} / {}⌉ = {} {} × {} h = {} h; {} max(0, {} × {} − {}) = {} GPU; {} {} GPU·h × {} = {}",
                            pick(l, "With elastic", "加弹性"),
                            all_gpus, g, slots_max(all_gpus),
                            pick(l, "slots", "个并行位"),
                            inputs.burst_jobs, slots_max(all_gpus), w.batches,
                            pick(l, "batches", "批"),
                            d,
                            number_trim(w.wall_hours, 2, l),
                            pick(l, "rented", "租用"),
                            w.parallel_jobs, g, fixed_gpus, w.elastic_gpus_used,
                            pick(l, "billed", "计费"),
                            number_trim(w.elastic_gpu_hours_billed, 2, l),
                            number_trim(inputs.on_demand_price, 2, l),
                            money(w.cost, cur, l),
                        );
                        view! {
                            <div class="table-wrap" tabindex="0"><table class="compare" data-testid="burst-table">
                                <caption>{pick(l, "Running the burst with and without elastic GPUs", "突发任务：仅用固定 GPU 与加弹性 GPU 对比")}</caption>
                                <thead>
                                    <tr>
                                        <th scope="col">{pick(l, "Figure", "指标")}</th>
                                        <th scope="col">{pick(l, "Fixed GPUs only", "仅用固定 GPU")}</th>
                                        <th scope="col">{pick(l, "With elastic GPUs", "加弹性 GPU")}</th>
                                    </tr>
                                </thead>
                                <tbody>
                                    <tr>
                                        <th scope="row">{pick(l, "Jobs at once", "同时运行的任务数")}</th>
                                        <td data-testid="burst-fixed-parallel" data-value=fp_v>{fp_t}</td>
                                        <td data-testid="burst-elastic-parallel" data-value=w.parallel_jobs.to_string()>{w.parallel_jobs}</td>
                                    </tr>
                                    <tr>
                                        <th scope="row">{pick(l, "Batches", "批次")}</th>
                                        <td data-testid="burst-fixed-batches" data-value=fb_v>{fb_t}</td>
                                        <td data-testid="burst-elastic-batches" data-value=w.batches.to_string()>{w.batches}</td>
                                    </tr>
                                    <tr>
                                        <th scope="row">{pick(l, "Wall time", "总耗时")}</th>
                                        <td data-testid="burst-fixed-wall-hours" data-value=fw_v>{fw_t}</td>
                                        <td data-testid="burst-elastic-wall-hours" data-value=plain(w.wall_hours, 2)>{hours_text(w.wall_hours, l)}</td>
                                    </tr>
                                    <tr>
                                        <th scope="row">{pick(l, "Elastic GPUs rented", "租用的弹性 GPU")}</th>
                                        <td>"0"</td>
                                        <td data-testid="burst-elastic-gpus-used" data-value=w.elastic_gpus_used.to_string()>{w.elastic_gpus_used}</td>
                                    </tr>
                                    <tr>
                                        <th scope="row">{pick(l, "Elastic GPU-hours billed", "计费的弹性 GPU 小时")}</th>
                                        <td>"0"</td>
                                        <td data-testid="burst-elastic-gpu-hours" data-value=plain(w.elastic_gpu_hours_billed, 2)>
                                            {number_trim(w.elastic_gpu_hours_billed, 2, l)}
                                        </td>
                                    </tr>
                                    <tr>
                                        <th scope="row">{pick(l, "Extra cost", "额外费用")}</th>
                                        <td data-testid="burst-fixed-cost" data-value=fc_v>{fc_t}</td>
                                        <td data-testid="burst-elastic-cost" data-value=w.cost.to_plain_string()>{money(w.cost, cur, l)}</td>
                                    </tr>
                                </tbody>
                            </table></div>
                            <dl class="figures">
                                <div>
                                    <dt>{pick(l, "Hours saved by elastic GPUs", "加弹性 GPU 节省的时间")}</dt>
                                    <dd data-testid="burst-hours-saved" data-value=b.hours_saved.map(|h| plain(h, 2)).unwrap_or_default()>
                                        {b.hours_saved.map(|h| hours_text(h, l)).unwrap_or_else(|| pick(l, "— (no fixed-only run)", "—（固定 GPU 无法单独运行）").to_string())}
                                    </dd>
                                </div>
                                <div>
                                    <dt>{pick(l, "Cost per hour saved", "每节省 1 小时的费用")}</dt>
                                    <dd data-testid="burst-cost-per-hour-saved" data-value=b.cost_per_hour_saved.map(|m| m.to_plain_string()).unwrap_or_default()>
                                        {b.cost_per_hour_saved.map(|m| money(m, cur, l)).unwrap_or_else(|| pick(l, "— (no hour saved)", "—（没有节省时间）").to_string())}
                                    </dd>
                                </div>
                            </dl>
                            <p class="explainer" data-testid="burst-verdict">{verdict}</p>
                            <details class="how">
                                <summary>{pick(l, "How is this computed?", "怎么算的？")}</summary>
                                <p class="formula">{formula}</p>
                                <p class="explainer">
                                    {pick(
                                        l,
                                        "Only as many elastic GPUs are rented as the fewest batches need; those the last, smaller batch does not use are released after the previous batch. Each rental is rounded up to the billing increment.",
                                        "只租用达到最少批次所需的弹性 GPU；最后一批较小时，用不到的 GPU 在上一批结束后释放。每次租用按计费粒度向上取整。",
                                    )}
                                </p>
                                <a href="docs/formulas.html#burst">{pick(l, "Formula", "公式")}</a>
                            </details>
                        }
                            .into_any()
                    }
                }
            }}
        </section>
    }
}
