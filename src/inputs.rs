//! One declaration per input. Every input the plan reads from a slider, a number field, a
//! choice or a link is one [`InputSpec`] in [`INPUTS`]: its link parameter, engine field,
//! test id, labels and hint in English and Chinese, how it is read and written, and, for a
//! number, its range, step and validator. The link codec (`url.rs`), the fields on the page
//! (`components/input_field.rs`, placed by [`Group`]), the field names in error messages
//! and the Markdown export all iterate this table. Pure: no leptos or browser imports.
//!
//! Adding an input: a field in `PlanInputs` (with its default) that the engine uses, and one
//! entry here. See `docs/architecture.md`, "Adding an input".

use crate::core::action::{clean_text, MAX_TEXT_CHARS};
use crate::core::breakeven::{self, MAX_HOURS_PER_MONTH};
use crate::core::budget::MAX_BUDGET;
use crate::core::burst::{BillingIncrement, MAX_JOBS, MAX_JOB_HOURS as MAX_BURST_JOB_HOURS};
use crate::core::error::{non_negative, positive, whole, Field, InputError, Problem};
use crate::core::growth::{
    self, MAX_CAP_PERCENT, MAX_DECLINE_PERCENT, MAX_GROWTH_PERCENT, MIN_GROWTH_PERCENT,
};
use crate::core::hidden::{
    MAX_EGRESS_GB, MAX_EGRESS_PRICE, MAX_HIDDEN_MONTHLY, MAX_IDLE_TIMEOUT_HOURS, MAX_SESSIONS,
};
use crate::core::own_hw::{
    MAX_COLO_OPS, MAX_DEPRECIATION_MONTHS, MAX_ELECTRICITY_PRICE, MAX_POWER_KW, MAX_PUE,
    MAX_PURCHASE,
};
use crate::core::plan::{BaselineRule, PlanInputs};
use crate::core::profile::{Lookback, LOOKBACK_CHOICES, MAX_GPUS};
use crate::core::region::{MAX_ALT_PRICE, MAX_GB_PER_GPU_HOUR, MAX_TRANSFER_PRICE};
use crate::core::review::MAX_QUEUE_HOURS;
use crate::core::spot::{MAX_INTERRUPTION_RATE, MAX_JOB_HOURS, MAX_SPOT_DURATION_HOURS};
use crate::core::teams::IdleSplit;
use crate::core::terms::{self, MAX_HORIZON_MONTHS};
use crate::core::waterline::MAX_QUANTILE_PERCENT;
use crate::format::Lang;

/// Where on the page a run of number fields is placed (a card places its group with
/// `<InputFields group=…/>`, in table order). `Hidden`: read from links only, or placed by
/// a component of its own (a select, a checkbox).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    Prices,
    Usage,
    Quantile,
    Interruptible,
    Budget,
    BudgetShares,
    Spot,
    SpotInterval,
    SpotJob,
    Burst,
    OwnHardware,
    Hidden,
    Review,
    Terms,
    /// § 22 growth, the ladder's cap and the risk scenario (the growth card).
    Growth,
    /// § 17 the second region's prices and data transfer (the "Put it into practice" card).
    Region,
    /// No generic field: a select or a control of its own.
    Own,
}

/// How the value lives in `PlanInputs` and in a link.
#[derive(Clone, Copy)]
pub enum Value {
    /// A number (f64). Shown as stored × `scale`.
    Real {
        get: fn(&PlanInputs) -> f64,
        set: fn(&mut PlanInputs, f64),
    },
    /// A whole number (u32).
    Count {
        get: fn(&PlanInputs) -> u32,
        set: fn(&mut PlanInputs, u32),
    },
    /// A number or "automatic" (`None`, written `auto`); `automatic` is what the field
    /// shows meanwhile.
    RealOrAuto {
        get: fn(&PlanInputs) -> Option<f64>,
        set: fn(&mut PlanInputs, Option<f64>),
        automatic: fn(&PlanInputs) -> f64,
    },
    /// One of a list of keys (written as the key).
    Choice {
        keys: &'static [&'static str],
        get: fn(&PlanInputs) -> usize,
        set: fn(&mut PlanInputs, usize),
    },
    /// Free text (somebody else's text when a link brought it): cleaned and cut to
    /// [`MAX_TEXT_CHARS`] characters on the way in (`core::action::clean_text`), shown as
    /// text only, percent-encoded in a link, a code span in an export.
    Text {
        get: fn(&PlanInputs) -> &str,
        set: fn(&mut PlanInputs, String),
    },
}

/// A number field: slider range and step (in shown units) and the validator of a typed value.
#[derive(Clone, Copy)]
pub struct Range {
    pub min: f64,
    pub max: f64,
    pub step: f64,
    /// Shown = stored × scale (minutes for durations stored in hours).
    pub scale: f64,
    /// Checks a shown value (the engine checks the stored one again).
    pub validate: fn(f64) -> Result<f64, InputError>,
}

/// A bilingual text.
pub type Texts = (&'static str, &'static str);

/// One input.
#[derive(Clone, Copy)]
pub struct InputSpec {
    /// The link parameter (stable forever: links in planning docs depend on it).
    pub param: &'static str,
    /// The link version that introduced it: an older link never sets it (a link of version 1
    /// opens exactly as before, whatever text it carries under this name).
    pub since: u32,
    /// Each GPU type of a fleet has its own value (its prices, its sliders, its terms and
    /// custom N); the others are the fleet's. `fleet.rs` copies these between types.
    pub per_type: bool,
    /// `data-testid` and element id of its field.
    pub testid: &'static str,
    /// The engine field that names it in error messages.
    pub field: Field,
    pub label: Texts,
    pub hint: Texts,
    pub group: Group,
    pub value: Value,
    /// `None`: no number field (a choice).
    pub range: Option<Range>,
    /// A sentence the hint ends with that reads the current inputs back (e.g. what a rate
    /// means in hours).
    pub hint_now: Option<fn(Lang, &PlanInputs) -> String>,
}

impl InputSpec {
    pub fn label(&self, l: Lang) -> &'static str {
        crate::i18n::pick(l, self.label.0, self.label.1)
    }

    /// The declared hint alone.
    pub fn hint_text(&self, l: Lang) -> &'static str {
        crate::i18n::pick(l, self.hint.0, self.hint.1)
    }

    /// The hint under the field, with its reading of the current inputs if it has one.
    pub fn hint(&self, l: Lang, i: &PlanInputs) -> String {
        let hint = self.hint_text(l);
        match self.hint_now {
            Some(now) => format!("{hint}{}", now(l, i)),
            None => hint.to_string(),
        }
    }

    fn scale(&self) -> f64 {
        self.range.map_or(1.0, |r| r.scale)
    }

    /// The value as the field shows it.
    pub fn shown(&self, i: &PlanInputs) -> f64 {
        let stored = match self.value {
            Value::Real { get, .. } => get(i),
            Value::Count { get, .. } => get(i) as f64,
            Value::RealOrAuto { get, automatic, .. } => get(i).unwrap_or_else(|| automatic(i)),
            Value::Choice { get, .. } => get(i) as f64,
            Value::Text { .. } => 0.0,
        };
        stored * self.scale()
    }

    /// Store a shown value that passed [`InputSpec::validate`].
    pub fn commit(&self, i: &mut PlanInputs, shown: f64) {
        let stored = shown / self.scale();
        match self.value {
            Value::Real { set, .. } => set(i, stored),
            Value::Count { set, .. } => set(i, stored as u32),
            Value::RealOrAuto { set, .. } => set(i, Some(stored)),
            Value::Choice { keys, set, .. } => {
                if (stored as usize) < keys.len() {
                    set(i, stored as usize)
                }
            }
            Value::Text { .. } => {}
        }
    }

    /// Store a text field's text, cleaned and cut (a number input ignores it).
    pub fn commit_text(&self, i: &mut PlanInputs, text: &str) {
        if let Value::Text { set, .. } = self.value {
            set(i, clean_text(text, MAX_TEXT_CHARS));
        }
    }

    /// A text input's value (`None` for a number or a choice).
    pub fn text_value<'a>(&self, i: &'a PlanInputs) -> Option<&'a str> {
        match self.value {
            Value::Text { get, .. } => Some(get(i)),
            _ => None,
        }
    }

    /// Check a shown value (a number field's text, once read as a number).
    pub fn validate(&self, shown: f64) -> Result<f64, InputError> {
        match self.range {
            Some(r) => (r.validate)(shown),
            None => Err(InputError::new(self.field, Problem::NotANumber)),
        }
    }

    /// The link's text for this input, `None` when it has its default value (before the
    /// link percent-encodes it: a text input's text is any text). Not inlined: the link
    /// writer and `WhatIfInputs::set_in` share it.
    #[inline(never)]
    pub fn write(&self, i: &PlanInputs, default: &PlanInputs) -> Option<String> {
        match self.value {
            Value::Real { get, .. } => {
                (get(i).to_bits() != get(default).to_bits()).then(|| write_real(get(i)))
            }
            Value::Count { get, .. } => (get(i) != get(default)).then(|| get(i).to_string()),
            Value::RealOrAuto { get, .. } => (get(i) != get(default))
                .then(|| get(i).map_or_else(|| "auto".to_string(), write_real)),
            Value::Choice { keys, get, .. } => {
                (get(i) != get(default)).then(|| keys[get(i)].to_string())
            }
            Value::Text { get, .. } => (get(i) != get(default)).then(|| get(i).to_string()),
        }
    }

    /// Read a link's text for this input; `false` when it cannot be read (nothing is set).
    pub fn read(&self, i: &mut PlanInputs, text: &str) -> bool {
        if let Value::Text { set, .. } = self.value {
            set(i, clean_text(text, MAX_TEXT_CHARS));
            return true;
        }
        let text = text.trim();
        let real = || read_real(text);
        match self.value {
            Value::Real { set, .. } => real().map(|v| set(i, v)).is_some(),
            Value::Count { set, .. } => text.parse::<u32>().map(|v| set(i, v)).is_ok(),
            Value::RealOrAuto { set, .. } if text == "auto" => {
                set(i, None);
                true
            }
            Value::RealOrAuto { set, .. } => real().map(|v| set(i, Some(v))).is_some(),
            Value::Choice { keys, set, .. } => keys
                .iter()
                .position(|k| *k == text)
                .map(|k| set(i, k))
                .is_some(),
            Value::Text { .. } => unreachable!("read above"),
        }
    }

    /// Set to the value in `from` (its default, or another GPU type's value).
    pub fn copy(&self, i: &mut PlanInputs, from: &PlanInputs) {
        match self.value {
            Value::Real { get, set } => set(i, get(from)),
            Value::Count { get, set } => set(i, get(from)),
            Value::RealOrAuto { get, set, .. } => set(i, get(from)),
            Value::Choice { get, set, .. } => set(i, get(from)),
            Value::Text { get, set } => set(i, get(from).to_string()),
        }
    }

    /// The value as a person reads it in an export (the choice's key, "auto", or the number
    /// in shown units).
    pub fn text(&self, i: &PlanInputs) -> String {
        match self.value {
            Value::Choice { keys, get, .. } => keys[get(i)].to_string(),
            Value::RealOrAuto { get, .. } if get(i).is_none() => "auto".to_string(),
            Value::Text { get, .. } => code_span(get(i)),
            _ => crate::format::plain(self.shown(i), 6),
        }
    }
}

/// A number as a link writes it: the shortest text that reads back as exactly the same f64.
pub fn write_real(v: f64) -> String {
    format!("{v}")
}

/// Text as a Markdown code span: nothing in it renders (no link, image, HTML or emphasis);
/// the fence is one backtick longer than the longest run inside.
pub fn code_span(s: &str) -> String {
    let (mut run, mut longest) = (0, 0);
    for c in s.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    let pad = if s.starts_with('`') || s.ends_with('`') || s.is_empty() {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{s}{pad}{fence}")
}

/// A number as a link reads it (finite only).
pub fn read_real(text: &str) -> Option<f64> {
    crate::core::decimal::parse_f64(text.trim()).filter(|v| v.is_finite())
}

/// The input a link parameter sets.
pub fn by_param(param: &str) -> Option<&'static InputSpec> {
    INPUTS.iter().find(|s| s.param == param)
}

/// The input a field id names.
pub fn by_testid(testid: &str) -> Option<&'static InputSpec> {
    INPUTS.iter().find(|s| s.testid == testid)
}

/// The inputs a card places together, in table order.
pub fn group(g: Group) -> impl Iterator<Item = &'static InputSpec> {
    INPUTS.iter().filter(move |s| s.group == g)
}

/// A what-if card's inputs: its groups and the inputs of its own controls (by link parameter).
pub struct WhatIfInputs {
    pub groups: &'static [Group],
    pub params: &'static [&'static str],
}

pub const SPOT_INPUTS: WhatIfInputs = WhatIfInputs {
    groups: &[Group::Spot, Group::SpotInterval, Group::SpotJob],
    params: &[],
};
pub const BURST_INPUTS: WhatIfInputs = WhatIfInputs {
    groups: &[Group::Burst],
    params: &["billing"],
};
pub const HIDDEN_INPUTS: WhatIfInputs = WhatIfInputs {
    groups: &[Group::Hidden],
    params: &[],
};
/// § 22: the growth card opens when a link sets its growth, end level, decline or cap.
pub const GROWTH_INPUTS: WhatIfInputs = WhatIfInputs {
    groups: &[Group::Growth],
    params: &["growth"],
};
pub const ACTION_INPUTS: WhatIfInputs = WhatIfInputs {
    groups: &[Group::Region],
    params: &["regionnote", "prom", "metric", "target"],
};

impl WhatIfInputs {
    /// Whether any of these inputs differs from its default, as a link would write it (a
    /// what-if card opens by itself when it does: the link or session set it).
    pub fn set_in(&self, i: &PlanInputs) -> bool {
        let d = PlanInputs::default();
        INPUTS
            .iter()
            .filter(|s| self.groups.contains(&s.group) || self.params.contains(&s.param))
            .any(|s| s.write(i, &d).is_some())
    }
}

const fn range(
    min: f64,
    max: f64,
    step: f64,
    validate: fn(f64) -> Result<f64, InputError>,
) -> Option<Range> {
    Some(Range {
        min,
        max,
        step,
        scale: 1.0,
        validate,
    })
}

/// A duration stored in hours and shown in minutes.
const fn minutes(
    min: f64,
    max: f64,
    step: f64,
    validate: fn(f64) -> Result<f64, InputError>,
) -> Option<Range> {
    Some(Range {
        min,
        max,
        step,
        scale: 60.0,
        validate,
    })
}

const LOOKBACK_KEYS: [&str; LOOKBACK_CHOICES.len()] = {
    let mut keys = [""; LOOKBACK_CHOICES.len()];
    let mut k = 0;
    while k < keys.len() {
        keys[k] = match LOOKBACK_CHOICES[k] {
            Lookback::Days(7) => "7",
            Lookback::Days(30) => "30",
            Lookback::Days(60) => "60",
            Lookback::Days(90) => "90",
            Lookback::Days(_) => panic!("a lookback choice without a key"),
            Lookback::All => "all",
        };
        k += 1;
    }
    keys
};

/// The baseline rules in link-key order.
pub const BASELINE_RULES: [BaselineRule; 6] = [
    BaselineRule::Average,
    BaselineRule::Waterline,
    BaselineRule::CostOptimal,
    BaselineRule::Guarded,
    BaselineRule::Peak,
    BaselineRule::Custom,
];
const RULE_KEYS: [&str; 6] = [
    "average",
    "waterline",
    "cost-optimal",
    "guarded",
    "peak",
    "custom",
];

/// The billing increments in link-key order.
pub const BILLING_INCREMENTS: [BillingIncrement; 3] = [
    BillingIncrement::Second,
    BillingIncrement::Minute,
    BillingIncrement::Hour,
];
const BILLING_KEYS: [&str; 3] = ["second", "minute", "hour"];
const IDLE_SPLIT_KEYS: [&str; 4] = ["proportional", "even", "fixed", "row"];

fn index_of<T: PartialEq>(all: &[T], v: &T) -> usize {
    all.iter().position(|x| x == v).unwrap_or(0)
}

fn share(v: f64) -> Result<f64, InputError> {
    non_negative(Field::BudgetShare, v, 100.0)
}

fn pue(v: f64) -> Result<f64, InputError> {
    let v = positive(Field::Pue, v, MAX_PUE)?;
    if v < 1.0 {
        return Err(InputError::new(Field::Pue, Problem::TooSmall { min: 1.0 }));
    }
    Ok(v)
}

/// A whole count of at least 1.
fn count_from_one(field: Field, v: f64, max: f64) -> Result<f64, InputError> {
    whole(field, v, max).and_then(|v| positive(field, v, max))
}

/// Young's interval √(2δ/λ) (capped), or 1 h when it is undefined: what the checkpoint
/// interval field shows while the interval is automatic.
pub fn young_or_one(i: &PlanInputs) -> f64 {
    if i.interruption_rate > 0.0 && i.checkpoint_save_hours > 0.0 {
        let t = (2.0 * i.checkpoint_save_hours / i.interruption_rate).sqrt();
        if t.is_finite() && t > 0.0 {
            return t.min(MAX_SPOT_DURATION_HOURS);
        }
    }
    1.0
}

/// What the interruption rate means now: " Now: one reclaim every 50 hours on average."
fn reclaims_now(l: Lang, i: &PlanInputs) -> String {
    let lambda = i.interruption_rate;
    if lambda > 0.0 {
        let hours = crate::format::number_trim(1.0 / lambda, 1, l);
        match l {
            Lang::En => format!(" Now: one reclaim every {hours} hours on average."),
            Lang::Zh => format!(" 当前：平均每 {hours} 小时被回收一次。"),
        }
    } else {
        crate::i18n::pick(l, " Now: never reclaimed.", " 当前：从不回收。").to_string()
    }
}

fn term_price(v: f64) -> Result<f64, InputError> {
    terms::term_price(v)
}

fn horizon_months(v: f64) -> Result<f64, InputError> {
    let v = whole(Field::Horizon, v, f64::from(MAX_HORIZON_MONTHS))?;
    terms::horizon(v as u32).map(f64::from)
}

/// What a term's offer comes to a month, and in months of the monthly price.
fn term_now(l: Lang, i: &PlanInputs, upfront: f64, monthly: f64, months: f64) -> String {
    if upfront == 0.0 && monthly == 0.0 {
        return String::new();
    }
    let e = upfront / months + monthly;
    let per = crate::format::number_trim(e, 2, l);
    let of_p = if i.monthly_price > 0.0 {
        crate::format::number_trim(e * months / i.monthly_price, 1, l)
    } else {
        "—".into()
    };
    let total = crate::format::number_trim(months, 0, l);
    match l {
        Lang::En => format!(" Now: {per} a month per GPU; the {total} months cost {of_p} months of the monthly price."),
        Lang::Zh => format!(" 当前：每卡每月 {per}；{total} 个月合计相当于 {of_p} 个月的包月价。"),
    }
}

fn one_year_now(l: Lang, i: &PlanInputs) -> String {
    term_now(l, i, i.term_1y_upfront, i.term_1y_monthly, 12.0)
}

fn three_years_now(l: Lang, i: &PlanInputs) -> String {
    term_now(l, i, i.term_3y_upfront, i.term_3y_monthly, 36.0)
}

/// Every input, in the order a link writes them (links stay byte-identical).
pub static INPUTS: &[InputSpec] = &[
    InputSpec {
        param: "monthly",
        since: 1,
        per_type: true,
        testid: "monthly-price",
        field: Field::MonthlyPrice,
        label: ("Monthly price per GPU", "每卡包月价格"),
        hint: ("Reserved / monthly (包月) price of one GPU for a month", "一张 GPU 包月（包年包月/预留）一个月的价格"),
        group: Group::Prices,
        value: Value::Real { get: |i| i.monthly_price, set: |i, v| i.monthly_price = v },
        range: range(100.0, 50_000.0, 50.0, breakeven::monthly_price),
        hint_now: None,
    },
    InputSpec {
        param: "ondemand",
        since: 1,
        per_type: true,
        testid: "on-demand-price",
        field: Field::OnDemandPrice,
        label: ("On-demand price per GPU-hour", "每卡按量价格（每小时）"),
        hint: ("Pay-as-you-go (按量) price of one GPU for one hour", "一张 GPU 按量付费一小时的价格"),
        group: Group::Prices,
        value: Value::Real { get: |i| i.on_demand_price, set: |i, v| i.on_demand_price = v },
        range: range(0.1, 100.0, 0.1, breakeven::on_demand_price),
        hint_now: None,
    },
    InputSpec {
        param: "hours",
        since: 1,
        per_type: false,
        testid: "hours-per-month",
        field: Field::HoursPerMonth,
        label: ("Hours in a month", "每月小时数"),
        hint: ("720, 730 (the average month) or 744", "720、730（平均每月）或 744"),
        group: Group::Own,
        value: Value::Real { get: |i| i.hours_per_month, set: |i, v| i.hours_per_month = v },
        range: None,
        hint_now: None,
    },
    InputSpec {
        param: "spot",
        since: 1,
        per_type: true,
        testid: "spot-price",
        field: Field::SpotPrice,
        label: ("Spot price per GPU-hour", "每卡竞价价格（每小时）"),
        hint: ("Interruptible (spot / preemptible) price of one GPU for one hour", "可被回收的竞价（抢占式）实例一张 GPU 一小时的价格"),
        group: Group::Prices,
        value: Value::Real { get: |i| i.spot_price, set: |i, v| i.spot_price = v },
        range: range(0.1, 100.0, 0.1, |v| positive(Field::SpotPrice, v, breakeven::MAX_HOURLY_PRICE)),
        hint_now: None,
    },
    InputSpec {
        param: "gpus",
        since: 1,
        per_type: true,
        testid: "gpus",
        field: Field::Gpus,
        label: ("GPUs", "GPU 数量"),
        hint: ("How many GPUs the team runs", "团队使用的 GPU 数量"),
        group: Group::Usage,
        value: Value::Count { get: |i| i.gpus, set: |i, v| i.gpus = v },
        range: range(1.0, 64.0, 1.0, |v| whole(Field::Gpus, v, MAX_GPUS)),
        hint_now: None,
    },
    InputSpec {
        param: "used",
        since: 1,
        per_type: true,
        testid: "used-hours",
        field: Field::UsedHours,
        label: ("Hours used per GPU per month", "每卡每月使用小时数"),
        hint: ("Hours each GPU is actually busy in a month", "每张 GPU 每月实际忙碌的小时数"),
        group: Group::Usage,
        value: Value::Real { get: |i| i.used_hours, set: |i, v| i.used_hours = v },
        range: range(0.0, 744.0, 1.0, |v| non_negative(Field::UsedHours, v, MAX_HOURS_PER_MONTH)),
        hint_now: None,
    },
    InputSpec {
        param: "lookback",
        since: 1,
        per_type: false,
        testid: "lookback",
        field: Field::UsageHistory,
        label: ("Lookback", "回看窗口"),
        hint: ("How much of the history sizes the plan", "用多长的历史确定方案"),
        group: Group::Own,
        value: Value::Choice { keys: &LOOKBACK_KEYS, get: |i| index_of(&LOOKBACK_CHOICES, &i.lookback), set: |i, k| i.lookback = LOOKBACK_CHOICES[k] },
        range: None,
        hint_now: None,
    },
    InputSpec {
        param: "daystart",
        since: 1,
        per_type: false,
        testid: "day-start",
        field: Field::BandHours,
        label: ("Daytime from", "白天从"),
        hint: ("Local hour the weekday daytime band starts", "工作日白天时段开始的本地小时"),
        group: Group::Own,
        value: Value::Count { get: |i| i.day_start_hour, set: |i, v| i.day_start_hour = v },
        range: None,
        hint_now: None,
    },
    InputSpec {
        param: "dayend",
        since: 1,
        per_type: false,
        testid: "day-end",
        field: Field::BandHours,
        label: ("Daytime to", "白天到"),
        hint: ("Local hour the weekday daytime band ends", "工作日白天时段结束的本地小时"),
        group: Group::Own,
        value: Value::Count { get: |i| i.day_end_hour, set: |i, v| i.day_end_hour = v },
        range: None,
        hint_now: None,
    },
    InputSpec {
        param: "q",
        since: 1,
        per_type: false,
        testid: "quantile",
        field: Field::Quantile,
        label: ("Waterline quantile (%)", "水位分位数（%）"),
        hint: ("The level usage stays at or above in all but this share of hours; 0 = strict minimum", "除这一比例的小时外，用量都不低于该水位；0 = 严格最小值"),
        group: Group::Quantile,
        value: Value::Real { get: |i| i.quantile_percent, set: |i, v| i.quantile_percent = v },
        range: range(0.0, 50.0, 1.0, |v| non_negative(Field::Quantile, v, MAX_QUANTILE_PERCENT)),
        hint_now: None,
    },
    InputSpec {
        param: "rule",
        since: 1,
        per_type: false,
        testid: "baseline-rule",
        field: Field::Gpus,
        label: ("Commit by", "承诺依据"),
        hint: ("The rule that sets the committed N", "决定包月数量 N 的规则"),
        group: Group::Own,
        value: Value::Choice { keys: &RULE_KEYS, get: |i| index_of(&BASELINE_RULES, &i.baseline_rule), set: |i, k| i.baseline_rule = BASELINE_RULES[k] },
        range: None,
        hint_now: None,
    },
    InputSpec {
        param: "custom",
        since: 1,
        per_type: true,
        testid: "custom-gpus",
        field: Field::Gpus,
        label: ("Custom N", "自定义 N"),
        hint: ("GPUs to commit with the custom rule", "自定义规则下包月的 GPU 数"),
        group: Group::Own,
        value: Value::Count { get: |i| i.custom_baseline_gpus, set: |i, v| i.custom_baseline_gpus = v },
        range: None,
        hint_now: None,
    },
    InputSpec {
        param: "lambda",
        since: 1,
        per_type: false,
        testid: "interruption-rate",
        field: Field::InterruptionRate,
        label: ("Interruption rate (reclaims per hour)", "中断率（每小时回收次数）"),
        hint: ("Reclaims per GPU-hour: 0.02 = one reclaim every 50 hours; 0 = never reclaimed.", "每 GPU 小时被回收的次数：0.02 即平均每 50 小时回收一次；0 表示从不回收。"),
        group: Group::Spot,
        value: Value::Real { get: |i| i.interruption_rate, set: |i, v| i.interruption_rate = v },
        range: range(0.0, 0.5, 0.005, |v| non_negative(Field::InterruptionRate, v, MAX_INTERRUPTION_RATE)),
        hint_now: Some(reclaims_now),
    },
    InputSpec {
        param: "ckpt",
        since: 1,
        per_type: false,
        testid: "checkpoint-save",
        field: Field::CheckpointSave,
        label: ("Checkpoint save time (minutes)", "检查点保存时间（分钟）"),
        hint: ("How long one checkpoint takes to write, during which the job makes no progress.", "保存一次检查点所需时间，期间任务不推进。"),
        group: Group::Spot,
        value: Value::Real { get: |i| i.checkpoint_save_hours, set: |i, v| i.checkpoint_save_hours = v },
        range: minutes(0.5, 60.0, 0.5, |v| positive(Field::CheckpointSave, v, MAX_SPOT_DURATION_HOURS * 60.0)),
        hint_now: None,
    },
    InputSpec {
        param: "restart",
        since: 1,
        per_type: false,
        testid: "restart-time",
        field: Field::RestartTime,
        label: ("Restart time after a reclaim (minutes)", "被回收后的重启时间（分钟）"),
        hint: ("Getting a new instance, pulling the image and loading the last checkpoint.", "重新申请实例、拉取镜像并加载最近一次检查点所需时间。"),
        group: Group::Spot,
        value: Value::Real { get: |i| i.restart_hours, set: |i, v| i.restart_hours = v },
        range: minutes(0.0, 120.0, 1.0, |v| non_negative(Field::RestartTime, v, MAX_SPOT_DURATION_HOURS * 60.0)),
        hint_now: None,
    },
    InputSpec {
        param: "tau",
        since: 1,
        per_type: false,
        testid: "checkpoint-interval",
        field: Field::CheckpointInterval,
        label: ("Checkpoint interval (hours)", "检查点间隔（小时）"),
        hint: ("Hours of work between two checkpoints.", "两次检查点之间的工作小时数。"),
        group: Group::SpotInterval,
        value: Value::RealOrAuto { get: |i| i.checkpoint_interval_hours, set: |i, v| i.checkpoint_interval_hours = v, automatic: young_or_one },
        range: range(0.1, 24.0, 0.1, |v| positive(Field::CheckpointInterval, v, MAX_SPOT_DURATION_HOURS)),
        hint_now: None,
    },
    InputSpec {
        param: "job",
        since: 1,
        per_type: false,
        testid: "job-length",
        field: Field::JobLength,
        label: ("Job length (hours of work)", "任务时长（工作小时）"),
        hint: ("A job that restarts from zero after every reclaim.", "每次被回收后都要从头重跑的任务。"),
        group: Group::SpotJob,
        value: Value::Real { get: |i| i.job_hours, set: |i, v| i.job_hours = v },
        range: range(0.5, 200.0, 0.5, |v| positive(Field::JobLength, v, MAX_JOB_HOURS)),
        hint_now: None,
    },
    InputSpec {
        param: "interruptible",
        since: 1,
        per_type: false,
        testid: "interruptible-share",
        field: Field::InterruptibleShare,
        label: ("Interruptible share of elastic work (%)", "弹性任务中可中断的比例（%）"),
        hint: ("Work that checkpoints and can restart runs on spot", "能保存检查点、可重启的任务放到竞价实例"),
        group: Group::Interruptible,
        value: Value::Real { get: |i| i.interruptible_percent, set: |i, v| i.interruptible_percent = v },
        range: range(0.0, 100.0, 5.0, |v| non_negative(Field::InterruptibleShare, v, 100.0)),
        hint_now: None,
    },
    InputSpec {
        param: "budget",
        since: 1,
        per_type: false,
        testid: "budget",
        field: Field::Budget,
        label: ("Monthly GPU budget", "每月 GPU 预算"),
        hint: ("What the team may spend on GPUs per month", "团队每月可花在 GPU 上的钱"),
        group: Group::Budget,
        value: Value::Real { get: |i| i.budget, set: |i, v| i.budget = v },
        range: range(1000.0, 1_000_000.0, 1000.0, |v| positive(Field::Budget, v, MAX_BUDGET)),
        hint_now: None,
    },
    InputSpec {
        param: "bfixed",
        since: 1,
        per_type: false,
        testid: "budget-fixed-share",
        field: Field::BudgetShare,
        label: ("Fixed baseline (%)", "固定基线（%）"),
        hint: ("Monthly GPUs", "包月 GPU"),
        group: Group::BudgetShares,
        value: Value::Real { get: |i| i.budget_fixed_percent, set: |i, v| i.budget_fixed_percent = v },
        range: range(0.0, 100.0, 5.0, share),
        hint_now: None,
    },
    InputSpec {
        param: "belastic",
        since: 1,
        per_type: false,
        testid: "budget-elastic-share",
        field: Field::BudgetShare,
        label: ("Elastic on-demand (%)", "弹性按量（%）"),
        hint: ("On-demand GPU-hours", "按量 GPU 小时"),
        group: Group::BudgetShares,
        value: Value::Real { get: |i| i.budget_elastic_percent, set: |i, v| i.budget_elastic_percent = v },
        range: range(0.0, 100.0, 5.0, share),
        hint_now: None,
    },
    InputSpec {
        param: "bspot",
        since: 1,
        per_type: false,
        testid: "budget-spot-share",
        field: Field::BudgetShare,
        label: ("Spot and emergency (%)", "竞价与应急（%）"),
        hint: ("Spot GPU-hours and reserve", "竞价 GPU 小时与应急储备"),
        group: Group::BudgetShares,
        value: Value::Real { get: |i| i.budget_spot_percent, set: |i, v| i.budget_spot_percent = v },
        range: range(0.0, 100.0, 5.0, share),
        hint_now: None,
    },
    InputSpec {
        param: "jobs",
        since: 1,
        per_type: false,
        testid: "burst-jobs",
        field: Field::Jobs,
        label: ("Jobs", "任务数"),
        hint: ("How many jobs the burst has.", "这次突发一共有多少个任务。"),
        group: Group::Burst,
        value: Value::Count { get: |i| i.burst_jobs, set: |i, v| i.burst_jobs = v },
        range: range(1.0, 200.0, 1.0, |v| count_from_one(Field::Jobs, v, MAX_JOBS)),
        hint_now: None,
    },
    InputSpec {
        param: "jobgpus",
        since: 1,
        per_type: false,
        testid: "burst-gpus-per-job",
        field: Field::GpusPerJob,
        label: ("GPUs per job", "每任务 GPU 数"),
        hint: ("GPUs one job needs at once.", "单个任务同时需要的 GPU 数。"),
        group: Group::Burst,
        value: Value::Count { get: |i| i.burst_gpus_per_job, set: |i, v| i.burst_gpus_per_job = v },
        range: range(1.0, 16.0, 1.0, |v| count_from_one(Field::GpusPerJob, v, MAX_GPUS)),
        hint_now: None,
    },
    InputSpec {
        param: "jobhours",
        since: 1,
        per_type: false,
        testid: "burst-job-hours",
        field: Field::JobHours,
        label: ("Hours per job", "每任务小时数"),
        hint: ("How long one job runs.", "单个任务运行多长时间。"),
        group: Group::Burst,
        value: Value::Real { get: |i| i.burst_job_hours, set: |i, v| i.burst_job_hours = v },
        range: range(0.25, 48.0, 0.25, |v| positive(Field::JobHours, v, MAX_BURST_JOB_HOURS)),
        hint_now: None,
    },
    InputSpec {
        param: "freegpus",
        since: 1,
        per_type: false,
        testid: "burst-fixed-gpus",
        field: Field::FixedGpus,
        label: ("Fixed GPUs free for the burst", "可用于突发的固定 GPU 数"),
        hint: ("Monthly GPUs already paid for and idle during the burst.", "已包月付费、突发期间空闲的 GPU。"),
        group: Group::Burst,
        value: Value::Count { get: |i| i.burst_fixed_gpus, set: |i, v| i.burst_fixed_gpus = v },
        range: range(0.0, 64.0, 1.0, |v| whole(Field::FixedGpus, v, MAX_GPUS)),
        hint_now: None,
    },
    InputSpec {
        param: "maxelastic",
        since: 1,
        per_type: false,
        testid: "burst-elastic-gpus",
        field: Field::ElasticGpus,
        label: ("Elastic GPUs at most", "弹性 GPU 上限"),
        hint: ("The most on-demand GPUs you may rent for the burst (quota).", "这次突发最多能租的按量 GPU 数（配额）。"),
        group: Group::Burst,
        value: Value::Count { get: |i| i.burst_elastic_gpus, set: |i, v| i.burst_elastic_gpus = v },
        range: range(0.0, 256.0, 1.0, |v| whole(Field::ElasticGpus, v, MAX_GPUS)),
        hint_now: None,
    },
    InputSpec {
        param: "billing",
        since: 1,
        per_type: false,
        testid: "billing-increment",
        field: Field::JobHours,
        label: ("Billing increment", "计费粒度"),
        hint: ("The cloud bills elastic GPUs by the second, minute or hour", "云厂商按秒、按分钟或按小时对弹性 GPU 计费"),
        group: Group::Own,
        value: Value::Choice { keys: &BILLING_KEYS, get: |i| index_of(&BILLING_INCREMENTS, &i.billing_increment), set: |i, k| i.billing_increment = BILLING_INCREMENTS[k] },
        range: None,
        hint_now: None,
    },
    InputSpec {
        param: "buy",
        since: 1,
        per_type: false,
        testid: "own-purchase",
        field: Field::Purchase,
        label: ("Purchase price per GPU", "每卡采购价"),
        hint: ("One GPU's share of the server: card, chassis, CPU, memory, network.", "服务器分摊到每张卡的价格：显卡、机箱、CPU、内存、网络。"),
        group: Group::OwnHardware,
        value: Value::Real { get: |i| i.own_purchase, set: |i, v| i.own_purchase = v },
        range: range(0.0, 500_000.0, 1000.0, |v| non_negative(Field::Purchase, v, MAX_PURCHASE)),
        hint_now: None,
    },
    InputSpec {
        param: "depmonths",
        since: 1,
        per_type: false,
        testid: "own-depreciation-months",
        field: Field::DepreciationMonths,
        label: ("Depreciation months", "折旧月数"),
        hint: ("Months over which the purchase is written off.", "采购成本分摊的月数。"),
        group: Group::OwnHardware,
        value: Value::Real { get: |i| i.own_depreciation_months, set: |i, v| i.own_depreciation_months = v },
        range: range(1.0, 120.0, 1.0, |v| positive(Field::DepreciationMonths, v, MAX_DEPRECIATION_MONTHS)),
        hint_now: None,
    },
    InputSpec {
        param: "kw",
        since: 1,
        per_type: false,
        testid: "own-power-kw",
        field: Field::PowerKw,
        label: ("Power per GPU (kW)", "每卡功率（kW）"),
        hint: ("Average draw of one GPU's share of the server.", "服务器分摊到每张卡的平均功耗。"),
        group: Group::OwnHardware,
        value: Value::Real { get: |i| i.own_power_kw, set: |i, v| i.own_power_kw = v },
        range: range(0.0, 2.0, 0.05, |v| non_negative(Field::PowerKw, v, MAX_POWER_KW)),
        hint_now: None,
    },
    InputSpec {
        param: "pue",
        since: 1,
        per_type: false,
        testid: "own-pue",
        field: Field::Pue,
        label: ("PUE", "PUE"),
        hint: ("Power usage effectiveness of the room: 1.5 means 50 % more for cooling and losses.", "机房能效比：1.5 表示制冷与损耗再多用 50% 的电。"),
        group: Group::OwnHardware,
        value: Value::Real { get: |i| i.own_pue, set: |i, v| i.own_pue = v },
        range: range(1.0, 3.0, 0.05, pue),
        hint_now: None,
    },
    InputSpec {
        param: "kwh",
        since: 1,
        per_type: false,
        testid: "own-electricity-price",
        field: Field::ElectricityPrice,
        label: ("Electricity price per kWh", "电价（每千瓦时）"),
        hint: ("What you pay for one kWh.", "每千瓦时电的价格。"),
        group: Group::OwnHardware,
        value: Value::Real { get: |i| i.own_electricity_price, set: |i, v| i.own_electricity_price = v },
        range: range(0.0, 3.0, 0.05, |v| non_negative(Field::ElectricityPrice, v, MAX_ELECTRICITY_PRICE)),
        hint_now: None,
    },
    InputSpec {
        param: "colo",
        since: 1,
        per_type: false,
        testid: "own-colo-ops",
        field: Field::ColoOps,
        label: ("Colocation and operations per GPU per month", "托管与运维（每卡每月）"),
        hint: ("Rack space, network and the people who keep it running.", "机柜、网络以及运维人力。"),
        group: Group::OwnHardware,
        value: Value::Real { get: |i| i.own_colo_ops_monthly, set: |i, v| i.own_colo_ops_monthly = v },
        range: range(0.0, 5000.0, 50.0, |v| non_negative(Field::ColoOps, v, MAX_COLO_OPS)),
        hint_now: None,
    },
    InputSpec {
        param: "storage",
        since: 1,
        per_type: false,
        testid: "hidden-storage",
        field: Field::HiddenCost,
        label: ("Cloud disks and storage per month", "云盘与存储（每月）"),
        hint: ("Data and system disks kept between sessions.", "会话之间一直保留的数据盘和系统盘。"),
        group: Group::Hidden,
        value: Value::Real { get: |i| i.hidden_storage_monthly, set: |i, v| i.hidden_storage_monthly = v },
        range: range(0.0, 5000.0, 10.0, |v| non_negative(Field::HiddenCost, v, MAX_HIDDEN_MONTHLY)),
        hint_now: None,
    },
    InputSpec {
        param: "ip",
        since: 1,
        per_type: false,
        testid: "hidden-public-ip",
        field: Field::HiddenCost,
        label: ("Public IP per month", "公网 IP（每月）"),
        hint: ("Elastic IPs and bandwidth packages.", "弹性公网 IP 与带宽包。"),
        group: Group::Hidden,
        value: Value::Real { get: |i| i.hidden_public_ip_monthly, set: |i, v| i.hidden_public_ip_monthly = v },
        range: range(0.0, 500.0, 5.0, |v| non_negative(Field::HiddenCost, v, MAX_HIDDEN_MONTHLY)),
        hint_now: None,
    },
    InputSpec {
        param: "snapshots",
        since: 1,
        per_type: false,
        testid: "hidden-snapshots",
        field: Field::HiddenCost,
        label: ("Snapshots and images per month", "快照与镜像（每月）"),
        hint: ("Disk snapshots and custom images stored.", "保存的磁盘快照与自定义镜像。"),
        group: Group::Hidden,
        value: Value::Real { get: |i| i.hidden_snapshots_monthly, set: |i, v| i.hidden_snapshots_monthly = v },
        range: range(0.0, 2000.0, 10.0, |v| non_negative(Field::HiddenCost, v, MAX_HIDDEN_MONTHLY)),
        hint_now: None,
    },
    InputSpec {
        param: "egress",
        since: 1,
        per_type: false,
        testid: "hidden-egress-price",
        field: Field::HiddenCost,
        label: ("Egress price per GB", "出网流量单价（每 GB）"),
        hint: ("What the cloud charges for each GB leaving it.", "云厂商对每 GB 出网流量收取的费用。"),
        group: Group::Hidden,
        value: Value::Real { get: |i| i.hidden_egress_per_gb, set: |i, v| i.hidden_egress_per_gb = v },
        range: range(0.0, 5.0, 0.05, |v| non_negative(Field::HiddenCost, v, MAX_EGRESS_PRICE)),
        hint_now: None,
    },
    InputSpec {
        param: "egressgb",
        since: 1,
        per_type: false,
        testid: "hidden-egress-gb",
        field: Field::HiddenCost,
        label: ("Egress per month (GB)", "每月出网流量（GB）"),
        hint: ("Checkpoints, models and results downloaded each month.", "每月下载的检查点、模型与结果。"),
        group: Group::Hidden,
        value: Value::Real { get: |i| i.hidden_egress_gb, set: |i, v| i.hidden_egress_gb = v },
        range: range(0.0, 10_000.0, 10.0, |v| non_negative(Field::HiddenCost, v, MAX_EGRESS_GB)),
        hint_now: None,
    },
    InputSpec {
        param: "sessions",
        since: 1,
        per_type: false,
        testid: "hidden-sessions",
        field: Field::HiddenCost,
        label: ("Elastic sessions per month", "每月弹性会话数"),
        hint: ("Each session ends with one idle wait before auto-stop, billed for one GPU.", "每个会话结束后都要空等一段时间才自动关机，按一张 GPU 计费。"),
        group: Group::Hidden,
        value: Value::Real { get: |i| i.hidden_sessions, set: |i, v| i.hidden_sessions = v },
        range: range(0.0, 500.0, 1.0, |v| non_negative(Field::HiddenCost, v, MAX_SESSIONS)),
        hint_now: None,
    },
    InputSpec {
        param: "idle",
        since: 1,
        per_type: false,
        testid: "hidden-idle-timeout",
        field: Field::HiddenCost,
        label: ("Idle time before auto-stop (minutes)", "自动关机前的闲置时间（分钟）"),
        hint: ("How long an idle GPU keeps running before it is stopped.", "GPU 闲置后要运行多久才会被自动关机。"),
        group: Group::Hidden,
        value: Value::Real { get: |i| i.hidden_idle_timeout_hours, set: |i, v| i.hidden_idle_timeout_hours = v },
        range: minutes(0.0, 240.0, 5.0, |v| non_negative(Field::HiddenCost, v, MAX_IDLE_TIMEOUT_HOURS * 60.0)),
        hint_now: None,
    },
    InputSpec {
        param: "lowutil",
        since: 1,
        per_type: false,
        testid: "review-utilization-threshold",
        field: Field::Threshold,
        label: ("Low-utilization threshold (%)", "低利用率阈值（%）"),
        hint: ("Fixed GPUs busier than this are well used; under it two months running, lower the baseline.", "固定配额利用率低于此值算偏低；连续两个月偏低就下调基线。"),
        group: Group::Review,
        value: Value::Real { get: |i| i.review_utilization_threshold_percent, set: |i, v| i.review_utilization_threshold_percent = v },
        range: range(0.0, 100.0, 1.0, |v| non_negative(Field::Threshold, v, 100.0)),
        hint_now: None,
    },
    InputSpec {
        param: "queue",
        since: 1,
        per_type: false,
        testid: "review-queue-limit",
        field: Field::Threshold,
        label: ("Queue-time limit (hours)", "排队时间上限（小时）"),
        hint: ("Jobs waiting longer than this in the latest month call for earlier scale-out.", "最近一个月任务排队超过此时长，就应更早触发弹性扩容。"),
        group: Group::Review,
        value: Value::Real { get: |i| i.review_queue_limit_hours, set: |i, v| i.review_queue_limit_hours = v },
        range: range(0.0, 24.0, 0.5, |v| non_negative(Field::Threshold, v, MAX_QUEUE_HOURS)),
        hint_now: None,
    },
    InputSpec {
        param: "y1up",
        since: 2,
        per_type: true,
        testid: "term-1y-upfront",
        field: Field::TermPrice,
        label: ("1 year: upfront per GPU", "包年：每卡预付"),
        hint: ("Paid once when the year starts (all upfront: the whole price here, 0 per month). 0 and 0: no yearly offer.", "在一年开始时一次付清（全预付：全部填在这里，每月填 0）。两项都为 0：没有包年报价。"),
        group: Group::Terms,
        value: Value::Real { get: |i| i.term_1y_upfront, set: |i, v| i.term_1y_upfront = v },
        range: range(0.0, 500_000.0, 100.0, term_price),
        hint_now: Some(one_year_now),
    },
    InputSpec {
        param: "y1mo",
        since: 2,
        per_type: true,
        testid: "term-1y-monthly",
        field: Field::TermPrice,
        label: ("1 year: per GPU per month", "包年：每卡每月"),
        hint: ("Billed every month of the year (no upfront: the whole price here).", "一年内每月支付的部分（无预付：全部填在这里）。"),
        group: Group::Terms,
        value: Value::Real { get: |i| i.term_1y_monthly, set: |i, v| i.term_1y_monthly = v },
        range: range(0.0, 50_000.0, 10.0, term_price),
        hint_now: None,
    },
    InputSpec {
        param: "y3up",
        since: 2,
        per_type: true,
        testid: "term-3y-upfront",
        field: Field::TermPrice,
        label: ("3 years: upfront per GPU", "三年：每卡预付"),
        hint: ("Paid once when the three years start. 0 and 0: no three-year offer.", "在三年开始时一次付清。两项都为 0：没有三年报价。"),
        group: Group::Terms,
        value: Value::Real { get: |i| i.term_3y_upfront, set: |i, v| i.term_3y_upfront = v },
        range: range(0.0, 1_000_000.0, 100.0, term_price),
        hint_now: Some(three_years_now),
    },
    InputSpec {
        param: "y3mo",
        since: 2,
        per_type: true,
        testid: "term-3y-monthly",
        field: Field::TermPrice,
        label: ("3 years: per GPU per month", "三年：每卡每月"),
        hint: ("Billed every month of the three years.", "三年内每月支付的部分。"),
        group: Group::Terms,
        value: Value::Real { get: |i| i.term_3y_monthly, set: |i, v| i.term_3y_monthly = v },
        range: range(0.0, 50_000.0, 10.0, term_price),
        hint_now: None,
    },
    InputSpec {
        param: "horizon",
        since: 2,
        per_type: false,
        testid: "horizon-months",
        field: Field::Horizon,
        label: ("Horizon (months)", "规划期（月）"),
        hint: ("How many months you are confident this workload lasts. A term that pays back only later is never recommended.", "有把握这项工作会持续多少个月。回本晚于规划期的期限不会被推荐。"),
        group: Group::Terms,
        value: Value::Count { get: |i| i.horizon_months, set: |i, v| i.horizon_months = v },
        range: range(1.0, 60.0, 1.0, horizon_months),
        hint_now: None,
    },
    InputSpec {
        param: "left",
        since: 2,
        per_type: false,
        testid: "months-left",
        field: Field::MonthsLeft,
        label: ("Months left on the current commitment", "现有承诺剩余月数"),
        hint: ("New terms start when it ends; the options are compared over the months of the horizon after it.", "新的期限在它结束后开始；各方案只比较规划期中其后的月份。"),
        group: Group::Terms,
        value: Value::Count { get: |i| i.months_left, set: |i, v| i.months_left = v },
        range: range(0.0, 36.0, 1.0, |v| whole(Field::MonthsLeft, v, f64::from(MAX_HORIZON_MONTHS))),
        hint_now: None,
    },
    InputSpec {
        param: "growth",
        since: 4,
        per_type: false,
        testid: "growth-per-month",
        field: Field::Growth,
        label: ("Growth per month (%)", "每月增长（%）"),
        hint: ("auto: the history's fitted trend (0 without 28 days of history); or type a % per month, negative for a decline.", "auto：历史拟合出的趋势（历史不足 28 天时为 0）；或填写每月百分比，负数表示下降。"),
        group: Group::Own,
        value: Value::RealOrAuto { get: |i| i.growth_percent, set: |i, v| i.growth_percent = v, automatic: |_| 0.0 },
        range: range(MIN_GROWTH_PERCENT, MAX_GROWTH_PERCENT, 0.5, growth::growth_percent),
        hint_now: None,
    },
    InputSpec {
        param: "growthend",
        since: 4,
        per_type: false,
        testid: "growth-end-level",
        field: Field::GrowthEndLevel,
        label: ("Or: the waterline at the horizon's end (GPUs)", "或：规划期末的水位（卡）"),
        hint: ("0: not used. Otherwise the growth per month that reaches it: (level ÷ waterline now)^(1/horizon) − 1.", "0：不使用。否则按达到该水位所需的每月增长计算：(期末水位 ÷ 当前水位)^(1/规划期) − 1。"),
        group: Group::Growth,
        value: Value::Real { get: |i| i.growth_end_level, set: |i, v| i.growth_end_level = v },
        range: range(0.0, 1000.0, 1.0, |v| non_negative(Field::GrowthEndLevel, v, growth::MAX_END_LEVEL)),
        hint_now: None,
    },
    InputSpec {
        param: "decline",
        since: 4,
        per_type: false,
        testid: "growth-decline",
        field: Field::GrowthDecline,
        label: ("Risk: if usage reverses, decline per month (%)", "风险：若用量反转，每月下降（%）"),
        hint: ("The second future each plan is tried on, besides growth stopping.", "除增长停止外，用来检验各方案的第二种情形。"),
        group: Group::Growth,
        value: Value::Real { get: |i| i.growth_decline_percent, set: |i, v| i.growth_decline_percent = v },
        range: range(0.0, MAX_DECLINE_PERCENT, 0.5, |v| non_negative(Field::GrowthDecline, v, MAX_DECLINE_PERCENT)),
        hint_now: None,
    },
    InputSpec {
        param: "laddercap",
        since: 4,
        per_type: false,
        testid: "ladder-cap",
        field: Field::LadderCap,
        label: ("Commit at most (% of the projected waterline)", "最多承诺（预测水位的 %）"),
        hint: ("100 %: never commit more GPUs than the month's projected minimum stable waterline.", "100 %：承诺的卡数不超过当月预测的最低稳定水位。"),
        group: Group::Growth,
        value: Value::Real { get: |i| i.ladder_cap_percent, set: |i, v| i.ladder_cap_percent = v },
        range: range(0.0, MAX_CAP_PERCENT, 5.0, |v| non_negative(Field::LadderCap, v, MAX_CAP_PERCENT)),
        hint_now: None,
    },
    InputSpec {
        param: "altod",
        since: 2,
        per_type: true,
        testid: "alt-on-demand-price",
        field: Field::Region,
        label: ("Second region: on-demand price per GPU-hour", "第二区域：每卡按需价格（每小时）"),
        hint: ("A nearby region's on-demand price for the elastic pool. 0: no second region.", "邻近区域的按需价格，用于弹性池。0：没有第二区域。"),
        group: Group::Region,
        value: Value::Real { get: |i| i.alt_on_demand_price, set: |i, v| i.alt_on_demand_price = v },
        range: range(0.0, 200.0, 0.5, |v| non_negative(Field::Region, v, MAX_ALT_PRICE)),
        hint_now: None,
    },
    InputSpec {
        param: "altspot",
        since: 2,
        per_type: true,
        testid: "alt-spot-price",
        field: Field::Region,
        label: ("Second region: spot price per GPU-hour", "第二区域：每卡竞价价格（每小时）"),
        hint: ("Its spot list price (reclaimed as often as at home). 0: spot stays home.", "该区域的竞价标价（回收频率与本区域相同）。0：竞价留在本区域。"),
        group: Group::Region,
        value: Value::Real { get: |i| i.alt_spot_price, set: |i, v| i.alt_spot_price = v },
        range: range(0.0, 100.0, 0.5, |v| non_negative(Field::Region, v, MAX_ALT_PRICE)),
        hint_now: None,
    },
    InputSpec {
        param: "gbph",
        since: 2,
        per_type: false,
        testid: "data-gb-per-gpu-hour",
        field: Field::Region,
        label: ("Data moved per elastic GPU-hour (GB)", "每弹性卡时搬运的数据（GB）"),
        hint: ("Datasets, checkpoints and results carried across regions for each GPU-hour.", "每个卡时需要跨区域搬运的数据集、检查点与结果。"),
        group: Group::Region,
        value: Value::Real { get: |i| i.data_gb_per_gpu_hour, set: |i, v| i.data_gb_per_gpu_hour = v },
        range: range(0.0, 100.0, 0.5, |v| non_negative(Field::Region, v, MAX_GB_PER_GPU_HOUR)),
        hint_now: None,
    },
    InputSpec {
        param: "xfer",
        since: 2,
        per_type: false,
        testid: "transfer-price-per-gb",
        field: Field::Region,
        label: ("Cross-region transfer price per GB", "跨区域流量单价（每 GB）"),
        hint: ("What moving one GB between the two regions costs.", "两个区域之间每搬运 1 GB 数据的费用。"),
        group: Group::Region,
        value: Value::Real { get: |i| i.transfer_price_per_gb, set: |i, v| i.transfer_price_per_gb = v },
        range: range(0.0, 5.0, 0.05, |v| non_negative(Field::Region, v, MAX_TRANSFER_PRICE)),
        hint_now: None,
    },
    InputSpec {
        param: "regionnote",
        since: 2,
        per_type: false,
        testid: "alt-region-note",
        field: Field::Region,
        label: ("Second region: note", "第二区域：备注"),
        hint: ("Which region and how far, e.g. \"Tianjin, 2 ms\". Shown as text only.", "哪个区域、多远，例如“天津，2 ms”。仅作为文本显示。"),
        group: Group::Own,
        value: Value::Text { get: |i| &i.region_note, set: |i, v| i.region_note = v },
        range: None,
        hint_now: None,
    },
    InputSpec {
        param: "prom",
        since: 2,
        per_type: false,
        testid: "prometheus-address",
        field: Field::Autoscaler,
        label: ("Prometheus address", "Prometheus 地址"),
        hint: ("Where KEDA reads the queue metric. Empty: a placeholder to edit.", "KEDA 读取队列指标的地址。留空：使用待修改的占位值。"),
        group: Group::Own,
        value: Value::Text { get: |i| &i.prometheus_address, set: |i, v| i.prometheus_address = v },
        range: None,
        hint_now: None,
    },
    InputSpec {
        param: "metric",
        since: 2,
        per_type: false,
        testid: "queue-metric",
        field: Field::Autoscaler,
        label: ("Queue metric (GPUs asked for)", "队列指标（申请的 GPU 数）"),
        hint: ("The metric of GPUs queued and running; the trigger scales on what exceeds the committed GPUs.", "排队与运行中申请的 GPU 数指标；超出包月 GPU 的部分触发扩容。"),
        group: Group::Own,
        value: Value::Text { get: |i| &i.queue_metric, set: |i, v| i.queue_metric = v },
        range: None,
        hint_now: None,
    },
    InputSpec {
        param: "target",
        since: 2,
        per_type: false,
        testid: "target-name",
        field: Field::Autoscaler,
        label: ("Elastic workload to scale", "要扩缩的弹性工作负载"),
        hint: ("The Deployment or StatefulSet KEDA scales (scaleTargetRef).", "KEDA 扩缩的 Deployment 或 StatefulSet（scaleTargetRef）。"),
        group: Group::Own,
        value: Value::Text { get: |i| &i.target_name, set: |i, v| i.target_name = v },
        range: None,
        hint_now: None,
    },
    InputSpec {
        param: "idlesplit",
        since: 3,
        per_type: false,
        testid: "idle-split",
        field: Field::TeamShares,
        label: ("Idle committed cost", "闲置包月成本"),
        hint: ("How the committed GPU-hours no team used are shared", "没有团队用到的包月卡时如何分摊"),
        group: Group::Own,
        value: Value::Choice { keys: &IDLE_SPLIT_KEYS, get: |i| index_of(&IdleSplit::ALL, &i.idle_split), set: |i, k| i.idle_split = IdleSplit::ALL[k] },
        range: None,
        hint_now: None,
    },
    InputSpec {
        param: "teamshares",
        since: 3,
        per_type: false,
        testid: "team-shares",
        field: Field::TeamShares,
        label: ("Fixed shares per team", "各团队固定比例"),
        hint: ("team=percent, separated by commas; they must add up to 100", "团队=百分比，用逗号分隔；合计须为 100"),
        group: Group::Own,
        value: Value::Text { get: |i| &i.team_shares, set: |i, v| i.team_shares = v },
        range: None,
        hint_now: None,
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn a_what_if_is_set_when_one_of_its_inputs_differs_from_its_default() {
        let d = PlanInputs::default();
        for w in [
            &SPOT_INPUTS,
            &BURST_INPUTS,
            &HIDDEN_INPUTS,
            &ACTION_INPUTS,
            &GROWTH_INPUTS,
        ] {
            assert!(!w.set_in(&d));
            // Every named parameter exists.
            for p in w.params {
                assert!(by_param(p).is_some(), "{p}");
            }
        }
        let mut i = d.clone();
        i.checkpoint_interval_hours = Some(2.0);
        assert!(SPOT_INPUTS.set_in(&i) && !BURST_INPUTS.set_in(&i));
        let mut i = d.clone();
        assert!(by_param("billing").unwrap().read(&mut i, "hour"));
        assert!(BURST_INPUTS.set_in(&i) && !SPOT_INPUTS.set_in(&i));
        let mut i = d.clone();
        by_testid("hidden-storage").unwrap().commit(&mut i, 201.0);
        assert!(HIDDEN_INPUTS.set_in(&i) && !ACTION_INPUTS.set_in(&i));
        let mut i = d.clone();
        i.region_note = "Tianjin".into();
        assert!(ACTION_INPUTS.set_in(&i) && !HIDDEN_INPUTS.set_in(&i));
        // The prices are the plan, not a what-if.
        let mut i = d;
        i.monthly_price = 1.0;
        assert!(
            ![&SPOT_INPUTS, &BURST_INPUTS, &HIDDEN_INPUTS, &ACTION_INPUTS]
                .iter()
                .any(|w| w.set_in(&i))
        );
    }

    #[test]
    fn params_and_test_ids_are_unique() {
        let params: HashSet<_> = INPUTS.iter().map(|s| s.param).collect();
        let ids: HashSet<_> = INPUTS.iter().map(|s| s.testid).collect();
        assert_eq!(params.len(), INPUTS.len());
        assert_eq!(ids.len(), INPUTS.len());
        assert_eq!(by_param("egressgb").unwrap().testid, "hidden-egress-gb");
        assert_eq!(by_testid("monthly-price").unwrap().param, "monthly");
        assert!(by_param("nope").is_none());
    }

    #[test]
    fn every_default_is_a_valid_shown_value_inside_its_range() {
        let d = PlanInputs::default();
        for s in INPUTS {
            if let Some(r) = s.range {
                let v = s.shown(&d);
                assert_eq!(s.validate(v), Ok(v), "{}", s.testid);
                assert!(
                    r.min <= v && v <= r.max,
                    "{} default {v} outside its slider",
                    s.testid
                );
                assert!(r.min < r.max && r.step > 0.0, "{}", s.testid);
                assert_eq!(
                    s.validate(f64::NAN).unwrap_err().field,
                    s.field,
                    "{}",
                    s.testid
                );
            }
            assert_eq!(s.write(&d, &d), None, "{} writes its default", s.testid);
            assert!(
                !s.label.0.is_empty() && !s.label.1.is_empty(),
                "{}",
                s.testid
            );
            assert!(!s.hint.0.is_empty() && !s.hint.1.is_empty(), "{}", s.testid);
            assert!(s.hint(Lang::Zh, &d).starts_with(s.hint.1), "{}", s.testid);
        }
    }

    #[test]
    fn written_values_read_back_exactly() {
        let d = PlanInputs::default();
        for s in INPUTS {
            let mut i = d.clone();
            match s.value {
                Value::Choice { keys, .. } => s.commit(&mut i, (keys.len() - 1) as f64),
                Value::Text { .. } => s.commit_text(&mut i, "Tianjin, 2 ms & a=b #c 天津 %"),
                _ => {
                    let r = s.range.map_or((1.0, 30.0), |r| (r.min, r.max));
                    let v = if r.0 == s.shown(&d) { r.1 } else { r.0 };
                    s.commit(&mut i, v);
                }
            }
            let text = s
                .write(&i, &d)
                .unwrap_or_else(|| panic!("{} not written", s.testid));
            let mut back = d.clone();
            assert!(s.read(&mut back, &text), "{} reads {text}", s.testid);
            assert_eq!(back, i, "{} = {text}", s.testid);
            if s.text_value(&i).is_none() {
                assert!(!s.read(&mut back, "x1"), "{} read x1", s.testid);
            }
        }
    }

    #[test]
    fn keys_match_the_engine_and_minutes_scale() {
        for (r, k) in BASELINE_RULES.iter().zip(RULE_KEYS) {
            assert_eq!(r.key(), k);
        }
        for (b, k) in BILLING_INCREMENTS.iter().zip(BILLING_KEYS) {
            assert_eq!(b.key(), k);
        }
        for (lb, k) in LOOKBACK_CHOICES.iter().zip(LOOKBACK_KEYS) {
            let expected = match lb {
                Lookback::Days(d) => d.to_string(),
                Lookback::All => "all".into(),
            };
            assert_eq!(expected, k);
        }
        // The idle time is stored in hours, shown in minutes: 0.5 h is 30 min; 45 min is 0.75 h.
        let idle = by_testid("hidden-idle-timeout").unwrap();
        let mut i = PlanInputs::default();
        assert_eq!(idle.shown(&i), 30.0);
        idle.commit(&mut i, 45.0);
        assert_eq!(i.hidden_idle_timeout_hours, 0.75);
        assert_eq!(
            idle.write(&i, &PlanInputs::default()).as_deref(),
            Some("0.75")
        );
        // The automatic checkpoint interval shows Young's √(2δ/λ) = √(2 × 0.05 / 0.02) ≈ 2.236 h.
        let tau = by_param("tau").unwrap();
        assert!((tau.shown(&i) - 5f64.sqrt()).abs() < 1e-12);
        assert_eq!(tau.text(&i), "auto");
        // λ = 0.02 reads back as one reclaim every 1 / 0.02 = 50 hours.
        let rate = by_param("lambda").unwrap();
        assert!(rate
            .hint(Lang::En, &i)
            .ends_with("0 = never reclaimed. Now: one reclaim every 50 hours on average."));
        i.interruption_rate = 0.0;
        assert!(rate.hint(Lang::Zh, &i).ends_with(" 当前：从不回收。"));
    }

    #[test]
    fn text_inputs_are_cleaned_encoded_and_never_markup() {
        let note = by_testid("alt-region-note").unwrap();
        let d = PlanInputs::default();
        let mut i = d.clone();
        let hostile = "x\"\nspec:\n  evil: true ![img](http://e/x.png) [a](http://e) <b>`";
        note.commit_text(&mut i, hostile);
        assert_eq!(
            i.region_note,
            "x\" spec: evil: true ![img](http://e/x.png) [a](http://e) <b>`"
        );
        assert_eq!(note.write(&i, &d).as_deref(), Some(i.region_note.as_str()));
        // A link's text is cut to 200 characters.
        let mut long = d.clone();
        assert!(note.read(&mut long, &"天".repeat(500)));
        assert_eq!(long.region_note.chars().count(), MAX_TEXT_CHARS);
        // In an export: one code span, its fence longer than any backtick run.
        assert_eq!(code_span("a`b"), "``a`b``");
        assert_eq!(code_span("`x"), "`` `x ``");
        assert_eq!(code_span("[a](b)"), "`[a](b)`");
        assert!(note.text(&i).starts_with("`` x\""), "{}", note.text(&i));
        assert_eq!(note.shown(&i), 0.0);
    }
}
