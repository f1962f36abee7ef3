//! The answer first: commit N GPUs monthly, run the rest elastic; total and saving.

use leptos::prelude::*;

use crate::components::bilingual;

use crate::context::use_ctx;
use crate::format::{money, percent};
use crate::i18n::{error_message, pick, Lang};
use crate::state::UsageMode;

#[component]
pub fn HeadlineCard() -> impl IntoView {
    let ctx = use_ctx();
    let lang = ctx.lang;
    view! {
        <section class="card headline" aria-labelledby="headline-heading" aria-live="polite">
            <h2 id="headline-heading">{bilingual(lang, "The plan", "方案")}</h2>
            {move || {
                let l = lang.get();
                let cur = ctx.currency.get();
                let data_mode = ctx.state.with(|s| s.mode == UsageMode::Data);
                let have_history = ctx.profile.with(|p| matches!(p, Some(Ok(_))));
                ctx.outputs.with(|o| {
                    let parts = (o.baseline.clone(), o.pools.clone(), o.sizing.clone());
                    match parts {
                        (Ok(base), Ok(pools), Ok(sizing)) => {
                            let n = base.gpus;
                            let saving = sizing.all_on_demand - pools.total;
                            let saving_share = saving.ratio(sizing.all_on_demand);
                            let spot = pools.spot_gpu_hours > 0.0;
                            let sentence = match l {
                                Lang::En if n == 0 => format!(
                                    "Commit no GPU monthly: run everything on demand{}.",
                                    if spot { " (+ spot for interruptible work)" } else { "" }
                                ),
                                Lang::Zh if n == 0 => format!(
                                    "不包月：全部按量{}。",
                                    if spot { "（可中断任务用竞价实例）" } else { "" }
                                ),
                                Lang::En => format!(
                                    "Commit {n} GPU{} monthly, run the rest on demand{}.",
                                    if n == 1 { "" } else { "s" },
                                    if spot { " (+ spot for interruptible work)" } else { "" }
                                ),
                                Lang::Zh => format!(
                                    "包月固定 {n} 张 GPU，其余按量{}。",
                                    if spot { "（可中断任务用竞价实例）" } else { "" }
                                ),
                            };
                            view! {
                                <p class="headline-sentence">
                                    <span data-testid="recommended-n" data-value=n.to_string()>{sentence}</span>
                                </p>
                                <p class="headline-figures">
                                    <strong data-testid="plan-monthly-total" data-value=pools.total.to_plain_string()>
                                        {money(pools.total, cur, l)}
                                    </strong>
                                    {pick(l, " per month, ", " /月，")}
                                    <span data-testid="plan-saving" data-value=saving.to_plain_string()>
                                        {if saving.is_negative() {
                                            format!("{} {} ({})", pick(l, "costing more than all on-demand by", "比全部按量多花"), money(-saving, cur, l), percent(-saving_share, 1, l))
                                        } else {
                                            format!("{} {} ({})", pick(l, "saving vs all on-demand:", "比全部按量节省"), money(saving, cur, l), percent(saving_share, 1, l))
                                        }}
                                    </span>
                                </p>
                                <details class="how">
                                    <summary>{pick(l, "How is this computed?", "怎么算的？")}</summary>
                                    <p class="formula" data-testid="headline-formula">
                                        {format!(
                                            "{}: {} + {} + {} = {};  {}: {} − {} = {}",
                                            pick(l, "plan", "方案"),
                                            money(pools.reserved, cur, l),
                                            money(pools.on_demand, cur, l),
                                            money(pools.spot, cur, l),
                                            money(pools.total, cur, l),
                                            pick(l, "saving = all on demand (r × GPU-hours used) − plan", "节省 = 全部按量（r × 使用的 GPU 小时）− 方案"),
                                            money(sizing.all_on_demand, cur, l),
                                            money(pools.total, cur, l),
                                            money(saving, cur, l),
                                        )}
                                    </p>
                                    <a href="docs/formulas.html#pools">{pick(l, "Formula", "公式")}</a>
                                </details>
                                {(data_mode && !have_history).then(|| view! {
                                    <p class="warning" role="status">
                                        {pick(l, "No usable history yet: these figures come from the sliders.", "尚无可用的用量历史：以下数字来自滑块。")}
                                    </p>
                                })}
                            }
                                .into_any()
                        }
                        (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => {
                            view! { <p class="error" role="alert">{error_message(l, &e)}</p> }.into_any()
                        }
                    }
                })
            }}
        </section>
    }
}
