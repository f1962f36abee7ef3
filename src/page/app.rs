//! The page: one `RwSignal` of inputs → one `Memo` of outputs → components read it.
//! The usage history (possibly megabytes) lives in its own signal beside the state and is
//! read in the readers' worker (`reader_client`), never on the page's thread; its profile is
//! memoised separately, so a price change only re-runs the cheap `plan_with_history`.

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
use crate::components::link_notice::LinkNotice;
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
use crate::core::ingest::ParseOptions;
use crate::core::plan::PlanOutputs;
use crate::core::zone::ZoneChoice;
use crate::i18n::texts;
use crate::link::{self, LinkState};
use crate::page::context::{memo_of, page_memo, Ctx, HistoryFile, ShareCtx, AUTOSAVE_KEY};
use crate::page::fleet_memos;
use crate::page::pipeline::{quantized, PARSE_AT_ONCE_BYTES};
use crate::page::state::{AppState, Lang, ParseStatus, UsageMode};
use crate::web::browser;
use crate::web::time_zones;
use crate::workers::reader_client;

/// Autosave waits this long after the last change (typing is never blocked).
const AUTOSAVE_DELAY_MS: u32 = 500;
/// The address bar is written at most once per this many ms (see `App`).
const URL_WRITE_INTERVAL_MS: u32 = 100;
/// A URL write waits at most this long for the page to be idle.
const URL_IDLE_TIMEOUT_MS: u32 = 100;
/// A query longer than this is written once the changes pause, this long after the last:
/// one `replaceState` of a year of 8 types (125 000 characters) takes ~10 ms (issue 15).
const LONG_URL_CHARS: usize = 8_000;
const LONG_URL_DELAY_MS: u32 = 400;

/// The options a history is read with: the planning zone `tz` resolved by the browser
/// (daylight saving included), the locale's order of day and month.
pub fn read_options(options: ParseOptions, tz: &ZoneChoice) -> ParseOptions {
    crate::page::pipeline::zoned_options(
        options,
        tz,
        time_zones::resolve(tz),
        time_zones::locale_date_order(),
    )
}

/// The real page: decodes the link (or the autosaved session) once, then writes the URL
/// from one Effect and autosaves from another.
#[component]
pub fn App() -> impl IntoView {
    let start = browser::start_query();
    let has_link = start
        .trim_start_matches('?')
        .split('&')
        .any(|p| !p.is_empty());
    let saved = browser::storage_get(AUTOSAVE_KEY);
    let autosave_off = RwSignal::new(saved.is_err());
    let saved = saved
        .ok()
        .flatten()
        .filter(|q| !q.trim_start_matches('?').is_empty());
    let restored = !has_link && saved.is_some();
    let opened = if has_link {
        start.clone()
    } else {
        saved.clone().unwrap_or_default()
    };
    let last_session = saved.filter(|q| has_link && *q != start);
    let (link, problems) = link::decode(&opened);

    let lang = link.lang.unwrap_or_else(|| {
        let tags = browser::browser_languages();
        Lang::from_browser(tags.iter().map(String::as_str))
    });
    let state = RwSignal::new(link.app_state(lang));
    let histogram = link.history.as_ref().is_some_and(|h| h.histogram);
    // The history the link carried becomes the usage text (reads back to the same series).
    let usage_text = RwSignal::new(crate::page::pipeline::usage_text(&link));
    // The link's history at once, without the reader when the link's own series says it all
    // (`pipeline::read_link_series`, as the first stage shows it); the reader's answer, with
    // its full report, replaces it when it comes (the same series: tests/fuzz_url.rs).
    let at_once = link.history.as_ref().and_then(|_| {
        let s = state.get_untracked();
        crate::page::pipeline::read_link_series(&link, &read_options(s.parse_options, &s.tz))
            .flatten()
    });
    let parse_status =
        RwSignal::new(at_once.map_or(ParseStatus::Empty, |p| ParseStatus::Done(Ok(p))));

    // The history as the link carries it, compressed once per parse (not per keystroke).
    let data = Memo::new(move |_| {
        parse_status.with(|p| match p {
            ParseStatus::Done(Ok(parsed)) => {
                Some(link::encode_history(&link::link_history(parsed)))
            }
            _ => None,
        })
    });
    // While a history is being read, the link would lose it: hold the last one.
    let pending = Memo::new(move |_| {
        !usage_text.with(|t| t.trim().is_empty())
            && !parse_status.with(|p| matches!(p, ParseStatus::Done(_)))
    });
    // The zone a link carries: `Auto` resolved (the timestamps' offset, else this browser's
    // zone), so the link opens the same plan in any browser.
    let tz = Memo::new(move |_| {
        let chosen = state.with(|s| s.tz.clone());
        if chosen != ZoneChoice::Auto {
            return chosen;
        }
        parse_status
            .with(|p| match p {
                ParseStatus::Done(Ok(parsed)) if parsed.report.zone_from_data => {
                    Some(ZoneChoice::Offset(parsed.report.utc_offset_minutes))
                }
                _ => None,
            })
            .or_else(|| time_zones::browser_zone_name().map(ZoneChoice::Named))
            .unwrap_or_else(|| ZoneChoice::Offset(browser::utc_offset_minutes()))
    });
    let query = Memo::new(move |_| {
        let mut link = state.with(LinkState::of);
        link.tz = Some(tz.get());
        data.with(|d| link::encode(&link, d.as_deref()))
    });

    // The one writer of the URL: `replace`, so typing never spams history. Never inside the
    // input's own task: Chromium spends ~1–3 ms per replaceState, so the write waits for the
    // page to be idle (at most URL_IDLE_TIMEOUT_MS) and takes the latest query then. At most
    // one write per URL_WRITE_INTERVAL_MS: Chromium ignores more than 200 replaceState calls
    // in 10 s, which a dragged slider exceeded (the last position could be dropped). A long
    // query waits for the changes to pause instead. The state the page opens with is written
    // at once.
    let url_latest = StoredValue::new(None::<String>);
    let url_timer = StoredValue::new_local(None::<gloo_timers::callback::Timeout>);
    let url_scheduled = StoredValue::new(false);
    let url_written_at = StoredValue::new(f64::NEG_INFINITY);
    let written = RwSignal::new(browser::start_query()); // until the first write
    let write_url = move || {
        url_scheduled.try_set_value(false);
        if let Some(q) = url_latest.try_update_value(Option::take).flatten() {
            url_written_at.try_set_value(js_sys::Date::now());
            browser::replace_query(&q);
            written.try_set(q);
        }
    };
    Effect::new(move |_| {
        let q = query.get();
        if pending.get() {
            return;
        }
        let long = q.len() > LONG_URL_CHARS;
        url_latest.set_value(Some(q));
        if url_written_at.get_value() == f64::NEG_INFINITY {
            write_url();
            return;
        }
        // A long query waits for the changes to pause (each change drops the write still
        // waiting); a short one is written at most once per interval (the scheduled write
        // takes the latest query).
        let wait = if long {
            LONG_URL_DELAY_MS
        } else if url_scheduled.get_value() {
            return;
        } else {
            let since = js_sys::Date::now() - url_written_at.get_value();
            (f64::from(URL_WRITE_INTERVAL_MS) - since).max(0.0).ceil() as u32
        };
        url_scheduled.set_value(true);
        let t = gloo_timers::callback::Timeout::new(wait, move || {
            browser::when_idle(URL_IDLE_TIMEOUT_MS, write_url)
        });
        url_timer.set_value(Some(t)); // replaces the one held (dropping a fired one is harmless)
    });
    // Through a memo: setting `<html lang>` restyles the whole page (measured 5 ms), so only
    // when the language changes.
    let lang_tag = memo_of(state, |s| s.lang.html_tag());
    Effect::new(move |_| browser::set_document_lang(lang_tag.get()));

    // Autosave, debounced. Opened with a link, the saved session is kept until the user
    // changes something (so "Open my last session" still finds it).
    let first_query = StoredValue::new(None::<String>);
    let autosave_stopped = StoredValue::new(false);
    let timer = StoredValue::new_local(None::<gloo_timers::callback::Timeout>);
    Effect::new(move |_| {
        let q = query.get();
        if pending.get() {
            return;
        }
        if first_query.with_value(Option::is_none) {
            first_query.set_value(Some(q.clone()));
            // A link is not saved until changed; a restored session is already saved.
            if has_link || restored {
                return;
            }
        } else if (has_link || restored)
            && first_query.with_value(|f| f.as_deref() == Some(q.as_str()))
        {
            return;
        }
        let t = gloo_timers::callback::Timeout::new(AUTOSAVE_DELAY_MS, move || {
            if autosave_stopped.get_value() {
                return;
            }
            autosave_off.set(browser::storage_set(AUTOSAVE_KEY, &q).is_err());
        });
        // Replacing the handle cancels the previous save.
        timer.set_value(Some(t));
    });

    provide_context(ShareCtx {
        query,
        written,
        restored,
        last_session: StoredValue::new(last_session),
        autosave_off,
        histogram,
        autosave_stopped,
    });

    view! {
        <LinkNotice problems lang=Signal::from(memo_of(state, |s| s.lang)) />
        <crate::components::update_notice::UpdateNotice lang=Signal::from(memo_of(state, |s| s.lang)) />
        <Planner state usage_text parse_status staged=true />
    }
}

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
                    if crate::page::fleet::sync_with_history(&mut s, &parsed.types) {
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
