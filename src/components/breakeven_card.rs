//! Break-even hours per month between the monthly and the on-demand price.

use leptos::prelude::*;

use crate::core::plan::PlanOutputs;
use crate::format::{number, number_trim, plain};
use crate::i18n::{
    breakeven_explainer, error_message, monthly_never_pays, texts, utilization_of_month, Lang,
};

#[component]
pub fn BreakevenCard(
    #[prop(into)] outputs: Signal<PlanOutputs>,
    #[prop(into)] lang: Signal<Lang>,
    /// The prices behind the result, for the "how is this computed" line.
    #[prop(into)]
    prices: Signal<(f64, f64)>,
) -> impl IntoView {
    let result = move || outputs.with(|o| o.breakeven.clone());
    view! {
        <section class="card" aria-labelledby="breakeven-heading">
            <h2 id="breakeven-heading">{move || texts(lang.get()).breakeven_heading}</h2>
            {move || match result() {
                Ok(b) => {
                    let l = lang.get();
                    let hours = number_trim(b.hours, 1, l);
                    let util_pct = b.utilization * 100.0;
                    view! {
                        <p class="result" aria-live="polite">
                            <span class="result-label">{texts(l).breakeven_label}" "</span>
                            <strong
                                class="result-figure"
                                data-testid="breakeven-hours"
                                data-value=plain(b.hours, 2)
                            >
                                {hours.clone()}
                            </strong>
                            " "
                            {texts(l).hours_per_month_unit}
                            " "
                            <span
                                data-testid="breakeven-utilization"
                                data-value=plain(util_pct, 2)
                                class:warn=b.monthly_never_pays
                            >
                                {utilization_of_month(l, b.utilization, b.hours_per_month)}
                            </span>
                        </p>
                        {b
                            .monthly_never_pays
                            .then(|| {
                                view! {
                                    <p class="warning" role="alert" data-testid="monthly-never-pays">
                                        "⚠ "
                                        {monthly_never_pays(l, b.hours_per_month)}
                                    </p>
                                }
                            })}
                        <p class="explainer">{breakeven_explainer(l, &hours)}</p>
                        <details class="how">
                            <summary>{texts(l).how_computed}</summary>
                            <p class="formula">
                                {move || {
                                    let (p, r) = prices.get();
                                    format!(
                                        "H* = P / r = {} / {} = {} h;  H* / H = {} / {} = {} %",
                                        number_trim(p, 2, l),
                                        number_trim(r, 4, l),
                                        number(b.hours, 2, l),
                                        number(b.hours, 2, l),
                                        number_trim(b.hours_per_month, 0, l),
                                        number(util_pct, 2, l),
                                    )
                                }}
                            </p>
                            <a href="docs/formulas.html#breakeven">{texts(l).formulas_link}</a>
                        </details>
                    }
                        .into_any()
                }
                Err(e) => {
                    view! {
                        <p class="error" role="alert" data-testid="breakeven-error">
                            {error_message(lang.get(), &e)}
                        </p>
                    }
                        .into_any()
                }
            }}
        </section>
    }
}
