//! The real page (`App`): decodes the link (or the autosaved session) once, writes the URL
//! from one Effect and autosaves from another, and mounts the [`Planner`] with its notices.
//! One `RwSignal` of inputs → one `Memo` of outputs → components read it; the usage history
//! (possibly megabytes) lives in its own signal and is read in the readers' worker.

use leptos::prelude::*;

use crate::components::link_notice::LinkNotice;
use crate::components::planner::Planner;
use crate::core::zone::ZoneChoice;
use crate::link::{self, LinkState};
use crate::page::context::{memo_of, ShareCtx};
use crate::page::pipeline::read_options;
use crate::state::AUTOSAVE_KEY;
use crate::state::{Lang, ParseStatus};
use crate::web::browser;
use crate::web::time_zones;

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
