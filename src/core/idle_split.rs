//! How the idle committed cost of a plan is shared among teams (formulas § 21): a plan
//! input (`PlanInputs::idle_split`, the link's `idlesplit`) that `core::teams` applies. Its
//! own file, so that `core::plan` (the inputs) and `core::teams` (which plans) do not import
//! each other.

/// How the idle committed cost (the committed GPU-hours no team used) is shared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum IdleSplit {
    /// In proportion to each team's baseline GPU-hours (evenly when no team used any).
    #[default]
    Proportional,
    /// The same amount for every team (the unallocated team included).
    Even,
    /// Fixed percentages per team (`core::teams::TeamTableInputs::fixed`, summing to 100).
    Fixed,
    /// Not shared: a separate "idle" row.
    Row,
}

impl IdleSplit {
    pub const ALL: [IdleSplit; 4] = [
        IdleSplit::Proportional,
        IdleSplit::Even,
        IdleSplit::Fixed,
        IdleSplit::Row,
    ];

    /// Stable key (the link's `idlesplit`, the `idle-split` select's values).
    pub fn key(self) -> &'static str {
        match self {
            IdleSplit::Proportional => "proportional",
            IdleSplit::Even => "even",
            IdleSplit::Fixed => "fixed",
            IdleSplit::Row => "row",
        }
    }

    pub fn from_key(key: &str) -> Option<IdleSplit> {
        IdleSplit::ALL.into_iter().find(|s| s.key() == key)
    }
}
