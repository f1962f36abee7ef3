//! The page: one `RwSignal` of inputs → one `Memo` of outputs → components read it.

use leptos::prelude::*;

use crate::browser;
use crate::components::breakeven_card::BreakevenCard;
use crate::components::link_notice::LinkNotice;
use crate::components::slider_field::SliderField;
use crate::core::breakeven;
use crate::core::plan::{plan, PlanInputs, PlanOutputs};
use crate::i18n::{t, Lang};
use crate::url::{self, LinkState};

/// Everything the user controls; the URL carries exactly this.
#[derive(Debug, Clone, PartialEq)]
pub struct AppState {
    pub inputs: PlanInputs,
    pub lang: Lang,
}

/// The real page: decodes the link once, then writes the URL from one Effect.
#[component]
pub fn App() -> impl IntoView {
    let (link, problems) = url::decode(&browser::start_query());
    let lang = link.lang.unwrap_or_else(|| {
        let tags = browser::browser_languages();
        Lang::from_browser(tags.iter().map(String::as_str))
    });
    let state = RwSignal::new(AppState {
        inputs: link.inputs,
        lang,
    });

    // The one writer of the URL: `replace`, so typing never spams history.
    Effect::new(move |_| {
        let query = state.with(|s| {
            url::encode(
                &LinkState {
                    inputs: s.inputs.clone(),
                    lang: Some(s.lang),
                },
                s.lang,
            )
        });
        browser::replace_query(&query);
    });
    Effect::new(move |_| browser::set_document_lang(state.with(|s| s.lang.html_tag())));

    view! {
        <LinkNotice problems lang=Signal::derive(move || state.with(|s| s.lang)) />
        <Planner state />
    }
}

/// The planner itself, given its state (mounted alone in component tests).
#[component]
pub fn Planner(state: RwSignal<AppState>) -> impl IntoView {
    let inputs = Memo::new(move |_| state.with(|s| s.inputs.clone()));
    let outputs: Memo<PlanOutputs> = Memo::new(move |_| inputs.with(plan));
    let lang = Signal::derive(move || state.with(|s| s.lang));
    let text = move || t(lang.get());

    let monthly = Signal::derive(move || inputs.with(|i| i.monthly_price));
    let on_demand = Signal::derive(move || inputs.with(|i| i.on_demand_price));
    let set_monthly = Callback::new(move |v: f64| state.update(|s| s.inputs.monthly_price = v));
    let set_on_demand = Callback::new(move |v: f64| state.update(|s| s.inputs.on_demand_price = v));
    let toggle_lang = move |_| state.update(|s| s.lang = s.lang.other());

    view! {
        <header class="top">
            <div>
                <h1>{move || text().app_title}</h1>
                <p class="tagline">{move || text().tagline}</p>
            </div>
            <button
                type="button"
                class="lang-toggle"
                data-testid="lang-toggle"
                lang=move || lang.get().other().html_tag()
                on:click=toggle_lang
            >
                {move || text().lang_toggle}
            </button>
        </header>
        <main>
            <section class="card" aria-labelledby="prices-heading">
                <h2 id="prices-heading">{move || text().prices_heading}</h2>
                <SliderField
                    testid="monthly-price"
                    label=Signal::derive(move || text().monthly_price.to_string())
                    hint=Signal::derive(move || text().monthly_price_hint.to_string())
                    value=monthly
                    on_commit=set_monthly
                    field=crate::core::error::Field::MonthlyPrice
                    validate=breakeven::monthly_price
                    lang
                    min=100.0
                    max=50_000.0
                    step=50.0
                />
                <SliderField
                    testid="on-demand-price"
                    label=Signal::derive(move || text().on_demand_price.to_string())
                    hint=Signal::derive(move || text().on_demand_price_hint.to_string())
                    value=on_demand
                    on_commit=set_on_demand
                    field=crate::core::error::Field::OnDemandPrice
                    validate=breakeven::on_demand_price
                    lang
                    min=0.1
                    max=100.0
                    step=0.1
                />
            </section>
            <BreakevenCard
                outputs=outputs
                lang
                prices=Signal::derive(move || inputs.with(|i| (i.monthly_price, i.on_demand_price)))
            />
        </main>
        <footer class="foot">
            <p>{move || text().privacy}</p>
        </footer>
    }
}
