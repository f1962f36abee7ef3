//! Break-even hours per month between the monthly and the on-demand price.
//! The texts: `present::breakeven`; this file only places them.

use leptos::prelude::*;

use crate::charts::breakeven as chart;
use crate::components::bilingual;
use crate::components::chart_canvas::{ChartCanvas, ChartDraw};
use crate::components::how_computed::HowComputed;
use crate::page::chart_memos;

use crate::components::card_body::CardBody;
use crate::components::when::When;
use crate::i18n::texts;
use crate::page::context::{error_of, is_ok, use_ctx, Part};

#[component]
pub fn BreakevenCard() -> impl IntoView {
    let ctx = use_ctx();
    let (lang, currency) = (ctx.lang, ctx.currency);
    let data = chart_memos::breakeven(ctx);
    let summary = chart_memos::summary(ctx, data, chart::summary);
    let view = Part::of(|p| &p.breakeven);
    let never_pays = view.flag(|v| v.never_pays);
    view! {
        <section node_ref=view.view.node class="card" aria-labelledby="breakeven-heading">
            <h2 id="breakeven-heading">{move || texts(lang.get()).breakeven_heading}</h2>
            <CardBody ok=is_ok(view) error=error_of(view) error_testid="breakeven-error">
                <div class="split even">
                <div class="split-in">
                <p class="result" aria-live="polite">
                    <span class="result-label">{move || texts(lang.get()).breakeven_label}" "</span>
                    <strong
                        class="result-figure"
                        data-testid="breakeven-hours"
                        data-value=view.text(|v| v.hours.value.clone())
                    >
                        {view.text(|v| v.hours.text.clone())}
                    </strong>
                    " "
                    {move || texts(lang.get()).hours_per_month_unit}
                    " "
                    <span
                        data-testid="breakeven-utilization"
                        data-value=view.text(|v| v.utilization.value.clone())
                        class:warn=move || never_pays.get()
                    >
                        {view.text(|v| v.utilization.text.clone())}
                    </span>
                </p>
                <When when=never_pays>
                    <p class="warning" role="alert" data-testid="monthly-never-pays">
                        "⚠ "
                        {view.text(|v| v.never_pays_text.clone())}
                    </p>
                </When>
                <p class="explainer">{view.text(|v| v.explainer.clone())}</p>
                <HowComputed formula=view.text(|v| v.formula.clone()) anchor="breakeven" link=("All formulas", "全部公式") />
                </div>
                <div class="split-out">
                <h3>{bilingual(lang, "Monthly vs on-demand by hours used", "包月与按量随使用小时的成本")}</h3>
                <ChartCanvas testid="chart-breakeven" summary lang currency draw=ChartDraw::of(data, chart::draw) />
                </div>
                </div>
            </CardBody>
        </section>
    }
}
