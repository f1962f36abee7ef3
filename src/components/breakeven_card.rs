//! Break-even hours per month between the monthly and the on-demand price.
//! The texts: `present::breakeven`; this file only places them.

use leptos::prelude::*;

use crate::context::{error_of, is_ok, text_of};
use crate::core::plan::PlanOutputs;
use crate::i18n::{texts, Lang};
use crate::present::breakeven::{present, BreakevenView};

#[component]
pub fn BreakevenCard(
    #[prop(into)] outputs: Signal<PlanOutputs>,
    #[prop(into)] lang: Signal<Lang>,
    /// The prices behind the result, for the "how is this computed" line.
    #[prop(into)]
    prices: Signal<(f64, f64)>,
) -> impl IntoView {
    let view = Memo::new(move |_| {
        let (p, r) = prices.get();
        outputs.with(|o| present(lang.get(), &o.breakeven, p, r))
    });
    let text = move |part: fn(&BreakevenView) -> String| text_of(view, part);
    let never_pays = Memo::new(move |_| view.with(|v| matches!(v, Ok(v) if v.never_pays)));
    view! {
        <section class="card" aria-labelledby="breakeven-heading">
            <h2 id="breakeven-heading">{move || texts(lang.get()).breakeven_heading}</h2>
            <Show
                when={ let ok = is_ok(view); move || ok.get() }
                fallback=move || view! {
                    <p class="error" role="alert" data-testid="breakeven-error">{error_of(view)}</p>
                }
            >
                <p class="result" aria-live="polite">
                    <span class="result-label">{move || texts(lang.get()).breakeven_label}" "</span>
                    <strong
                        class="result-figure"
                        data-testid="breakeven-hours"
                        data-value=text(|v| v.hours.value.clone())
                    >
                        {text(|v| v.hours.text.clone())}
                    </strong>
                    " "
                    {move || texts(lang.get()).hours_per_month_unit}
                    " "
                    <span
                        data-testid="breakeven-utilization"
                        data-value=text(|v| v.utilization.value.clone())
                        class:warn=move || never_pays.get()
                    >
                        {text(|v| v.utilization.text.clone())}
                    </span>
                </p>
                <Show when=move || never_pays.get()>
                    <p class="warning" role="alert" data-testid="monthly-never-pays">
                        "⚠ "
                        {text(|v| v.never_pays_text.clone())}
                    </p>
                </Show>
                <p class="explainer">{text(|v| v.explainer.clone())}</p>
                <details class="how">
                    <summary>{move || texts(lang.get()).how_computed}</summary>
                    <p class="formula">{text(|v| v.formula.clone())}</p>
                    <a href="docs/formulas.html#breakeven">{move || texts(lang.get()).formulas_link}</a>
                </details>
            </Show>
        </section>
    }
}
