//! The page's computation as plain functions, from a state and its history to the figures.
//!
//! The page runs each step in its own memo (components/planner.rs, fleet_memos.rs), so a
//! change recomputes only what it touches; the first-stage module (src/first_stage.rs, issue
//! 21) runs the same steps once, in order, for the link it was opened with
//! ([`headline_for_query`]). One code path: the figures shown before the application has
//! mounted are the application's own.

use crate::core::error::{Field, InputError, Problem};
use crate::core::fleet_plan::{plan_fleet, TypePlan};
use crate::core::ingest::{self, ParseOptions, ParseResult, Parsed};
use crate::core::plan::{plan_with_history, PlanInputs, PlanOutputs};
use crate::core::profile::{profile, HistoryProfile, ProfileSettings};
use crate::core::zone::Zone;
use crate::link::{self, LinkState};
use crate::present::headline::HeadlineView;
use crate::present::{self, FleetResult, Presented};
use crate::state::fleet::{active, row_series, type_inputs};
use crate::state::{AppState, Lang, UsageMode};

/// One profile per type of a fleet that reads a typed history (empty otherwise).
pub type TypeProfiles = Vec<Result<HistoryProfile, InputError>>;

/// A history as the page reads it: parsed, then rounded as a link carries it.
pub fn read_history(text: &str, options: &ParseOptions) -> ParseResult {
    quantized(ingest::parse(text, options))
}

/// Round a parse result as a link carries it (`link::quantize_parsed`).
pub fn quantized(mut result: ParseResult) -> ParseResult {
    if let Ok(parsed) = &mut result {
        link::quantize_parsed(parsed);
    }
    result
}

/// The fleet's rows' history keys when the fleet reads a typed history (`None` otherwise).
pub fn typed_keys(s: &AppState) -> Option<Vec<Vec<String>>> {
    let typed = s.mode == UsageMode::Data && active(&s.fleet);
    typed.then(|| s.fleet.types.iter().map(|t| t.keys.clone()).collect())
}

/// Each type's profile from its history types (quantised, as a link carries them).
pub fn type_profiles(
    keys: Option<Vec<Vec<String>>>,
    parsed: Option<&Parsed>,
    settings: &ProfileSettings,
) -> TypeProfiles {
    match (keys, parsed) {
        (Some(keys), Some(parsed)) if parsed.types.len() >= 2 => keys
            .into_iter()
            .map(|keys| match row_series(&keys, &parsed.types) {
                // Each type is rounded as a link carries it (`link::quantize_parsed`); a
                // merge's sum is rounded again (0.1 + 0.2 is not 0.3 in binary).
                Some(series) => profile(&link::quantize(&series), settings),
                None => Err(InputError::new(Field::UsageHistory, Problem::Empty)),
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// The selected type's profile: its own in a typed fleet, else the history's (`None` when the
/// usage does not come from a history, or none has been read).
pub fn selected_profile(
    mode: UsageMode,
    profiles: &TypeProfiles,
    selected: usize,
    parsed: Option<&Parsed>,
    settings: &ProfileSettings,
) -> Option<Result<HistoryProfile, InputError>> {
    if mode != UsageMode::Data {
        return None;
    }
    if !profiles.is_empty() {
        return profiles.get(selected).cloned();
    }
    parsed.map(|p| profile(&p.series, settings))
}

/// The selected type's outputs.
pub fn outputs(
    inputs: &PlanInputs,
    profile: Option<&Result<HistoryProfile, InputError>>,
) -> PlanOutputs {
    plan_with_history(inputs, profile.and_then(|p| p.as_ref().ok()))
}

/// The selected type's outputs with § 22 (the growth card's; the first stage's headline
/// needs [`outputs`] only).
pub fn page_outputs(
    inputs: &PlanInputs,
    profile: Option<&Result<HistoryProfile, InputError>>,
) -> PlanOutputs {
    let mut o = outputs(inputs, profile);
    let history = profile.and_then(|p| p.as_ref().ok());
    o.growth = Some(crate::core::plan::plan_growth(inputs, history, &o));
    o
}

/// The other types of a fleet and their inputs (empty for one type).
pub fn other_types(s: &AppState) -> Vec<(usize, PlanInputs)> {
    if !active(&s.fleet) {
        return Vec::new();
    }
    (0..s.fleet.types.len())
        .filter(|&k| k != s.fleet.selected)
        .map(|k| (k, type_inputs(s, k)))
        .collect()
}

/// The other types' plans, in the order of [`other_types`].
pub fn plan_others(others: &[(usize, PlanInputs)], profiles: &TypeProfiles) -> Vec<PlanOutputs> {
    others
        .iter()
        .map(|(k, i)| {
            let history = profiles.get(*k).and_then(|p| p.as_ref().ok());
            plan_with_history(i, history)
        })
        .collect()
}

/// The fleet's plan (`None` for one type), from the selected type's outputs and the others'.
pub fn fleet_plan(
    s: &AppState,
    profiles: &TypeProfiles,
    others: &[(usize, PlanInputs)],
    others_planned: &[PlanOutputs],
    selected_out: &PlanOutputs,
    selected_profile: Option<&Result<HistoryProfile, InputError>>,
) -> FleetResult {
    if !active(&s.fleet) {
        return None;
    }
    let typed = !profiles.is_empty();
    // A type whose history could not be profiled is named.
    if let Some((k, e)) = profiles
        .iter()
        .enumerate()
        .find_map(|(k, r)| r.as_ref().err().map(|e| (k, e.clone())))
    {
        return Some(Err(crate::core::fleet_plan::FleetError {
            index: Some(k),
            error: e,
        }));
    }
    let sel = s.fleet.selected;
    let sel_history = selected_profile.and_then(|p| p.as_ref().ok());
    let mut plans: Vec<TypePlan> = Vec::with_capacity(s.fleet.types.len());
    let mut other = others.iter().zip(others_planned);
    for (k, t) in s.fleet.types.iter().enumerate() {
        if k == sel {
            plans.push(TypePlan {
                name: &t.name,
                inputs: &s.inputs,
                history: if typed { sel_history } else { None },
                outputs: selected_out,
            });
        } else if let Some(((_, i), o)) = other.next() {
            plans.push(TypePlan {
                name: &t.name,
                inputs: i,
                history: profiles.get(k).and_then(|p| p.as_ref().ok()),
                outputs: o,
            });
        }
    }
    Some(plan_fleet(&plans))
}

/// How the history a link carries is read: [`read_text`] as the page reads it (the text
/// `link::history_to_csv` writes, parsed), or [`read_link_series`] without parsing (the
/// first-stage module: the text reader is most of the application's size). The answer:
/// `None` when this reader cannot say what the page will read (then nothing is shown early),
/// `Some(None)` when there is no usable history.
pub type ReadHistory<'a> = &'a dyn Fn(&LinkState, &ParseOptions) -> Option<Option<Parsed>>;

/// As the page reads a link's history: the text it opens with, parsed and rounded (`None`
/// when it would be read in slices, with progress, not at once).
pub fn read_text(link: &LinkState, options: &ParseOptions) -> Option<Option<Parsed>> {
    let text = usage_text(link);
    if text.trim().is_empty() {
        return Some(None);
    }
    if text.len() >= PARSE_AT_ONCE_BYTES {
        return None;
    }
    Some(read_history(&text, options).ok())
}

/// A link's history as the page would read it back, without the text: one series (no GPU
/// types) whose hours follow each other (no gap for the gap policy to act on), on whole
/// UTC hours, in a planning zone the link names. Those read back to the same values
/// (`link::series_to_csv` writes them exactly; tests/fuzz_url.rs checks this path against
/// [`read_text`]); anything else is `None`.
pub fn read_link_series(link: &LinkState, options: &ParseOptions) -> Option<Option<Parsed>> {
    let Some(h) = &link.history else {
        return Some(None);
    };
    if !h.types.is_empty() || !h.teams.is_empty() || options.zone_from_data {
        return None;
    }
    let s = &h.series;
    if s.values.is_empty() {
        return Some(None);
    }
    if s.values.len() > ingest::MAX_HOURS || s.values.iter().any(|v| !(v.is_finite() && *v >= 0.0))
    {
        return None;
    }
    if let Some(ts) = &s.timestamps {
        let whole_hours = ts.len() == s.values.len()
            && ts.first().is_some_and(|t| t.rem_euclid(3600) == 0)
            && ts.windows(2).all(|w| w[1].checked_sub(w[0]) == Some(3600));
        if !whole_hours {
            return None;
        }
    }
    let mut series = s.clone();
    series.utc_offset_minutes = options.utc_offset_minutes;
    series.offset_changes = options.offset_changes.clone();
    let mut parsed = Parsed {
        teams: None,
        series,
        report: ingest::ParseReport::new(ingest::Format::Table, options),
        types: Vec::new(),
    };
    link::quantize_parsed(&mut parsed);
    Some(Some(parsed))
}

/// The options a history is read with: the planning zone `tz` resolved to `zone` (the page
/// asks the browser, [`read_options`]), the locale's order of day and month.
pub fn zoned_options(
    mut options: ParseOptions,
    tz: &crate::core::zone::ZoneChoice,
    zone: Zone,
    locale_date_order: ingest::DateOrder,
) -> ParseOptions {
    options.utc_offset_minutes = zone.base_minutes;
    options.offset_changes = zone.changes;
    options.zone_from_data = *tz == crate::core::zone::ZoneChoice::Auto;
    options.locale_date_order = locale_date_order;
    options
}

/// What a page opened with `query` shows in its headline card, computed as the page computes
/// it: the link decoded, its history read (`read`), the fleet matched to a typed history,
/// every type planned. `zone`: the planning zone resolved (`time_zones::resolve` in the
/// browser); `browser_langs`: `navigator.languages`.
///
/// `None` when `read` cannot say what the page will read.
pub fn headline_for_query(
    query: &str,
    browser_langs: &[&str],
    zone: impl FnOnce(&crate::core::zone::ZoneChoice) -> Zone,
    locale_date_order: ingest::DateOrder,
    read: ReadHistory,
) -> Option<(Lang, Presented<HeadlineView>)> {
    let (link, _problems) = link::decode(query);
    let lang = link
        .lang
        .unwrap_or_else(|| Lang::from_browser(browser_langs.iter().copied()));
    let mut s = link.app_state(lang);
    let options = zoned_options(
        s.parse_options.clone(),
        &s.tz,
        zone(&s.tz),
        locale_date_order,
    );
    let parsed = read(&link, &options)?;
    let parsed = parsed.as_ref();
    // A history with two or more GPU types makes (or matches) the fleet's types.
    if let Some(p) = parsed {
        if s.mode == UsageMode::Data && p.types.len() >= 2 {
            crate::state::fleet::sync_with_history(&mut s, &p.types);
        }
    }
    let settings = s.inputs.profile_settings();
    let profiles = type_profiles(typed_keys(&s), parsed, &settings);
    let sel_profile = selected_profile(s.mode, &profiles, s.fleet.selected, parsed, &settings);
    let o = outputs(&s.inputs, sel_profile.as_ref());
    let others = other_types(&s);
    let others_planned = plan_others(&others, &profiles);
    let fleet = fleet_plan(
        &s,
        &profiles,
        &others,
        &others_planned,
        &o,
        sel_profile.as_ref(),
    );
    let from_history = matches!(sel_profile, Some(Ok(_)));
    Some((lang, present::headline(&s, &o, &fleet, from_history)))
}

/// The history text a link opens with (it reads back to the link's series).
pub fn usage_text(link: &LinkState) -> String {
    link.history
        .as_ref()
        .map(link::history_to_csv)
        .unwrap_or_default()
}

/// Texts below this many bytes are read without a progress bar (a small text's new answer
/// replaces the old one when it comes); larger ones, and files, show their progress.
pub const PARSE_AT_ONCE_BYTES: usize = 256 * 1024;

/// The options a history is read with: the planning zone `tz` resolved by the browser
/// (daylight saving included), the locale's order of day and month.
pub fn read_options(options: ParseOptions, tz: &crate::core::zone::ZoneChoice) -> ParseOptions {
    zoned_options(
        options,
        tz,
        crate::web::time_zones::resolve(tz),
        crate::web::time_zones::locale_date_order(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::ingest::DateOrder;
    use crate::core::series::UsageSeries;
    use crate::core::zone::ZoneChoice;
    use crate::link::LinkHistory;

    fn fixed(tz: &ZoneChoice) -> Zone {
        match tz {
            ZoneChoice::Offset(m) => Zone::fixed(*m),
            _ => Zone::fixed(0),
        }
    }

    fn open(query: &str) -> (Lang, HeadlineView) {
        let (lang, view) =
            headline_for_query(query, &["en-US"], fixed, DateOrder::MonthFirst, &read_text)
                .expect("read at once");
        let direct = headline_for_query(
            query,
            &["en-US"],
            fixed,
            DateOrder::MonthFirst,
            &read_link_series,
        );
        if let Some((l2, v2)) = direct {
            assert_eq!(
                (l2, &v2),
                (lang, &view),
                "the first stage's reader: {query}"
            );
        }
        (lang, view.expect("a headline"))
    }

    /// The defaults, by hand (tests/golden_links.rs `defaults`): H* = 9000/25 = 360 h; 4 GPUs
    /// × 200 h < H*, so N* = 0; 800 GPU-h, half on demand 400 × 25 = 10 000, half spot
    /// 400 × 8.3977709 = 3 359.11 → 13 359.11.
    #[test]
    fn the_default_headline_by_hand() {
        let (lang, v) = open("");
        assert_eq!(lang, Lang::En);
        assert_eq!(v.sentence.value, "0");
        assert_eq!(v.total.value, "13359.11");
        assert!(!v.no_history);
        // The browser's language when the link does not say; the link's when it does.
        let zh =
            headline_for_query("", &["zh-CN"], fixed, DateOrder::MonthFirst, &read_text).unwrap();
        assert_eq!(zh.0, Lang::Zh);
        assert_eq!(open("?v=2&lang=zh").0, Lang::Zh);
    }

    /// A 30-day hourly history (8 GPUs busy at night, 12 by day, 16 on the first weekday
    /// afternoons): the first stage's headline is the one the page computes step by step
    /// from the state and the parsed text (what its memos do), in both languages.
    #[test]
    fn a_history_link_reopens_to_the_page_s_headline() {
        let start = 1_767_225_600; // 2026-01-01T00:00Z
        let values: Vec<f64> = (0..720)
            .map(|h| match h % 24 {
                0..=7 => 8.0,
                13..=16 if h < 240 => 16.0,
                _ => 12.0 + f64::from(h % 3) * 0.25,
            })
            .collect();
        let series = UsageSeries {
            timestamps: Some((0..720).map(|h| start + h * 3600).collect()),
            ..UsageSeries::from_values(values)
        };
        for lang in [Lang::En, Lang::Zh] {
            let state = LinkState {
                lang: Some(lang),
                mode: UsageMode::Data,
                tz: Some(ZoneChoice::Offset(480)),
                history: Some(LinkHistory::one(series.clone(), false)),
                ..LinkState::default()
            };
            let query = link::encode_with_history(&state);
            let (got_lang, got) = open(&query);
            assert_eq!(got_lang, lang);
            // Step by step, as the page's memos.
            let (link, problems) = link::decode(&query);
            assert_eq!(problems, vec![]);
            let s = link.app_state(Lang::En);
            assert_eq!(s.mode, UsageMode::Data);
            let options = ParseOptions {
                utc_offset_minutes: 480,
                ..s.parse_options.clone()
            };
            let parsed = read_history(&usage_text(&link), &options).expect("reads back");
            let prof = profile(&parsed.series, &s.inputs.profile_settings());
            assert!(prof.is_ok());
            let o = plan_with_history(&s.inputs, prof.as_ref().ok());
            let want = present::page(&s, &o, &None, true)
                .headline
                .expect("headline");
            assert_eq!(got, want);
            assert!(got.sentence.value.parse::<u32>().unwrap() >= 8, "{got:?}");
        }
    }

    /// A fleet link: the headline speaks for the fleet (its total is the types' sum).
    #[test]
    fn a_fleet_link_gets_the_fleet_s_headline() {
        let query = "?v=2&lang=en&gpus=4&used=600&type.0=A100&type.1=H100&gpus.1=2&used.1=700&monthly.1=15000&ondemand.1=40";
        let (link, problems) = link::decode(query);
        assert_eq!(problems, vec![]);
        let s = link.app_state(Lang::En);
        assert!(active(&s.fleet));
        let (_, got) = open(query);
        let o = plan_with_history(&s.inputs, None);
        let others = other_types(&s);
        let planned = plan_others(&others, &Vec::new());
        let fleet = fleet_plan(&s, &Vec::new(), &others, &planned, &o, None);
        assert!(matches!(fleet, Some(Ok(_))));
        assert_eq!(got, present::headline(&s, &o, &fleet, false).unwrap());
    }

    /// Text from a link is text written by someone else: damaged links never panic and
    /// still get a headline (their problems are the link notice's).
    #[test]
    fn damaged_links_still_open() {
        for q in [
            "?v=1&data=%%%",
            "?v=1&monthly=-1",
            "?data=AAAA&mode=data",
            "?v=99&t=,,,",
        ] {
            // The page's reader answers every link at once; the first stage's may decline.
            assert!(headline_for_query(q, &[], fixed, DateOrder::MonthFirst, &read_text).is_some());
            let _ = headline_for_query(q, &[], fixed, DateOrder::MonthFirst, &read_link_series);
        }
    }
}
