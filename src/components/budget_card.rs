//! § 10 Budget split: fixed / elastic / spot-and-emergency (default 60/25/15), what each part
//! buys, and the split the chosen plan implies.
//! The texts: `present::budget`; this file only places them.

use leptos::prelude::*;

use crate::components::value::Value;

use crate::charts::budget as chart;
use crate::components::chart_canvas::{ChartCanvas, ChartDraw};
use crate::components::how_computed::HowComputed;
use crate::page::chart_memos;

use crate::components::bilingual;

use crate::components::card_body::CardBody;
use crate::components::figure::Figure;
use crate::components::input_fields::InputFields;
use crate::components::when::When;
use crate::inputs::Group;
use crate::page::context::{error_of, is_ok, use_ctx, Part};

#[component]
pub fn BudgetCard() -> impl IntoView {
    let ctx = use_ctx();
    let lang = ctx.lang;
    let state = ctx.state;
    let currency = ctx.currency;
    let data = chart_memos::budget(ctx);
    let summary = chart_memos::summary(ctx, data, chart::summary);
    let view = Part::of(|p| &p.budget);
    let has_implied = view.flag(|v| v.implied.is_some());
    view! {
        <section node_ref=view.view.node class="card" aria-labelledby="budget-heading">
            <h2 id="budget-heading">{bilingual(lang, "Budget split", "预算分配")}</h2>
            <div class="split">
            <div class="split-in">
            <InputFields group_of=Group::Budget />
            <div class="share-fields">
                <InputFields group_of=Group::BudgetShares />
            </div>
            <button type="button" data-testid="budget-reset" on:click=move |_| state.update(|s| {
                s.inputs.budget_fixed_percent = 60.0;
                s.inputs.budget_elastic_percent = 25.0;
                s.inputs.budget_spot_percent = 15.0;
            })>{bilingual(lang, "Reset to 60 / 25 / 15", "恢复 60 / 25 / 15")}</button>
            </div>
            <div class="split-out">
            <CardBody ok=is_ok(view) error=error_of(view) error_testid="budget-split-error">
                <dl class="figures">
                    <Figure testid="budget-fixed" en="Fixed baseline" zh="固定基线"
                        shown=view.shown(|v| &v.fixed)>
                        " — "
                        <Value testid="budget-fixed-gpus" shown=view.shown(|v| &v.fixed_gpus) />
                    </Figure>
                    <Figure testid="budget-elastic" en="Elastic on-demand" zh="弹性按量"
                        shown=view.shown(|v| &v.elastic) />
                    <Figure testid="budget-spot" en="Spot and emergency" zh="竞价与应急"
                        shown=view.shown(|v| &v.spot) />
                </dl>
                <When when=has_implied>
                    <p data-testid="budget-implied">
                        {bilingual(lang, "The chosen plan implies: ", "当前方案对应的分配：")}
                        {view.text(|v| v.implied.clone().unwrap_or_default())}
                    </p>
                </When>
                <h3>{bilingual(lang, "Budget split: target vs plan", "预算分配：目标与方案")}</h3>
                <ChartCanvas testid="chart-budget" summary lang currency draw=ChartDraw::of(data, chart::draw) />
                <HowComputed formula=view.text(|v| v.formula.clone()) formula_testid="budget-formula" anchor="budget" general="fixed = B·a; GPUs = ⌊fixed / P⌋; on-demand hours = B·b / r; spot hours = B·c / s" />
            </CardBody>
            </div>
            </div>
        </section>
    }
}
