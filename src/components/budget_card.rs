//! § 10 Budget split: fixed / elastic / spot-and-emergency (default 60/25/15), what each part
//! buys, and the split the chosen plan implies.
//! The texts: `present::budget`; this file only places them.

use leptos::prelude::*;

use crate::components::bilingual;

use crate::components::figure::Figure;
use crate::components::slider_field::SliderField;
use crate::context::{bind_input, error_of, is_ok, shown_of, text_of, use_ctx};
use crate::core::error::{non_negative, positive, Field};
use crate::i18n::pick;
use crate::present::budget::{present, BudgetView};

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
    let view = Memo::new(move |_| {
        ctx.state.with(|s| {
            ctx.outputs.with(|o| {
                present(
                    lang.get(),
                    ctx.currency.get(),
                    &o.budget,
                    &o.budget_implied,
                    &s.inputs,
                )
            })
        })
    });
    let text = move |part: fn(&BudgetView) -> String| text_of(view, part);
    let shown = move |part| shown_of(view, part);
    let has_implied = Memo::new(move |_| view.with(|v| matches!(v, Ok(v) if v.implied.is_some())));
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
            <Show
                when={ let ok = is_ok(view); move || ok.get() }
                fallback=move || view! {
                    <p class="error" role="alert" data-testid="budget-split-error">{error_of(view)}</p>
                }
            >
                <dl class="figures">
                    <div>
                        <dt>{bilingual(lang, "Fixed baseline", "固定基线")}</dt>
                        <dd data-testid="budget-fixed" data-value=text(|v| v.fixed.value.clone())>
                            {text(|v| v.fixed.text.clone())}
                            " — "
                            <span data-testid="budget-fixed-gpus" data-value=text(|v| v.fixed_gpus.value.clone())>
                                {text(|v| v.fixed_gpus.text.clone())}
                            </span>
                        </dd>
                    </div>
                    <Figure testid="budget-elastic" en="Elastic on-demand" zh="弹性按量"
                        shown=shown(|v| &v.elastic) />
                    <Figure testid="budget-spot" en="Spot and emergency" zh="竞价与应急"
                        shown=shown(|v| &v.spot) />
                </dl>
                <Show when=move || has_implied.get()>
                    <p data-testid="budget-implied">
                        {bilingual(lang, "The chosen plan implies: ", "当前方案对应的分配：")}
                        {text(|v| v.implied.clone().unwrap_or_default())}
                    </p>
                </Show>
                <details class="how">
                    <summary>{bilingual(lang, "How is this computed?", "怎么算的？")}</summary>
                    <p class="formula">{"fixed = B·a; GPUs = ⌊fixed / P⌋; on-demand hours = B·b / r; spot hours = B·c / s"}</p>
                    <p class="formula" data-testid="budget-formula">{text(|v| v.formula.clone())}</p>
                    <a href="docs/formulas.html#budget">{bilingual(lang, "Formula", "公式")}</a>
                </details>
            </Show>
        </section>
    }
}
