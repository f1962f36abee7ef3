//! Time zones from the browser (`Intl`): the browser's own zone, a named zone's offsets over
//! time (daylight saving) as a [`Zone`] table for the engine, and the locale's order of day
//! and month. The engine holds no time-zone database; this is the only place that asks.

use std::cell::RefCell;

use wasm_bindgen::prelude::*;

use crate::core::ingest::DateOrder;
use crate::core::zone::{Zone, ZoneChoice};

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = Intl, js_name = DateTimeFormat)]
    type Dtf;
    /// Throws a `RangeError` for a zone name the browser does not know: caught.
    #[wasm_bindgen(constructor, js_namespace = Intl, js_class = "DateTimeFormat", catch)]
    fn new(locales: &JsValue, options: &js_sys::Object) -> Result<Dtf, JsValue>;
    #[wasm_bindgen(method, js_class = "DateTimeFormat", js_name = formatToParts, catch)]
    fn format_to_parts(this: &Dtf, date: &js_sys::Date) -> Result<js_sys::Array, JsValue>;
    #[wasm_bindgen(method, js_class = "DateTimeFormat", js_name = resolvedOptions, catch)]
    fn resolved_options(this: &Dtf) -> Result<js_sys::Object, JsValue>;
}

/// Named zones offered in the zone picker (when the browser knows them), besides the
/// browser's own zone and fixed offsets.
pub const NAMED_ZONES: [&str; 20] = [
    "Asia/Shanghai",
    "Asia/Hong_Kong",
    "Asia/Taipei",
    "Asia/Singapore",
    "Asia/Tokyo",
    "Asia/Seoul",
    "Asia/Kolkata",
    "Asia/Dubai",
    "Europe/London",
    "Europe/Paris",
    "Europe/Berlin",
    "Europe/Moscow",
    "America/New_York",
    "America/Chicago",
    "America/Denver",
    "America/Los_Angeles",
    "America/Sao_Paulo",
    "Australia/Sydney",
    "Pacific/Auckland",
    "UTC",
];

/// Daylight-saving changes are looked for from 2000 to 2040 (UTC unix seconds): before and
/// after, the first and last offsets hold.
const PROBE_FROM_S: i64 = 946_684_800;
const PROBE_TO_S: i64 = 2_208_988_800;
/// One probe a week: no zone changes its offset twice within a week.
const PROBE_STEP_S: i64 = 7 * 86_400;

/// The browser's own zone through `Date.getTimezoneOffset` (a probe costs ~100× less than
/// `Intl.formatToParts`).
fn own_offset_minutes(utc_s: i64) -> Option<i32> {
    let d = js_sys::Date::new(&JsValue::from_f64(utc_s as f64 * 1000.0));
    let o = d.get_timezone_offset();
    o.is_finite().then(|| -(o as i32))
}

fn set(o: &js_sys::Object, k: &str, v: &str) {
    let _ = js_sys::Reflect::set(o, &JsValue::from_str(k), &JsValue::from_str(v));
}

/// A formatter giving a zone's wall clock as numbers.
fn clock(zone: &str) -> Option<Dtf> {
    let o = js_sys::Object::new();
    set(&o, "timeZone", zone);
    set(&o, "hourCycle", "h23");
    for k in ["year", "month", "day", "hour", "minute", "second"] {
        set(&o, k, "numeric");
    }
    Dtf::new(&JsValue::from_str("en-US"), &o).ok()
}

/// Minutes east of UTC of the zone at `utc_s`.
fn offset_minutes(f: &Dtf, utc_s: i64) -> Option<i32> {
    let parts = f
        .format_to_parts(&js_sys::Date::new(&JsValue::from_f64(
            utc_s as f64 * 1000.0,
        )))
        .ok()?;
    let mut v = [0i64; 6];
    for p in parts.iter() {
        let ty = js_sys::Reflect::get(&p, &JsValue::from_str("type"))
            .ok()?
            .as_string()?;
        let i = match ty.as_str() {
            "year" => 0,
            "month" => 1,
            "day" => 2,
            "hour" => 3,
            "minute" => 4,
            "second" => 5,
            _ => continue,
        };
        let text = js_sys::Reflect::get(&p, &JsValue::from_str("value"))
            .ok()?
            .as_string()?;
        v[i] = text.trim().parse().ok()?;
    }
    let days = crate::core::calendar::days_from_civil(v[0], v[1], v[2]);
    let local = days * 86_400 + (v[3] % 24) * 3600 + v[4] * 60 + v[5];
    let minutes = (local - utc_s).div_euclid(60);
    i32::try_from(minutes).ok()
}

thread_local! {
    /// Zones already probed (a page asks for one or two).
    static ZONES: RefCell<Vec<(String, Option<Zone>)>> = const { RefCell::new(Vec::new()) };
}

/// A named zone's offsets, 2000–2040, as the browser knows them; `None` when it does not
/// know the name. Computed once per name (a weekly probe, then the minute of each change).
pub fn named(name: &str) -> Option<Zone> {
    if let Some(z) = ZONES.with(|m| {
        m.borrow()
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, z)| z.clone())
    }) {
        return z;
    }
    let zone = probe(name);
    ZONES.with(|m| m.borrow_mut().push((name.to_string(), zone.clone())));
    zone
}

fn probe(name: &str) -> Option<Zone> {
    if browser_zone_name().as_deref() == Some(name) {
        return probe_with(own_offset_minutes);
    }
    let f = clock(name)?;
    probe_with(|t| offset_minutes(&f, t))
}

fn probe_with(offset_at: impl Fn(i64) -> Option<i32>) -> Option<Zone> {
    let base = offset_at(PROBE_FROM_S)?;
    let mut changes = Vec::new();
    let (mut t, mut last) = (PROBE_FROM_S, base);
    while t < PROBE_TO_S {
        let next = (t + PROBE_STEP_S).min(PROBE_TO_S);
        let o = offset_at(next)?;
        if o != last {
            // The change lies in (t, next]: find its minute.
            let (mut lo, mut hi) = (t, next);
            while hi - lo > 60 {
                let mid = lo + (hi - lo) / 2;
                if offset_at(mid)? == last {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            changes.push((hi - hi.rem_euclid(60), o));
            last = o;
        }
        t = next;
    }
    Some(Zone::with_changes(base, changes))
}

thread_local! {
    /// The browser's zone name, asked once (the picker, the report and the link all need it).
    static OWN_NAME: std::cell::OnceCell<Option<String>> = const { std::cell::OnceCell::new() };
}

/// The browser's own zone name (`Asia/Shanghai`), when it tells.
pub fn browser_zone_name() -> Option<String> {
    OWN_NAME.with(|n| n.get_or_init(ask_zone_name).clone())
}

fn ask_zone_name() -> Option<String> {
    let f = Dtf::new(&JsValue::UNDEFINED, &js_sys::Object::new()).ok()?;
    let o = f.resolved_options().ok()?;
    js_sys::Reflect::get(&o, &JsValue::from_str("timeZone"))
        .ok()?
        .as_string()
        .filter(|s| ZoneChoice::valid_name(s))
}

/// The browser's zone, daylight saving included; its current offset when `Intl` is missing.
pub fn browser_zone() -> Zone {
    browser_zone_name()
        .and_then(|n| named(&n))
        .unwrap_or_else(|| Zone::fixed(crate::web::browser::utc_offset_minutes()))
}

/// The zone a choice names (`Auto`: the browser's). A name the browser does not know falls
/// back to the browser's zone.
pub fn resolve(choice: &ZoneChoice) -> Zone {
    match choice {
        ZoneChoice::Auto => browser_zone(),
        ZoneChoice::Offset(m) => Zone::fixed(*m),
        ZoneChoice::Named(n) => named(n).unwrap_or_else(browser_zone),
    }
}

/// The browser locale's order of day and month (`en-US`: month first; `de`, `en-GB`: day
/// first; `zh`: month first, after the year).
pub fn locale_date_order() -> DateOrder {
    let Ok(f) = Dtf::new(&JsValue::UNDEFINED, &js_sys::Object::new()) else {
        return DateOrder::MonthFirst;
    };
    let Ok(parts) = f.format_to_parts(&js_sys::Date::new(&JsValue::from_f64(1.0e12))) else {
        return DateOrder::MonthFirst;
    };
    let mut order = Vec::new();
    for p in parts.iter() {
        if let Some(ty) = js_sys::Reflect::get(&p, &JsValue::from_str("type"))
            .ok()
            .and_then(|v| v.as_string())
        {
            if ty == "month" || ty == "day" {
                order.push(ty);
            }
        }
    }
    if order.first().map(String::as_str) == Some("day") {
        DateOrder::DayFirst
    } else {
        DateOrder::MonthFirst
    }
}
