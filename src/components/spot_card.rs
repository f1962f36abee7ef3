//! § 8 Spot pool: effective price per useful GPU-hour with checkpoints (Young's interval),
//! the first-order validity range, and the expected run of a job without checkpoints.
//! δ and R are shown in minutes (the engine keeps hours); λ in reclaims per hour.
//! The output texts: `present::spot`; this file places them and holds the inputs.

use leptos::prelude::*;

use crate::components::bilingual;
use crate::components::figure::Figure;

use crate::components::slider_field::SliderField;
use crate::context::{bind_input, memo_of, use_ctx};
use crate::context::{error_of, is_ok, shown_of, text_of};
use crate::core::error::{non_negative, positive, Field};
use crate::core::spot::{MAX_INTERRUPTION_RATE, MAX_JOB_HOURS, MAX_SPOT_DURATION_HOURS};
use crate::format::number_trim;
use crate::i18n::{pick, Lang};
use crate::present::spot::{present, present_no_checkpoint, NoCheckpointView, SpotView};
use crate::present::Presented;

/// Whether a part of the card's presentation is there (false while it shows its error): a
/// memo, so the `<Show>` it drives rebuilds only when it flips.
fn flag<V>(view: Memo<Presented<V>>, part: fn(&V) -> bool) -> Memo<bool>
where
    V: PartialEq + Send + Sync + 'static,
{
    Memo::new(move |_| view.with(|v| v.as_ref().is_ok_and(part)))
}

/// Young's optimum √(2δ/λ) for the inputs, or 1 h when λ = 0 (the starting value offered
/// when the user switches to their own interval).
fn young_or_one(i: &crate::core::plan::PlanInputs) -> f64 {
    if i.interruption_rate > 0.0 && i.checkpoint_save_hours > 0.0 {
        let t = (2.0 * i.checkpoint_save_hours / i.interruption_rate).sqrt();
        if t.is_finite() && t > 0.0 {
            return t.min(MAX_SPOT_DURATION_HOURS);
        }
    }
    1.0
}

#[component]
pub fn SpotCard() -> impl IntoView {
    let ctx = use_ctx();
    let state = ctx.state;
    let lang = ctx.lang;
    let label = move |en: &'static str, zh: &'static str| {
        Signal::derive(move || pick(lang.get(), en, zh).to_string())
    };

    let (rate, set_rate) = bind_input(
        state,
        |i| i.interruption_rate,
        |i, v| i.interruption_rate = v,
    );
    let (save_min, set_save_min) = bind_input(
        state,
        |i| i.checkpoint_save_hours * 60.0,
        |i, v| i.checkpoint_save_hours = v / 60.0,
    );
    let (restart_min, set_restart_min) = bind_input(
        state,
        |i| i.restart_hours * 60.0,
        |i, v| i.restart_hours = v / 60.0,
    );
    let (interval, set_interval) = bind_input(
        state,
        |i| {
            i.checkpoint_interval_hours
                .unwrap_or_else(|| young_or_one(i))
        },
        |i, v| i.checkpoint_interval_hours = Some(v),
    );
    let (job, set_job) = bind_input(state, |i| i.job_hours, |i, v| i.job_hours = v);
    let use_young = Signal::<bool>::from(memo_of(state, |s| {
        s.inputs.checkpoint_interval_hours.is_none()
    }));
    let on_young = move |ev| {
        let checked = event_target_checked(&ev);
        state.update(|s| {
            s.inputs.checkpoint_interval_hours = if checked {
                None
            } else {
                Some(young_or_one(&s.inputs))
            }
        });
    };

    // The hint under λ says what the rate means in hours between reclaims.
    let rate_hint = Signal::derive(move || {
        let l = lang.get();
        let lambda = rate.get();
        let between = if lambda > 0.0 {
            match l {
                Lang::En => format!(
                    " Now: one reclaim every {} hours on average.",
                    number_trim(1.0 / lambda, 1, l)
                ),
                Lang::Zh => format!(
                    " 当前：平均每 {} 小时被回收一次。",
                    number_trim(1.0 / lambda, 1, l)
                ),
            }
        } else {
            pick(l, " Now: never reclaimed.", " 当前：从不回收。").to_string()
        };
        format!(
            "{}{}",
            pick(
                l,
                "Reclaims per GPU-hour: 0.02 = one reclaim every 50 hours; 0 = never reclaimed.",
                "每 GPU 小时被回收的次数：0.02 即平均每 50 小时回收一次；0 表示从不回收。",
            ),
            between
        )
    });

    // The outputs, as shown: one memo for each part of the card (with and without
    // checkpoints fail separately); every text below reads its own part of one of them.
    let checkpoints = Memo::new(move |_| {
        let (l, cur) = (lang.get(), ctx.currency.get());
        ctx.outputs
            .with(|o| state.with(|s| present(l, cur, &o.spot, &s.inputs)))
    });
    let no_checkpoint = Memo::new(move |_| {
        let (l, cur) = (lang.get(), ctx.currency.get());
        ctx.outputs.with(|o| {
            state.with(|s| present_no_checkpoint(l, cur, &o.spot_no_checkpoint, &s.inputs))
        })
    });
    let text = move |part: fn(&SpotView) -> String| text_of(checkpoints, part);
    let shown = move |part| shown_of(checkpoints, part);
    let text_nc = move |part: fn(&NoCheckpointView) -> String| text_of(no_checkpoint, part);
    let shown_nc = move |part| shown_of(no_checkpoint, part);

    view! {
        <section class="card" aria-labelledby="spot-heading">
            <h2 id="spot-heading">
                {bilingual(lang, "Spot instances with checkpoints", "竞价实例（带检查点）")}
            </h2>
            <SliderField
                testid="interruption-rate"
                label=label("Interruption rate (reclaims per hour)", "中断率（每小时回收次数）")
                hint=rate_hint
                value=rate
                on_commit=set_rate
                field=Field::InterruptionRate
                validate=|v| non_negative(Field::InterruptionRate, v, MAX_INTERRUPTION_RATE)
                lang
                min=0.0
                max=0.5
                step=0.005
            />
            <SliderField
                testid="checkpoint-save"
                label=label("Checkpoint save time (minutes)", "检查点保存时间（分钟）")
                hint=label(
                    "How long one checkpoint takes to write, during which the job makes no progress.",
                    "保存一次检查点所需时间，期间任务不推进。",
                )
                value=save_min
                on_commit=set_save_min
                field=Field::CheckpointSave
                validate=|v| positive(Field::CheckpointSave, v, MAX_SPOT_DURATION_HOURS * 60.0)
                lang
                min=0.5
                max=60.0
                step=0.5
            />
            <SliderField
                testid="restart-time"
                label=label("Restart time after a reclaim (minutes)", "被回收后的重启时间（分钟）")
                hint=label(
                    "Getting a new instance, pulling the image and loading the last checkpoint.",
                    "重新申请实例、拉取镜像并加载最近一次检查点所需时间。",
                )
                value=restart_min
                on_commit=set_restart_min
                field=Field::RestartTime
                validate=|v| non_negative(Field::RestartTime, v, MAX_SPOT_DURATION_HOURS * 60.0)
                lang
                min=0.0
                max=120.0
                step=1.0
            />
            <div class="field">
                <label class="check">
                    <input
                        type="checkbox"
                        data-testid="use-young"
                        prop:checked=move || use_young.get()
                        on:change=on_young
                    />
                    " "
                    {bilingual(
                        lang,
                        "Use Young's optimum checkpoint interval √(2δ/λ)",
                        "使用 Young 最优检查点间隔 √(2δ/λ)",
                    )}
                </label>
            </div>
            <Show when=move || !use_young.get()>
                <SliderField
                    testid="checkpoint-interval"
                    label=label("Checkpoint interval (hours)", "检查点间隔（小时）")
                    hint=label(
                        "Hours of work between two checkpoints.",
                        "两次检查点之间的工作小时数。",
                    )
                    value=interval
                    on_commit=set_interval
                    field=Field::CheckpointInterval
                    validate=|v| positive(Field::CheckpointInterval, v, MAX_SPOT_DURATION_HOURS)
                    lang
                    min=0.1
                    max=24.0
                    step=0.1
                />
            </Show>
            <Show
                when={ let ok = is_ok(checkpoints); move || ok.get() }
                fallback=move || view! { <p class="error" role="alert">{error_of(checkpoints)}</p> }
            >
                <Show when={ let w = flag(checkpoints, |v| v.warning.is_some()); move || w.get() }>
                    <p class="warning" role="alert" data-testid="spot-warning">
                        {text(|v| v.warning.clone().unwrap_or_default())}
                    </p>
                </Show>
                <dl class="figures">
                    <Figure testid="spot-effective-price"
                        en="Spot price per useful GPU-hour (with checkpoints)" zh="竞价每有效 GPU 小时价格（带检查点）"
                        shown=shown(|v| &v.effective_price) />
                    <Figure testid="spot-saving"
                        en="Saving against on demand per useful GPU-hour" zh="相比按量每有效 GPU 小时节省"
                        shown=shown(|v| &v.saving) />
                    <Figure testid="spot-young-interval"
                        en="Young's optimum checkpoint interval" zh="Young 最优检查点间隔"
                        shown=shown(|v| &v.young_interval) />
                    <Figure testid="spot-interval" en="Checkpoint interval used" zh="采用的检查点间隔"
                        shown=shown(|v| &v.interval) />
                    <Figure testid="spot-checkpoint-overhead"
                        en="Time lost saving checkpoints (δ/τ)" zh="保存检查点损失的时间（δ/τ）"
                        shown=shown(|v| &v.checkpoint_overhead) />
                    <Figure testid="spot-reclaim-overhead"
                        en="Time lost to reclaims (λ(τ/2 + R))" zh="被回收损失的时间（λ(τ/2 + R)）"
                        shown=shown(|v| &v.reclaim_overhead) />
                    <Figure testid="spot-first-order"
                        en="First-order formula accurate?" zh="一阶近似是否适用？"
                        shown=shown(|v| &v.first_order) />
                </dl>
                <Show when={ let has = flag(checkpoints, |v| v.verdict.is_some()); move || has.get() }>
                    <p class="explainer" data-testid="spot-verdict">
                        {text(|v| v.verdict.clone().unwrap_or_default())}
                    </p>
                </Show>
                <details class="how">
                    <summary>{bilingual(lang, "How is this computed?", "怎么算的？")}</summary>
                    <p class="formula">{text(|v| v.formula.clone())}</p>
                    <a href="docs/formulas.html#spot">{bilingual(lang, "Formula", "公式")}</a>
                </details>
            </Show>
            <h3>{bilingual(lang, "Without checkpoints", "不做检查点")}</h3>
            <SliderField
                testid="job-length"
                label=label("Job length (hours of work)", "任务时长（工作小时）")
                hint=label(
                    "A job that restarts from zero after every reclaim.",
                    "每次被回收后都要从头重跑的任务。",
                )
                value=job
                on_commit=set_job
                field=Field::JobLength
                validate=|v| positive(Field::JobLength, v, MAX_JOB_HOURS)
                lang
                min=0.5
                max=200.0
                step=0.5
            />
            <Show
                when={ let ok = is_ok(no_checkpoint); move || ok.get() }
                fallback=move || view! { <p class="error" role="alert">{error_of(no_checkpoint)}</p> }
            >
                <Show when={ let w = flag(no_checkpoint, |v| v.warning.is_some()); move || w.get() }>
                    <p class="warning" role="alert" data-testid="spot-no-checkpoint-warning">
                        {text_nc(|v| v.warning.clone().unwrap_or_default())}
                    </p>
                </Show>
                <dl class="figures">
                    <Figure testid="spot-no-checkpoint-hours"
                        en="Expected wall time per GPU" zh="每卡预计实际耗时"
                        shown=shown_nc(|v| &v.hours) />
                    <Figure testid="spot-no-checkpoint-cost"
                        en="Expected spot cost per GPU" zh="每卡预计竞价费用"
                        shown=shown_nc(|v| &v.cost) />
                    <Figure testid="spot-no-checkpoint-on-demand"
                        en="Same job on demand per GPU" zh="同样任务按量（每卡）"
                        shown=shown_nc(|v| &v.on_demand) />
                    <Figure testid="spot-no-checkpoint-price"
                        en="Spot price per useful GPU-hour without checkpoints" zh="不做检查点时竞价每有效 GPU 小时价格"
                        shown=shown_nc(|v| &v.price) />
                </dl>
                <details class="how">
                    <summary>{bilingual(lang, "How is this computed?", "怎么算的？")}</summary>
                    <p class="formula">{text_nc(|v| v.formula.clone())}</p>
                    <a href="docs/formulas.html#spot">{bilingual(lang, "Formula", "公式")}</a>
                </details>
            </Show>
        </section>
    }
}
