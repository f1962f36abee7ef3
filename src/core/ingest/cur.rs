//! AWS Cost and Usage Reports (CUR 1.0 `lineItem/UsageStartDate` headers, CUR 2.0 / Athena
//! `line_item_usage_start_date` headers) read as GPU-hours per hour per GPU model, plus the
//! bill's effective rates per model and term. See `docs/formats.md` "Cloud bills" for the
//! rule of what counts, and `docs/formulas.md` § "The bill's effective rates".
//!
//! A CUR has a row per resource, line item type and hour (or day, or month); the reader keeps
//! only the sums per (usage window, GPU model) and per (model, term), never the rows, so a
//! file of any size read in slices holds a few numbers per hour. Money is summed exactly, in
//! integer units of 1e-10 (CUR writes at most 10 decimals), and each rate is rounded once,
//! to the cent.

use super::resample::{jobs, jobs_typed};
use super::teams::{
    from_jobs, pick, teams_of, TeamChoice, TeamSource, TeamTable, MAX_TEAM_CHOICES,
};
use super::timestamp::{parse_datetime, TsError};
use super::types::{positions, typed_series, TypeSource, TypeTable, TypedSeries};
use super::{
    excerpt, ColumnUse, DateOrder, Delimiter, Format, IngestError, ParseOptions, ParseReport,
    ParseResult, Parsed, RejectReason, RowError, Teams, TimestampStyle, ValueColumn, MAX_HOURS,
};
use crate::core::gpu_instances::{gpu_family, lookup};
use crate::core::series::UsageSeries;
use crate::core::zone::Zone;

/// Fixed-point scale of amounts and costs: 1 unit = 1e-10.
const SCALE: i128 = 10_000_000_000;
const HOUR_MS: i64 = 3_600_000;
/// Instance types not in the table listed by name (the rest counted).
pub const MAX_LISTED_UNKNOWN: usize = 10;
/// Instance types listed per GPU model, and non-GPU types listed.
const MAX_LISTED_INSTANCE_TYPES: usize = 4;
/// Currencies listed.
const MAX_CURRENCIES: usize = 4;

/// Which generation of the report the header is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum CurVersion {
    /// CUR 1.0 (legacy) CSV: `lineItem/UsageStartDate`, `product/instanceType`, ….
    Cur1,
    /// CUR 2.0 (Data Exports) or Athena-style names: `line_item_usage_start_date`, ….
    Cur2,
}

/// How an instance hour was bought.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum BillTerm {
    /// `Usage` at the On-Demand rate (`pricing/term` OnDemand): `lineItem/UnblendedCost`.
    OnDemand,
    /// Reserved Instances (`DiscountedUsage`: `reservation/EffectiveCost`) and Savings Plans
    /// (`SavingsPlanCoveredUsage`: `savingsPlan/SavingsPlanEffectiveCost`).
    Reserved,
    /// Spot (`SpotUsage:…` usage types): `lineItem/UnblendedCost`.
    Spot,
}

impl BillTerm {
    pub const ALL: [BillTerm; 3] = [BillTerm::OnDemand, BillTerm::Reserved, BillTerm::Spot];
}

/// Why a row of a CUR was left out (not an error: the rule of what counts).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum BillLeftOut {
    /// `Tax`.
    Tax,
    /// `Credit`, `Refund`.
    Credit,
    /// `Fee`, `RIFee`, `SavingsPlanUpfrontFee`, `SavingsPlanRecurringFee` (commitment fees:
    /// their use is in the `DiscountedUsage` / `SavingsPlanCoveredUsage` rows' effective cost).
    Fee,
    /// `SavingsPlanNegation` (cancels the On-Demand cost of covered usage).
    Negation,
    /// `EdpDiscount`, `BundledDiscount`, `PrivateRateDiscount`, `Discount`, ….
    Discount,
    /// Another line item type.
    OtherLineType,
    /// Usage that is not EC2 instance hours: storage, data transfer, requests, other services,
    /// unused capacity reservations, Dedicated Host fees.
    NotInstanceHours,
    /// Instance hours of a type without GPUs (`m7i.large`, `trn1.32xlarge`).
    NonGpuInstance,
    /// Instance hours of a GPU family's type that the table does not list (named in
    /// [`CurReport::unknown_types`]).
    UnknownInstanceType,
}

/// Every [`BillLeftOut`], in order.
const LEFT_OUT_REASONS: [BillLeftOut; 9] = [
    BillLeftOut::Tax,
    BillLeftOut::Credit,
    BillLeftOut::Fee,
    BillLeftOut::Negation,
    BillLeftOut::Discount,
    BillLeftOut::OtherLineType,
    BillLeftOut::NotInstanceHours,
    BillLeftOut::NonGpuInstance,
    BillLeftOut::UnknownInstanceType,
];
/// Usage windows looked back at to add a row to (see `CurRows::windows`).
const MERGE_WINDOWS: usize = 16;

/// Usage and cost of one GPU model under one term.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TermRate {
    pub term: BillTerm,
    /// Rows counted.
    pub rows: usize,
    /// GPU-hours with a cost (1e-10 units): instance hours × GPUs per instance.
    pub gpu_hours_units: i128,
    /// Their cost (1e-10 currency units).
    pub cost_units: i128,
    /// Rows whose cost cell was empty (their usage counts in the history, not in the rate).
    pub rows_without_cost: usize,
}

impl TermRate {
    fn new(term: BillTerm) -> Self {
        Self {
            term,
            rows: 0,
            gpu_hours_units: 0,
            cost_units: 0,
            rows_without_cost: 0,
        }
    }

    /// GPU-hours with a cost.
    pub fn gpu_hours(&self) -> f64 {
        self.gpu_hours_units as f64 / SCALE as f64
    }

    /// The effective rate per GPU-hour, in cents: cost ÷ GPU-hours, rounded half away from
    /// zero to the cent (`None` without GPU-hours).
    pub fn rate_cents(&self) -> Option<i64> {
        ratio_cents(self.cost_units, 1, self.gpu_hours_units)
    }

    /// The rate over a month of `hours_per_month` hours, in cents: cost × H ÷ GPU-hours,
    /// rounded once (what a GPU rented for the month at this rate costs).
    pub fn monthly_cents(&self, hours_per_month: f64) -> Option<i64> {
        let h = hours_per_month.round();
        if (hours_per_month - h).abs() < 1e-9 && (1.0..=10_000.0).contains(&h) {
            ratio_cents(self.cost_units, h as i128, self.gpu_hours_units)
        } else if hours_per_month.is_finite() && hours_per_month > 0.0 {
            let rate = self.cost_units as f64 / self.gpu_hours_units as f64;
            (self.gpu_hours_units > 0)
                .then(|| crate::core::money::Money::from_f64(rate * hours_per_month).cents())
        } else {
            None
        }
    }
}

/// `cost × factor × 100 ÷ hours`, rounded half away from zero; `None` when `hours ≤ 0` or
/// the result does not fit.
fn ratio_cents(cost: i128, factor: i128, hours: i128) -> Option<i64> {
    if hours <= 0 {
        return None;
    }
    let num = cost.checked_mul(factor)?.checked_mul(100)?;
    let q = num / hours;
    let r = num % hours;
    let q = if r.unsigned_abs() * 2 >= hours.unsigned_abs() {
        q + num.signum()
    } else {
        q
    };
    i64::try_from(q).ok()
}

/// One GPU model read from the bill.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CurType {
    /// Its key and label, as in [`Parsed::types`] (`a100-40g`, `A100 40GB`).
    pub key: String,
    pub label: String,
    /// The instance types seen (first few).
    pub instance_types: Vec<String>,
    /// GPU instance rows counted.
    pub rows: usize,
    /// GPU-hours in all (1e-10 units), with or without a cost.
    pub gpu_hours_units: i128,
    /// Per term, in [`BillTerm::ALL`] order, only the terms seen.
    pub terms: Vec<TermRate>,
}

impl CurType {
    pub fn gpu_hours(&self) -> f64 {
        self.gpu_hours_units as f64 / SCALE as f64
    }

    pub fn term(&self, t: BillTerm) -> Option<&TermRate> {
        self.terms.iter().find(|r| r.term == t)
    }
}

/// What a CUR held ([`ParseReport::cur`]).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CurReport {
    pub version: CurVersion,
    /// Data rows read (every line item; rejected lines not included).
    pub rows: usize,
    /// GPU instance rows counted (also [`ParseReport::rows_read`]).
    pub gpu_rows: usize,
    /// GPU rows by usage window: one hour, one day (its usage spread over its 24 hours),
    /// other (a month, or a part of an hour), each spread evenly over its window.
    pub hourly_rows: usize,
    pub daily_rows: usize,
    pub other_window_rows: usize,
    /// Per GPU model, in the order of [`Parsed::types`] (first seen).
    pub types: Vec<CurType>,
    /// Rows left out, by reason (reasons with rows only, in [`BillLeftOut`] order).
    pub left_out: Vec<(BillLeftOut, usize)>,
    /// GPU-family instance types not in the table: name and rows (first
    /// [`MAX_LISTED_UNKNOWN`]); `unknown_not_listed` more names.
    pub unknown_types: Vec<(String, usize)>,
    pub unknown_not_listed: usize,
    /// Non-GPU instance types seen (first few names).
    pub non_gpu_types: Vec<String>,
    /// `lineItem/CurrencyCode` values seen (first few), the first is the bill's.
    pub currencies: Vec<String>,
    /// The bill has no `reservation/EffectiveCost` (resp. `savingsPlan/SavingsPlanEffectiveCost`)
    /// column: reserved rows carry no rate.
    pub no_ri_effective_cost: bool,
    pub no_sp_effective_cost: bool,
    /// Reserved rows by kind.
    pub ri_rows: usize,
    pub sp_rows: usize,
}

/// The prices one GPU model's effective rates give (cents): on demand and spot per GPU-hour,
/// monthly = the reserved rate over a month of H hours (a GPU committed for the month and
/// used every hour costs what its reserved hours cost).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PriceFill {
    pub key: String,
    pub label: String,
    pub on_demand_cents: Option<i64>,
    pub monthly_cents: Option<i64>,
    pub spot_cents: Option<i64>,
}

impl CurReport {
    /// A report with nothing read yet.
    pub(crate) fn empty(version: CurVersion) -> Self {
        Self {
            version,
            rows: 0,
            gpu_rows: 0,
            hourly_rows: 0,
            daily_rows: 0,
            other_window_rows: 0,
            types: Vec::new(),
            left_out: Vec::new(),
            unknown_types: Vec::new(),
            unknown_not_listed: 0,
            non_gpu_types: Vec::new(),
            currencies: Vec::new(),
            no_ri_effective_cost: false,
            no_sp_effective_cost: false,
            ri_rows: 0,
            sp_rows: 0,
        }
    }

    /// The prices each GPU model's rates give, for a month of `hours_per_month` hours (the
    /// models without any rate left out).
    pub fn price_fills(&self, hours_per_month: f64) -> Vec<PriceFill> {
        self.types
            .iter()
            .map(|t| PriceFill {
                key: t.key.clone(),
                label: t.label.clone(),
                on_demand_cents: t.term(BillTerm::OnDemand).and_then(TermRate::rate_cents),
                monthly_cents: t
                    .term(BillTerm::Reserved)
                    .and_then(|r| r.monthly_cents(hours_per_month)),
                spot_cents: t.term(BillTerm::Spot).and_then(TermRate::rate_cents),
            })
            .filter(|f| {
                f.on_demand_cents.is_some() || f.monthly_cents.is_some() || f.spot_cents.is_some()
            })
            .collect()
    }

    /// The bill's currency (`lineItem/CurrencyCode` of the first GPU row), if written.
    pub fn currency(&self) -> Option<&str> {
        self.currencies.first().map(String::as_str)
    }
}

/// Something that is a cloud bill but not a CUR the page reads.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum OtherBill {
    /// AWS Cost Explorer "Download CSV" (costs per service and day, no instance hours).
    CostExplorer,
    /// A FOCUS export (`BilledCost`, `ChargePeriodStart`): AWS Data Exports FOCUS, or another
    /// cloud's FOCUS file.
    Focus,
    /// An Azure cost details export (`CostInBillingCurrency`, `MeterCategory`).
    AzureCost,
    /// A Google Cloud billing export (BigQuery `gcp_billing_export_v1`: `sku.description`,
    /// `usage_start_time`, `cost`): not read yet.
    GcpBilling,
    /// A CUR header without the columns needed (names the first missing ones).
    CurWithoutColumns(Vec<String>),
}

#[derive(Debug, Clone, Copy, Default)]
struct Cols {
    start: usize,
    end: Option<usize>,
    amount: usize,
    unblended: Option<usize>,
    line_type: Option<usize>,
    usage_type: Option<usize>,
    product_code: Option<usize>,
    currency: Option<usize>,
    instance_type: Option<usize>,
    term: Option<usize>,
    ri_effective: Option<usize>,
    sp_effective: Option<usize>,
    /// CUR 2.0: the `resource_tags` column (a map of tags, `{"user_team":"ml"}`).
    resource_tags: Option<usize>,
    /// The tag column read for the teams (one of `tags`, or `resource_tags`).
    team: Option<usize>,
}

/// Column names: (CUR 1.0, CUR 2.0).
const START: (&str, &str) = ("lineItem/UsageStartDate", "line_item_usage_start_date");
const END: (&str, &str) = ("lineItem/UsageEndDate", "line_item_usage_end_date");
const AMOUNT: (&str, &str) = ("lineItem/UsageAmount", "line_item_usage_amount");
const UNBLENDED: (&str, &str) = ("lineItem/UnblendedCost", "line_item_unblended_cost");
const LINE_TYPE: (&str, &str) = ("lineItem/LineItemType", "line_item_line_item_type");
const USAGE_TYPE: (&str, &str) = ("lineItem/UsageType", "line_item_usage_type");
const PRODUCT_CODE: (&str, &str) = ("lineItem/ProductCode", "line_item_product_code");
const CURRENCY: (&str, &str) = ("lineItem/CurrencyCode", "line_item_currency_code");
const INSTANCE_TYPE: (&str, &str) = ("product/instanceType", "product_instance_type");
const TERM: (&str, &str) = ("pricing/term", "pricing_term");
const RI_EFFECTIVE: (&str, &str) = ("reservation/EffectiveCost", "reservation_effective_cost");
const SP_EFFECTIVE: (&str, &str) = (
    "savingsPlan/SavingsPlanEffectiveCost",
    "savings_plan_savings_plan_effective_cost",
);

/// A CUR header: its version and the columns read.
#[derive(Debug, Clone)]
pub(crate) struct CurHeader {
    version: CurVersion,
    cols: Cols,
    names: Vec<String>,
    /// CUR 1.0: the user tag columns (`resourceTags/user:team`), in header order.
    tags: Vec<usize>,
}

/// The header cells of a comma-separated line (quotes removed, trimmed).
pub(crate) fn header_cells(line: &str) -> Vec<String> {
    let mut ranges = Vec::new();
    split_all(line, &mut ranges);
    ranges
        .iter()
        .map(|&(a, b)| line.get(a..b).unwrap_or("").trim().to_string())
        .collect()
}

/// Does `line` look like a CUR header (any `lineItem/` or `line_item_` column)?
fn cur_like(cells: &[String]) -> Option<CurVersion> {
    if cells
        .iter()
        .any(|c| c.len() > 9 && c[..9].eq_ignore_ascii_case("lineitem/"))
    {
        Some(CurVersion::Cur1)
    } else if cells.iter().any(|c| c.starts_with("line_item_")) {
        Some(CurVersion::Cur2)
    } else {
        None
    }
}

/// Read a header line: `Ok(Some)` a CUR with the columns needed; `Ok(None)` not a bill;
/// `Err` another bill, or a CUR without the columns (named).
pub(crate) fn header(line: &str) -> Result<Option<CurHeader>, OtherBill> {
    let t = line.trim_start_matches('\u{FEFF}').trim();
    // Cheap test before splitting every line of every other format.
    let lower_has = |needle: &str| {
        t.as_bytes()
            .windows(needle.len())
            .any(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
    };
    if !(lower_has("lineitem/")
        || t.contains("line_item_")
        || t.contains("($)")
        || lower_has("billedcost")
        || lower_has("costinbillingcurrency")
        || lower_has("sku.description"))
    {
        return Ok(None);
    }
    let cells = header_cells(t);
    let Some(version) = cur_like(&cells) else {
        return other_bill(&cells).map_or(Ok(None), Err);
    };
    let find = |(a, b): (&str, &str)| {
        cells
            .iter()
            .position(|c| c.eq_ignore_ascii_case(a) || c.eq_ignore_ascii_case(b))
    };
    let name = |(a, b): (&'static str, &'static str)| match version {
        CurVersion::Cur1 => a,
        CurVersion::Cur2 => b,
    };
    let start = find(START);
    let amount = find(AMOUNT);
    let instance_type = find(INSTANCE_TYPE);
    let usage_type = find(USAGE_TYPE);
    let mut missing = Vec::new();
    if start.is_none() {
        missing.push(name(START));
    }
    if amount.is_none() {
        missing.push(name(AMOUNT));
    }
    if instance_type.is_none() && usage_type.is_none() {
        missing.push(name(INSTANCE_TYPE));
    }
    let (Some(start), Some(amount)) = (start, amount) else {
        return Err(OtherBill::CurWithoutColumns(
            missing.iter().map(|c| c.to_string()).collect(),
        ));
    };
    if !missing.is_empty() {
        return Err(OtherBill::CurWithoutColumns(
            missing.iter().map(|c| c.to_string()).collect(),
        ));
    }
    Ok(Some(CurHeader {
        version,
        cols: Cols {
            start,
            end: find(END),
            amount,
            unblended: find(UNBLENDED),
            line_type: find(LINE_TYPE),
            usage_type,
            product_code: find(PRODUCT_CODE),
            currency: find(CURRENCY),
            instance_type,
            term: find(TERM),
            ri_effective: find(RI_EFFECTIVE),
            sp_effective: find(SP_EFFECTIVE),
            resource_tags: cells
                .iter()
                .position(|c| c.eq_ignore_ascii_case("resource_tags")),
            team: None,
        },
        tags: (0..cells.len())
            .filter(|&i| {
                cells[i]
                    .get(..18)
                    .is_some_and(|p| p.eq_ignore_ascii_case("resourceTags/user:"))
                    && cells[i].len() > 18
            })
            .collect(),
        names: cells,
    }))
}

/// A header that names another bill format.
fn other_bill(cells: &[String]) -> Option<OtherBill> {
    let has = |n: &str| cells.iter().any(|c| c.eq_ignore_ascii_case(n));
    if has("BilledCost") && (has("ChargePeriodStart") || has("EffectiveCost")) {
        Some(OtherBill::Focus)
    } else if has("CostInBillingCurrency") || (has("MeterCategory") && has("Cost")) {
        Some(OtherBill::AzureCost)
    } else if (has("sku.description") || has("sku.id")) && has("usage_start_time") && has("cost") {
        Some(OtherBill::GcpBilling)
    } else if cells
        .iter()
        .any(|c| c.replace(' ', "").to_ascii_lowercase().ends_with("($)"))
    {
        Some(OtherBill::CostExplorer)
    } else {
        None
    }
}

/// Every field range of a comma-separated record, RFC 4180 quotes removed (`""` kept as
/// written), spaces trimmed. No field limit: used for the header only.
fn split_all(line: &str, out: &mut Vec<(usize, usize)>) {
    out.clear();
    fields(line, usize::MAX, |_, r| {
        out.push(r);
        true
    });
}

/// Walk the fields of `line`: `f(index, range)`; stops after field `last` or when `f`
/// returns false.
fn fields(line: &str, last: usize, mut f: impl FnMut(usize, (usize, usize)) -> bool) {
    let b = line.as_bytes();
    let n = b.len();
    let mut i = 0;
    let mut idx = 0;
    loop {
        let mut s = i;
        while s < n && (b[s] == b' ' || b[s] == b'\t') {
            s += 1;
        }
        let (a, mut e, next);
        if s < n && b[s] == b'"' {
            let mut j = s + 1;
            loop {
                match b[j.min(n)..].iter().position(|&c| c == b'"') {
                    None => {
                        (a, e) = (s + 1, n);
                        next = n;
                        break;
                    }
                    Some(k) => {
                        let k = j + k;
                        if k + 1 < n && b[k + 1] == b'"' {
                            j = k + 2;
                        } else {
                            (a, e) = (s + 1, k);
                            next = b[k..].iter().position(|&c| c == b',').map_or(n, |p| k + p);
                            break;
                        }
                    }
                }
            }
        } else {
            let k = b[s..].iter().position(|&c| c == b',').map_or(n, |p| s + p);
            (a, e) = (s, k);
            next = k;
        }
        while e > a && (b[e - 1] == b' ' || b[e - 1] == b'\t' || b[e - 1] == b'\r') {
            e -= 1;
        }
        // Ranges end at ASCII bytes or the end of the line: char boundaries.
        if !f(idx, (a, e)) || idx >= last || next >= n {
            return;
        }
        idx += 1;
        i = next + 1;
    }
}

/// A decimal cell in units of 1e-10: `[+-]digits[.digits][e[+-]digits]`, rounded half away
/// from zero past 10 decimals. At most 1e15 in size.
pub(crate) fn fixed(cell: &str) -> Result<i128, RejectReason> {
    let s = cell.trim();
    if s.is_empty() {
        return Err(RejectReason::MissingValue);
    }
    let b = s.as_bytes();
    let (neg, mut i) = match b[0] {
        b'-' => (true, 1),
        b'+' => (false, 1),
        _ => (false, 0),
    };
    let mut m: i128 = 0;
    let mut digits = 0usize;
    let mut exp: i64 = 0;
    let mut point = false;
    let mut any = false;
    while i < b.len() {
        match b[i] {
            c @ b'0'..=b'9' => {
                any = true;
                if m == 0 && c == b'0' {
                    if point {
                        exp -= 1;
                    }
                } else if digits < 30 {
                    m = m * 10 + i128::from(c - b'0');
                    digits += 1;
                    if point {
                        exp -= 1;
                    }
                } else if !point {
                    // Digits past 30 significant ones: the value is far too large anyway.
                    exp += 1;
                }
            }
            b'.' if !point => point = true,
            b'e' | b'E' if any => break,
            _ => return Err(RejectReason::NotANumber),
        }
        i += 1;
    }
    if !any {
        return Err(RejectReason::NotANumber);
    }
    if i < b.len() {
        // The exponent.
        let e = &s[i + 1..];
        let e = e.strip_prefix('+').unwrap_or(e);
        if e.is_empty() || e.len() > 6 {
            return Err(RejectReason::NotANumber);
        }
        let v: i64 = e.parse().map_err(|_| RejectReason::NotANumber)?;
        exp += v;
    }
    let shift = exp + 10;
    let units = if m == 0 {
        0
    } else if shift >= 0 {
        if shift > 30 {
            return Err(RejectReason::TooLarge);
        }
        m.checked_mul(10i128.pow(shift as u32))
            .ok_or(RejectReason::TooLarge)?
    } else if shift < -38 {
        0
    } else {
        let d = 10i128.pow((-shift) as u32);
        (m + d / 2) / d
    };
    if units > 1_000_000_000_000_000 * SCALE {
        return Err(RejectReason::TooLarge);
    }
    Ok(if neg { -units } else { units })
}

/// The kind of EC2 instance hours of a usage type (`USE1-BoxUsage:p4d.24xlarge`): after an
/// optional region prefix, `BoxUsage`, `SpotUsage` or `DedicatedUsage`; and the instance type
/// after the `:`.
fn instance_usage(usage_type: &str) -> Option<(bool, &str)> {
    let t = usage_type.trim();
    let (kind, itype) = t.split_once(':').unwrap_or((t, ""));
    // The region prefix (`USE1-`, `EU-`, `APN1-`) ends at the last `-`.
    let kind = kind.rsplit('-').next().unwrap_or(kind);
    let spot = match kind {
        "BoxUsage" | "DedicatedUsage" => false,
        "SpotUsage" => true,
        _ => return None,
    };
    Some((spot, itype))
}

/// A column's cell in a record: `None` without the column, `Some(Err)` past the record's end.
type CellRef<'a> = Option<Result<(&'a str, (usize, usize)), ()>>;

/// The reading of a CUR, fed its data records one by one.
pub(crate) struct CurRows {
    header: CurHeader,
    header_line: String,
    header_seen: bool,
    report: ParseReport,
    cur: CurReport,
    /// The columns read, sorted, and each one's slot.
    wanted: Vec<usize>,
    cells: Vec<Option<(usize, usize)>>,
    zone: Zone,
    table: TypeTable,
    /// GPU-hours (1e-10 units) per usage window (start ms, end ms) and type.
    /// In file order; a row of the same window and type as one of the last few adds to it
    /// (a CUR lists an hour's instances together), so a row costs a few bytes at most.
    windows: Vec<(i64, i64, u16, i128)>,
    /// Per table type: rows, GPU-hours, instance types, per term.
    per_type: Vec<TypeAcc>,
    /// Rows left out, indexed by `BillLeftOut as usize`.
    left_out: [usize; LEFT_OUT_REASONS.len()],
    min_ms: i64,
    max_ms: i64,
    /// The teams: what names them, the teams met, and GPU-hours per (usage window, type,
    /// team) as `windows` has them per (window, type).
    teams: Option<Box<CurTeams>>,
}

/// The teams of a CUR being read.
struct CurTeams {
    /// CUR 1.0: the tag column chosen and the choices; CUR 2.0: the choices are the `user_`
    /// keys of `resource_tags` met, and `key` the one read (Auto: the first met).
    choices: Vec<TeamSource>,
    chosen: Option<usize>,
    map: bool,
    /// CUR 2.0: the key named (`TeamChoice::Named`), or the one Auto took.
    key: Option<String>,
    named: bool,
    table: TeamTable,
    windows: Vec<(i64, i64, u16, u32, i128)>,
}

struct TypeAcc {
    rows: usize,
    gpu_hours: i128,
    instance_types: Vec<String>,
    terms: [TermRate; 3],
}

/// The slots of [`CurRows::cells`].
#[derive(Clone, Copy)]
enum Slot {
    Start,
    End,
    Amount,
    Unblended,
    LineType,
    UsageType,
    ProductCode,
    Currency,
    InstanceType,
    Term,
    RiEffective,
    SpEffective,
    Team,
}

impl CurRows {
    pub(crate) fn new(header: CurHeader, header_line: &str, opts: &ParseOptions) -> Self {
        let mut report = ParseReport::new(Format::AwsCur, opts);
        report.delimiter = Delimiter::Comma;
        report.has_header = true;
        let mut header = header;
        let teams = cur_teams(&mut header, &opts.team);
        let c = &header.cols;
        let col = |i: usize| ValueColumn {
            field: i,
            name: header.names.get(i).cloned().unwrap_or_default(),
        };
        report.timestamp_column = Some(col(c.start));
        report.end_column = c.end.map(col);
        report.columns = vec![col(c.amount)];
        report.used = ColumnUse::One(0);
        report.type_source = Some(TypeSource::Column(col(c
            .instance_type
            .or(c.usage_type)
            .unwrap_or(c.amount))));
        let mut wanted: Vec<usize> = [
            Some(c.start),
            c.end,
            Some(c.amount),
            c.unblended,
            c.line_type,
            c.usage_type,
            c.product_code,
            c.currency,
            c.instance_type,
            c.term,
            c.ri_effective,
            c.sp_effective,
            c.team,
        ]
        .into_iter()
        .flatten()
        .collect();
        wanted.sort_unstable();
        wanted.dedup();
        let cur = CurReport {
            no_ri_effective_cost: c.ri_effective.is_none(),
            no_sp_effective_cost: c.sp_effective.is_none(),
            ..CurReport::empty(header.version)
        };
        Self {
            cells: vec![None; wanted.len()],
            wanted,
            header,
            header_line: header_line.trim().to_string(),
            header_seen: false,
            report,
            cur,
            zone: opts.zone(),
            table: TypeTable::default(),
            windows: Vec::new(),
            per_type: Vec::new(),
            left_out: [0; LEFT_OUT_REASONS.len()],
            min_ms: i64::MAX,
            max_ms: i64::MIN,
            teams,
        }
    }

    fn col_of(&self, s: Slot) -> Option<usize> {
        let c = &self.header.cols;
        match s {
            Slot::Start => Some(c.start),
            Slot::End => c.end,
            Slot::Amount => Some(c.amount),
            Slot::Unblended => c.unblended,
            Slot::LineType => c.line_type,
            Slot::UsageType => c.usage_type,
            Slot::ProductCode => c.product_code,
            Slot::Currency => c.currency,
            Slot::InstanceType => c.instance_type,
            Slot::Term => c.term,
            Slot::RiEffective => c.ri_effective,
            Slot::SpEffective => c.sp_effective,
            Slot::Team => c.team,
        }
    }

    /// The cell of a column in the current record: `None` when the report has no such
    /// column; `Some(Err)` when the record is too short for it.
    fn cell<'a>(&self, t: &'a str, s: Slot) -> CellRef<'a> {
        let col = self.col_of(s)?;
        let k = self.wanted.binary_search(&col).ok()?;
        Some(match self.cells[k] {
            Some(r) => Ok((t.get(r.0..r.1).unwrap_or(""), r)),
            None => Err(()),
        })
    }

    /// The text of an optional column (`""` when absent or short).
    fn text<'a>(&self, t: &'a str, s: Slot) -> &'a str {
        match self.cell(t, s) {
            Some(Ok((c, _))) => c,
            _ => "",
        }
    }

    fn leave_out(&mut self, why: BillLeftOut) -> Result<(), RowError> {
        self.left_out[why as usize] += 1;
        Ok(())
    }

    /// One record (its first physical line `no`).
    pub(crate) fn row(&mut self, no: usize, l: &str, overflow: bool, skipped: &mut usize) {
        if overflow {
            self.report.reject(no, RejectReason::LineTooLong, l);
            return;
        }
        let t = l.trim();
        if t.is_empty() {
            return;
        }
        if t.starts_with('#') {
            *skipped += 1;
            return;
        }
        if t == self.header_line {
            if self.header_seen {
                *skipped += 1;
            }
            self.header_seen = true;
            return;
        }
        self.cells.iter_mut().for_each(|c| *c = None);
        let last = self.wanted.last().copied().unwrap_or(0);
        {
            let wanted = &self.wanted;
            let cells = &mut self.cells;
            let mut k = 0;
            fields(t, last, |idx, r| {
                while k < wanted.len() && wanted[k] < idx {
                    k += 1;
                }
                if k < wanted.len() && wanted[k] == idx {
                    cells[k] = Some(r);
                }
                true
            });
        }
        if let Err(e) = self.read(t) {
            self.report.reject_row(no, t, e);
        }
    }

    fn read(&mut self, t: &str) -> Result<(), RowError> {
        let too_few = (RejectReason::TooFewColumns, None);
        // A record shorter than the columns read (cut off): rejected, never half read.
        if self.cells.last().is_some_and(Option::is_none) {
            return Err(too_few);
        }
        let (start_cell, start_r) = match self.cell(t, Slot::Start) {
            Some(Ok(c)) => c,
            _ => return Err(too_few),
        };
        self.cur.rows += 1;
        // What counts: usage line items of EC2 instance hours.
        let line_type = self.text(t, Slot::LineType);
        let (ri, sp) = match line_type {
            "" | "Usage" => (false, false),
            "DiscountedUsage" => (true, false),
            "SavingsPlanCoveredUsage" => (false, true),
            "Tax" => return self.leave_out(BillLeftOut::Tax),
            "Credit" | "Refund" => return self.leave_out(BillLeftOut::Credit),
            "Fee" | "RIFee" | "SavingsPlanUpfrontFee" | "SavingsPlanRecurringFee" => {
                return self.leave_out(BillLeftOut::Fee)
            }
            "SavingsPlanNegation" => return self.leave_out(BillLeftOut::Negation),
            lt if lt.contains("Discount") => return self.leave_out(BillLeftOut::Discount),
            _ => return self.leave_out(BillLeftOut::OtherLineType),
        };
        let usage_type = self.text(t, Slot::UsageType);
        let (spot, from_usage) = if self.header.cols.usage_type.is_some() {
            match instance_usage(usage_type) {
                Some(u) => u,
                None => return self.leave_out(BillLeftOut::NotInstanceHours),
            }
        } else {
            let code = self.text(t, Slot::ProductCode);
            if !(code.is_empty() || code == "AmazonEC2") {
                return self.leave_out(BillLeftOut::NotInstanceHours);
            }
            (false, "")
        };
        let itype = match self.text(t, Slot::InstanceType) {
            "" => from_usage,
            s => s,
        };
        if itype.is_empty() {
            return self.leave_out(BillLeftOut::NotInstanceHours);
        }
        let Some(gpu) = lookup(itype) else {
            if gpu_family(itype) {
                self.unknown(itype);
                return self.leave_out(BillLeftOut::UnknownInstanceType);
            }
            if self.cur.non_gpu_types.len() < MAX_LISTED_INSTANCE_TYPES
                && !self.cur.non_gpu_types.iter().any(|n| n == itype)
            {
                self.cur.non_gpu_types.push(excerpt(itype));
            }
            return self.leave_out(BillLeftOut::NonGpuInstance);
        };
        // The usage window.
        let start = self.time(start_cell, start_r)?;
        let end = match self.cell(t, Slot::End) {
            Some(Ok((c, r))) if !c.trim().is_empty() => self.time(c, r)?,
            Some(Err(())) => return Err(too_few),
            _ => start + HOUR_MS,
        };
        if end <= start {
            return Err((RejectReason::EndBeforeStart, None));
        }
        if (end - start) / HOUR_MS > MAX_HOURS as i64 {
            return Err((RejectReason::JobTooLong, None));
        }
        let (amount_cell, amount_r) = match self.cell(t, Slot::Amount) {
            Some(Ok(c)) => c,
            _ => return Err(too_few),
        };
        let amount = fixed(amount_cell).map_err(|e| (e, Some(amount_r)))?;
        if amount < 0 {
            return Err((RejectReason::Negative, Some(amount_r)));
        }
        // The term and its cost.
        let term = if ri || sp {
            BillTerm::Reserved
        } else if spot || self.text(t, Slot::Term).eq_ignore_ascii_case("spot") {
            BillTerm::Spot
        } else if self.text(t, Slot::Term).eq_ignore_ascii_case("reserved") {
            BillTerm::Reserved
        } else {
            BillTerm::OnDemand
        };
        let cost_slot = if ri {
            Slot::RiEffective
        } else if sp {
            Slot::SpEffective
        } else {
            Slot::Unblended
        };
        let cost = match self.cell(t, cost_slot) {
            Some(Ok((c, r))) if !c.trim().is_empty() => Some(fixed(c).map_err(|e| (e, Some(r)))?),
            Some(Err(())) => return Err(too_few),
            _ => None,
        };
        // Counted.
        let Some(ty) = self.table.intern(gpu.model) else {
            return Err((RejectReason::TooManySeries, None));
        };
        let currency = self.text(t, Slot::Currency).trim();
        if !currency.is_empty()
            && self.cur.currencies.len() < MAX_CURRENCIES
            && !self.cur.currencies.iter().any(|c| c == currency)
        {
            self.cur.currencies.push(excerpt(currency));
        }
        if self.report.time_example.is_none() {
            self.report.time_example = Some(excerpt(start_cell));
        }
        let gh = amount.saturating_mul(i128::from(gpu.gpus));
        let slot = usize::from(ty);
        if self.per_type.len() <= slot {
            self.per_type.resize_with(slot + 1, || TypeAcc {
                rows: 0,
                gpu_hours: 0,
                instance_types: Vec::new(),
                terms: BillTerm::ALL.map(TermRate::new),
            });
        }
        let acc = &mut self.per_type[slot];
        acc.rows += 1;
        acc.gpu_hours = acc.gpu_hours.saturating_add(gh);
        if acc.instance_types.len() < MAX_LISTED_INSTANCE_TYPES
            && !acc.instance_types.iter().any(|n| n == gpu.instance_type)
        {
            acc.instance_types.push(gpu.instance_type.to_string());
        }
        let tr = &mut acc.terms[term as usize];
        tr.rows += 1;
        match cost {
            Some(c) => {
                tr.cost_units = tr.cost_units.saturating_add(c);
                tr.gpu_hours_units = tr.gpu_hours_units.saturating_add(gh);
            }
            None => tr.rows_without_cost += 1,
        }
        self.cur.ri_rows += usize::from(ri);
        self.cur.sp_rows += usize::from(sp);
        let recent = self.windows.len().saturating_sub(MERGE_WINDOWS);
        match self.windows[recent..]
            .iter_mut()
            .rev()
            .find(|w| (w.0, w.1, w.2) == (start, end, ty))
        {
            Some(w) => w.3 = w.3.saturating_add(gh),
            None => self.windows.push((start, end, ty, gh)),
        }
        let tag = self.text(t, Slot::Team);
        if let Some(tm) = self.teams.as_deref_mut() {
            tm.add(tag, start, end, ty, gh);
        }
        match end - start {
            HOUR_MS => self.cur.hourly_rows += 1,
            d if d == 24 * HOUR_MS => self.cur.daily_rows += 1,
            _ => self.cur.other_window_rows += 1,
        }
        self.cur.gpu_rows += 1;
        self.report.rows_read += 1;
        self.min_ms = self.min_ms.min(start);
        self.max_ms = self.max_ms.max(end);
        Ok(())
    }

    fn unknown(&mut self, itype: &str) {
        let name = excerpt(itype);
        if let Some(u) = self.cur.unknown_types.iter_mut().find(|u| u.0 == name) {
            u.1 += 1;
        } else if self.cur.unknown_types.len() < MAX_LISTED_UNKNOWN {
            self.cur.unknown_types.push((name, 1));
        } else {
            self.cur.unknown_not_listed += 1;
        }
    }

    fn time(&mut self, cell: &str, r: (usize, usize)) -> Result<i64, RowError> {
        if cell.trim().is_empty() {
            return Err((RejectReason::MissingValue, Some(r)));
        }
        match parse_datetime(cell, &self.zone, DateOrder::MonthFirst) {
            Ok(ts) => {
                if self.report.timestamp_style.is_none() {
                    self.report.timestamp_style = Some(ts.style);
                    self.report.naive_timestamps = ts.naive;
                }
                Ok(ts.ms)
            }
            Err(TsError::OutOfRange) => Err((RejectReason::TimestampOutOfRange, Some(r))),
            Err(_) => Err((RejectReason::BadTimestamp, Some(r))),
        }
    }

    pub(crate) fn finish(mut self, lines: usize, skipped: usize) -> ParseResult {
        let r = &mut self.report;
        r.lines = lines;
        r.lines_skipped = skipped;
        if r.timestamp_style.is_none() {
            r.timestamp_style = Some(TimestampStyle::IsoWithOffset);
        }
        self.cur.left_out = LEFT_OUT_REASONS
            .iter()
            .map(|&w| (w, self.left_out[w as usize]))
            .filter(|w| w.1 > 0)
            .collect();
        let present = vec![true; self.table.len()];
        let selected = self.table.select(&present);
        let order: Vec<u16> = match &selected {
            Ok(o) => o.clone(),
            Err(_) => (0..self.table.len() as u16).collect(),
        };
        self.cur.types = order
            .iter()
            .filter_map(|&t| {
                let acc = self.per_type.get(usize::from(t))?;
                Some(CurType {
                    key: self.table.keys[usize::from(t)].clone(),
                    label: self.table.labels[usize::from(t)].clone(),
                    instance_types: acc.instance_types.clone(),
                    rows: acc.rows,
                    gpu_hours_units: acc.gpu_hours,
                    terms: acc.terms.iter().filter(|t| t.rows > 0).copied().collect(),
                })
            })
            .collect();
        if r.rows_read == 0 {
            r.cur = Some(Box::new(self.cur));
            return Err(IngestError::NoGpuInstances(Box::new(self.report)));
        }
        let zone = self.zone.clone();
        let off = zone.base_minutes;
        r.utc_offset_minutes = off;
        let mut list: Vec<(i64, i64, f64)> = Vec::with_capacity(self.windows.len());
        let mut list_types: Vec<u16> = Vec::with_capacity(self.windows.len());
        for &(s, e, t, gh) in &self.windows {
            let hours = (e - s) as f64 / HOUR_MS as f64;
            list.push((s, e, gh as f64 / SCALE as f64 / hours));
            list_types.push(t);
        }
        let mut types: Vec<TypedSeries> = Vec::new();
        // Each table type's place in `types` (typed).
        let mut job_pos: Option<(Vec<u8>, usize)> = None;
        let (values, starts) = match selected {
            Ok(order) => {
                let pos = positions(&order, self.table.len());
                job_pos = Some((pos.clone(), order.len()));
                let jt: Vec<u8> = list_types.iter().map(|&t| pos[usize::from(t)]).collect();
                let h = jobs_typed(&list, &jt, order.len(), off)?;
                types = typed_series(&self.table, &order, h.types, Some(&h.total.starts), &zone);
                h.total.fill_report(r);
                (h.total.values, h.total.starts)
            }
            Err(too_many) => {
                r.too_many_types = Some(too_many);
                let h = jobs(&list, off)?;
                h.fill_report(r);
                (h.values, h.starts)
            }
        };
        r.cur = Some(Box::new(self.cur));
        if values.is_empty() {
            return Err(IngestError::NoUsableRows(Box::new(self.report)));
        }
        let teams = match (self.teams, starts.first()) {
            (Some(tm), Some(&first)) => tm.finish(
                job_pos.as_ref().map(|(p, n)| (p.as_slice(), *n)),
                off,
                super::hour_key(first * 1000, off),
                values.len(),
            ),
            _ => None,
        };
        Ok(Parsed {
            teams,
            series: UsageSeries {
                values,
                timestamps: Some(starts),
                utc_offset_minutes: off,
                offset_changes: zone.changes,
            },
            report: self.report,
            types,
        })
    }
}

/// The teams' source of a CUR header: CUR 1.0's user tag columns (the one chosen is read);
/// CUR 2.0's `resource_tags` (read when teams are wanted; the keys are met row by row).
fn cur_teams(header: &mut CurHeader, choice: &TeamChoice) -> Option<Box<CurTeams>> {
    if *choice == TeamChoice::Off {
        return None;
    }
    let cols = &mut header.cols;
    let (choices, chosen, map) = if !header.tags.is_empty() {
        let choices: Vec<TeamSource> = header
            .tags
            .iter()
            .map(|&c| TeamSource::Tag(header.names.get(c).cloned().unwrap_or_default()))
            .collect();
        let chosen = pick(choice, &choices, Some(0))?;
        cols.team = Some(header.tags[chosen]);
        (choices, Some(chosen), false)
    } else {
        cols.team = Some(cols.resource_tags?);
        (Vec::new(), None, true)
    };
    let (key, named) = match choice {
        TeamChoice::Named(n) if map => (Some(n.trim().to_string()), true),
        _ => (None, false),
    };
    Some(Box::new(CurTeams {
        choices,
        chosen,
        map,
        key,
        named,
        table: TeamTable::default(),
        windows: Vec::new(),
    }))
}

/// The tags of a CUR 2.0 `resource_tags` cell (`""` unescaped): a JSON object
/// `{"user_team":"ml"}`, or Athena's `{user_team=ml, user_env=prod}`. A value that is not a
/// string is kept as written (`null`: empty).
fn tag_map(cell: &str) -> Vec<(String, String)> {
    let text = cell.trim().replace("\"\"", "\"");
    let inner = text
        .trim()
        .strip_prefix('{')
        .and_then(|t| t.strip_suffix('}'))
        .unwrap_or("");
    let mut out = Vec::new();
    let mut chars = inner.chars().peekable();
    // A quoted string (`\` escapes the next character) or a bare word up to a stop.
    let token = |chars: &mut std::iter::Peekable<std::str::Chars>, stops: &[char]| {
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        let mut t = String::new();
        if chars.next_if_eq(&'"').is_some() {
            while let Some(c) = chars.next() {
                match c {
                    '"' => break,
                    '\\' => t.extend(chars.next()),
                    c => t.push(c),
                }
            }
            while chars.next_if(|c| !stops.contains(c)).is_some() {}
        } else {
            while let Some(c) = chars.next_if(|c| !stops.contains(c)) {
                t.push(c);
            }
            t = t.trim().to_string();
            if t == "null" {
                t.clear();
            }
        }
        t
    };
    while chars.peek().is_some() {
        let k = token(&mut chars, &[':', '=', ',']);
        let v = if chars.next_if(|&c| c == ':' || c == '=').is_some() {
            token(&mut chars, &[','])
        } else {
            String::new()
        };
        chars.next_if_eq(&',');
        if !k.is_empty() {
            out.push((k, v));
        }
    }
    out
}

/// A user tag key of `resource_tags` (`user_team`; not AWS's own `aws_…` tags).
fn user_key(k: &str) -> bool {
    k.len() > 5 && k[..5].eq_ignore_ascii_case("user_")
}

impl CurTeams {
    /// A GPU row counted: its tag cell, usage window, type and GPU-hours.
    fn add(&mut self, tag: &str, start: i64, end: i64, ty: u16, gh: i128) {
        let team = if self.map {
            let tags = tag_map(tag);
            for (k, _) in tags.iter().filter(|(k, _)| user_key(k)) {
                if self.choices.len() < MAX_TEAM_CHOICES
                    && !self.choices.iter().any(|c| c.name() == k)
                {
                    self.choices.push(TeamSource::Tag(k.clone()));
                }
            }
            if self.key.is_none() {
                // Auto: the first user tag met (earlier rows had none: unallocated whatever
                // the key).
                self.key = tags
                    .iter()
                    .find(|(k, _)| user_key(k))
                    .map(|(k, _)| k.clone());
            }
            let value = self.key.as_deref().and_then(|key| {
                tags.iter()
                    .find(|(k, _)| k.eq_ignore_ascii_case(key))
                    .map(|(_, v)| v.as_str())
            });
            match value {
                Some(v) => self.table.intern(v),
                None => self.table.unallocated(),
            }
        } else {
            self.table.intern(tag)
        };
        let recent = self.windows.len().saturating_sub(MERGE_WINDOWS);
        match self.windows[recent..]
            .iter_mut()
            .rev()
            .find(|w| (w.0, w.1, w.2, w.3) == (start, end, ty, team))
        {
            Some(w) => w.4 = w.4.saturating_add(gh),
            None => self.windows.push((start, end, ty, team, gh)),
        }
    }

    /// The teams, on the `n` hours from hour key `k0` (`pos`: each table type's place in
    /// `Parsed::types` and how many, typed).
    fn finish(self, pos: Option<(&[u8], usize)>, off: i32, k0: i64, n: usize) -> Option<Teams> {
        let (source, choices) = if self.map {
            let key = self.key?;
            let i = self
                .choices
                .iter()
                .position(|c| c.name().eq_ignore_ascii_case(&key))
                .or_else(|| (!self.named).then_some(usize::MAX))?;
            let source = match self.choices.get(i) {
                Some(c) => c.clone(),
                None => TeamSource::Tag(key),
            };
            let mut choices = self.choices;
            if !choices.contains(&source) {
                choices.pop();
                choices.push(source.clone());
            }
            (source, choices)
        } else {
            let i = self.chosen?;
            (self.choices.get(i)?.clone(), self.choices)
        };
        let list: Vec<(i64, i64, f64)> = self
            .windows
            .iter()
            .map(|&(s, e, _, _, gh)| {
                let hours = (e - s) as f64 / HOUR_MS as f64;
                (s, e, gh as f64 / SCALE as f64 / hours)
            })
            .collect();
        let teams: Vec<u32> = self.windows.iter().map(|w| w.3).collect();
        let types: Option<(Vec<u8>, usize)> = pos.map(|(pos, n)| {
            let t = self
                .windows
                .iter()
                .map(|w| pos.get(usize::from(w.2)).copied().unwrap_or(u8::MAX));
            (t.collect(), n)
        });
        let series = from_jobs(
            &list,
            &teams,
            types.as_ref().map(|(t, n)| (t.as_slice(), *n)),
            &self.table,
            off,
            (k0, n),
        );
        Some(teams_of(source, choices, series))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_point_cells() {
        let nines = "9".repeat(60);
        for (cell, want) in [
            ("1", Ok(SCALE)),
            ("32.7726", Ok(327_726_000_000)),
            ("0.0000000001", Ok(1)),
            ("0.00000000005", Ok(1)), // half away from zero
            ("0.00000000004", Ok(0)),
            ("-2.5", Ok(-25_000_000_000)),
            ("1.5E-4", Ok(1_500_000)),
            ("1e3", Ok(1000 * SCALE)),
            (".5", Ok(SCALE / 2)),
            ("", Err(RejectReason::MissingValue)),
            ("abc", Err(RejectReason::NotANumber)),
            ("1.2.3", Err(RejectReason::NotANumber)),
            ("1e", Err(RejectReason::NotANumber)),
            ("NaN", Err(RejectReason::NotANumber)),
            ("1e30", Err(RejectReason::TooLarge)),
            (nines.as_str(), Err(RejectReason::TooLarge)),
            ("1e-99999", Ok(0)),
        ] {
            assert_eq!(fixed(cell), want, "{cell}");
        }
    }

    #[test]
    fn rates_by_hand() {
        // 3 hours of p4d.24xlarge On Demand at $32.7726 an hour: 24 GPU-hours for $98.3178,
        // $4.096575 per GPU-hour → $4.10; a 730-hour month: 4.096575 × 730 = $2 990.50 (to the
        // cent: 2 990.49975 → 2 990.50).
        let r = TermRate {
            term: BillTerm::OnDemand,
            rows: 3,
            gpu_hours_units: 24 * SCALE,
            cost_units: fixed("98.3178").unwrap(),
            rows_without_cost: 0,
        };
        assert_eq!(r.rate_cents(), Some(410));
        assert_eq!(r.monthly_cents(730.0), Some(299_050));
        assert_eq!(r.monthly_cents(720.0), Some(294_953)); // 2 949.534
        assert_eq!(r.gpu_hours(), 24.0);
        // Half a cent rounds away from zero: $1.005 over 1 GPU-hour → $1.01.
        let half = TermRate {
            gpu_hours_units: SCALE,
            cost_units: fixed("1.005").unwrap(),
            ..r
        };
        assert_eq!(half.rate_cents(), Some(101));
        let none = TermRate {
            gpu_hours_units: 0,
            ..r
        };
        assert_eq!(none.rate_cents(), None);
        assert_eq!(none.monthly_cents(730.0), None);
    }

    #[test]
    fn usage_types() {
        // The usage type, whether it is spot, the instance type.
        for (usage, spot, instance) in [
            ("USE1-BoxUsage:p4d.24xlarge", false, "p4d.24xlarge"),
            ("BoxUsage:g5.xlarge", false, "g5.xlarge"),
            ("APN1-SpotUsage:g5.xlarge", true, "g5.xlarge"),
            ("EU-DedicatedUsage:p3.2xlarge", false, "p3.2xlarge"),
        ] {
            assert_eq!(instance_usage(usage), Some((spot, instance)));
        }
        assert_eq!(instance_usage("USE1-HeavyUsage:p4d.24xlarge"), None);
        assert_eq!(instance_usage("USE1-EBS:VolumeUsage.gp3"), None);
        assert_eq!(instance_usage("USE1-DataTransfer-Out-Bytes"), None);
        assert_eq!(instance_usage("USE1-UnusedBox:p4d.24xlarge"), None);
        assert_eq!(instance_usage(""), None);
    }

    #[test]
    fn field_walk_follows_quotes() {
        let line = r#"a, "b,c" ,"d""e",,f"#;
        let mut v = Vec::new();
        split_all(line, &mut v);
        let cells: Vec<&str> = v.iter().map(|&(a, b)| &line[a..b]).collect();
        assert_eq!(cells, ["a", "b,c", "d\"\"e", "", "f"]);
        split_all("x,", &mut v);
        assert_eq!(v.len(), 2);
        split_all("\"open", &mut v);
        assert_eq!(v, [(1, 5)]);
    }

    #[test]
    fn headers() {
        let h = header(
            "identity/LineItemId,lineItem/UsageStartDate,lineItem/UsageAmount,product/instanceType",
        )
        .unwrap()
        .unwrap();
        assert_eq!(h.version, CurVersion::Cur1);
        assert_eq!((h.cols.start, h.cols.amount), (1, 2));
        let h = header("line_item_usage_start_date,line_item_usage_amount,line_item_usage_type")
            .unwrap()
            .unwrap();
        assert_eq!(h.version, CurVersion::Cur2);
        assert!(header("timestamp,gpus").unwrap().is_none());
        assert_eq!(
            header("lineItem/UsageStartDate,lineItem/UnblendedCost").unwrap_err(),
            OtherBill::CurWithoutColumns(vec![
                "lineItem/UsageAmount".into(),
                "product/instanceType".into()
            ])
        );
        assert_eq!(
            header("\"Service\",\"EC2-Instances($)\",\"Total costs($)\"").unwrap_err(),
            OtherBill::CostExplorer
        );
        assert_eq!(
            header("BilledCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd").unwrap_err(),
            OtherBill::Focus
        );
        assert_eq!(
            header("billing_account_id,service.description,sku.id,sku.description,usage_start_time,usage_end_time,cost,currency").unwrap_err(),
            OtherBill::GcpBilling
        );
    }
}
