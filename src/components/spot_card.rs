//! § 8 Spot pool: effective price per useful GPU-hour with checkpoints (Young's interval),
//! the first-order validity range, and the expected run of a job without checkpoints.
//! δ and R are shown in minutes (the engine keeps hours); λ in reclaims per hour.

use leptos::prelude::*;

use crate::components::bilingual;

use crate::components::slider_field::SliderField;
use crate::context::{bind_input, memo_of, use_ctx};
use crate::core::error::{non_negative, positive, Field};
use crate::core::spot::{
    FIRST_ORDER_LIMIT, MAX_INTERRUPTION_RATE, MAX_JOB_HOURS, MAX_SPOT_DURATION_HOURS,
};
use crate::format::{money, number_trim, percent, plain};
use crate::i18n::{error_message, pick, Lang};

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
                    {move || pick(
                        lang.get(),
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
            {move || {
                let l = lang.get();
                let cur = ctx.currency.get();
                let inputs = state.with(|s| s.inputs.clone());
                let r = inputs.on_demand_price;
                match ctx.outputs.with(|o| o.spot.clone()) {
                    Err(e) => view! { <p class="error" role="alert">{error_message(l, &e)}</p> }.into_any(),
                    Ok(se) => {
                        let lambda = inputs.interruption_rate;
                        let delta = inputs.checkpoint_save_hours;
                        let restart = inputs.restart_hours;
                        let eff = money(se.effective_price_money, cur, l);
                        let on_demand = money(crate::core::money::Money::from_f64(r), cur, l);
                        let hours = |v: Option<f64>| {
                            v.map(|h| format!("{}{}", number_trim(h, 2, l), pick(l, " h", " 小时")))
                                .unwrap_or_else(|| pick(l, "— (never reclaimed)", "—（从不回收）").to_string())
                        };
                        let validity_product = se.interval_hours.map(|t| lambda * (t + restart)).unwrap_or(0.0);
                        let verdict = if se.costs_more_than_on_demand {
                            None
                        } else {
                            let saving = money(se.saving_vs_on_demand, cur, l);
                            Some(match l {
                                Lang::En => format!(
                                    "Each useful spot GPU-hour costs {eff} with checkpoints: {saving} less than on demand ({on_demand})."
                                ),
                                Lang::Zh => format!(
                                    "带检查点时，竞价实例每有效 GPU 小时 {eff}，比按量（{on_demand}）便宜 {saving}。"
                                ),
                            })
                        };
                        let warning = se.costs_more_than_on_demand.then(|| {
                            let extra = money(-se.saving_vs_on_demand, cur, l);
                            match l {
                                Lang::En => format!(
                                    "⚠ Spot costs more than on demand here: {eff} per useful GPU-hour with checkpoints, {extra} above the on-demand {on_demand}. Use on demand for this work."
                                ),
                                Lang::Zh => format!(
                                    "⚠ 这种情况下竞价比按量还贵：带检查点每有效 GPU 小时 {eff}，比按量 {on_demand} 高 {extra}。这类任务请用按量。"
                                ),
                            }
                        });
                        let formula = match se.interval_hours {
                            Some(tau) => {
                                let tau_line = match (se.young_interval_hours, inputs.checkpoint_interval_hours) {
                                    (Some(_), None) => format!(
                                        "τ = √(2δ/λ) = √(2 × {} / {}) = {} h;  ",
                                        number_trim(delta, 4, l),
                                        number_trim(lambda, 4, l),
                                        number_trim(tau, 3, l)
                                    ),
                                    _ => format!("τ = {} h;  ", number_trim(tau, 3, l)),
                                };
                                format!(
                                    "{tau_line}s_eff = s·(1 + δ/τ + λ(τ/2 + R)) = {} × (1 + {} / {} + {} × ({} / 2 + {})) = {} × {} = {};  λ(τ + R) = {}, δ/τ = {} ({} ≤ {})",
                                    number_trim(se.list_price.to_f64(), 2, l),
                                    number_trim(delta, 4, l),
                                    number_trim(tau, 3, l),
                                    number_trim(lambda, 4, l),
                                    number_trim(tau, 3, l),
                                    number_trim(restart, 4, l),
                                    number_trim(se.list_price.to_f64(), 2, l),
                                    number_trim(se.factor, 4, l),
                                    eff,
                                    number_trim(validity_product, 4, l),
                                    number_trim(se.checkpoint_overhead, 4, l),
                                    pick(l, "first order valid while both", "两者都"),
                                    number_trim(FIRST_ORDER_LIMIT, 1, l),
                                )
                            }
                            None => format!(
                                "λ = 0: s_eff = s = {}",
                                eff
                            ),
                        };
                        let valid_text = if se.first_order_valid {
                            match l {
                                Lang::En => format!(
                                    "Yes: λ(τ + R) = {} and δ/τ = {} are both ≤ {}.",
                                    number_trim(validity_product, 3, l),
                                    number_trim(se.checkpoint_overhead, 3, l),
                                    number_trim(FIRST_ORDER_LIMIT, 1, l)
                                ),
                                Lang::Zh => format!(
                                    "是：λ(τ + R) = {}，δ/τ = {}，均 ≤ {}。",
                                    number_trim(validity_product, 3, l),
                                    number_trim(se.checkpoint_overhead, 3, l),
                                    number_trim(FIRST_ORDER_LIMIT, 1, l)
                                ),
                            }
                        } else {
                            match l {
                                Lang::En => format!(
                                    "⚠ No: λ(τ + R) = {} and δ/τ = {} must both be ≤ {}. Outside this range the true overhead is larger than shown.",
                                    number_trim(validity_product, 3, l),
                                    number_trim(se.checkpoint_overhead, 3, l),
                                    number_trim(FIRST_ORDER_LIMIT, 1, l)
                                ),
                                Lang::Zh => format!(
                                    "⚠ 否：λ(τ + R) = {}、δ/τ = {} 须都 ≤ {}。超出此范围时，实际开销比这里显示的更大。",
                                    number_trim(validity_product, 3, l),
                                    number_trim(se.checkpoint_overhead, 3, l),
                                    number_trim(FIRST_ORDER_LIMIT, 1, l)
                                ),
                            }
                        };
                        view! {
                            {warning.map(|w| view! {
                                <p class="warning" role="alert" data-testid="spot-warning">{w}</p>
                            })}
                            <dl class="figures">
                                <div>
                                    <dt>{pick(l, "Spot price per useful GPU-hour (with checkpoints)", "竞价每有效 GPU 小时价格（带检查点）")}</dt>
                                    <dd data-testid="spot-effective-price" data-value=se.effective_price_money.to_plain_string()>
                                        {eff.clone()}
                                        {format!(" ({} {} × {})", pick(l, "list price", "标价"), money(se.list_price, cur, l), number_trim(se.factor, 4, l))}
                                    </dd>
                                </div>
                                <div>
                                    <dt>{pick(l, "Saving against on demand per useful GPU-hour", "相比按量每有效 GPU 小时节省")}</dt>
                                    <dd data-testid="spot-saving" data-value=se.saving_vs_on_demand.to_plain_string()>
                                        {money(se.saving_vs_on_demand, cur, l)}
                                    </dd>
                                </div>
                                <div>
                                    <dt>{pick(l, "Young's optimum checkpoint interval", "Young 最优检查点间隔")}</dt>
                                    <dd data-testid="spot-young-interval" data-value=se.young_interval_hours.map(|v| plain(v, 2)).unwrap_or_default()>
                                        {hours(se.young_interval_hours)}
                                    </dd>
                                </div>
                                <div>
                                    <dt>{pick(l, "Checkpoint interval used", "采用的检查点间隔")}</dt>
                                    <dd data-testid="spot-interval" data-value=se.interval_hours.map(|v| plain(v, 2)).unwrap_or_default()>
                                        {hours(se.interval_hours)}
                                        {if inputs.checkpoint_interval_hours.is_some() {
                                            pick(l, " (yours)", "（自定）")
                                        } else if se.interval_hours.is_some() {
                                            pick(l, " (Young's optimum)", "（Young 最优）")
                                        } else {
                                            ""
                                        }}
                                    </dd>
                                </div>
                                <div>
                                    <dt>{pick(l, "Time lost saving checkpoints (δ/τ)", "保存检查点损失的时间（δ/τ）")}</dt>
                                    <dd data-testid="spot-checkpoint-overhead" data-value=plain(se.checkpoint_overhead, 4)>
                                        {percent(se.checkpoint_overhead, 2, l)}
                                    </dd>
                                </div>
                                <div>
                                    <dt>{pick(l, "Time lost to reclaims (λ(τ/2 + R))", "被回收损失的时间（λ(τ/2 + R)）")}</dt>
                                    <dd data-testid="spot-reclaim-overhead" data-value=plain(se.reclaim_overhead, 4)>
                                        {percent(se.reclaim_overhead, 2, l)}
                                    </dd>
                                </div>
                                <div>
                                    <dt>{pick(l, "First-order formula accurate?", "一阶近似是否适用？")}</dt>
                                    <dd data-testid="spot-first-order" data-value=if se.first_order_valid { "true" } else { "false" }>
                                        {valid_text}
                                    </dd>
                                </div>
                            </dl>
                            {verdict.map(|v| view! { <p class="explainer" data-testid="spot-verdict">{v}</p> })}
                            <details class="how">
                                <summary>{pick(l, "How is this computed?", "怎么算的？")}</summary>
                                <p class="formula">{formula}</p>
                                <a href="docs/formulas.html#spot">{pick(l, "Formula", "公式")}</a>
                            </details>
                        }
                            .into_any()
                    }
                }
            }}
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
            {move || {
                let l = lang.get();
                let cur = ctx.currency.get();
                let inputs = state.with(|s| s.inputs.clone());
                match ctx.outputs.with(|o| o.spot_no_checkpoint.clone()) {
                    Err(e) => view! { <p class="error" role="alert">{error_message(l, &e)}</p> }.into_any(),
                    Ok(n) => {
                        let lambda = inputs.interruption_rate;
                        let warning = n.costs_more_than_on_demand.then(|| match l {
                            Lang::En => format!(
                                "⚠ Without checkpoints this job costs more on spot ({}) than on demand ({}). Add checkpoints or run it on demand.",
                                money(n.expected_cost, cur, l),
                                money(n.on_demand_cost, cur, l)
                            ),
                            Lang::Zh => format!(
                                "⚠ 不做检查点时，这个任务用竞价（{}）比按量（{}）还贵。请加检查点，或改用按量。",
                                money(n.expected_cost, cur, l),
                                money(n.on_demand_cost, cur, l)
                            ),
                        });
                        let formula = if lambda > 0.0 {
                            format!(
                                "E[wall] = (1/λ + R)(e^(λJ) − 1) = ({} + {}) × (e^{} − 1) = {} h;  s × E[wall] = {} × {} = {};  r × J = {} × {} = {}",
                                number_trim(1.0 / lambda, 3, l),
                                number_trim(inputs.restart_hours, 4, l),
                                number_trim(lambda * n.job_hours, 4, l),
                                number_trim(n.expected_hours, 2, l),
                                number_trim(inputs.spot_price, 2, l),
                                number_trim(n.expected_hours, 2, l),
                                money(n.expected_cost, cur, l),
                                number_trim(inputs.on_demand_price, 2, l),
                                number_trim(n.job_hours, 2, l),
                                money(n.on_demand_cost, cur, l),
                            )
                        } else {
                            format!(
                                "λ = 0: E[wall] = J = {} h",
                                number_trim(n.job_hours, 2, l)
                            )
                        };
                        view! {
                            {warning.map(|w| view! {
                                <p class="warning" role="alert" data-testid="spot-no-checkpoint-warning">{w}</p>
                            })}
                            <dl class="figures">
                                <div>
                                    <dt>{pick(l, "Expected wall time per GPU", "每卡预计实际耗时")}</dt>
                                    <dd data-testid="spot-no-checkpoint-hours" data-value=plain(n.expected_hours, 2)>
                                        {format!("{}{}", number_trim(n.expected_hours, 2, l), pick(l, " h", " 小时"))}
                                    </dd>
                                </div>
                                <div>
                                    <dt>{pick(l, "Expected spot cost per GPU", "每卡预计竞价费用")}</dt>
                                    <dd data-testid="spot-no-checkpoint-cost" data-value=n.expected_cost.to_plain_string()>
                                        {money(n.expected_cost, cur, l)}
                                    </dd>
                                </div>
                                <div>
                                    <dt>{pick(l, "Same job on demand per GPU", "同样任务按量（每卡）")}</dt>
                                    <dd data-testid="spot-no-checkpoint-on-demand" data-value=n.on_demand_cost.to_plain_string()>
                                        {money(n.on_demand_cost, cur, l)}
                                    </dd>
                                </div>
                                <div>
                                    <dt>{pick(l, "Spot price per useful GPU-hour without checkpoints", "不做检查点时竞价每有效 GPU 小时价格")}</dt>
                                    <dd data-testid="spot-no-checkpoint-price" data-value=n.effective_price.to_plain_string()>
                                        {money(n.effective_price, cur, l)}
                                    </dd>
                                </div>
                            </dl>
                            <details class="how">
                                <summary>{pick(l, "How is this computed?", "怎么算的？")}</summary>
                                <p class="formula">{formula}</p>
                                <a href="docs/formulas.html#spot">{pick(l, "Formula", "公式")}</a>
                            </details>
                        }
                            .into_any()
                    }
                }
            }}
        </section>
    }
}
