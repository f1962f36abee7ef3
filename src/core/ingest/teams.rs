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
/// summed into one team named [`OTHER_TEAMS`] and counted in [`Teams::merged`]
/// ([`UNALLOCATED`] is always kept: it is no team).
pub const MAX_TEAMS: usize = 256;
/// The team that holds the teams beyond [`MAX_TEAMS`].
pub const OTHER_TEAMS: &str = "(other teams)";

/// Which column, label or tag names the team (the page's `team-source`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum TeamChoice {
    /// The input's usual one: Slurm `Account` (else `User`), Prometheus `namespace` (else
    /// `exported_namespace`, `team`, `project`, `tenant`, `account`; none of them: no
    /// teams), the first CUR user tag column (CUR 2.0: the first `user_` key met), a long
    /// table's first team column.
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

// ---------------------------------------------------------------------------------------
// What the readers share: team names, the choice of source, and the teams' hours.

use std::collections::HashMap;

use super::excerpt;
use super::resample::{jobs_by_group, Ordered, Timeline};

/// Distinct team names kept by name; the names past it go to [`OTHER_TEAMS`] unranked (a
/// file with a million users keeps a million names otherwise).
pub(crate) const MAX_TEAM_NAMES: usize = 65_536;
/// Team of nothing: a job, series or line item counted for no team (and so for no
/// [`TeamSeries`]; never given to usage that counts).
pub(crate) const NO_TEAM: u32 = u32::MAX;
/// At most this many labels are offered as choices (Prometheus).
pub(crate) const MAX_TEAM_CHOICES: usize = 32;

/// A team's name as kept: control characters removed, trimmed, at most 40 characters (`…`
/// when cut).
pub(crate) fn team_name(raw: &str) -> String {
    if raw.chars().any(char::is_control) {
        let clean: String = raw.chars().filter(|c| !c.is_control()).collect();
        excerpt(&clean)
    } else {
        excerpt(raw)
    }
}

/// FNV-1a of a name (counts the names past [`MAX_TEAM_NAMES`] without keeping them).
fn fnv(bytes: &[u8]) -> i64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h as i64
}

/// Two short byte strings are equal (compared in place: most cells are a few bytes).
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
}

/// The teams met in one input, in order of first appearance: each raw cell text is named
/// once ([`team_name`]); names equal after that are one team; an empty cell is
/// [`UNALLOCATED`]. Later cells find their form in an open-addressing table by their FNV-1a
/// hash and bytes (a cell costs a hash of its bytes and one comparison, however many teams).
#[derive(Default)]
pub(crate) struct TeamTable {
    /// The cell forms met (at most 2 × [`MAX_TEAM_NAMES`]) and each one's team.
    forms: Vec<(Box<[u8]>, u32)>,
    /// `forms` by hash: an index in `forms` + 1 (0: empty), linear probing; a power of two
    /// long, at most half full.
    form_at: Vec<u32>,
    by_name: HashMap<String, u32>,
    /// Per team id: its name ([`UNALLOCATED`] for the team of empty cells).
    pub names: Vec<String>,
    unallocated: Option<u32>,
    /// The one id of every name past [`MAX_TEAM_NAMES`], and those names' hashes (sorted and
    /// deduplicated as they grow).
    overflow: Option<u32>,
    overflow_names: Vec<i64>,
    overflow_distinct: usize,
}

impl TeamTable {
    /// The team of a cell.
    pub fn intern(&mut self, raw: &str) -> u32 {
        self.intern_in(raw, (0, raw.len()))
    }

    /// The team of the cell `line[a..b]`.
    pub fn intern_in(&mut self, line: &str, (a, b): (usize, usize)) -> u32 {
        let bytes = line.as_bytes().get(a..b).unwrap_or(&[]);
        let mask = self.form_at.len().wrapping_sub(1);
        let mut i = fnv(bytes) as usize & mask;
        while let Some(&k) = self.form_at.get(i).filter(|&&k| k != 0) {
            let (f, t) = &self.forms[k as usize - 1];
            if same(f, bytes) {
                return *t;
            }
            i = (i + 1) & mask;
        }
        let t = self.named(line.get(a..b).unwrap_or(""));
        if self.forms.len() < 2 * MAX_TEAM_NAMES {
            self.forms.push((bytes.into(), t));
            if self.forms.len() * 2 > self.form_at.len() {
                // Grow (at most half full) and place every form again.
                let size = (self.form_at.len() * 2).max(64);
                self.form_at = vec![0; size];
                for (k, (f, _)) in self.forms.iter().enumerate() {
                    let mut i = fnv(f) as usize & (size - 1);
                    while self.form_at[i] != 0 {
                        i = (i + 1) & (size - 1);
                    }
                    self.form_at[i] = k as u32 + 1;
                }
            } else {
                let mut i = fnv(bytes) as usize & mask;
                while self.form_at[i] != 0 {
                    i = (i + 1) & mask;
                }
                self.form_at[i] = self.forms.len() as u32;
            }
        }
        t
    }

    /// The team of a cell not met before.
    fn named(&mut self, raw: &str) -> u32 {
        let name = team_name(raw);
        if name.is_empty() || name == UNALLOCATED {
            self.unallocated()
        } else if let Some(&t) = self.by_name.get(&name) {
            t
        } else if self.by_name.len() >= MAX_TEAM_NAMES {
            self.overflow_names.push(fnv(name.as_bytes()));
            if self.overflow_names.len() >= 2 * self.overflow_distinct + 1024 {
                self.overflow_names.sort_unstable();
                self.overflow_names.dedup();
                self.overflow_distinct = self.overflow_names.len();
            }
            match self.overflow {
                Some(t) => t,
                None => {
                    let t = self.push(OTHER_TEAMS.to_string());
                    self.overflow = Some(t);
                    t
                }
            }
        } else {
            let t = self.push(name.clone());
            self.by_name.insert(name, t);
            t
        }
    }

    /// Distinct names past [`MAX_TEAM_NAMES`].
    fn overflow_count(&self) -> usize {
        let mut v = self.overflow_names.clone();
        v.sort_unstable();
        v.dedup();
        v.len()
    }

    /// The team of usage without a team.
    pub fn unallocated(&mut self) -> u32 {
        match self.unallocated {
            Some(t) => t,
            None => {
                let t = self.push(UNALLOCATED.to_string());
                self.unallocated = Some(t);
                t
            }
        }
    }

    fn push(&mut self, name: String) -> u32 {
        self.names.push(name);
        (self.names.len() - 1) as u32
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }
}

/// The source `choice` picks among `choices` (`auto`: the index Auto takes, if any); `None`
/// for [`TeamChoice::Off`] and for a name that is not a choice.
pub(crate) fn pick(
    choice: &TeamChoice,
    choices: &[TeamSource],
    auto: Option<usize>,
) -> Option<usize> {
    match choice {
        TeamChoice::Off => None,
        TeamChoice::Auto => auto.filter(|&i| i < choices.len()),
        TeamChoice::Named(n) => {
            let n = n.trim();
            choices
                .iter()
                .position(|c| c.name().eq_ignore_ascii_case(n))
        }
    }
}

/// Where each team goes in [`Teams::teams`].
struct Slots {
    /// Per team id: its place (`u32::MAX`: no usage).
    slot_of: Vec<u32>,
    names: Vec<String>,
    merged: usize,
}

/// The teams with usage (`used`), in order of first appearance, [`UNALLOCATED`] then
/// [`OTHER_TEAMS`] last; past [`MAX_TEAMS`], the largest by GPU-hours (`hours`) are kept
/// ([`UNALLOCATED`] always: it is no team) and the others summed into [`OTHER_TEAMS`].
fn slots(table: &TeamTable, hours: &[f64], used: &[bool]) -> Slots {
    let n = table.len();
    let is_used = |t: usize| used.get(t).copied().unwrap_or(false);
    let unalloc = table
        .unallocated
        .map(|t| t as usize)
        .filter(|&t| is_used(t));
    let overflow = table.overflow.map(|t| t as usize).filter(|&t| is_used(t));
    let named: Vec<usize> = (0..n)
        .filter(|&t| {
            is_used(t) && Some(t as u32) != table.unallocated && Some(t as u32) != table.overflow
        })
        .collect();
    let overflow_count = overflow.map_or(0, |_| table.overflow_count().max(1));
    let distinct = named.len() + usize::from(unalloc.is_some()) + overflow_count;
    let mut slot_of = vec![u32::MAX; n];
    let mut names = Vec::new();
    let mut merged = 0;
    let kept: Vec<usize> = if distinct <= MAX_TEAMS {
        named
    } else {
        let keep = (MAX_TEAMS - 1 - usize::from(unalloc.is_some())).min(named.len());
        // Largest first (a key that sorts them so); equal GPU-hours: the earlier team.
        let key = |t: usize| {
            let h = hours.get(t).copied().unwrap_or(0.0).max(0.0) + 0.0;
            -(h.to_bits() as i64)
        };
        let mut keys: Vec<i64> = named.iter().map(|&t| key(t)).collect();
        keys.sort_unstable();
        let cut = keys.get(keep.wrapping_sub(1)).copied().unwrap_or(i64::MIN);
        let mut at_cut = keep - keys.iter().filter(|&&k| k < cut).count();
        merged = named.len() - keep + overflow_count;
        named
            .into_iter()
            .filter(|&t| {
                let k = key(t);
                let kept = k < cut || (k == cut && at_cut > 0);
                if k == cut && kept {
                    at_cut -= 1;
                }
                kept && keep > 0
            })
            .collect()
    };
    for t in kept {
        slot_of[t] = names.len() as u32;
        names.push(table.names[t].clone());
    }
    if let Some(u) = unalloc {
        slot_of[u] = names.len() as u32;
        names.push(UNALLOCATED.to_string());
    }
    if merged > 0 || overflow.is_some() {
        let other = names.len() as u32;
        names.push(OTHER_TEAMS.to_string());
        for (t, s) in slot_of.iter_mut().enumerate() {
            if is_used(t) && *s == u32::MAX {
                *s = other;
            }
        }
    }
    Slots {
        slot_of,
        names,
        merged,
    }
}

/// The teams' series being filled: per slot, its values and (typed) per type.
struct Fill {
    hours: usize,
    ntypes: usize,
    values: Vec<Vec<f64>>,
    by_type: Vec<Vec<Vec<f64>>>,
}

impl Fill {
    fn new(nslots: usize, hours: usize, ntypes: usize) -> Self {
        Self {
            hours,
            ntypes,
            values: vec![vec![0.0; hours]; nslots],
            by_type: vec![vec![Vec::new(); ntypes]; nslots],
        }
    }

    /// The type series of a slot (made on first use).
    fn typed(&mut self, slot: usize, ty: usize) -> Option<&mut Vec<f64>> {
        let v = self.by_type.get_mut(slot)?.get_mut(ty)?;
        if v.is_empty() {
            v.resize(self.hours, 0.0);
        }
        Some(v)
    }

    fn add(&mut self, slot: usize, ty: Option<usize>, hour: usize, v: f64) {
        if let Some(x) = self.values.get_mut(slot).and_then(|s| s.get_mut(hour)) {
            *x += v;
        }
        if let Some(t) = ty.filter(|&t| t < self.ntypes) {
            if let Some(x) = self.typed(slot, t).and_then(|s| s.get_mut(hour)) {
                *x += v;
            }
        }
    }

    /// A whole series of a slot (and type), on every hour.
    fn put(&mut self, slot: usize, ty: Option<usize>, series: Vec<f64>) {
        if let Some(v) = self.values.get_mut(slot) {
            for (x, y) in v.iter_mut().zip(&series) {
                *x += y;
            }
        }
        let Some(t) = ty.filter(|&t| t < self.ntypes) else {
            return;
        };
        if let Some(v) = self.by_type.get_mut(slot).and_then(|s| s.get_mut(t)) {
            if v.is_empty() {
                *v = series;
            } else {
                for (x, y) in v.iter_mut().zip(&series) {
                    *x += y;
                }
            }
        }
    }

    fn into_series(self, names: Vec<String>) -> Vec<TeamSeries> {
        names
            .into_iter()
            .zip(self.values)
            .zip(self.by_type)
            .map(|((name, values), by_type)| TeamSeries {
                name,
                values,
                by_type,
            })
            .collect()
    }
}

/// The teams of a history: `Teams` from its source, choices and series.
pub(crate) fn teams_of(
    source: TeamSource,
    choices: Vec<TeamSource>,
    (teams, merged): (Vec<TeamSeries>, usize),
) -> Teams {
    Teams {
        source,
        choices,
        teams,
        merged,
    }
}

/// What a group of series (or of jobs) is: its team id (or [`NO_TEAM`]) and, typed, its
/// type's index in `Parsed::types` (`u8::MAX`: not counted).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Group {
    pub team: u32,
    pub ty: u8,
}

/// The groups of (team, type) pairs met, numbered as met.
pub(crate) struct Groups {
    nt: usize,
    nteams: usize,
    at: Vec<u32>,
    pub list: Vec<Group>,
}

impl Groups {
    pub fn new(nteams: usize, ntypes: usize) -> Self {
        let nt = ntypes.max(1);
        Self {
            nt,
            nteams,
            at: vec![NO_TEAM; nteams * nt],
            list: Vec::new(),
        }
    }

    /// The group of a team and type ([`NO_TEAM`] for a team or type beyond the table's).
    pub fn of(&mut self, team: u32, ty: u8) -> u32 {
        let (t, y) = (team as usize, usize::from(ty));
        if t >= self.nteams || y >= self.nt {
            return NO_TEAM;
        }
        let slot = &mut self.at[t * self.nt + y];
        if *slot == NO_TEAM {
            *slot = self.list.len() as u32;
            self.list.push(Group { team, ty });
        }
        *slot
    }
}

/// Hourly usage per group of a sample reading: (index in [`Timeline::keys`], group, GPUs),
/// any order, repeats summed; every produced hour holds its source hour's entries
/// ([`Timeline::src`]). `ntypes` is 0 for an untyped history.
pub(crate) fn from_entries(
    entries: &[(u32, u32, f64)],
    tl: &Timeline,
    groups: &[Group],
    ntypes: usize,
    table: &TeamTable,
) -> (Vec<TeamSeries>, usize) {
    let nsrc = tl.keys.len();
    // Produced hours per source hour (more than one when coarser samples are held).
    let mut weight = vec![0u32; nsrc];
    for &s in &tl.src {
        if let Some(w) = weight.get_mut(s as usize) {
            *w += 1;
        }
    }
    let mut hours = vec![0.0f64; table.len()];
    let mut used = vec![false; table.len()];
    for &(s, g, v) in entries {
        let Some(gr) = groups.get(g as usize) else {
            continue;
        };
        if let Some(h) = hours.get_mut(gr.team as usize) {
            *h += v * f64::from(weight.get(s as usize).copied().unwrap_or(0));
            used[gr.team as usize] = true;
        }
    }
    let sl = slots(table, &hours, &used);
    // On the source hours, then each produced hour takes its source hour's value.
    let mut fill = Fill::new(sl.names.len(), nsrc, ntypes);
    for &(s, g, v) in entries {
        let Some(gr) = groups.get(g as usize) else {
            continue;
        };
        match sl.slot_of.get(gr.team as usize) {
            Some(&slot) if slot != u32::MAX => {
                let ty = (ntypes > 0).then_some(usize::from(gr.ty));
                fill.add(slot as usize, ty, s as usize, v);
            }
            _ => {}
        }
    }
    let identity = tl.src.len() == nsrc && tl.src.iter().enumerate().all(|(i, &s)| s as usize == i);
    if !identity {
        let expand = |v: &mut Vec<f64>| {
            if !v.is_empty() {
                let src: Vec<f64> = std::mem::take(v);
                *v = tl
                    .src
                    .iter()
                    .map(|&s| src.get(s as usize).copied().unwrap_or(0.0))
                    .collect();
            }
        };
        fill.hours = tl.src.len();
        fill.values.iter_mut().for_each(expand);
        fill.by_type.iter_mut().flatten().for_each(expand);
    }
    (fill.into_series(sl.names), sl.merged)
}

/// The per-(hour, series) means of ordered samples, as [`super::resample::hourly`] and
/// `hourly_typed` take them, pushed as (source hour, `group_of[series]`, mean) — series
/// without a group ([`NO_TEAM`]) left out.
pub(crate) fn series_means<O: Ordered + ?Sized>(
    o: &O,
    tl: &Timeline,
    group_of: &[u32],
    out: &mut Vec<(u32, u32, f64)>,
) {
    struct Acc<'a> {
        group_of: &'a [u32],
        acc: Vec<(f64, u32)>,
        touched: Vec<u32>,
    }
    impl Acc<'_> {
        fn flush(&mut self, src: usize, out: &mut Vec<(u32, u32, f64)>) {
            for &c in &self.touched {
                let (sum, cnt) = self.acc[c as usize];
                self.acc[c as usize] = (0.0, 0);
                let g = self.group_of[c as usize];
                if g != NO_TEAM {
                    out.push((src as u32, g, sum / f64::from(cnt.max(1))));
                }
            }
            self.touched.clear();
        }
    }
    let mut a = Acc {
        group_of,
        acc: vec![(0.0, 0); group_of.len()],
        touched: Vec::new(),
    };
    let mut cur: Option<usize> = None;
    let mut last_key: Option<i64> = None;
    o.each(|ms, col, v| {
        let c = col as usize;
        if c >= a.acc.len() {
            return;
        }
        let key = super::hour_key(ms + tl.shift, tl.off);
        if last_key != Some(key) {
            if let Some(s) = cur {
                a.flush(s, out);
            }
            last_key = Some(key);
            cur = tl.keys.binary_search(&key).ok();
        }
        if cur.is_none() {
            return;
        }
        let x = &mut a.acc[c];
        if x.1 == 0 {
            a.touched.push(col);
        }
        x.0 += v;
        x.1 += 1;
    });
    if let Some(s) = cur {
        a.flush(s, out);
    }
}

/// At most this many (team, type) pairs are split without ranking the teams first.
const DIRECT_PAIRS: usize = 256;

/// The teams of jobs (`(start ms, end ms, GPUs)`, split across hours as [`super::resample::jobs`]
/// does): job `j` is of team `teams[j]` ([`NO_TEAM`]: counted for none) and, typed, of type
/// `types.0[j]` among `types.1` (one beyond is not counted); on the `n` hours from hour key
/// `k0`. With few teams (no merge possible) one pass splits every (team, type) pair;
/// otherwise a first pass ranks the teams by GPU-hours and the split is per (team kept,
/// type).
pub(crate) fn from_jobs(
    jobs: &[(i64, i64, f64)],
    teams: &[u32],
    types: Option<(&[u8], usize)>,
    table: &TeamTable,
    off: i32,
    (k0, n): (i64, usize),
) -> (Vec<TeamSeries>, usize) {
    let ntypes = types.map_or(0, |t| t.1);
    let nt = ntypes.max(1);
    let nteams = table.len();
    // (team × nt + type) of a job, `usize::MAX` when not counted.
    let pair = |t: u32, y: u8| {
        let (t, y) = (t as usize, usize::from(y));
        if t < nteams && y < nt {
            t * nt + y
        } else {
            usize::MAX
        }
    };
    let (sl, split, groups) = if nteams <= MAX_TEAMS && nteams * nt <= DIRECT_PAIRS {
        let np = nteams * nt;
        let at = |v: &[u8], j: usize| v.get(j).copied().unwrap_or(u8::MAX);
        let team = |j: usize| teams.get(j).copied().unwrap_or(NO_TEAM);
        let split = match types {
            Some((ty, _)) => jobs_by_group(jobs, &|j| pair(team(j), at(ty, j)), np, off, k0, n),
            None => jobs_by_group(jobs, &|j| pair(team(j), 0), np, off, k0, n),
        };
        // A pair with usage has a GPU-hour somewhere (a counted job adds to its hours).
        let pair_used: Vec<bool> = split.iter().map(|v| v.iter().any(|&x| x != 0.0)).collect();
        let used: Vec<bool> = pair_used.chunks(nt).map(|c| c.iter().any(|&u| u)).collect();
        let sl = slots(table, &vec![0.0; nteams], &used);
        let groups: Vec<Option<(usize, usize)>> = (0..np)
            .map(|p| {
                let slot = sl.slot_of[p / nt] as usize;
                (pair_used[p] && slot < sl.names.len()).then_some((slot, p % nt))
            })
            .collect();
        (sl, split, groups)
    } else {
        let mut hours = vec![0.0f64; nteams];
        let mut raw_used = vec![false; nteams * nt];
        let mut visit = |&(s, e, g): &(i64, i64, f64), t: u32, y: u8| {
            let p = pair(t, y);
            if p == usize::MAX || e <= s || g <= 0.0 {
                return u32::MAX;
            }
            hours[p / nt] += g * (e - s) as f64 / 3_600_000.0;
            raw_used[p] = true;
            p as u32
        };
        let mut group_of_job: Vec<u32> = match types {
            Some((ty, _)) => jobs
                .iter()
                .zip(teams)
                .zip(ty)
                .map(|((j, &t), &y)| visit(j, t, y))
                .collect(),
            None => jobs
                .iter()
                .zip(teams)
                .map(|(j, &t)| visit(j, t, 0))
                .collect(),
        };
        let used: Vec<bool> = raw_used.chunks(nt).map(|c| c.iter().any(|&u| u)).collect();
        let sl = slots(table, &hours, &used);
        // Groups: the (slot, type) pairs of the pairs met.
        let mut group_at = vec![u32::MAX; sl.names.len() * nt];
        let mut groups: Vec<Option<(usize, usize)>> = Vec::new();
        let mut remap = vec![u32::MAX; nteams * nt];
        for t in 0..nteams {
            let slot = sl.slot_of[t] as usize;
            if slot >= sl.names.len() {
                continue;
            }
            for ty in (0..nt).filter(|&ty| raw_used[t * nt + ty]) {
                let k = slot * nt + ty;
                if group_at[k] == u32::MAX {
                    group_at[k] = groups.len() as u32;
                    groups.push(Some((slot, ty)));
                }
                remap[t * nt + ty] = group_at[k];
            }
        }
        for g in &mut group_of_job {
            *g = remap.get(*g as usize).copied().unwrap_or(u32::MAX);
        }
        let group_of = |j: usize| group_of_job.get(j).map_or(usize::MAX, |&g| g as usize);
        let split = jobs_by_group(jobs, &group_of, groups.len(), off, k0, n);
        (sl, split, groups)
    };
    let mut fill = Fill::new(sl.names.len(), n, ntypes);
    for (series, g) in split.into_iter().zip(&groups) {
        if let Some((slot, ty)) = *g {
            fill.put(slot, (ntypes > 0).then_some(ty), series);
        }
    }
    (fill.into_series(sl.names), sl.merged)
}
