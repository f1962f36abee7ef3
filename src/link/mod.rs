//! The URL codec. The inputs' parameter names live in their declarations
//! (`inputs::INPUTS`, which decode and encode iterate); the others in [`param`].
//! `decode` runs once at start; `encode` is written from one Effect with
//! `history.replaceState`. Pure, natively tested. Schema: `docs/url.md`.

use crate::core::ingest::{ColumnChoice, GapPolicy, ParseOptions};
use crate::core::plan::PlanInputs;
use crate::core::review::ReviewMonthInput;
use crate::core::zone::ZoneChoice;
use crate::inputs::{self, read_real, write_real};
use crate::state::{AppState, Currency, Fleet, Lang, UsageMode};

mod fleet;
mod history;

pub use history::{
    base64url_decode, base64url_encode, decode_series, encode_history, encode_series, histogram,
    history_to_csv, link_history, quantize, quantize_parsed, series_to_csv, teams_left_out,
    trim_history, trim_to_lookback, HistoryError, LinkHistory, LinkTeam, LinkType, MAX_DATA_CHARS,
    MAX_TEAM_CELLS, SERIES_FORMAT,
};

/// The link format version this build writes. Links with the three original parameters
/// (`v`, `lang`, `monthly`, `ondemand`, `hours`) are version 1 too, and so is a link without
/// `v`. Version 2 added the commitment terms (`y1up` … `left`, see `inputs::INPUTS`, each
/// input names the version that introduced it): a version-1 link never sets them. Version 3
/// added the teams (issue 37: `idlesplit`, `teamshares`, series format 3). Version 4 added
/// growth (issue 40: `growth`, `growthend`, `decline`, `laddercap`).
pub const VERSION: u32 = 4;

/// A link longer than this (whole URL, characters) is too long to share comfortably
/// (chat apps, mail clients and docs start cutting or refusing around 8 000).
pub const PRACTICAL_LINK_CHARS: usize = 8_000;

/// Parameter names (stable forever: links in planning docs depend on them).
/// The parameters that are not inputs of the plan (those are `inputs::INPUTS`).
pub mod param {
    pub const VERSION: &str = "v";
    pub const LANG: &str = "lang";
    pub const CURRENCY: &str = "cur";
    pub const MODE: &str = "mode";
    pub const REVIEW_MONTHS: &str = "review";
    pub const COLUMN: &str = "col";
    pub const GAPS: &str = "gaps";
    pub const UTC_OFFSET: &str = "tz";
    pub const BUSY_THRESHOLD: &str = "smi";
    pub const DATA: &str = "data";
    /// Version 2, a fleet: `type.K` the name of GPU type K (0, 1 …), `keys.K` the history
    /// types it plans (comma-separated), `sel` the type the cards show, and each per-type
    /// input of type K ≥ 1 as `<param>.K` (type 0's are the plain parameters).
    pub const TYPE: &str = "type";
    pub const KEYS: &str = "keys";
    pub const SELECTED: &str = "sel";
}

/// Everything a link carries.
#[derive(Debug, Clone, PartialEq)]
pub struct LinkState {
    pub inputs: PlanInputs,
    /// `None`: the link did not say; the page picks the browser's language.
    pub lang: Option<Lang>,
    pub currency: Currency,
    pub mode: UsageMode,
    pub column: ColumnChoice,
    pub gaps: GapPolicy,
    /// The planning time zone (`tz`: minutes east of UTC, or a zone name). `None`: the link
    /// did not say (with a history: the series' own offset).
    pub tz: Option<ZoneChoice>,
    pub busy_threshold_percent: f64,
    /// The usage history the link carried (`data`), quantised.
    pub history: Option<LinkHistory>,
    /// The GPU types of a fleet (none: one type). Each row's `inputs` holds its own values;
    /// row 0's are `inputs`' (type 0's values are the plain parameters). `selected`: the type
    /// the cards show.
    pub fleet: Fleet,
}

impl Default for LinkState {
    fn default() -> Self {
        let opts = ParseOptions::default();
        Self {
            inputs: PlanInputs::default(),
            lang: None,
            currency: Currency::default(),
            mode: UsageMode::default(),
            column: opts.column,
            gaps: opts.gaps,
            tz: None,
            busy_threshold_percent: opts.busy_threshold_percent,
            history: None,
            fleet: Fleet::default(),
        }
    }
}

impl LinkState {
    /// What the link carries of a page state (the history is encoded separately).
    pub fn of(state: &AppState) -> LinkState {
        LinkState {
            inputs: crate::state::fleet::type_inputs(state, 0),
            lang: Some(state.lang),
            currency: state.currency,
            mode: state.mode,
            column: state.parse_options.column,
            gaps: state.parse_options.gaps,
            tz: Some(state.tz.clone()),
            busy_threshold_percent: state.parse_options.busy_threshold_percent,
            history: None,
            fleet: Fleet {
                types: crate::state::fleet::rows(state),
                selected: state.fleet.selected,
            },
        }
    }

    /// The page state it opens (language `lang` when the link does not say).
    pub fn app_state(&self, lang: Lang) -> AppState {
        let mut s = AppState::new(self.inputs.clone(), self.lang.unwrap_or(lang));
        s.currency = self.currency;
        s.mode = self.mode;
        s.parse_options.column = self.column;
        s.parse_options.gaps = self.gaps;
        s.parse_options.busy_threshold_percent = self.busy_threshold_percent;
        s.tz = self.tz.clone().unwrap_or_default();
        if crate::state::fleet::active(&self.fleet) {
            s.fleet = Fleet {
                types: self.fleet.types.clone(),
                selected: 0,
            };
            crate::state::fleet::select(&mut s, self.fleet.selected);
        }
        s
    }
}

/// Something in a link that could not be used, named for the user.
#[derive(Debug, Clone, PartialEq)]
pub enum LinkProblem {
    /// The link was made by a newer version of the planner.
    NewerVersion(u32),
    /// A parameter's value could not be read; its default was used.
    BadValue { param: &'static str, value: String },
    /// The usage history (`data`) is damaged or cut short; the page opened without it.
    BadHistory(HistoryError),
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok();
                match hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                    Some(b) => {
                        out.push(b);
                        i += 2;
                    }
                    None => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Percent-encode everything but `A–Z a–z 0–9 - . _ ~`.
fn percent_encode(s: &str) -> String {
    percent_encode_keeping(s, b"-._~")
}

fn percent_encode_keeping(s: &str, keep: &[u8]) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || keep.contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn mode_key(m: UsageMode) -> &'static str {
    match m {
        UsageMode::Sliders => "sliders",
        UsageMode::Data => "data",
    }
}

fn column_key(c: ColumnChoice) -> String {
    match c {
        ColumnChoice::Auto => "auto".into(),
        ColumnChoice::Sum => "sum".into(),
        ColumnChoice::One(k) => k.to_string(),
    }
}

/// Typed review months, one parameter: months separated by `_`, fields by `~`:
/// `label~utilization%~fixed spend~elastic spend~queue hours (empty = unknown)`.
/// Labels are percent-encoded first (so `_`, `~` and `%` in them cannot split).
fn months_value(months: &[ReviewMonthInput]) -> String {
    months
        .iter()
        .map(|m| {
            format!(
                "{}~{}~{}~{}~{}",
                percent_encode_keeping(&m.label, b"-."),
                write_real(m.fixed_utilization_percent),
                write_real(m.fixed_spend),
                write_real(m.elastic_spend),
                m.queue_hours.map(write_real).unwrap_or_default()
            )
        })
        .collect::<Vec<_>>()
        .join("_")
}

/// At most this many typed months are read.
const MAX_REVIEW_MONTHS: usize = 120;

fn read_months(value: &str) -> Option<Vec<ReviewMonthInput>> {
    if value.is_empty() {
        return Some(Vec::new());
    }
    let mut out = Vec::new();
    for month in value.split('_') {
        if out.len() == MAX_REVIEW_MONTHS {
            return None;
        }
        let f: Vec<&str> = month.split('~').collect();
        let [label, util, fixed, elastic, queue] = f.as_slice() else {
            return None;
        };
        out.push(ReviewMonthInput {
            label: percent_decode(label).chars().take(40).collect(),
            fixed_utilization_percent: read_real(util)?,
            fixed_spend: read_real(fixed)?,
            elastic_spend: read_real(elastic)?,
            queue_hours: if queue.is_empty() {
                None
            } else {
                Some(read_real(queue)?)
            },
        });
    }
    Some(out)
}

/// Decode a query string (with or without the leading `?`). Unknown parameters are
/// ignored; unreadable values fall back to their defaults and are reported. A history
/// (`data`) that cannot be read is dropped and reported; the rest of the link still applies.
pub fn decode(query: &str) -> (LinkState, Vec<LinkProblem>) {
    let mut state = LinkState::default();
    let mut problems = Vec::new();
    let mut mode_given = false;
    let mut version = 1;
    let mut introduced_later: Vec<&'static inputs::InputSpec> = Vec::new();
    let mut fleet = fleet::Reader::default();
    let query = query.strip_prefix('?').unwrap_or(query);
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (key, raw) = pair.split_once('=').unwrap_or((pair, ""));
        let key = percent_decode(key);
        let value = percent_decode(raw);
        let mut bad = |param: &'static str| {
            let mut shown: String = value.chars().take(40).collect();
            if value.chars().count() > 40 {
                shown.push('…');
            }
            problems.push(LinkProblem::BadValue {
                param,
                value: shown,
            });
        };
        match key.as_str() {
            param::VERSION => match value.trim().parse::<u32>() {
                Ok(v) if v > VERSION => {
                    version = v;
                    problems.push(LinkProblem::NewerVersion(v))
                }
                Ok(v) => version = v,
                Err(_) => bad(param::VERSION),
            },
            param::LANG => match Lang::from_code(value.trim()) {
                Some(l) => state.lang = Some(l),
                None => bad(param::LANG),
            },
            param::CURRENCY => match Currency::from_code(value.trim()) {
                Some(c) => state.currency = c,
                None => bad(param::CURRENCY),
            },
            param::MODE => match value.trim() {
                "sliders" => {
                    state.mode = UsageMode::Sliders;
                    mode_given = true;
                }
                "data" => {
                    state.mode = UsageMode::Data;
                    mode_given = true;
                }
                _ => bad(param::MODE),
            },
            param::REVIEW_MONTHS => match read_months(&value) {
                Some(m) => state.inputs.review_months = m,
                None => bad(param::REVIEW_MONTHS),
            },
            param::COLUMN => match value.trim() {
                "auto" => state.column = ColumnChoice::Auto,
                "sum" => state.column = ColumnChoice::Sum,
                v => match v.parse::<usize>() {
                    Ok(k) if k < crate::core::ingest::MAX_SERIES => {
                        state.column = ColumnChoice::One(k)
                    }
                    _ => bad(param::COLUMN),
                },
            },
            param::GAPS => match value.trim() {
                "exclude" => state.gaps = GapPolicy::Exclude,
                "zero" => state.gaps = GapPolicy::Zero,
                _ => bad(param::GAPS),
            },
            param::UTC_OFFSET => match ZoneChoice::from_key(&value) {
                Some(z) => state.tz = Some(z),
                None => bad(param::UTC_OFFSET),
            },
            param::BUSY_THRESHOLD => match read_real(&value) {
                Some(v) => state.busy_threshold_percent = v,
                None => bad(param::BUSY_THRESHOLD),
            },
            param::DATA => match decode_series(&value) {
                Ok(h) => state.history = Some(h),
                Err(e) => problems.push(LinkProblem::BadHistory(e)),
            },
            key if fleet.takes(key) => {
                if !fleet.read(key, &value) {
                    bad(fleet::param_name(key));
                }
            }
            key => {
                if let Some(spec) = inputs::by_param(key) {
                    if !spec.read(&mut state.inputs, &value) {
                        bad(spec.param);
                    } else if spec.since > 1 {
                        introduced_later.push(spec);
                    }
                }
            }
        }
    }
    // `v` may come anywhere in the query: inputs newer than the link are set back afterwards.
    let defaults = PlanInputs::default();
    for spec in introduced_later.into_iter().filter(|s| s.since > version) {
        spec.copy(&mut state.inputs, &defaults);
    }
    if version >= fleet::SINCE {
        state.fleet = fleet.finish(&state.inputs, &mut problems);
    }
    if let Some(h) = &state.history {
        // The history is already the chosen column: the restored text has one.
        state.column = ColumnChoice::Auto;
        if state.tz.is_none() {
            state.tz = Some(ZoneChoice::Offset(h.series.utc_offset_minutes));
        }
        if !mode_given {
            state.mode = UsageMode::Data;
        }
    }
    (state, problems)
}

/// Encode the state as a query string starting with `?`: `v` always, then every value
/// that differs from its default, then `data` (the encoded history, see
/// [`encode_series`]) when given. With a history, `tz` is always written and `mode`
/// whenever it is not `data`.
pub fn encode(state: &LinkState, data: Option<&str>) -> String {
    let d = LinkState::default();
    let (i, di) = (&state.inputs, &d.inputs);
    let mut q = format!("?{}={}", param::VERSION, VERSION);
    let mut put = |name: &str, value: String| {
        q.push('&');
        q.push_str(name);
        q.push('=');
        q.push_str(&value);
    };
    if let Some(l) = state.lang {
        put(param::LANG, l.code().into());
    }
    if state.currency != d.currency {
        put(param::CURRENCY, state.currency.code().into());
    }
    let default_mode = if data.is_some() {
        UsageMode::Data
    } else {
        UsageMode::Sliders
    };
    if state.mode != default_mode {
        put(param::MODE, mode_key(state.mode).into());
    }
    for spec in inputs::INPUTS {
        if let Some(value) = spec.write(i, di) {
            // Numbers and keys are URL-safe as they are; a text input's text is not.
            put(spec.param, percent_encode(&value));
        }
    }
    fleet::write(&state.fleet, &mut put);
    if !i.review_months.is_empty() {
        put(
            param::REVIEW_MONTHS,
            percent_encode(&months_value(&i.review_months)),
        );
    }
    if state.column != d.column && data.is_none() {
        put(param::COLUMN, column_key(state.column));
    }
    if state.gaps != d.gaps {
        put(param::GAPS, "zero".into());
    }
    if state.busy_threshold_percent.to_bits() != d.busy_threshold_percent.to_bits() {
        put(
            param::BUSY_THRESHOLD,
            write_real(state.busy_threshold_percent),
        );
    }
    if let Some(data) = data {
        if let Some(tz) = &state.tz {
            put(
                param::UTC_OFFSET,
                percent_encode_keeping(&tz.key(), b"-._~/"),
            );
        }
        put(param::DATA, data.to_string());
    }
    q
}

/// Encode with the state's own history (compressing it): for tests and fallbacks.
pub fn encode_with_history(state: &LinkState) -> String {
    let data = state.history.as_ref().map(encode_history);
    encode(state, data.as_deref())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::burst::BillingIncrement;
    use crate::core::plan::BaselineRule;
    use crate::core::profile::{Lookback, LOOKBACK_CHOICES};
    use crate::inputs::{BASELINE_RULES, BILLING_INCREMENTS};

    fn lookback_key(lb: Lookback) -> String {
        match lb {
            Lookback::Days(d) => d.to_string(),
            Lookback::All => "all".to_string(),
        }
    }

    #[test]
    fn no_input_takes_a_codec_parameter() {
        for other in [
            param::VERSION,
            param::LANG,
            param::CURRENCY,
            param::MODE,
            param::REVIEW_MONTHS,
            param::COLUMN,
            param::GAPS,
            param::UTC_OFFSET,
            param::BUSY_THRESHOLD,
            param::DATA,
        ] {
            assert!(
                inputs::by_param(other).is_none(),
                "{other} is an input and a codec parameter"
            );
        }
    }

    #[test]
    fn round_trip_is_exact() {
        let state = LinkState {
            inputs: PlanInputs {
                monthly_price: 5999.99,
                on_demand_price: 12.34,
                hours_per_month: 744.0,
                ..PlanInputs::default()
            },
            lang: Some(Lang::Zh),
            ..LinkState::default()
        };
        let q = encode(&state, None);
        assert_eq!(q, "?v=4&lang=zh&monthly=5999.99&ondemand=12.34&hours=744");
        let (back, problems) = decode(&q);
        assert_eq!(back, state);
        assert!(problems.is_empty());
    }

    #[test]
    fn defaults_write_only_the_version() {
        assert_eq!(encode(&LinkState::default(), None), "?v=4");
        assert_eq!(decode("?v=1"), (LinkState::default(), vec![]));
        assert_eq!(decode(""), (LinkState::default(), vec![]));
    }

    #[test]
    fn terms_are_read_from_version_2_links_only() {
        let (s, p) = decode("?v=1&y1up=90000&horizon=6&monthly=8000");
        assert_eq!(p, vec![]);
        assert_eq!(s.inputs.monthly_price, 8000.0);
        assert_eq!(
            (s.inputs.term_1y_upfront, s.inputs.horizon_months),
            (0.0, 12)
        );
        // Without `v`: version 1.
        let (s, _) = decode("?y1up=90000");
        assert_eq!(s.inputs.term_1y_upfront, 0.0);
        // `v` after the parameter it governs.
        let (s, _) = decode("?y1up=90000&horizon=6&v=2");
        assert_eq!(
            (s.inputs.term_1y_upfront, s.inputs.horizon_months),
            (90_000.0, 6)
        );
        let mut st = LinkState::default();
        st.inputs.term_1y_upfront = 90_000.0;
        assert_eq!(encode(&st, None), "?v=4&y1up=90000");
    }

    #[test]
    fn growth_is_read_from_version_4_links_only() {
        let (s, p) = decode("?v=3&growth=5&decline=10&laddercap=80&growthend=40");
        assert_eq!(p, vec![]);
        let d = PlanInputs::default();
        assert_eq!(s.inputs.growth_percent, None);
        assert_eq!(s.inputs.growth_decline_percent, d.growth_decline_percent);
        assert_eq!(s.inputs.ladder_cap_percent, d.ladder_cap_percent);
        assert_eq!(s.inputs.growth_end_level, 0.0);
        let (s, p) = decode("?v=4&growth=-2.5&decline=10&laddercap=80&growthend=40");
        assert_eq!(p, vec![]);
        assert_eq!(s.inputs.growth_percent, Some(-2.5));
        assert_eq!(s.inputs.growth_decline_percent, 10.0);
        assert_eq!(s.inputs.ladder_cap_percent, 80.0);
        assert_eq!(s.inputs.growth_end_level, 40.0);
        let (s, _) = decode("?v=4&growth=auto");
        assert_eq!(s.inputs.growth_percent, None);
        let mut st = LinkState::default();
        st.inputs.growth_percent = Some(5.0);
        assert_eq!(encode(&st, None), "?v=4&growth=5");
        // Somebody else's text: not a number, reported, the default kept.
        let (s, p) = decode("?v=4&growth=%3Cscript%3E");
        assert_eq!(s.inputs.growth_percent, None);
        assert_eq!(p.len(), 1);
    }

    /// Every field changed from its default: written, read back identically.
    pub(crate) fn everything_changed() -> LinkState {
        LinkState {
            inputs: PlanInputs {
                monthly_price: 12_345.67,
                on_demand_price: 31.5,
                hours_per_month: 720.0,
                spot_price: 9.25,
                gpus: 12,
                used_hours: 333.3,
                lookback: Lookback::All,
                day_start_hour: 9,
                day_end_hour: 21,
                quantile_percent: 2.5,
                baseline_rule: BaselineRule::Custom,
                custom_baseline_gpus: 7,
                interruption_rate: 0.031,
                checkpoint_save_hours: 0.1,
                restart_hours: 0.5,
                checkpoint_interval_hours: Some(1.75),
                job_hours: 12.0,
                interruptible_percent: 35.0,
                budget: 250_000.0,
                budget_fixed_percent: 50.0,
                budget_elastic_percent: 30.0,
                budget_spot_percent: 20.0,
                burst_jobs: 10,
                burst_gpus_per_job: 8,
                burst_job_hours: 2.5,
                burst_fixed_gpus: 3,
                burst_elastic_gpus: 64,
                billing_increment: BillingIncrement::Hour,
                own_purchase: 180_000.0,
                own_depreciation_months: 48.0,
                own_power_kw: 0.7,
                own_pue: 1.3,
                own_electricity_price: 1.1,
                own_colo_ops_monthly: 650.0,
                hidden_storage_monthly: 300.0,
                hidden_public_ip_monthly: 25.0,
                hidden_snapshots_monthly: 75.0,
                hidden_egress_per_gb: 0.5,
                hidden_egress_gb: 250.0,
                hidden_sessions: 90.0,
                hidden_idle_timeout_hours: 0.25,
                review_utilization_threshold_percent: 70.0,
                review_queue_limit_hours: 3.0,
                term_1y_upfront: 81_000.0,
                term_1y_monthly: 250.5,
                term_3y_upfront: 150_000.0,
                term_3y_monthly: 1_200.0,
                horizon_months: 30,
                months_left: 4,
                growth_percent: Some(-2.5),
                growth_end_level: 48.0,
                growth_decline_percent: 7.5,
                ladder_cap_percent: 120.0,
                alt_on_demand_price: 19.5,
                alt_spot_price: 6.25,
                data_gb_per_gpu_hour: 5.0,
                transfer_price_per_gb: 0.5,
                region_note: "Tianjin, 2 ms & x=\"y\" #z 天津".into(),
                prometheus_address: "http://prom.example:9090/".into(),
                queue_metric: "pending_gpus{queue=\"a b\"}".into(),
                target_name: "trainers".into(),
                idle_split: crate::core::teams::IdleSplit::Fixed,
                team_shares: "Vision=60, 语言 =40%".into(),
                review_months: vec![
                    ReviewMonthInput {
                        label: "2026-09 a_b~c%d 九月".into(),
                        fixed_utilization_percent: 55.5,
                        fixed_spend: 90_000.0,
                        elastic_spend: 20_000.0,
                        queue_hours: Some(1.5),
                    },
                    ReviewMonthInput {
                        label: "2026-10".into(),
                        fixed_utilization_percent: 61.0,
                        fixed_spend: 90_000.0,
                        elastic_spend: 95_000.0,
                        queue_hours: None,
                    },
                ],
            },
            lang: Some(Lang::En),
            currency: Currency::Usd,
            mode: UsageMode::Data,
            column: ColumnChoice::One(2),
            gaps: GapPolicy::Zero,
            tz: None,
            busy_threshold_percent: 25.0,
            history: None,
            fleet: Fleet::default(),
        }
    }

    #[test]
    fn every_parameter_round_trips() {
        let state = everything_changed();
        let q = encode(&state, None);
        let (back, problems) = decode(&q);
        assert_eq!(problems, vec![]);
        assert_eq!(back, state);
        // Each field has its own parameter: 64 inputs + lang, cur, mode, col, gaps, smi, v.
        assert_eq!(q.matches('&').count() + 1, 71, "{q}");
        assert!(q.contains("&rule=custom&custom=7&"), "{q}");
        assert!(q.contains("&lookback=all&"), "{q}");
        assert!(q.contains("&billing=hour&"), "{q}");
        assert!(q.contains("&tau=1.75&"), "{q}");
        assert!(q.contains("&col=2&gaps=zero&smi=25"), "{q}");
        // The months parameter is URL-safe: no raw separators from labels.
        let months = q
            .split("&review=")
            .nth(1)
            .unwrap()
            .split('&')
            .next()
            .unwrap();
        assert!(
            months
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-._~%".contains(&b)),
            "{months}"
        );
    }

    #[test]
    fn every_single_change_is_written_and_read() {
        // Change one field at a time: each must leave the defaults and come back.
        let full = everything_changed();
        let mut cases: Vec<LinkState> = Vec::new();
        macro_rules! one {
            ($($f:ident),*) => {$(
                cases.push(LinkState {
                    inputs: PlanInputs { $f: full.inputs.$f.clone(), ..PlanInputs::default() },
                    ..LinkState::default()
                });
            )*};
        }
        one!(
            monthly_price,
            on_demand_price,
            hours_per_month,
            spot_price,
            gpus,
            used_hours,
            lookback,
            day_start_hour,
            day_end_hour,
            quantile_percent,
            baseline_rule,
            custom_baseline_gpus,
            interruption_rate,
            checkpoint_save_hours,
            restart_hours,
            checkpoint_interval_hours,
            job_hours,
            interruptible_percent,
            budget,
            budget_fixed_percent,
            budget_elastic_percent,
            budget_spot_percent,
            burst_jobs,
            burst_gpus_per_job,
            burst_job_hours,
            burst_fixed_gpus,
            burst_elastic_gpus,
            billing_increment,
            own_purchase,
            own_depreciation_months,
            own_power_kw,
            own_pue,
            own_electricity_price,
            own_colo_ops_monthly,
            hidden_storage_monthly,
            hidden_public_ip_monthly,
            hidden_snapshots_monthly,
            hidden_egress_per_gb,
            hidden_egress_gb,
            hidden_sessions,
            hidden_idle_timeout_hours,
            review_utilization_threshold_percent,
            review_queue_limit_hours,
            review_months
        );
        assert_eq!(cases.len(), 44);
        let mut seen = std::collections::HashSet::new();
        for c in cases {
            let q = encode(&c, None);
            assert_ne!(q, "?v=3");
            assert!(seen.insert(q.split('=').nth(1).map(str::to_string)), "{q}");
            assert_eq!(decode(&q), (c, vec![]), "{q}");
        }
    }

    #[test]
    fn every_rule_lookback_and_billing_key_reads_back() {
        for r in BASELINE_RULES {
            let s = LinkState {
                inputs: PlanInputs {
                    baseline_rule: r,
                    ..PlanInputs::default()
                },
                ..LinkState::default()
            };
            assert_eq!(decode(&encode(&s, None)).0, s);
        }
        for lb in LOOKBACK_CHOICES {
            let (s, p) = decode(&format!("lookback={}", lookback_key(lb)));
            assert_eq!((s.inputs.lookback, p), (lb, vec![]));
        }
        for b in BILLING_INCREMENTS {
            let (s, _) = decode(&format!("billing={}", b.key()));
            assert_eq!(s.inputs.billing_increment, b);
        }
        let (s, p) = decode("rule=magic&lookback=45&billing=day&tau=auto&col=sum&gaps=no");
        assert_eq!(s.inputs, PlanInputs::default());
        assert_eq!(s.column, ColumnChoice::Sum);
        let names: Vec<_> = p
            .iter()
            .map(|p| match p {
                LinkProblem::BadValue { param, .. } => *param,
                _ => "?",
            })
            .collect();
        assert_eq!(names, vec!["rule", "lookback", "billing", "gaps"]);
    }

    #[test]
    fn history_links_carry_data_mode_and_time_zone() {
        let series = crate::core::examples::series(
            crate::core::examples::Example::BurstyLab,
            1_793_538_000,
            480,
        );
        let mut state = LinkState {
            mode: UsageMode::Data,
            tz: Some(ZoneChoice::Offset(480)),
            column: ColumnChoice::One(3),
            history: Some(LinkHistory::one(quantize(&series), false)),
            ..LinkState::default()
        };
        let q = encode_with_history(&state);
        assert!(q.starts_with("?v=4&tz=480&data="), "{q}");
        let (back, p) = decode(&q);
        assert_eq!(p, vec![]);
        state.column = ColumnChoice::Auto; // the restored history has one column
        assert_eq!(back, state);
        // Sliders chosen while a history is kept: `mode=sliders` is written.
        state.mode = UsageMode::Sliders;
        let q = encode_with_history(&state);
        assert!(q.starts_with("?v=4&mode=sliders&tz=480&data="), "{q}");
        assert_eq!(decode(&q).0.mode, UsageMode::Sliders);
        // No tz: the series' own offset.
        let no_tz = q.replace("&tz=480", "");
        assert_eq!(decode(&no_tz).0.tz, Some(ZoneChoice::Offset(480)));
        // A named zone (daylight saving) round-trips; a hostile one is refused.
        let named = q.replace("&tz=480", "&tz=America%2FLos_Angeles");
        assert_eq!(
            decode(&named).0.tz,
            Some(ZoneChoice::Named("America/Los_Angeles".into()))
        );
        let (s, problems) = decode(&q.replace("&tz=480", "&tz=%3Cscript%3E"));
        assert_eq!(s.tz, Some(ZoneChoice::Offset(480)));
        assert_eq!(problems.len(), 1);
    }

    #[test]
    fn a_30_day_hourly_history_fits_in_a_chat_message() {
        // Measured (recorded in docs/url.md): the query of a data-mode link carrying each
        // 30-day hourly sample, with `lang`, `tz` and `data` (+ `https://host/` ≈ 30 more).
        let mut lengths = Vec::new();
        for s in crate::core::examples::Example::ALL {
            let series = crate::core::examples::series(s, 1_793_538_000, 480);
            let state = LinkState {
                lang: Some(Lang::En),
                mode: UsageMode::Data,
                tz: Some(ZoneChoice::Offset(480)),
                ..LinkState::default()
            };
            let q = encode(&state, Some(&encode_series(&series, false)));
            lengths.push(q.len());
            // The lookback-window and histogram fallbacks are shorter still.
            let h = encode(&state, Some(&encode_series(&series, true)));
            assert!(
                h.len() < q.len(),
                "{s:?}: histogram {} vs {}",
                h.len(),
                q.len()
            );
        }
        assert_eq!(lengths, vec![169, 1628, 1204]);
        assert!(lengths.iter().all(|&l| l + 40 < PRACTICAL_LINK_CHARS / 4));
    }

    /// Four GPU types over 30 days, hourly, as a link carries them.
    fn four_types(minutely: bool) -> LinkHistory {
        use crate::core::examples::{series, Example};
        let start = 1_793_538_000;
        let base = series(Example::SteadyPretraining, start, 480);
        let n = base.len();
        let values: Vec<Vec<f64>> = if minutely {
            // Hourly averages of per-minute integer counts (what a scheduler's per-minute
            // samples resample to: multiples of 1/60, noisy in the third decimal).
            let mut x: u64 = 0x2545_f491_4f6c_dd1d;
            [(48, 8), (16, 6), (24, 10), (8, 5)]
                .iter()
                .map(|&(level, swing)| {
                    (0..n)
                        .map(|h| {
                            let day = if (h / 24) % 7 >= 5 { 0.6 } else { 1.0 };
                            let mut sum = 0u64;
                            for _ in 0..60 {
                                x ^= x << 13;
                                x ^= x >> 7;
                                x ^= x << 17;
                                let base = (f64::from(level) * day) as u64;
                                sum += base.saturating_sub(swing / 2) + x % swing;
                            }
                            sum as f64 / 60.0
                        })
                        .collect()
                })
                .collect()
        } else {
            let drop = series(Example::RecentDrop, start, 480).values;
            let lab = series(Example::BurstyLab, start, 480).values;
            let mut lab2 = lab.clone();
            lab2.rotate_left(24 * 3);
            vec![base.values.clone(), lab, drop, lab2]
        };
        let types: Vec<LinkType> = ["A100", "H100", "RTX 4090", "L40S"]
            .iter()
            .zip(values)
            .map(|(label, values)| LinkType {
                label: label.to_string(),
                values: quantize(&crate::core::series::UsageSeries::from_values(values)).values,
            })
            .collect();
        let total = (0..n)
            .map(|i| types.iter().map(|t| t.values[i]).sum::<f64>())
            .collect();
        LinkHistory {
            series: quantize(&crate::core::series::UsageSeries {
                values: total,
                ..base
            }),
            histogram: false,
            types,
            teams: Vec::new(),
        }
    }

    #[test]
    fn a_30_day_hourly_history_of_four_types_fits_in_8000_characters() {
        // Measured (recorded in docs/url.md): a fleet link of four types with their prices,
        // `lang`, `tz` and the typed `data`, query string only.
        let mut state = LinkState {
            lang: Some(Lang::En),
            mode: UsageMode::Data,
            tz: Some(ZoneChoice::Offset(480)),
            ..LinkState::default()
        };
        let fleet = {
            let mut f = fleet::Reader::default();
            for (k, (name, key)) in [
                ("A100", "a100"),
                ("H100", "h100"),
                ("RTX 4090", "4090"),
                ("L40S", "l40s"),
            ]
            .iter()
            .enumerate()
            {
                assert!(f.read(&format!("type.{k}"), name));
                assert!(f.read(&format!("keys.{k}"), key));
                if k > 0 {
                    assert!(f.read(&format!("monthly.{k}"), &(9000 * (k + 1)).to_string()));
                    assert!(f.read(&format!("ondemand.{k}"), &(25 * (k + 1)).to_string()));
                }
            }
            f.finish(&state.inputs, &mut Vec::new())
        };
        state.fleet = fleet;
        let mut lengths = Vec::new();
        for minutely in [false, true] {
            state.history = Some(four_types(minutely));
            let q = encode_with_history(&state);
            let (back, problems) = decode(&q);
            assert_eq!(problems, vec![]);
            assert_eq!(back.history, state.history);
            assert_eq!(back.fleet.types.len(), 4);
            lengths.push(q.len());
        }
        assert_eq!(lengths, vec![3181, 6445]);
        assert!(lengths.iter().all(|&l| l + 60 <= PRACTICAL_LINK_CHARS));
    }

    #[test]
    fn a_damaged_history_keeps_the_rest_of_the_link() {
        let series = crate::core::series::UsageSeries::from_values(vec![1.0, 2.0, 3.0]);
        let data = encode_series(&series, false);
        let cut = &data[..data.len() - 2];
        let (s, p) = decode(&format!("?v=1&monthly=8000&data={cut}&gpus=9"));
        assert_eq!(s.inputs.monthly_price, 8000.0);
        assert_eq!(s.inputs.gpus, 9);
        assert_eq!(s.history, None);
        assert_eq!(s.mode, UsageMode::Sliders);
        assert_eq!(p, vec![LinkProblem::BadHistory(HistoryError::NotDeflate)]);
        let (_, p) = decode("data=%%%");
        assert_eq!(p, vec![LinkProblem::BadHistory(HistoryError::NotBase64)]);
    }

    #[test]
    fn bad_months_are_named() {
        for bad in ["x~1~2", "x~a~1~2~", "x~1~2~3~4~5"] {
            let (s, p) = decode(&format!("review={bad}"));
            assert!(s.inputs.review_months.is_empty());
            assert_eq!(p.len(), 1, "{bad}");
        }
        let (s, p) = decode("review=Jan~50~1~2~_Feb~60~3~4~0.5");
        assert_eq!(p, vec![]);
        assert_eq!(s.inputs.review_months.len(), 2);
        assert_eq!(s.inputs.review_months[1].queue_hours, Some(0.5));
    }

    #[test]
    fn unknown_parameters_are_ignored_and_missing_ones_default() {
        let (s, p) = decode("utm_source=doc&monthly=8000");
        assert_eq!(s.inputs.monthly_price, 8000.0);
        assert_eq!(
            s.inputs.on_demand_price,
            PlanInputs::default().on_demand_price
        );
        assert_eq!(s.lang, None);
        assert!(p.is_empty());
    }

    #[test]
    fn bad_values_fall_back_and_are_named() {
        let (s, p) = decode("?monthly=abc&ondemand=NaN&lang=fr&hours=1e999");
        assert_eq!(s.inputs, PlanInputs::default());
        assert_eq!(
            p,
            vec![
                LinkProblem::BadValue {
                    param: "monthly",
                    value: "abc".into()
                },
                LinkProblem::BadValue {
                    param: "ondemand",
                    value: "NaN".into()
                },
                LinkProblem::BadValue {
                    param: "lang",
                    value: "fr".into()
                },
                LinkProblem::BadValue {
                    param: "hours",
                    value: "1e999".into()
                },
            ]
        );
    }

    #[test]
    fn newer_version_is_reported() {
        let (_, p) = decode("?v=7&monthly=1");
        assert_eq!(p, vec![LinkProblem::NewerVersion(7)]);
    }

    #[test]
    fn percent_decoding_never_panics() {
        assert_eq!(percent_decode("a%20b"), "a b");
        assert_eq!(percent_decode("%"), "%");
        assert_eq!(percent_decode("%2"), "%2");
        assert_eq!(percent_decode("%zz"), "%zz");
        assert_eq!(percent_decode("%E4%B8%AD"), "中");
        let (s, _) = decode("monthly=%39%30%30%30");
        assert_eq!(s.inputs.monthly_price, 9000.0);
    }
}
