//! The bills' effective-rates answer (`core::query::RATES_HEADER`, issue 38): one row per GPU
//! model, pricing and currency with its GPU-hours and effective cost, as the page's rates
//! query writes it in Athena, DuckDB or BigQuery. Read into the same [`CurReport`] a Cost and
//! Usage Report gives, so the prices are filled by the same rule (`CurReport::price_fills`):
//! on demand and spot per GPU-hour, monthly = the reserved (and Savings Plan) rate over a
//! month. Small by construction (a few rows), so read whole, in exact decimals (1e-10 units).

use super::cur::{fixed, header_cells, BillTerm, CurReport, CurType, CurVersion, TermRate};
use super::types::normalize_type;
use crate::core::answer::RATES_HEADER;

/// Why a rates answer was not read: the line (1-based) and the reason.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RatesError {
    pub line: usize,
    pub reason: RatesReason,
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum RatesReason {
    /// The first line is not [`RATES_HEADER`].
    NotRates,
    /// No rows after the header.
    Empty,
    /// A row without the five cells.
    MissingCells,
    /// A `pricing` that is not one of `core::query::PRICINGS`.
    UnknownPricing(String),
    /// `gpu_hours` or `cost` is not a number (or GPU-hours are negative).
    BadNumber(String),
    /// A GPU type that names no model.
    BadType(String),
}

/// Is this line the rates answer's header?
pub fn is_rates_header(line: &str) -> bool {
    let cells = header_cells(line.trim_start_matches('\u{feff}'));
    cells.len() == RATES_HEADER.len()
        && cells
            .iter()
            .zip(RATES_HEADER)
            .all(|(c, h)| c.trim_matches('"').eq_ignore_ascii_case(h))
}

/// Read a rates answer.
pub fn read_rates(text: &str) -> Result<CurReport, RatesError> {
    let err = |line, reason| Err(RatesError { line, reason });
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    match lines.next() {
        Some((_, h)) if is_rates_header(h) => {}
        Some((i, _)) => return err(i + 1, RatesReason::NotRates),
        None => return err(1, RatesReason::Empty),
    }
    let mut report = CurReport::empty(CurVersion::Cur2);
    for (i, line) in lines {
        let cells: Vec<String> = header_cells(line)
            .into_iter()
            .map(|c| c.trim_matches('"').trim().to_string())
            .collect();
        let [label, pricing, hours, cost, currency] = &cells[..] else {
            return err(i + 1, RatesReason::MissingCells);
        };
        let term = match pricing.as_str() {
            "on_demand" => BillTerm::OnDemand,
            "spot" => BillTerm::Spot,
            "reserved" => {
                report.ri_rows += 1;
                BillTerm::Reserved
            }
            "savings_plan" => {
                report.sp_rows += 1;
                BillTerm::Reserved
            }
            other => return err(i + 1, RatesReason::UnknownPricing(other.to_string())),
        };
        let number = |cell: &str| fixed(cell).map_err(|_| cell.to_string());
        let (hours, cost) = match (number(hours), number(cost)) {
            (Ok(h), Ok(c)) if h >= 0 => (h, c),
            (Ok(_), Ok(_)) => return err(i + 1, RatesReason::BadNumber(hours.clone())),
            (Err(cell), _) | (_, Err(cell)) => return err(i + 1, RatesReason::BadNumber(cell)),
        };
        let key = normalize_type(label);
        if key.is_empty() {
            return err(i + 1, RatesReason::BadType(label.clone()));
        }
        if !currency.is_empty() && !report.currencies.contains(currency) {
            report.currencies.push(currency.clone());
        }
        report.rows += 1;
        report.gpu_rows += 1;
        let t = match report.types.iter().position(|t| t.key == key) {
            Some(k) => k,
            None => {
                report.types.push(CurType {
                    key,
                    label: label.clone(),
                    instance_types: Vec::new(),
                    rows: 0,
                    gpu_hours_units: 0,
                    terms: Vec::new(),
                });
                report.types.len() - 1
            }
        };
        let ty = &mut report.types[t];
        ty.rows += 1;
        ty.gpu_hours_units += hours;
        let r = match ty.terms.iter().position(|r| r.term == term) {
            Some(r) => r,
            None => {
                ty.terms.push(TermRate {
                    term,
                    rows: 0,
                    gpu_hours_units: 0,
                    cost_units: 0,
                    rows_without_cost: 0,
                });
                ty.terms.len() - 1
            }
        };
        let rate = &mut ty.terms[r];
        rate.rows += 1;
        rate.gpu_hours_units += hours;
        rate.cost_units += cost;
    }
    if report.rows == 0 {
        return err(2, RatesReason::Empty);
    }
    // Terms in the bill's order, as a CUR's report lists them.
    for t in &mut report.types {
        t.terms
            .sort_by_key(|r| BillTerm::ALL.iter().position(|&b| b == r.term));
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hand-computed: A100 80GB on demand 100 GPU-hours for $409.60 → $4.096 → 410 cents;
    /// reserved 600 GPU-hours for $1 500 plus a Savings Plan 120 GPU-hours for $312 → $1 812 /
    /// 720 h = $2.516…/h, over a month of 730 h: 1 812 × 730 / 720 = $1 837.166… → 183 717
    /// cents; spot 50 GPU-hours for $61.25 → 122.5 → 123 cents (half away from zero).
    #[test]
    fn a_hand_computed_fill() {
        let text = "\"gpu_type\",\"pricing\",\"gpu_hours\",\"cost\",\"currency\"\n\
            \"A100 80GB\",\"on_demand\",\"100\",\"409.60\",\"USD\"\n\
            \"A100 80GB\",\"reserved\",\"600\",\"1500\",\"USD\"\n\
            \"A100 80GB\",\"savings_plan\",\"120.0\",\"312.00\",\"USD\"\n\
            \"A100 80GB\",\"spot\",\"50\",\"61.25\",\"USD\"\n";
        let r = read_rates(text).unwrap();
        assert_eq!((r.sp_rows, r.ri_rows, r.currency()), (1, 1, Some("USD")));
        let fills = r.price_fills(730.0);
        assert_eq!(fills.len(), 1);
        assert_eq!(fills[0].key, "a100");
        assert_eq!(fills[0].on_demand_cents, Some(410));
        assert_eq!(fills[0].monthly_cents, Some(183_717));
        assert_eq!(fills[0].spot_cents, Some(123));
        // The same answer as plain CSV (DuckDB) reads the same.
        let plain = text.replace('"', "");
        assert_eq!(read_rates(&plain), Ok(r));
    }

    #[test]
    fn refusals_name_the_line() {
        let h = "gpu_type,pricing,gpu_hours,cost,currency\n";
        assert_eq!(read_rates("").unwrap_err().reason, RatesReason::Empty);
        assert_eq!(read_rates(h).unwrap_err().reason, RatesReason::Empty);
        assert_eq!(
            read_rates("hour_utc,gpu_type,gpu_hours\n")
                .unwrap_err()
                .reason,
            RatesReason::NotRates
        );
        let e =
            read_rates(&format!("{h}a100,on_demand,1,2,USD\na100,lease,1,2,USD\n")).unwrap_err();
        assert_eq!(
            (e.line, e.reason),
            (3, RatesReason::UnknownPricing("lease".into()))
        );
        let e = read_rates(&format!("{h}a100,spot,x,2,USD\n")).unwrap_err();
        assert_eq!((e.line, e.reason), (2, RatesReason::BadNumber("x".into())));
        let e = read_rates(&format!("{h}a100,spot,-1,2,USD\n")).unwrap_err();
        assert_eq!(e.reason, RatesReason::BadNumber("-1".into()));
        let e = read_rates(&format!("{h}a100,spot,1\n")).unwrap_err();
        assert_eq!(e.reason, RatesReason::MissingCells);
    }
}
