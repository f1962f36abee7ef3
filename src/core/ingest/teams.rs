//! Who used the GPUs (issue 37): one hourly series per team, on the hours of
//! [`super::Parsed::series`], from the column, label or tag that names the team.
//!
//! Sources: Slurm `Account` (or `User`, `Partition`, `QOS`), a Prometheus label (default
//! `namespace`; any label of the answer), an AWS CUR tag column (`resourceTags/user:*`,
//! CUR 2.0 `resource_tags` keys), a team column in a long table (`timestamp,team,gpus`,
//! `timestamp,type,team,gpus`; headed `team`, `团队`, `account`, `namespace`, `project`, …).
//! Usage without a team is the explicit [`UNALLOCATED`] team. The teams' values add up, hour
//! by hour, to the history's series (and, per type, to each type's series).

/// The name of the team of usage that carries no team (an empty cell, a series without
/// the label, a line item without the tag).
pub const UNALLOCATED: &str = "(unallocated)";
/// At most this many teams are kept by name; the smallest beyond it (by GPU-hours) are
/// summed into one team named [`OTHER_TEAMS`] and counted in [`Teams::merged`].
pub const MAX_TEAMS: usize = 256;
/// The team that holds the teams beyond [`MAX_TEAMS`].
pub const OTHER_TEAMS: &str = "(other teams)";

/// Which column, label or tag names the team (the page's `team-source`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum TeamChoice {
    /// The input's usual one: Slurm `Account`, Prometheus `namespace` (else the first label
    /// that is not the metric, type, instance or GPU id), the first CUR tag column, a long
    /// table's team column.
    #[default]
    Auto,
    /// No teams: [`super::Parsed::teams`] is `None`.
    Off,
    /// The column header, label name or tag column with this name, as listed in
    /// [`Teams::choices`] (compared without ASCII case).
    Named(String),
}

/// What named the teams of a history.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum TeamSource {
    /// A table or job-log column (`Account`, `User`, `Partition`, `QOS`, `team`, …), its
    /// header as written.
    Column(String),
    /// A Prometheus label (`namespace`, `team`, …).
    Label(String),
    /// A cost-report tag column (`resourceTags/user:team`), its header as written.
    Tag(String),
}

impl TeamSource {
    /// The column, label or tag name.
    pub fn name(&self) -> &str {
        match self {
            TeamSource::Column(s) | TeamSource::Label(s) | TeamSource::Tag(s) => s,
        }
    }
}

/// One team's usage.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TeamSeries {
    /// The team as first written (trimmed, at most 40 characters), or [`UNALLOCATED`] /
    /// [`OTHER_TEAMS`].
    pub name: String,
    /// GPUs busy per hour, on the hours of `Parsed::series` (the same length).
    pub values: Vec<f64>,
    /// A typed history: the team's GPUs busy per hour of each type (index as in
    /// `Parsed::types`), each on the same hours, or empty when the team never used that
    /// type; `values` is their sum. Empty for an untyped history.
    pub by_type: Vec<Vec<f64>>,
}

/// The teams of a history.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Teams {
    /// What named them.
    pub source: TeamSource,
    /// Every column, label or tag of the input that could name the teams, `source` among
    /// them (what the page's `team-source` offers).
    pub choices: Vec<TeamSource>,
    /// In order of first appearance; [`UNALLOCATED`] (when some usage has no team) and
    /// [`OTHER_TEAMS`] last.
    pub teams: Vec<TeamSeries>,
    /// Teams summed into [`OTHER_TEAMS`] (0: none).
    pub merged: usize,
}
