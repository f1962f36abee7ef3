//! The fleet's memos in the page (§ 16): each GPU type's history profile, the other types'
//! plans, and the fleet's plan. The selected type is planned once, by the page's `outputs`
//! memo (its cards read it); a price typed for it re-plans only that type and the fleet's
//! allocation, never the other types (their inputs compare equal, so their memo holds).

use leptos::prelude::*;

use crate::core::error::InputError;
use crate::core::plan::PlanOutputs;
use crate::core::profile::{HistoryProfile, ProfileSettings};
use crate::page::pipeline;
use crate::present::FleetResult;
use crate::state::fleet::active;
use crate::state::{AppState, ParseStatus, UsageMode};

pub use crate::page::pipeline::TypeProfiles;

/// The fleet reads a typed history: the usage mode is the history's, it has two or more
/// types, and the fleet has its rows.
pub fn typed_history(s: &AppState, parse: &ParseStatus) -> bool {
    s.mode == UsageMode::Data
        && active(&s.fleet)
        && matches!(parse, ParseStatus::Done(Ok(p)) if p.types.len() >= 2)
}

/// Each type's profile from its history types (`pipeline::type_profiles`).
pub fn type_profiles(
    state: RwSignal<AppState>,
    parse_status: RwSignal<ParseStatus>,
    settings: Memo<ProfileSettings>,
) -> Memo<TypeProfiles> {
    let keys = Memo::new(move |_| state.with(pipeline::typed_keys));
    Memo::new(move |_| {
        let Some(keys) = keys.get() else {
            return Vec::new();
        };
        let settings = settings.get();
        parse_status.with(|p| {
            let parsed = match p {
                ParseStatus::Done(Ok(parsed)) => Some(parsed),
                _ => None,
            };
            pipeline::type_profiles(Some(keys), parsed, &settings)
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
    let others = Memo::new(move |_| state.with(pipeline::other_types));
    let others_planned = Memo::new(move |_| {
        others.with(|others| profiles.with(|profiles| pipeline::plan_others(others, profiles)))
    });
    Memo::new(move |_| {
        state.with(|s| {
            // One type: no fleet, and nothing else read (a price change must not re-run this).
            if !active(&s.fleet) {
                return None;
            }
            others.with(|others| {
                others_planned.with(|planned| {
                    outputs.with(|selected_out| {
                        profiles.with(|profiles| {
                            selected_profile.with(|sel_prof| {
                                pipeline::fleet_plan(
                                    s,
                                    profiles,
                                    others,
                                    planned,
                                    selected_out,
                                    sel_prof.as_ref(),
                                )
                            })
                        })
                    })
                })
            })
        })
    })
}
