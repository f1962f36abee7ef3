//! The fleet's memos in the page (§ 16): each GPU type's history profile, the other types'
//! plans, and the fleet's plan. The selected type is planned once, by the page's `outputs`
//! memo (its cards read it); a price typed for it re-plans only that type and the fleet's
//! allocation, never the other types (their inputs compare equal, so their memo holds).

use leptos::prelude::*;

use crate::core::error::InputError;
use crate::core::fleet_plan::{plan_fleet, TypePlan};
use crate::core::plan::{plan_with_history, PlanOutputs};
use crate::core::profile::{profile, HistoryProfile, ProfileSettings};
use crate::fleet::{active, row_series, type_inputs};
use crate::present::FleetResult;
use crate::state::{AppState, ParseStatus, UsageMode};

/// One profile per type of a fleet that reads a typed history (empty otherwise).
pub type TypeProfiles = Vec<Result<HistoryProfile, InputError>>;

/// The fleet reads a typed history: the usage mode is the history's, it has two or more
/// types, and the fleet has its rows.
pub fn typed_history(s: &AppState, parse: &ParseStatus) -> bool {
    s.mode == UsageMode::Data
        && active(&s.fleet)
        && matches!(parse, ParseStatus::Done(Ok(p)) if p.types.len() >= 2)
}

/// Each type's profile from its history types (quantised, as a link carries them).
pub fn type_profiles(
    state: RwSignal<AppState>,
    parse_status: RwSignal<ParseStatus>,
    settings: Memo<ProfileSettings>,
) -> Memo<TypeProfiles> {
    let keys = Memo::new(move |_| {
        state.with(|s| {
            let typed = s.mode == UsageMode::Data && active(&s.fleet);
            typed.then(|| {
                s.fleet
                    .types
                    .clone()
                    .into_iter()
                    .map(|t| t.keys)
                    .collect::<Vec<_>>()
            })
        })
    });
    Memo::new(move |_| {
        let Some(keys) = keys.get() else {
            return Vec::new();
        };
        let settings = settings.get();
        parse_status.with(|p| match p {
            ParseStatus::Done(Ok(parsed)) if parsed.types.len() >= 2 => keys
                .into_iter()
                .map(|keys| match row_series(&keys, &parsed.types) {
                    // Each type is rounded as a link carries it (`url::quantize_parsed`); a
                    // merge's sum is rounded again (0.1 + 0.2 is not 0.3 in binary).
                    Some(series) => profile(&crate::url::quantize(&series), &settings),
                    None => Err(InputError::new(
                        crate::core::error::Field::UsageHistory,
                        crate::core::error::Problem::Empty,
                    )),
                })
                .collect(),
            _ => Vec::new(),
        })
    })
}

/// The fleet's plan (`None` for one type).
pub fn fleet_plan(
    state: RwSignal<AppState>,
    profiles: Memo<TypeProfiles>,
    outputs: Memo<PlanOutputs>,
    selected_profile: Memo<Option<Result<HistoryProfile, InputError>>>,
) -> Memo<FleetResult> {
    // The other types' inputs: unchanged (equal) while the selected type's prices change.
    let others = Memo::new(move |_| {
        state.with(|s| {
            if !active(&s.fleet) {
                return Vec::new();
            }
            (0..s.fleet.types.len())
                .filter(|&k| k != s.fleet.selected)
                .map(|k| (k, type_inputs(s, k)))
                .collect::<Vec<_>>()
        })
    });
    let others_planned = Memo::new(move |_| {
        others.with(|others| {
            profiles.with(|profiles| {
                others
                    .iter()
                    .map(|(k, i)| {
                        let history = profiles.get(*k).and_then(|p| p.as_ref().ok());
                        plan_with_history(i, history)
                    })
                    .collect::<Vec<_>>()
            })
        })
    });
    Memo::new(move |_| {
        state.with(|s| {
            if !active(&s.fleet) {
                return None;
            }
            let typed = !profiles.with(Vec::is_empty);
            // A type whose history could not be profiled is named.
            if typed {
                if let Some((k, e)) = profiles.with(|p| {
                    p.iter()
                        .enumerate()
                        .find_map(|(k, r)| r.as_ref().err().map(|e| (k, e.clone())))
                }) {
                    return Some(Err(crate::core::fleet_plan::FleetError {
                        index: Some(k),
                        error: e,
                    }));
                }
            }
            others.with(|others| {
                others_planned.with(|planned| {
                    outputs.with(|selected_out| {
                        profiles.with(|profiles| {
                            selected_profile.with(|sel_prof| {
                                let sel = s.fleet.selected;
                                let sel_history = sel_prof.as_ref().and_then(|p| p.as_ref().ok());
                                let mut plans: Vec<TypePlan> =
                                    Vec::with_capacity(s.fleet.types.len());
                                let mut other = others.iter().zip(planned);
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
                            })
                        })
                    })
                })
            })
        })
    })
}
