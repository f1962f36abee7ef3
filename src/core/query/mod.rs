//! Queries for the engines that hold a history too large for a tab (issue 38): the page
//! writes the aggregation, the user runs it where the data lives (Athena, DuckDB, BigQuery,
//! Prometheus, slurmdbd's MariaDB, `sacct`), and the page reads the small hourly answer.
//!
//! Every SQL query answers in one shape, which `core::ingest` reads as a long table and
//! recognises as the planner's answer ([`ANSWER_HEADER`]):
//!
//! | column | holds |
//! |---|---|
//! | `hour_utc` | the hour's start, ISO 8601 with `Z` (`2026-11-02T10:00:00Z`) or Unix seconds |
//! | `gpu_type` | the GPU model (`A100 40GB`, `a100`, `NVIDIA H100 80GB HBM3`) |
//! | `team` | only when grouped by team: the account, tag or label value (`''` → none) |
//! | `gpu_hours` | GPU-hours used in that hour = GPUs busy on average over the hour |
//!
//! Every hour of the window is in the answer for every series (type, or type and team) that
//! has usage in it, 0 where idle (`hours::fill`: the reader sees hourly samples, never a gap);
//! every time is UTC, and the window is `[start, end)` on whole hours. User text (paths,
//! table names, tag keys, labels) only enters a query through [`quote`], so it can never
//! change the query.
//! Pure: no browser imports; natively tested (and against the real engines end to end).

pub mod athena;
pub mod bigquery;
pub mod cur_sql;
pub mod duckdb;
pub mod hours;
pub mod promql;
pub mod quote;
pub mod sacct;
pub mod slurmdbd;

// The answer's names (shared with the reader, `core::answer`).
pub use crate::core::answer::{ANSWER_HEADER, HOUR, PRICINGS, RATES_HEADER, TEAM, TYPE, VALUE};

/// The longest window a query is written for (10 years of hours).
pub const MAX_HOURS: i64 = 10 * 366 * 24;

/// Where the history lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Engine {
    /// Amazon Athena (Trino) over a CUR with the legacy Athena column names
    /// (`line_item_usage_start_date`, `product_instance_type`, `resource_tags_user_team`).
    Athena,
    /// Athena over a CUR 2.0 data export (`line_item_usage_start_date`,
    /// `product['instance_type']`, `resource_tags['user_team']`).
    AthenaCur2,
    /// DuckDB over a `sacct -P` export or CUR Parquet/CSV files ([`DuckSource`]).
    DuckDb,
    /// BigQuery over the GCP billing export (detailed, resource level).
    BigQuery,
    /// PromQL for Prometheus / Thanos ([`PromSource`]).
    PromQl,
    /// SQL for slurmdbd's MySQL/MariaDB database (its hourly usage tables).
    Slurmdbd,
    /// A `sacct` command line for an exact window.
    Sacct,
}

impl Engine {
    pub const ALL: [Engine; 7] = [
        Engine::Athena,
        Engine::AthenaCur2,
        Engine::DuckDb,
        Engine::BigQuery,
        Engine::PromQl,
        Engine::Slurmdbd,
        Engine::Sacct,
    ];

    /// The id the page's `query-engine` select uses.
    pub fn id(self) -> &'static str {
        match self {
            Engine::Athena => "athena",
            Engine::AthenaCur2 => "athena-cur2",
            Engine::DuckDb => "duckdb",
            Engine::BigQuery => "bigquery",
            Engine::PromQl => "promql",
            Engine::Slurmdbd => "slurmdbd",
            Engine::Sacct => "sacct",
        }
    }

    pub fn from_id(id: &str) -> Option<Engine> {
        Engine::ALL.into_iter().find(|e| e.id() == id)
    }
}

/// What the DuckDB query reads at [`QuerySpec::path`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum DuckSource {
    /// A `sacct -a -X -P` export (`|`-separated, header line): jobs expanded into the hours
    /// they cover, each hour's share exact.
    Sacct,
    /// CUR files with the legacy column names (Parquet if the path ends `.parquet`, else CSV).
    Cur,
    /// CUR 2.0 files.
    Cur2,
}

/// What the PromQL counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum PromSource {
    /// DCGM utilisation (`DCGM_FI_DEV_GPU_UTIL`): the fraction of each hour each GPU is at or
    /// above the busy threshold, summed by `modelName`.
    Dcgm,
    /// kube-state-metrics: GPUs requested by running pods
    /// (`kube_pod_container_resource_requests{resource="nvidia_com_gpu"}`).
    KubeRequests,
}

/// The user's choices.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct QuerySpec {
    pub engine: Engine,
    /// The first hour (UTC Unix seconds, on the hour) and the hour after the last.
    pub start: i64,
    pub end: i64,
    /// The GPU models counted, as type keys (`core::ingest::normalize_type`: `a100-40g`,
    /// `h100`) or EC2 instance types (`p4d.24xlarge`, from the page's instance → GPU table,
    /// `core::gpu_instances`); empty: every GPU. For the bills, a model counts every instance
    /// type of it, an instance type only itself.
    pub types: Vec<String>,
    /// DCGM: a GPU is busy at a sample at or above this utilisation (percent).
    pub busy_threshold_percent: f64,
    /// Group by team: the CUR user tag key (`team`), the GCP label key, the Prometheus label
    /// (`namespace`), the Slurm field (`account`, `user`, `partition`, `qos`); `None`: no
    /// team column in the answer.
    pub team: Option<String>,
    /// DuckDB: the file or glob read (default `sacct.txt`).
    pub path: String,
    pub duck_source: DuckSource,
    /// Athena: the CUR table (`database.table`); BigQuery: `project.dataset.table`;
    /// slurmdbd: the cluster name (its tables are `<cluster>_…`); PromQL: an extra label
    /// matcher's selector text is not taken from here.
    pub table: String,
    pub prom: PromSource,
    /// Bills (Athena, DuckDB over a CUR, BigQuery): write the effective-rates query
    /// ([`RATES_HEADER`]) instead of the hourly one.
    pub rates: bool,
}

/// Why a query could not be written: the field and the reason, for the page to show.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum QueryError {
    /// `end` is not after `start`, or the times are not on the hour.
    BadWindow,
    /// More than [`MAX_HOURS`] hours.
    WindowTooLong,
    /// The table / cluster name is empty or not a name the engine accepts.
    BadTable(String),
    /// The path is empty.
    EmptyPath,
    /// The team field is not one this engine groups by (Slurm: account, user, partition,
    /// qos) or is empty.
    BadTeam(String),
    /// A type key not known to the instance table (bills) — the bill has no such GPU.
    UnknownType(String),
    /// The threshold is not in 0–100.
    BadThreshold,
}

impl Default for QuerySpec {
    fn default() -> Self {
        Self {
            engine: Engine::DuckDb,
            start: 0,
            end: 0,
            types: Vec::new(),
            busy_threshold_percent: 10.0,
            team: None,
            path: "sacct.txt".into(),
            duck_source: DuckSource::Sacct,
            table: String::new(),
            prom: PromSource::Dcgm,
            rates: false,
        }
    }
}

/// A bill read by EC2 instance type: a CUR in Athena or DuckDB.
pub fn reads_instance_types(engine: Engine, source: DuckSource) -> bool {
    matches!(engine, Engine::Athena | Engine::AthenaCur2)
        || (engine == Engine::DuckDb && source != DuckSource::Sacct)
}

/// A bill (a CUR, or GCP's billing export): it has effective rates ([`QuerySpec::rates`]).
pub fn reads_bill(engine: Engine, source: DuckSource) -> bool {
    engine == Engine::BigQuery || reads_instance_types(engine, source)
}

/// The query (or command) text for `spec`: exactly what the page shows and copies.
pub fn write(spec: &QuerySpec) -> Result<String, QueryError> {
    check_window(spec)?;
    // The types as the user typed them (`A100 40GB`, `h100`) become type keys, once; an EC2
    // instance type of the page's instance → GPU table (`p4d.24xlarge`) stays one for the
    // bills read by instance type (only that size is counted) and is its GPU model's key for
    // the others.
    let mut spec = spec.clone();
    let by_instance = reads_instance_types(spec.engine, spec.duck_source);
    let mut keys: Vec<String> = Vec::new();
    for t in spec
        .types
        .iter()
        .map(|t| t.trim())
        .filter(|t| !t.is_empty())
    {
        let key = match crate::core::gpu_instances::lookup(t) {
            Some(g) if by_instance => g.instance_type.to_string(),
            Some(g) => crate::core::ingest::normalize_type(g.model),
            None => crate::core::ingest::normalize_type(t),
        };
        if key.is_empty() {
            return Err(QueryError::UnknownType(t.to_string()));
        }
        if !keys.contains(&key) {
            keys.push(key);
        }
    }
    spec.types = keys;
    let spec = &spec;
    match spec.engine {
        Engine::Athena => athena::write(spec, false),
        Engine::AthenaCur2 => athena::write(spec, true),
        Engine::DuckDb => duckdb::write(spec),
        Engine::BigQuery => bigquery::write(spec),
        Engine::PromQl => promql::write(spec),
        Engine::Slurmdbd => slurmdbd::write(spec),
        Engine::Sacct => sacct::write(spec),
    }
}

fn check_window(spec: &QuerySpec) -> Result<(), QueryError> {
    if spec.end <= spec.start || spec.start % 3600 != 0 || spec.end % 3600 != 0 {
        return Err(QueryError::BadWindow);
    }
    if (spec.end - spec.start) / 3600 > MAX_HOURS {
        return Err(QueryError::WindowTooLong);
    }
    if !(0.0..=100.0).contains(&spec.busy_threshold_percent) {
        return Err(QueryError::BadThreshold);
    }
    Ok(())
}

/// The UTC midnight (Unix seconds) of a `YYYY-MM-DD` day, as a date input gives it.
pub fn parse_day(s: &str) -> Option<i64> {
    let mut it = s.trim().splitn(3, '-');
    let y: i64 = it.next()?.parse().ok()?;
    let m: i64 = it.next()?.parse().ok()?;
    let d: i64 = it.next()?.parse().ok()?;
    let ok = (1970..=9999).contains(&y)
        && (1..=12).contains(&m)
        && d >= 1
        && d <= crate::core::calendar::days_in_month(y, m);
    ok.then(|| crate::core::calendar::days_from_civil(y, m, d) * 86_400)
}

/// `YYYY-MM-DD` of a UTC Unix time's day.
pub fn day_text(t: i64) -> String {
    utc_text(t)[..10].to_string()
}

/// `YYYY-MM-DD HH:MM:SS` of a UTC Unix time (the literals every dialect parses).
pub fn utc_text(t: i64) -> String {
    let days = t.div_euclid(86_400);
    let secs = t.rem_euclid(86_400);
    let (y, m, d) = crate::core::calendar::civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02}",
        secs / 3600,
        secs % 3600 / 60,
        secs % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An instance type counts only itself in a bill, and its GPU model elsewhere.
    #[test]
    fn instance_types() {
        let spec = QuerySpec {
            engine: Engine::DuckDb,
            duck_source: DuckSource::Cur,
            path: "cur.parquet".into(),
            start: 1_793_577_600,
            end: 1_793_577_600 + 86_400,
            types: vec![" P4D.24xlarge ".into()],
            ..Default::default()
        };
        let q = write(&spec).unwrap();
        assert!(q.contains("'p4d.24xlarge'"), "{q}");
        assert!(!q.contains("'p4de.24xlarge'") && !q.contains("'g5.xlarge'"));
        let model = write(&QuerySpec {
            types: vec!["A100 40GB".into()],
            ..spec.clone()
        })
        .unwrap();
        assert!(model.contains("'p4d.24xlarge'") && !model.contains("'p4de.24xlarge'"));
        // Slurm knows no instance types: the model's key.
        let sacct = write(&QuerySpec {
            engine: Engine::DuckDb,
            duck_source: DuckSource::Sacct,
            ..spec.clone()
        })
        .unwrap();
        let by_key = write(&QuerySpec {
            engine: Engine::DuckDb,
            duck_source: DuckSource::Sacct,
            types: vec!["a100-40g".into()],
            ..spec.clone()
        })
        .unwrap();
        assert_eq!(sacct, by_key);
    }

    #[test]
    fn days_and_windows() {
        assert_eq!(parse_day("2026-11-02"), Some(1_793_577_600));
        assert_eq!(parse_day(" 2024-02-29 "), Some(1_709_164_800));
        assert_eq!(parse_day("2025-02-29"), None);
        assert_eq!(parse_day("2026-13-01"), None);
        assert_eq!(parse_day("2026-11"), None);
        assert_eq!(parse_day("x"), None);
        assert_eq!(day_text(1_793_577_600 + 3_599), "2026-11-02");
        assert_eq!(utc_text(1_793_581_200), "2026-11-02 01:00:00");
        let mut spec = QuerySpec {
            start: 7200,
            end: 3600,
            ..Default::default()
        };
        assert_eq!(write(&spec), Err(QueryError::BadWindow));
        spec.end = 7200 + 1800;
        assert_eq!(write(&spec), Err(QueryError::BadWindow));
        spec.end = 7200 + (MAX_HOURS + 1) * 3600;
        assert_eq!(write(&spec), Err(QueryError::WindowTooLong));
        spec.end = 7200 + 3600;
        spec.busy_threshold_percent = 101.0;
        assert_eq!(write(&spec), Err(QueryError::BadThreshold));
        for e in Engine::ALL {
            assert_eq!(Engine::from_id(e.id()), Some(e));
        }
        assert_eq!(Engine::from_id("mysql"), None);
    }
}
