//! The planner itself, given its state: the memos (profile, outputs, the fleet's) provided
//! as the context, and the page's cards laid out and mounted in steps, top to bottom.

use leptos::prelude::*;

use crate::components::bilingual;

use crate::components::action_card::ActionCard;
use crate::components::breakeven_card::BreakevenCard;
use crate::components::budget_card::BudgetCard;
use crate::components::burst_card::BurstCard;
use crate::components::effective_cost_card::EffectiveCostCard;
use crate::components::fleet_card::FleetCard;
use crate::components::growth_card::GrowthCard;
use crate::components::headline_card::HeadlineCard;
use crate::components::hidden_costs_card::HiddenCostsCard;
use crate::components::own_hardware_card::OwnHardwareCard;
use crate::components::pools_card::PoolsCard;
use crate::components::prices_panel::PricesPanel;
use crate::components::review_card::ReviewCard;
use crate::components::section_index::SectionIndex;
use crate::components::share_panel::SharePanel;
use crate::components::sizing_card::SizingCard;
use crate::components::spot_card::SpotCard;
use crate::components::sticky_bar::StickyBar;
use crate::components::teams_card::TeamsCard;
use crate::components::terms_card::TermsCard;
use crate::components::usage_panel::UsagePanel;
use crate::components::waterline_card::WaterlineCard;
use crate::core::plan::PlanOutputs;
use crate::i18n::texts;
use crate::page::context::{memo_of, page_memo, Ctx, HistoryFile};
use crate::page::fleet_memos;
use crate::page::pipeline::read_options;
use crate::page::pipeline::{quantized, PARSE_AT_ONCE_BYTES};
use crate::state::{AppState, Lang, ParseStatus, UsageMode};
use crate::web::browser;
use crate::workers::reader_client;

/// How many steps the page mounts in (see [`Planner`]'s `staged`).
pub const MOUNT_STEPS: u8 = 12;

/// The next mount step in a task of its own; after the last, `mounted`.
///
/// Mounting the whole page in one task blocked the main thread ~60 ms (Lighthouse, on its 4×
/// slowed phone: one 250 ms task, 200 ms of total blocking time). The header and the answer
/// come first, then the prices, the usage, and the result cards one or two at a time (with
/// the page's cards a third at a time, Lighthouse counted 275–650 ms of blocking time on the
/// default page and the links, issue 21): in page order, so nothing already shown moves.
/// The header (with the state, the link and every memo) and the answer are two tasks too
/// (issue 36: one task of ~210 ms on Lighthouse's phone, half of it V8 compiling the
/// functions it ran for the first time): the page is mounted hidden beside the prerendered
/// copy (`<html data-mounting>`, main.rs) and replaces it with the answer's step
/// ([`browser::show_app`]).
/// `<html data-ready>` follows `mounted` once the reader has answered for the history the
/// page opened with (see [`Planner`]).
fn next_mount_step(step: RwSignal<u8>, mounted: RwSignal<bool>) {
    set_timeout(
        move || {
            if step.try_get_untracked().is_some_and(|s| s < MOUNT_STEPS) {
                step.update(|s| *s += 1);
                next_mount_step(step, mounted);
            } else {
                mounted.try_set(true);
            }
        },
        std::time::Duration::ZERO,
    );
}

/// The planner itself, given its state (mounted alone in component tests).
#[component]
pub fn Planner(
    state: RwSignal<AppState>,
    /// The history text; `App` passes its own (restored from the link).
    #[prop(optional)]
    usage_text: Option<RwSignal<String>>,
    #[prop(optional)] parse_status: Option<RwSignal<ParseStatus>>,
    /// Mount the header and answer, then the rest in [`MOUNT_STEPS`] more tasks, top to
    /// bottom, then set `<html data-ready>` (the page; component tests mount at once).
    #[prop(optional)]
    staged: bool,
) -> impl IntoView {
    let usage_text = usage_text.unwrap_or_else(|| RwSignal::new(String::new()));
    let step = RwSignal::new(if staged { 0 } else { MOUNT_STEPS });
    let mounted = RwSignal::new(false);
    if staged {
        next_mount_step(step, mounted);
    }
    let from_step = move |n: u8| Memo::new(move |_| step.get() >= n);
    let [answer, step1, step2, step3, step4, step5, step6, step7, step8, step9, step10, step11] =
        std::array::from_fn(|k| from_step(k as u8 + 1));
    let parse_status = parse_status.unwrap_or_else(|| RwSignal::new(ParseStatus::Empty));
    // The answer is on the page and the history the page opened with is read (a link's that
    // the reader must read, in its worker): the page replaces the prerendered copy (in the
    // same task), and says it is ready once every step is mounted. So the first figures shown
    // are the ones the page keeps, as when the history was read on the page's thread.
    let reading = Memo::new(move |_| parse_status.with(|p| matches!(p, ParseStatus::Parsing(_))));
    let shown = RwSignal::new(false);
    Effect::new(move |_| {
        if answer.get() && !shown.get_untracked() && !reading.get() {
            shown.set(true);
            browser::show_app();
        }
    });
    // The reader has answered for the history the page opened with (or there was none): its
    // full report, not only the series a link gave at once (`read_link_series`).
    let answered = RwSignal::new(false);
    let ready = StoredValue::new(false);
    Effect::new(move |_| {
        if mounted.get() && shown.get() && answered.get() && !ready.get_value() {
            ready.set_value(true);
            browser::set_ready();
        }
    });
    // Memos, not derived signals: every text and chart reads these, and a price change
    // must not notify them (measured: it redrew all five charts and re-ran every label).
    let lang: Signal<Lang> = memo_of(state, |s| s.lang).into();
    let currency: Signal<&'static str> = memo_of(state, |s| s.currency.symbol()).into();

    // Read the history whenever the text, the file or the reading options change: in the
    // readers' worker (reader_client), a large text or a file with its progress shown; a
    // newer read cancels an older one. A small text's new answer replaces the old one when
    // it comes (typing does not blank the figures between keystrokes).
    let usage_file = RwSignal::new_local(None::<HistoryFile>);
    let parse_options = Memo::new(move |_| state.with(|s| (s.parse_options.clone(), s.tz.clone())));
    Effect::new(move |_| {
        let (options, tz) = parse_options.get();
        let file = usage_file.get();
        if file.is_none() && usage_text.with(|t| t.trim().is_empty()) {
            reader_client::cancel();
            parse_status.set(ParseStatus::Empty);
            answered.try_set(true);
            return;
        }
        // The zone is resolved only when there is a text to read (asking the browser for a
        // named zone's daylight saving costs a few ms, once).
        let options = read_options(options, &tz);
        let large = file.is_some() || usage_text.with(String::len) >= PARSE_AT_ONCE_BYTES;
        if large || !parse_status.with_untracked(|p| matches!(p, ParseStatus::Done(_))) {
            parse_status.set(ParseStatus::Parsing(0.0));
        }
        let source = match file {
            Some(f) => reader_client::Source::File(f.file),
            None => reader_client::Source::Text(usage_text.get()),
        };
        reader_client::read(
            source,
            &options,
            move |fraction| {
                parse_status.try_set(ParseStatus::Parsing(fraction));
            },
            move |result| {
                parse_status.try_set(ParseStatus::Done(quantized(result)));
                answered.try_set(true);
            },
        );
    });

    let inputs = Memo::new(move |_| state.with(|s| s.inputs.clone()));
    let settings = Memo::new(move |_| inputs.with(|i| i.profile_settings()));
    let mode = Memo::new(move |_| state.with(|s| s.mode));
    // A fleet reading a typed history: each type's own profile; the cards show the selected.
    let profiles = fleet_memos::type_profiles(state, parse_status, settings);
    let selected = memo_of(state, |s| s.fleet.selected);
    let profile = Memo::new(move |_| {
        let mode = mode.get();
        // Slider mode reads nothing else (a price change must not re-run this).
        if mode != UsageMode::Data {
            return None;
        }
        let selected = selected.get();
        let settings = settings.get();
        profiles.with(|profiles| {
            parse_status.with(|p| {
                let parsed = match p {
                    ParseStatus::Done(Ok(parsed)) => Some(parsed),
                    _ => None,
                };
                crate::page::pipeline::selected_profile(mode, profiles, selected, parsed, &settings)
            })
        })
    });
    let outputs: Memo<PlanOutputs> = Memo::new(move |_| {
        profile.with(|p| inputs.with(|i| crate::page::pipeline::page_outputs(i, p.as_ref())))
    });

    let fleet = fleet_memos::fleet_plan(state, profiles, outputs, profile);
    // A history with two or more GPU types makes (or matches) the fleet's types.
    Effect::new(move |_| {
        let data = mode.get() == UsageMode::Data;
        parse_status.with(|p| {
            if let ParseStatus::Done(Ok(parsed)) = p {
                if data && parsed.types.len() >= 2 {
                    let mut s = state.get_untracked();
                    if crate::state::fleet::sync_with_history(&mut s, &parsed.types) {
                        state.set(s);
                    }
                }
            }
        })
    });

    let ctx = Ctx {
        state,
        usage_text,
        usage_file,
        parse_status,
        profile,
        outputs,
        fleet,
        lang,
        currency,
    };
    provide_context(ctx);
    provide_context(page_memo(ctx));
    provide_context(crate::page::team_memos::team_memos(ctx));

    let text = move || texts(lang.get());
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
        <main class="layout">
            <div class="answer-row">
                {move || answer.get().then(|| view! { <HeadlineCard /> })}
            </div>
            <div class="inputs-column">
                {move || step1.get().then(|| view! { <PricesPanel /> })}
                {move || step2.get().then(|| view! { <UsagePanel /> })}
                {move || step3.get().then(|| view! { <OwnHardwareCard /> })}
            </div>
            <div class="results-column">
                {move || step3.get().then(|| view! { <SectionIndex /> })}
                <div class="results">
                    {move || step4.get().then(|| view! {
                        <FleetCard />
                        <SharePanel />
                    })}
                    {move || step5.get().then(|| view! {
                        <BreakevenCard />
                        <EffectiveCostCard />
                    })}
                    {move || step6.get().then(|| view! { <SizingCard /> })}
                    {move || step7.get().then(|| view! {
                        <WaterlineCard />
                        <TermsCard />
                        <GrowthCard />
                    })}
                    {move || step8.get().then(|| view! {
                        <PoolsCard />
                        <TeamsCard />
                        <BudgetCard />
                    })}
                    {move || step9.get().then(|| view! {
                        <SpotCard />
                        <BurstCard />
                    })}
                    {move || step10.get().then(|| view! {
                        <HiddenCostsCard />
                        <ReviewCard />
                    })}
                    {move || step11.get().then(|| view! { <ActionCard /> })}
                </div>
            </div>
        </main>
        {move || step11.get().then(|| view! {
            <StickyBar />
            <footer class="foot">
                <p>{move || text().privacy}</p>
                <p>
                    <a href="docs/formulas.html">{bilingual(lang, "Every formula, with worked examples", "全部公式与算例")}</a>
                </p>
            </footer>
        })}
    }
}
