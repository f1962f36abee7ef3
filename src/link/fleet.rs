//! The fleet in a link (version 2, additive): `type.K=<name>`, `keys.K=<key>,<key>`, each
//! per-type input of type K ≥ 1 as `<param>.K`, and `sel=K`. Type 0's own values are the
//! plain parameters, so a link without `type.K` is a one-type fleet: the page as it was.

use super::{param, percent_encode, LinkProblem};
use crate::core::plan::PlanInputs;
use crate::inputs::{self, InputSpec};
use crate::state::fleet::{copy_own, MAX_NAME_CHARS, MAX_TYPES};
use crate::state::{Fleet, TypeRow};

/// The link version that introduced the fleet parameters.
pub const SINCE: u32 = 2;

/// Longest history key read (characters), as `core::ingest` makes them.
const MAX_KEY_CHARS: usize = 40;

/// The fleet parameters of a link, read in any order.
#[derive(Default)]
pub struct Reader {
    names: [Option<String>; MAX_TYPES],
    keys: [Option<Vec<String>>; MAX_TYPES],
    /// Type K ≥ 1's own values.
    own: [Option<PlanInputs>; MAX_TYPES],
    selected: Option<usize>,
}

/// `base.K` with K a type index: (base, K).
fn indexed(key: &str) -> Option<(&str, usize)> {
    let (base, k) = key.rsplit_once('.')?;
    let k: usize = k.parse().ok()?;
    (k < MAX_TYPES && !k_has_sign(key)).then_some((base, k))
}

fn k_has_sign(key: &str) -> bool {
    key.rsplit_once('.')
        .is_some_and(|(_, k)| k.starts_with('+'))
}

fn per_type(base: &str) -> Option<&'static InputSpec> {
    inputs::by_param(base).filter(|s| s.per_type)
}

/// The parameter a fleet key reports a bad value under.
pub fn param_name(key: &str) -> &'static str {
    match indexed(key) {
        Some((param::TYPE, _)) => param::TYPE,
        Some((param::KEYS, _)) => param::KEYS,
        Some((base, _)) => per_type(base).map_or(param::TYPE, |s| s.param),
        None => param::SELECTED,
    }
}

impl Reader {
    /// A fleet parameter (even one this reader will refuse).
    pub fn takes(&self, key: &str) -> bool {
        key == param::SELECTED
            || indexed(key).is_some_and(|(base, k)| {
                base == param::TYPE || base == param::KEYS || (k > 0 && per_type(base).is_some())
            })
    }

    /// `false`: the value cannot be read (reported; nothing is set).
    pub fn read(&mut self, key: &str, value: &str) -> bool {
        if key == param::SELECTED {
            return match value.trim().parse::<usize>() {
                Ok(k) if k < MAX_TYPES => {
                    self.selected = Some(k);
                    true
                }
                _ => false,
            };
        }
        let Some((base, k)) = indexed(key) else {
            return false;
        };
        match base {
            param::TYPE => {
                let name: String = value.trim().chars().take(MAX_NAME_CHARS).collect();
                let name = name.trim_end().to_string();
                if name.is_empty() {
                    return false;
                }
                self.names[k] = Some(name);
                true
            }
            param::KEYS => {
                let keys: Vec<String> = value
                    .split(',')
                    .map(str::trim)
                    .filter(|k| !k.is_empty())
                    .map(|k| k.chars().take(MAX_KEY_CHARS).collect())
                    .collect();
                if keys.is_empty() {
                    return false;
                }
                self.keys[k] = Some(keys);
                true
            }
            base => match per_type(base) {
                Some(spec) => spec.read(self.own[k].get_or_insert_with(PlanInputs::default), value),
                None => false,
            },
        }
    }

    /// The fleet the link describes: the types 0, 1 … up to the first missing name (two or
    /// more, else none); later ones, a repeated name and a selection past the end are
    /// reported and dropped.
    pub fn finish(self, type0: &PlanInputs, problems: &mut Vec<LinkProblem>) -> Fleet {
        let n = self.names.iter().take_while(|n| n.is_some()).count();
        let mut bad = |param: &'static str, value: String| {
            problems.push(LinkProblem::BadValue { param, value })
        };
        for (k, name) in self.names.iter().enumerate().skip(n) {
            if let Some(name) = name {
                bad(param::TYPE, format!("{k}: {name}"));
            }
        }
        let mut types: Vec<TypeRow> = Vec::with_capacity(n);
        for (k, (name, keys)) in self.names.into_iter().zip(self.keys).take(n).enumerate() {
            let name = name.unwrap_or_default();
            if types
                .iter()
                .any(|t| crate::state::fleet::same_name(&t.name, &name))
            {
                bad(param::TYPE, format!("{k}: {name}"));
                continue;
            }
            let mut inputs = PlanInputs::default();
            match (k, &self.own[k]) {
                (0, _) => copy_own(&mut inputs, type0),
                (_, Some(own)) => copy_own(&mut inputs, own),
                _ => {}
            }
            types.push(TypeRow {
                name,
                keys: keys.unwrap_or_default(),
                inputs,
            });
        }
        if types.len() < 2 {
            return Fleet::default();
        }
        let selected = match self.selected {
            Some(k) if k < types.len() => k,
            Some(k) => {
                bad(param::SELECTED, k.to_string());
                0
            }
            None => 0,
        };
        Fleet { types, selected }
    }
}

/// Write the fleet's parameters (nothing for fewer than two types).
pub fn write(fleet: &Fleet, put: &mut impl FnMut(&str, String)) {
    if !crate::state::fleet::active(fleet) {
        return;
    }
    let defaults = PlanInputs::default();
    for (k, t) in fleet.types.iter().enumerate() {
        put(&format!("{}.{k}", param::TYPE), percent_encode(&t.name));
        if !t.keys.is_empty() {
            let keys: Vec<String> = t.keys.iter().map(|k| percent_encode(k)).collect();
            put(&format!("{}.{k}", param::KEYS), keys.join(","));
        }
        if k > 0 {
            for spec in inputs::INPUTS.iter().filter(|s| s.per_type) {
                if let Some(v) = spec.write(&t.inputs, &defaults) {
                    put(&format!("{}.{k}", spec.param), v);
                }
            }
        }
    }
    if fleet.selected > 0 {
        put(param::SELECTED, fleet.selected.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::super::{decode, encode, LinkProblem, LinkState};
    use crate::core::plan::PlanInputs;
    use crate::state::fleet::{add_type, rename, select, type_inputs};
    use crate::state::{AppState, Lang};

    fn two_types() -> AppState {
        let mut s = AppState::new(PlanInputs::default(), Lang::En);
        s.inputs.monthly_price = 15_000.0;
        s.inputs.budget = 200_000.0;
        add_type(&mut s);
        rename(&mut s, 0, "A100 80GB").unwrap();
        rename(&mut s, 1, "H100~SXM,5").unwrap();
        s.inputs.monthly_price = 28_000.0;
        s.inputs.on_demand_price = 60.0;
        s.inputs.used_hours = 600.0;
        s.fleet.types[1].keys = vec!["h100".into(), "h100-sxm".into()];
        s
    }

    /// The same page: the same inputs shown and the same types with the same own values.
    fn same(a: &AppState, b: &AppState) {
        assert_eq!(a.inputs, b.inputs);
        assert_eq!(crate::state::fleet::rows(a), crate::state::fleet::rows(b));
        assert_eq!(a.fleet.selected, b.fleet.selected);
    }

    fn reopen(s: &AppState) -> (AppState, Vec<LinkProblem>, String) {
        let q = encode(&LinkState::of(s), None);
        let (link, problems) = decode(&q);
        (link.app_state(Lang::Zh), problems, q)
    }

    #[test]
    fn a_fleet_link_reopens_identically_whichever_type_is_selected() {
        let mut s = two_types();
        let (back, problems, q) = reopen(&s);
        assert!(problems.is_empty(), "{problems:?}");
        same(&back, &s);
        assert!(q.contains("&monthly=15000&"), "{q}");
        assert!(
            q.contains("type.0=A100%2080GB&type.1=H100~SXM%2C5&keys.1=h100,h100-sxm"),
            "{q}"
        );
        assert!(
            q.contains("monthly.1=28000&ondemand.1=60&used.1=600&sel=1"),
            "{q}"
        );
        // The shared budget is written once.
        assert!(!q.contains("budget.1"), "{q}");
        select(&mut s, 0);
        let (back, _, q2) = reopen(&s);
        same(&back, &s);
        assert_eq!(type_inputs(&back, 1).monthly_price, 28_000.0);
        assert!(!q2.contains("sel="), "{q2}");
    }

    #[test]
    fn a_version_1_link_never_opens_a_fleet() {
        let (link, problems) = decode("?v=1&type.0=A100&type.1=H100&monthly.1=28000&sel=1");
        assert!(problems.is_empty());
        assert_eq!(link.fleet, crate::state::Fleet::default());
        assert_eq!(link.inputs, PlanInputs::default());
    }

    #[test]
    fn broken_fleet_parameters_are_named_and_dropped() {
        // A gap in the names: the types after it are dropped; one type is no fleet.
        let (link, problems) = decode("?v=2&type.0=A100&type.2=H100");
        assert!(!crate::state::fleet::active(&link.fleet));
        assert!(
            matches!(&problems[..], [LinkProblem::BadValue { param: "type", .. }]),
            "{problems:?}"
        );
        // A repeated name, an empty one, a selection past the end, an unreadable price.
        let (link, problems) =
            decode("?v=2&type.0=A100&type.1=a100&type.2=H100&type.3=&sel=7&monthly.2=abc");
        assert_eq!(link.fleet.types.len(), 2, "{:?}", link.fleet);
        assert_eq!(link.fleet.types[1].name, "H100");
        assert_eq!(link.fleet.selected, 0);
        assert_eq!(problems.len(), 4, "{problems:?}");
        // Index 8 and up, `+1` and `.0` per-type values are not fleet parameters.
        let (link, problems) =
            decode("?v=2&type.0=A&type.1=B&monthly.8=1&monthly.+1=5&monthly.0=7");
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(link.fleet.types[1].inputs.monthly_price, 9000.0);
        assert_eq!(link.inputs.monthly_price, 9000.0);
    }

    #[test]
    fn text_from_a_link_is_cut_to_size() {
        let long = "x".repeat(100);
        let (link, _) = decode(&format!("?v=2&type.0={long}&type.1=B&keys.1={long}"));
        assert_eq!(link.fleet.types[0].name.chars().count(), 40);
        assert_eq!(link.fleet.types[1].keys[0].chars().count(), 40);
    }
}
