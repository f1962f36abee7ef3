//! § 10 Budget split: fixed / elastic / spot-and-emergency (default 60/25/15), what each part
//! buys, and the split the chosen plan implies.

use leptos::prelude::*;

use crate::components::bilingual;

use crate::components::slider_field::SliderField;
use crate::context::{bind_input, use_ctx};
use crate::core::error::{non_negative, positive, Field};
use crate::format::{money, number_trim, percent};
use crate::i18n::{error_message, pick, Lang};

/// Largest monthly budget the field accepts.
const MAX_BUDGET_FIELD: f64 = 1e12;

#[component]
pub fn BudgetCard() -> impl IntoView {
    let ctx = use_ctx();
    let lang = ctx.lang;
    let state = ctx.state;
    let (budget, set_budget) = bind_input(state, |i| i.budget, |i, v| i.budget = v);
    let (fixed, set_fixed) = bind_input(
        state,
        |i| i.budget_fixed_percent,
        |i, v| i.budget_fixed_percent = v,
    );
    let (elastic, set_elastic) = bind_input(
        state,
        |i| i.budget_elastic_percent,
        |i, v| i.budget_elastic_percent = v,
    );
    let (spot, set_spot) = bind_input(
        state,
        |i| i.budget_spot_percent,
        |i, v| i.budget_spot_percent = v,
    );
    let label = move |en: &'static str, zh: &'static str| {
        Signal::derive(move || pick(lang.get(), en, zh).to_string())
    };
    let share = |v: f64| non_negative(Field::BudgetShare, v, 100.0);
    view! {
        <section class="card" aria-labelledby="budget-heading">
            <h2 id="budget-heading">{bilingual(lang, "Budget split", "预算分配")}</h2>
            <SliderField testid="budget" label=label("Monthly GPU budget", "每月 GPU 预算")
                hint=label("What the team may spend on GPUs per month", "团队每月可花在 GPU 上的钱")
                value=budget on_commit=set_budget field=Field::Budget
                validate=|v| positive(Field::Budget, v, MAX_BUDGET_FIELD) lang min=1000.0 max=1_000_000.0 step=1000.0 />
            <div class="share-fields">
                <SliderField testid="budget-fixed-share" label=label("Fixed baseline (%)", "固定基线（%）")
                    hint=label("Monthly GPUs", "包月 GPU") value=fixed on_commit=set_fixed field=Field::BudgetShare
                    validate=share lang min=0.0 max=100.0 step=5.0 />
                <SliderField testid="budget-elastic-share" label=label("Elastic on-demand (%)", "弹性按量（%）")
                    hint=label("On-demand GPU-hours", "按量 GPU 小时") value=elastic on_commit=set_elastic field=Field::BudgetShare
                    validate=share lang min=0.0 max=100.0 step=5.0 />
                <SliderField testid="budget-spot-share" label=label("Spot and emergency (%)", "竞价与应急（%）")
                    hint=label("Spot GPU-hours and reserve", "竞价 GPU 小时与应急储备") value=spot on_commit=set_spot field=Field::BudgetShare
                    validate=share lang min=0.0 max=100.0 step=5.0 />
            </div>
            <button type="button" data-testid="budget-reset" on:click=move |_| state.update(|s| {
                s.inputs.budget_fixed_percent = 60.0;
                s.inputs.budget_elastic_percent = 25.0;
                s.inputs.budget_spot_percent = 15.0;
            })>{bilingual(lang, "Reset to 60 / 25 / 15", "恢复 60 / 25 / 15")}</button>
            {move || {
                let l = lang.get();
                let cur = ctx.currency.get();
                let (split, implied) = ctx.outputs.with(|o| (o.budget.clone(), o.budget_implied.clone()));
                match split {
                    Err(e) => view! { <p class="error" role="alert" data-testid="budget-split-error">{error_message(l, &e)}</p> }.into_any(),
                    Ok(b) => {
                        let gpus = match l {
                            Lang::En => format!("buys {} monthly GPU{} ({} left over)", b.fixed_gpus, if b.fixed_gpus == 1 { "" } else { "s" }, money(b.fixed_remainder, cur, l)),
                            Lang::Zh => format!("可包月 {} 张 GPU（剩余 {}）", b.fixed_gpus, money(b.fixed_remainder, cur, l)),
                        };
                        view! {
                            <dl class="figures">
                                <div>
                                    <dt>{pick(l, "Fixed baseline", "固定基线")}</dt>
                                    <dd data-testid="budget-fixed" data-value=b.fixed.to_plain_string()>
                                        {money(b.fixed, cur, l)} " — " <span data-testid="budget-fixed-gpus" data-value=b.fixed_gpus.to_string()>{gpus}</span>
                                    </dd>
                                </div>
                                <div>
                                    <dt>{pick(l, "Elastic on-demand", "弹性按量")}</dt>
                                    <dd data-testid="budget-elastic" data-value=b.elastic.to_plain_string()>
                                        {money(b.elastic, cur, l)} " — " {number_trim(b.on_demand_gpu_hours, 1, l)} {pick(l, " on-demand GPU-hours", " 按量 GPU 小时")}
                                    </dd>
                                </div>
                                <div>
                                    <dt>{pick(l, "Spot and emergency", "竞价与应急")}</dt>
                                    <dd data-testid="budget-spot" data-value=b.spot.to_plain_string()>
                                        {money(b.spot, cur, l)} " — " {number_trim(b.spot_gpu_hours, 1, l)} {pick(l, " spot GPU-hours", " 竞价 GPU 小时")}
                                    </dd>
                                </div>
                            </dl>
                            {implied.ok().map(|i| view! {
                                <p data-testid="budget-implied">
                                    {pick(l, "The chosen plan implies: ", "当前方案对应的分配：")}
                                    {{
                                        let shares = format!("{} / {} / {}", percent(i.fixed_share, 1, l), percent(i.elastic_share, 1, l), percent(i.spot_share, 1, l));
                                        match l {
                                            Lang::En => format!("{shares} (of {})", money(i.total, cur, l)),
                                            Lang::Zh => format!("{shares}（共 {}）", money(i.total, cur, l)),
                                        }
                                    }}
                                </p>
                            })}
                            <details class="how">
                                <summary>{pick(l, "How is this computed?", "怎么算的？")}</summary>
                                <p class="formula">{"fixed = B·a; GPUs = ⌊fixed / P⌋; on-demand hours = B·b / r; spot hours = B·c / s"}</p>
                                <p class="formula" data-testid="budget-formula">{
                                    let i = ctx.state.with(|s| s.inputs.clone());
                                    format!(
                                        "{} × {} % = {} → ⌊{} / {}⌋ = {} ({} {});  {} × {} % = {} → {} / {} = {} h;  {} × {} % = {} → {} / {} = {} h",
                                        money(b.budget, cur, l), number_trim(i.budget_fixed_percent, 2, l), money(b.fixed, cur, l),
                                        money(b.fixed, cur, l), number_trim(i.monthly_price, 2, l), b.fixed_gpus,
                                        money(b.fixed_remainder, cur, l), pick(l, "left", "剩余"),
                                        money(b.budget, cur, l), number_trim(i.budget_elastic_percent, 2, l), money(b.elastic, cur, l),
                                        money(b.elastic, cur, l), number_trim(i.on_demand_price, 4, l), number_trim(b.on_demand_gpu_hours, 2, l),
                                        money(b.budget, cur, l), number_trim(i.budget_spot_percent, 2, l), money(b.spot, cur, l),
                                        money(b.spot, cur, l), number_trim(i.spot_price, 4, l), number_trim(b.spot_gpu_hours, 2, l),
                                    )
                                }</p>
                                <a href="docs/formulas.html#budget">{pick(l, "Formula", "公式")}</a>
                            </details>
                        }.into_any()
                    }
                }
            }}
        </section>
    }
}
