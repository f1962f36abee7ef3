//! The mixed fleet in the page state (`state::Fleet`): which GPU types, their own values,
//! which one the cards show. The selected type's own values live in `AppState::inputs`, so
//! every card, field and link parameter of the one-type page reads them unchanged; the
//! others' are kept in their `TypeRow`. Every change goes through a function here, which
//! keeps that split consistent. Pure: no leptos or browser imports.

use std::fmt;

use crate::core::ingest::{PriceFill, TypedSeries};
use crate::core::plan::PlanInputs;
use crate::core::series::UsageSeries;
use crate::inputs::INPUTS;
use crate::state::presets::Preset;
use crate::state::{AppState, Fleet, TypeRow};

/// Longest type name (characters).
pub const MAX_NAME_CHARS: usize = 40;

/// Most types in a fleet (`core::fleet::MAX_FLEET_TYPES`).
pub const MAX_TYPES: usize = crate::core::fleet::MAX_FLEET_TYPES;

/// Two or more types: the page plans a fleet.
pub fn active(f: &Fleet) -> bool {
    f.types.len() >= 2
}

/// Copy the per-type values (`InputSpec::per_type`) of `from` into `to`.
pub fn copy_own(to: &mut PlanInputs, from: &PlanInputs) {
    for spec in INPUTS.iter().filter(|s| s.per_type) {
        spec.copy(to, from);
    }
}

/// A type's own values alone (the rest at their defaults): what a `TypeRow` holds.
pub fn own_of(i: &PlanInputs) -> PlanInputs {
    let mut own = PlanInputs::default();
    copy_own(&mut own, i);
    own
}

/// The inputs type `k` is planned with: the fleet's, with the type's own values.
pub fn type_inputs(s: &AppState, k: usize) -> PlanInputs {
    let mut i = s.inputs.clone();
    if k != s.fleet.selected {
        if let Some(row) = s.fleet.types.get(k) {
            copy_own(&mut i, &row.inputs);
        }
    }
    i
}

/// Every type's own values made current (the selected one's copied from `inputs`): what a
/// link or an export writes.
pub fn rows(s: &AppState) -> Vec<TypeRow> {
    let mut rows = s.fleet.types.clone();
    if let Some(row) = rows.get_mut(s.fleet.selected) {
        copy_own(&mut row.inputs, &s.inputs);
    }
    rows
}

/// Show type `j` in the cards (its values into `inputs`, the previous one's kept).
pub fn select(s: &mut AppState, j: usize) {
    let sel = s.fleet.selected;
    if j == sel || j >= s.fleet.types.len() {
        return;
    }
    if let Some(row) = s.fleet.types.get_mut(sel) {
        copy_own(&mut row.inputs, &s.inputs);
    }
    let own = s.fleet.types[j].inputs.clone();
    copy_own(&mut s.inputs, &own);
    s.fleet.selected = j;
}

/// A name not yet in the fleet: `GPU 2`, `GPU 3` …
fn fresh_name(f: &Fleet) -> String {
    (1..)
        .map(|n| format!("GPU {n}"))
        .find(|n| !f.types.iter().any(|t| same_name(&t.name, n)))
        .unwrap_or_default()
}

/// Names compared without ASCII case (other letters exactly: no Unicode case tables).
pub fn same_name(a: &str, b: &str) -> bool {
    a.trim().eq_ignore_ascii_case(b.trim())
}

/// Add a type planned from its own sliders, starting from the selected type's values, and
/// select it. The first addition turns the one-type page into a fleet of two. `false` at
/// [`MAX_TYPES`].
pub fn add_type(s: &mut AppState) -> bool {
    if s.fleet.types.len() >= MAX_TYPES {
        return false;
    }
    if s.fleet.types.is_empty() {
        let name = fresh_name(&s.fleet);
        s.fleet.types.push(TypeRow {
            name,
            keys: Vec::new(),
            inputs: own_of(&s.inputs),
        });
        s.fleet.selected = 0;
    }
    let name = fresh_name(&s.fleet);
    s.fleet.types.push(TypeRow {
        name,
        keys: Vec::new(),
        inputs: own_of(&s.inputs),
    });
    let last = s.fleet.types.len() - 1;
    select(s, last);
    true
}

/// Remove type `k`. A fleet left with one type is the one-type page again, with that type's
/// values.
pub fn remove_type(s: &mut AppState, k: usize) {
    if k >= s.fleet.types.len() {
        return;
    }
    if k == s.fleet.selected {
        select(s, if k == 0 { 1 } else { k - 1 });
    }
    s.fleet.types.remove(k);
    if s.fleet.selected > k {
        s.fleet.selected -= 1;
    }
    if s.fleet.types.len() == 1 {
        s.fleet = Fleet::default();
    }
}

/// Why a name was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NameError {
    Empty,
    /// Another type has it (compared without case).
    Taken(String),
}

impl fmt::Display for NameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NameError::Empty => write!(f, "the GPU type name is empty"),
            NameError::Taken(n) => write!(f, "another GPU type is already called {n:?}"),
        }
    }
}

/// Rename type `k` (trimmed, cut to [`MAX_NAME_CHARS`]).
pub fn rename(s: &mut AppState, k: usize, name: &str) -> Result<(), NameError> {
    let name: String = name.trim().chars().take(MAX_NAME_CHARS).collect();
    let name = name.trim_end().to_string();
    if name.is_empty() {
        return Err(NameError::Empty);
    }
    if let Some(t) = s
        .fleet
        .types
        .iter()
        .enumerate()
        .find(|(i, t)| *i != k && same_name(&t.name, &name))
    {
        return Err(NameError::Taken(t.1.name.clone()));
    }
    if let Some(row) = s.fleet.types.get_mut(k) {
        row.name = name;
    }
    Ok(())
}

/// Plan type `from`'s history as part of type `into` (`A100-40G` is `A100`): its keys join
/// `into`'s and the row goes; `into` keeps its name and prices.
pub fn merge(s: &mut AppState, from: usize, into: usize) {
    let n = s.fleet.types.len();
    if from == into || from >= n || into >= n {
        return;
    }
    let keys = s.fleet.types[from].keys.clone();
    s.fleet.types[into].keys.extend(keys);
    if s.fleet.selected == from {
        select(s, into);
    }
    remove_type(s, from);
}

/// Match the fleet to the GPU types a history holds (after `Parsed::types`): each history
/// type is planned by the row that lists its key, the rows that list none go, and a type
/// no row lists gets a row of its own, named as written, with the example prices of its
/// kind (`presets`) or else the selected type's. Fewer than two history types: unchanged.
/// Returns whether anything changed.
pub fn sync_with_history(s: &mut AppState, types: &[TypedSeries]) -> bool {
    if types.len() < 2 {
        return false;
    }
    let mut rows = rows(s);
    let selected_name = rows.get(s.fleet.selected).map(|r| r.name.clone());
    let current = s.inputs.clone();
    // Each history key to the first row that lists it.
    let claimed =
        |rows: &[TypeRow], key: &str| rows.iter().position(|r| r.keys.iter().any(|k| k == key));
    let mut keep = vec![false; rows.len()];
    for t in types {
        if let Some(r) = claimed(&rows, &t.key) {
            keep[r] = true;
        }
    }
    let mut next: Vec<TypeRow> = rows
        .drain(..)
        .zip(&keep)
        .filter(|(_, &k)| k)
        .map(|(mut r, _)| {
            r.keys.retain(|k| types.iter().any(|t| &t.key == k));
            r
        })
        .collect();
    for t in types {
        if claimed(&next, &t.key).is_none() {
            let mut inputs = current.clone();
            if let Some(p) = Preset::of_type(&t.label) {
                p.apply(s.currency, &mut inputs);
            }
            let taken = |n: &str| next.iter().any(|r| same_name(&r.name, n));
            let mut name: String = t.label.chars().take(MAX_NAME_CHARS).collect();
            if name.trim().is_empty() || taken(&name) {
                name = (2..)
                    .map(|n| format!("{} ({n})", t.label.chars().take(30).collect::<String>()))
                    .find(|n| !taken(n))
                    .unwrap_or_default();
            }
            next.push(TypeRow {
                name,
                keys: vec![t.key.clone()],
                inputs: own_of(&inputs),
            });
        }
    }
    let selected = selected_name
        .and_then(|n| next.iter().position(|r| r.name == n))
        .unwrap_or(0);
    let fleet = Fleet {
        types: next,
        selected,
    };
    let fleet = if fleet.types.len() < 2 {
        // Merged into one: the one-type page, with that type's values.
        if let Some(row) = fleet.types.first() {
            let own = row.inputs.clone();
            copy_own(&mut s.inputs, &own);
        }
        Fleet::default()
    } else {
        let own = fleet.types[selected].inputs.clone();
        copy_own(&mut s.inputs, &own);
        fleet
    };
    let changed = fleet != s.fleet || s.inputs != current;
    s.fleet = fleet;
    changed
}

/// Set prices from a bill's effective rates (`CurReport::price_fills`): each fill goes to the
/// type that plans its history key (the selected one's into `inputs`); on a one-type page, the
/// fill of that type (the first, when none matches) to `inputs`. On demand and spot per
/// GPU-hour, monthly per GPU-month, each only when the bill has it. Returns how many types
/// got prices.
pub fn fill_prices(s: &mut AppState, fills: &[PriceFill]) -> usize {
    fn apply(i: &mut PlanInputs, f: &PriceFill) {
        let units = |c: i64| c as f64 / 100.0;
        if let Some(c) = f.on_demand_cents {
            i.on_demand_price = units(c);
        }
        if let Some(c) = f.monthly_cents {
            i.monthly_price = units(c);
        }
        if let Some(c) = f.spot_cents {
            i.spot_price = units(c);
        }
    }
    if !active(&s.fleet) {
        let own = s
            .fleet
            .types
            .first()
            .map(|r| r.keys.clone())
            .unwrap_or_default();
        let f = fills
            .iter()
            .find(|f| own.contains(&f.key))
            .or_else(|| fills.first());
        if let Some(f) = f {
            apply(&mut s.inputs, f);
            return 1;
        }
        return 0;
    }
    let mut n = 0;
    for f in fills {
        let Some(k) = s.fleet.types.iter().position(|r| r.keys.contains(&f.key)) else {
            continue;
        };
        if k == s.fleet.selected {
            apply(&mut s.inputs, f);
        } else {
            apply(&mut s.fleet.types[k].inputs, f);
        }
        n += 1;
    }
    n
}

/// A type's history: the sum, hour by hour, of the history types whose keys it lists
/// (`TypeRow::keys`; `None` when it lists none of them).
pub fn row_series(keys: &[String], types: &[TypedSeries]) -> Option<UsageSeries> {
    let mut parts = types.iter().filter(|t| keys.contains(&t.key));
    let mut series = parts.next()?.series.clone();
    for t in parts {
        for (a, b) in series.values.iter_mut().zip(&t.series.values) {
            *a += b;
        }
    }
    Some(series)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::Lang;

    fn state() -> AppState {
        AppState::new(PlanInputs::default(), Lang::En)
    }

    fn typed(key: &str, label: &str, values: &[f64]) -> TypedSeries {
        TypedSeries {
            key: key.into(),
            label: label.into(),
            series: UsageSeries {
                values: values.to_vec(),
                timestamps: None,
                utc_offset_minutes: 0,
                offset_changes: Vec::new(),
            },
            hours: values.len(),
            peak: values.iter().cloned().fold(0.0, f64::max),
            gap_hours: 0,
            no_data: Vec::new(),
        }
    }

    fn fill(key: &str, od: Option<i64>, monthly: Option<i64>, spot: Option<i64>) -> PriceFill {
        PriceFill {
            key: key.into(),
            label: key.into(),
            on_demand_cents: od,
            monthly_cents: monthly,
            spot_cents: spot,
        }
    }

    #[test]
    fn bill_prices_fill_each_type_that_plans_the_key() {
        // One type: the inputs.
        let mut s = state();
        let spot = s.inputs.spot_price;
        assert_eq!(
            fill_prices(&mut s, &[fill("a100-40g", Some(410), Some(175_383), None)]),
            1
        );
        assert_eq!(
            (s.inputs.on_demand_price, s.inputs.monthly_price),
            (4.10, 1753.83)
        );
        assert_eq!(s.inputs.spot_price, spot);
        // A fleet: the selected type's into inputs, the other's into its row; a key no type
        // plans is left.
        let mut s = state();
        let types = [
            typed("a100-40g", "A100 40GB", &[1.0]),
            typed("a10g", "A10G", &[2.0]),
        ];
        assert!(sync_with_history(&mut s, &types));
        let sel = s.fleet.selected;
        let other = 1 - sel;
        let (ks, ko) = (
            s.fleet.types[sel].keys[0].clone(),
            s.fleet.types[other].keys[0].clone(),
        );
        let n = fill_prices(
            &mut s,
            &[
                fill(&ks, Some(101), None, Some(40)),
                fill(&ko, Some(410), Some(299_050), None),
                fill("h100", Some(999), None, None),
            ],
        );
        assert_eq!(n, 2);
        assert_eq!(
            (s.inputs.on_demand_price, s.inputs.spot_price),
            (1.01, 0.40)
        );
        assert_eq!(s.fleet.types[other].inputs.on_demand_price, 4.10);
        assert_eq!(s.fleet.types[other].inputs.monthly_price, 2990.50);
        assert_eq!(type_inputs(&s, other).on_demand_price, 4.10);
    }

    #[test]
    fn adding_a_type_makes_a_fleet_of_two_and_selecting_swaps_values() {
        let mut s = state();
        s.inputs.monthly_price = 15_000.0;
        assert!(add_type(&mut s));
        assert_eq!(s.fleet.types.len(), 2);
        assert_eq!(s.fleet.selected, 1);
        assert_eq!(s.fleet.types[0].name, "GPU 1");
        assert_eq!(s.fleet.types[1].name, "GPU 2");
        // The new type starts from the selected one's values; then it gets its own.
        s.inputs.monthly_price = 28_000.0;
        s.inputs.budget = 200_000.0; // the fleet's, shared
        assert_eq!(type_inputs(&s, 0).monthly_price, 15_000.0);
        assert_eq!(type_inputs(&s, 0).budget, 200_000.0);
        assert_eq!(type_inputs(&s, 1).monthly_price, 28_000.0);
        select(&mut s, 0);
        assert_eq!(s.inputs.monthly_price, 15_000.0);
        assert_eq!(s.inputs.budget, 200_000.0);
        assert_eq!(type_inputs(&s, 1).monthly_price, 28_000.0);
        assert_eq!(rows(&s)[1].inputs.monthly_price, 28_000.0);
        assert_eq!(rows(&s)[0].inputs.monthly_price, 15_000.0);
    }

    #[test]
    fn removing_down_to_one_type_is_the_one_type_page_with_its_values() {
        let mut s = state();
        add_type(&mut s);
        s.inputs.monthly_price = 28_000.0;
        select(&mut s, 0);
        remove_type(&mut s, 0);
        assert_eq!(s.fleet, Fleet::default());
        assert_eq!(s.inputs.monthly_price, 28_000.0);
    }

    #[test]
    fn names_are_unique_trimmed_and_not_empty() {
        let mut s = state();
        add_type(&mut s);
        assert_eq!(rename(&mut s, 0, "  A100 "), Ok(()));
        assert_eq!(s.fleet.types[0].name, "A100");
        assert_eq!(
            rename(&mut s, 1, "a100"),
            Err(NameError::Taken("A100".into()))
        );
        assert_eq!(rename(&mut s, 1, "   "), Err(NameError::Empty));
        let long = "x".repeat(60);
        rename(&mut s, 1, &long).unwrap();
        assert_eq!(s.fleet.types[1].name.chars().count(), MAX_NAME_CHARS);
    }

    #[test]
    fn a_typed_history_makes_one_row_per_type_with_its_preset() {
        let mut s = state();
        let types = [
            typed("a100", "NVIDIA A100-SXM4-80GB", &[4.0, 5.0]),
            typed("l40s", "L40S", &[1.0, 0.0]),
        ];
        assert!(sync_with_history(&mut s, &types));
        assert_eq!(s.fleet.types.len(), 2);
        assert_eq!(s.fleet.types[0].name, "NVIDIA A100-SXM4-80GB");
        assert_eq!(s.fleet.types[0].keys, vec!["a100".to_string()]);
        // A100's preset (CNY) is now the selected type's values; L40S has no preset: the
        // values the page had.
        assert_eq!(s.inputs.monthly_price, 15_000.0);
        assert_eq!(type_inputs(&s, 1).monthly_price, 9_000.0);
        // Unchanged a second time.
        assert!(!sync_with_history(&mut s, &types));
        // A merge survives the next sync.
        let mut three = types.to_vec();
        three.push(typed("a100-40g", "A100-40G", &[1.0, 1.0]));
        assert!(sync_with_history(&mut s, &three));
        assert_eq!(s.fleet.types.len(), 3);
        merge(&mut s, 2, 0);
        assert_eq!(
            s.fleet.types[0].keys,
            vec!["a100".to_string(), "a100-40g".to_string()]
        );
        assert!(!sync_with_history(&mut s, &three));
        let series = row_series(&s.fleet.types[0].keys, &three).unwrap();
        assert_eq!(series.values, vec![5.0, 6.0]);
        // A history that no longer holds L40S drops its row: one type left.
        assert!(sync_with_history(
            &mut s,
            &three[..1]
                .iter()
                .chain(&three[2..])
                .cloned()
                .collect::<Vec<_>>()
        ));
        assert_eq!(s.fleet, Fleet::default());
    }

    #[test]
    fn at_most_eight_types() {
        let mut s = state();
        for _ in 0..7 {
            assert!(add_type(&mut s));
        }
        assert_eq!(s.fleet.types.len(), 8);
        assert!(!add_type(&mut s));
    }
}
