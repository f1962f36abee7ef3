//! The CUR aggregation shared by Athena (Trino) and DuckDB: one builder, so the rule of what
//! counts is written once and the Athena text itself can be run on DuckDB in the tests.
//!
//! The rule is `core::ingest::cur`'s (see `docs/formats.md` "Cloud bills"):
//! - only usage line items count: `Usage`, `DiscountedUsage` (Reserved Instances),
//!   `SavingsPlanCoveredUsage`; never `SavingsPlanNegation` (it cancels the On-Demand cost of
//!   covered usage, counting it would count those hours twice), fees, credits, refunds, tax;
//! - only EC2 instance hours: the usage type's kind (after an optional region prefix, before
//!   the `:`) is `BoxUsage`, `DedicatedUsage` or `SpotUsage` — Spot hours stay the same GPU
//!   model, a Spot GPU is the same GPU;
//! - the instance type is `product_instance_type`, else the usage type's part after the `:`;
//!   × GPUs per instance from a `VALUES` table written from [`GPU_INSTANCES`] (only the
//!   chosen models' instance types when the spec names types);
//! - a row's usage is spread evenly over its usage window, `[start, end)` (an hourly CUR:
//!   one hour; a daily CUR: its 24 hours; a monthly one: the month). Each hour gets
//!   `amount × GPUs × overlap seconds ÷ window seconds`, so a daily row of 48 instance-hours
//!   gives exactly 2 per hour, and an hour cut by the window keeps its share: this is the
//!   page reader's rule (it cannot know the hours inside a day either). A row without an end
//!   is one hour long, as in the reader.
//!
//! Rows are expanded into hours with a join on the window's length in hours (a `lengths ×
//! offsets` table: distinct lengths are few, 1, 24, 720…), an equality join both engines
//! hash, never a cross join of every row with every offset. Offsets go to
//! [`MAX_SPAN_HOURS`] − 1: a CUR line item never spans more than its billing month, and the
//! Athena text only reads rows that start at most that long before the window.
//!
//! The answer has every hour of the window for each model (and team) with any usage in it,
//! 0 where it had none ([`super::hours`] says why: a missing hour is a gap to the page's
//! reader, or makes it read longer samples; the waterline needs the idle hours).
//!
//! The text stays in the subset Trino and DuckDB read alike. The differences it avoids
//! (pinned by the tests here and in `end2end/tests/real_duckdb.test.mjs`):
//! - integer `/`: Trino truncates, DuckDB divides in floating point (`//` truncates toward
//!   zero): every division here has a `DOUBLE` operand, and hours are `floor`ed;
//! - `regexp_extract` with no match: Trino `NULL`, DuckDB `''`: only compared with `IN (…)`
//!   of non-empty names, where both are "not in";
//! - `LEAST` / `GREATEST` with a `NULL` argument: Trino `NULL`, DuckDB the other argument:
//!   their arguments are never `NULL` here (a missing end is replaced first);
//! - map lookup: Trino's `m['k']` fails on a missing key, DuckDB's `element_at` returns a
//!   list: each dialect gets its own ([`Tags`]);
//! - series of hours: no `sequence` (Trino) / `generate_series` (DuckDB): a digits table
//!   (the offsets here; every hour of the window, for the zero hours of the answer, from
//!   [`super::hours`]);
//! - time zones: Athena reads the CUR's naive `timestamp` columns through `date_diff` with a
//!   naive epoch literal (no session zone involved); DuckDB casts to `TIMESTAMPTZ` under
//!   `SET TimeZone = 'UTC'` (Parquet written with `isAdjustedToUTC` is read as `TIMESTAMPTZ`,
//!   CSV text as written with its `Z`);
//! - the hour's text is built from `year()`…`hour()` of a naive timestamp, which both have.

use super::quote::{sql_ident, sql_literal};
use super::{utc_text, QueryError, QuerySpec, RATES_HEADER};
use crate::core::gpu_instances::{GpuInstance, GPU_INSTANCES};
use crate::core::ingest::normalize_type;

/// Offsets table size: 10⁴ hours (four digit tables), more than any CUR line item's window.
pub const MAX_SPAN_HOURS: i64 = 10_000;

/// The usage-type pattern: group 2 the kind (before the first `:`, after the region prefix
/// `USE1-`), group 3 the instance type.
pub const USAGE_RE: &str = "^([^:]*-)?(BoxUsage|DedicatedUsage|SpotUsage):(.*)$";

/// Which engine reads the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// Athena engine v3 (Trino).
    Trino,
    DuckDb,
}

/// How the team tag is read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tags {
    /// A column per tag (legacy Athena `resource_tags_user_team`, CUR 1.0 CSV
    /// `resourceTags/user:team`): the column's name.
    Column(String),
    /// CUR 2.0's `resource_tags` map (Trino `element_at`, DuckDB `m[k]`, both `NULL` when
    /// the key is missing): the key (`user_team`).
    Map(String),
    /// CUR 2.0 CSV: `resource_tags` as JSON text, read with a JSON pointer (`/user_team`).
    Json(String),
}

/// The columns read, as SQL names (quoted when written).
#[derive(Debug, Clone, Copy)]
pub struct Names {
    pub start: &'static str,
    pub end: &'static str,
    pub line_type: &'static str,
    pub usage_type: &'static str,
    pub instance_type: &'static str,
    pub amount: &'static str,
    pub unblended: &'static str,
    pub ri_cost: &'static str,
    pub sp_cost: &'static str,
    pub currency: &'static str,
}

/// Athena's (legacy CUR in Athena, CUR 2.0 and its Parquet files): the names `cur.rs` reads
/// as "CUR 2.0 / Athena".
pub const SNAKE: Names = Names {
    start: "line_item_usage_start_date",
    end: "line_item_usage_end_date",
    line_type: "line_item_line_item_type",
    usage_type: "line_item_usage_type",
    instance_type: "product_instance_type",
    amount: "line_item_usage_amount",
    unblended: "line_item_unblended_cost",
    ri_cost: "reservation_effective_cost",
    sp_cost: "savings_plan_savings_plan_effective_cost",
    currency: "line_item_currency_code",
};

/// CUR 1.0's CSV files (`lineItem/UsageStartDate`).
pub const CUR1_CSV: Names = Names {
    start: "lineItem/UsageStartDate",
    end: "lineItem/UsageEndDate",
    line_type: "lineItem/LineItemType",
    usage_type: "lineItem/UsageType",
    instance_type: "product/instanceType",
    amount: "lineItem/UsageAmount",
    unblended: "lineItem/UnblendedCost",
    ri_cost: "reservation/EffectiveCost",
    sp_cost: "savingsPlan/SavingsPlanEffectiveCost",
    currency: "lineItem/CurrencyCode",
};

/// What the builder reads.
pub struct Source {
    pub dialect: Dialect,
    /// The `FROM` item (a quoted table, or `read_parquet('…')`).
    pub from: String,
    pub names: Names,
    pub tags: Option<Tags>,
}

/// The instance types counted: every listed one, or the chosen models' and the chosen
/// instance types themselves (an entry with a `.`, `p4d.24xlarge`: type keys have none);
/// error for a type key no instance has — the bill can hold no such GPU.
pub fn instances(types: &[String]) -> Result<Vec<&'static GpuInstance>, QueryError> {
    if types.is_empty() {
        return Ok(GPU_INSTANCES.iter().collect());
    }
    let keys: Vec<String> = GPU_INSTANCES
        .iter()
        .map(|g| normalize_type(g.model))
        .collect();
    let chosen = |g: &GpuInstance, k: &str, t: &str| {
        let t = t.trim();
        t == k || g.instance_type.eq_ignore_ascii_case(t)
    };
    for t in types {
        if !GPU_INSTANCES
            .iter()
            .zip(&keys)
            .any(|(g, k)| chosen(g, k, t))
        {
            return Err(QueryError::UnknownType(t.clone()));
        }
    }
    Ok(GPU_INSTANCES
        .iter()
        .zip(&keys)
        .filter(|(g, k)| types.iter().any(|t| chosen(g, k, t)))
        .map(|(g, _)| g)
        .collect())
}

/// `hour_utc` of an hour number `h` (hours since 1970): `2026-11-02T10:00:00Z`, from the
/// parts of a naive timestamp (no zone, no engine-specific formatting function).
pub fn hour_text(h: &str) -> String {
    let t = format!("(TIMESTAMP '1970-01-01 00:00:00' + INTERVAL '1' HOUR * {h})");
    let two = |f: &str| format!("lpad(CAST({f}({t}) AS VARCHAR), 2, '0')");
    format!(
        "CAST(year({t}) AS VARCHAR) || '-' || {} || '-' || {} || 'T' || {} || ':00:00Z'",
        two("month"),
        two("day"),
        two("hour")
    )
}

/// Seconds since 1970 of a CUR time column.
fn secs(d: Dialect, col: &str) -> String {
    match d {
        Dialect::Trino => format!("date_diff('second', TIMESTAMP '1970-01-01 00:00:00', {col})"),
        Dialect::DuckDb => format!("epoch(CAST({col} AS TIMESTAMPTZ))"),
    }
}

fn team_expr(d: Dialect, tags: &Tags) -> String {
    match (tags, d) {
        (Tags::Column(c), _) => format!("CAST({} AS VARCHAR)", sql_ident(c)),
        (Tags::Map(k), Dialect::Trino) => {
            format!("element_at(resource_tags, {})", sql_literal(k))
        }
        (Tags::Map(k), Dialect::DuckDb) => format!("resource_tags[{}]", sql_literal(k)),
        (Tags::Json(k), _) => {
            let pointer = format!("/{}", k.replace('~', "~0").replace('/', "~1"));
            format!(
                "json_extract_string(resource_tags, {})",
                sql_literal(&pointer)
            )
        }
    }
}

/// The `WITH` list up to `spans` (GPU rows overlapping the window, with GPUs and model).
fn rows_ctes(spec: &QuerySpec, src: &Source, rates: bool) -> Result<String, QueryError> {
    let d = src.dialect;
    let n = &src.names;
    let id = |c: &str| sql_ident(c);
    let list = instances(&spec.types)?;
    let values: Vec<String> = list
        .iter()
        .map(|g| {
            format!(
                "    ({}, {}, {})",
                sql_literal(g.instance_type),
                g.gpus,
                sql_literal(g.model)
            )
        })
        .collect();
    let usage = id(n.usage_type);
    let start = secs(d, &id(n.start));
    let end = secs(d, &id(n.end));
    // The rates are per model, not per team: the tag column is not read.
    let team = match (&src.tags, rates) {
        (Some(t), false) => format!("COALESCE({}, '')", team_expr(d, t)),
        _ => "''".into(),
    };
    let money = if rates {
        format!(
            ",\n    CASE {lt} WHEN 'DiscountedUsage' THEN TRY_CAST({ri} AS DOUBLE) \
             WHEN 'SavingsPlanCoveredUsage' THEN TRY_CAST({sp} AS DOUBLE) \
             ELSE TRY_CAST({ub} AS DOUBLE) END AS cost,\n    \
             CASE {lt} WHEN 'DiscountedUsage' THEN 'reserved' \
             WHEN 'SavingsPlanCoveredUsage' THEN 'savings_plan' \
             WHEN 'Usage' THEN CASE WHEN regexp_extract({usage}, '{USAGE_RE}', 2) = 'SpotUsage' \
             THEN 'spot' ELSE 'on_demand' END END AS pricing,\n    \
             COALESCE(CAST({cur} AS VARCHAR), '') AS currency",
            lt = id(n.line_type),
            ri = id(n.ri_cost),
            sp = id(n.sp_cost),
            ub = id(n.unblended),
            cur = id(n.currency),
        )
    } else {
        String::new()
    };
    // Athena: a bound on the raw `timestamp` column lets Parquet statistics skip row groups
    // (naive timestamps against a naive literal: no session zone involved).
    let raw_bound = match d {
        Dialect::Trino => format!(
            "\n    AND {s} >= TIMESTAMP '{}' AND {s} < TIMESTAMP '{}'",
            utc_text(spec.start - (MAX_SPAN_HOURS - 1) * 3600),
            utc_text(spec.end),
            s = id(n.start)
        ),
        Dialect::DuckDb => String::new(),
    };
    let digits: Vec<String> = (0..10).map(|i| format!("({i})")).collect();
    Ok(format!(
        "WITH\n\
         gpu_instances (instance_type, gpus, gpu_type) AS (VALUES\n{values}\n),\n\
         digits (d) AS (VALUES {digits}),\n\
         offsets (k) AS (\n  SELECT a.d + 10 * b.d + 100 * c.d + 1000 * e.d\n  \
         FROM digits a CROSS JOIN digits b CROSS JOIN digits c CROSS JOIN digits e\n),\n\
         items AS (\n  SELECT\n    {start} AS s,\n    COALESCE({end}, {start} + 3600) AS e,\n    \
         regexp_extract({usage}, '{USAGE_RE}', 2) AS kind,\n    \
         lower(trim(COALESCE(NULLIF(trim({itype}), ''), regexp_extract({usage}, '{USAGE_RE}', 3)))) AS instance_type,\n    \
         TRY_CAST({amount} AS DOUBLE) AS amount,\n    {team} AS team{money}\n  \
         FROM {from}\n  \
         WHERE {lt} IN ('Usage', 'DiscountedUsage', 'SavingsPlanCoveredUsage'){raw_bound}\n),\n\
         spans AS (\n  SELECT i.*, g.gpus, g.gpu_type,\n    \
         CAST(floor(CAST(i.s AS DOUBLE) / 3600) AS BIGINT) AS h0,\n    \
         CAST(ceil(CAST(i.e AS DOUBLE) / 3600) AS BIGINT) AS h1\n  \
         FROM items i JOIN gpu_instances g ON g.instance_type = i.instance_type\n  \
         WHERE i.kind IN ('BoxUsage', 'DedicatedUsage', 'SpotUsage') AND i.amount > 0\n    \
         AND i.e > i.s AND i.s < {w1} AND i.e > {w0}\n)",
        values = values.join(",\n"),
        digits = digits.join(", "),
        itype = id(n.instance_type),
        amount = id(n.amount),
        lt = id(n.line_type),
        from = src.from,
        w0 = spec.start,
        w1 = spec.end,
    ))
}

/// The hourly query: [`super::ANSWER_HEADER`] (`team` only with tags), ordered by hour: every hour
/// of the window for each model (and team) with any usage in it, 0 where it had none
/// ([`super::hours::fill`]).
pub fn hourly(spec: &QuerySpec, src: &Source) -> Result<String, QueryError> {
    let ctes = rows_ctes(spec, src, false)?;
    let team = src.tags.is_some();
    let team_group = if team { ", team" } else { "" };
    Ok(format!(
        "{ctes},\n\
         lengths AS (SELECT DISTINCT h1 - h0 AS n FROM spans),\n\
         pairs AS (SELECT l.n, o.k FROM lengths l JOIN offsets o ON o.k < l.n),\n\
         hours AS (\n  SELECT sp.gpu_type, sp.team, sp.h0 + p.k AS h,\n    \
         sp.amount * sp.gpus\n      \
         * CAST(LEAST(sp.e, (sp.h0 + p.k + 1) * 3600) - GREATEST(sp.s, (sp.h0 + p.k) * 3600) AS DOUBLE)\n      \
         / CAST(sp.e - sp.s AS DOUBLE) AS gh\n  \
         FROM spans sp JOIN pairs p ON p.n = sp.h1 - sp.h0\n),\n\
         used AS (\n  SELECT h, gpu_type{team_group}, SUM(gh) AS gh\n  \
         FROM hours\n  \
         WHERE h >= {h0} AND h < {h1}\n  \
         GROUP BY h, gpu_type{team_group}\n)\n\
         {fill}",
        h0 = spec.start / 3600,
        h1 = spec.end / 3600,
        fill = super::hours::fill(spec.start, spec.end, "used", team, hour_text),
    ))
}

/// The rates query: [`RATES_HEADER`]: per model, pricing and currency, the GPU-hours with a
/// cost and their effective cost, both prorated to the window like the hours (a rate is their
/// ratio; rows without a cost count in neither).
pub fn rates(spec: &QuerySpec, src: &Source) -> Result<String, QueryError> {
    let ctes = rows_ctes(spec, src, true)?;
    let r = RATES_HEADER;
    Ok(format!(
        "{ctes},\n\
         shares AS (\n  SELECT gpu_type, pricing, currency, amount * gpus AS gh, cost,\n    \
         CAST(LEAST(e, {w1}) - GREATEST(s, {w0}) AS DOUBLE) / CAST(e - s AS DOUBLE) AS f\n  \
         FROM spans WHERE cost IS NOT NULL AND pricing IS NOT NULL\n)\n\
         SELECT gpu_type AS {c0}, pricing AS {c1}, SUM(gh * f) AS {c2}, SUM(cost * f) AS {c3}, currency AS {c4}\n\
         FROM shares\n\
         GROUP BY gpu_type, pricing, currency\n\
         ORDER BY gpu_type, pricing, currency\n",
        w0 = spec.start,
        w1 = spec.end,
        c0 = r[0],
        c1 = r[1],
        c2 = r[2],
        c3 = r[3],
        c4 = r[4],
    ))
}

/// The legacy Athena column of a user tag key: `resource_tags_user_<key>`, the key as Athena
/// names its column (lower case, other characters than `a-z0-9_` as `_`); a full column name
/// (`resource_tags_user_team`) is taken as written. The result is quoted as an identifier.
pub fn legacy_tag_column(key: &str) -> Result<String, QueryError> {
    let k = key.trim();
    if k.is_empty() {
        return Err(QueryError::BadTeam(key.into()));
    }
    let lower = k.to_lowercase();
    if lower.starts_with("resource_tags_") {
        return Ok(lower);
    }
    let k = lower.strip_prefix("user:").unwrap_or(&lower);
    let k: String = k
        .chars()
        .map(|c| {
            if c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    Ok(format!("resource_tags_user_{k}"))
}

/// CUR 2.0's `resource_tags` key of a user tag: `user_<key>` (a key written with its prefix is
/// taken as written).
pub fn cur2_tag_key(key: &str) -> Result<String, QueryError> {
    let k = key.trim();
    if k.is_empty() {
        return Err(QueryError::BadTeam(key.into()));
    }
    Ok(if k.starts_with("user_") {
        k.to_string()
    } else {
        format!("user_{k}")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> QuerySpec {
        QuerySpec {
            start: 1_793_577_600, // 2026-11-02T00:00:00Z
            end: 1_793_577_600 + 24 * 3600,
            ..QuerySpec::default()
        }
    }

    fn src(d: Dialect) -> Source {
        Source {
            dialect: d,
            from: "\"cur\".\"cur\"".into(),
            names: SNAKE,
            tags: None,
        }
    }

    #[test]
    fn instance_table_follows_the_chosen_types() {
        assert_eq!(instances(&[]).unwrap().len(), GPU_INSTANCES.len());
        let a = instances(&["a100-40g".into()]).unwrap();
        assert_eq!(a.len(), 1);
        assert_eq!((a[0].instance_type, a[0].gpus), ("p4d.24xlarge", 8));
        // `h100`: p5.4xlarge and p5.48xlarge.
        let h: Vec<_> = instances(&["h100".into()])
            .unwrap()
            .iter()
            .map(|g| g.instance_type)
            .collect();
        assert_eq!(h, ["p5.4xlarge", "p5.48xlarge"]);
        assert_eq!(
            instances(&["a100-40g".into(), "mi300x".into()]),
            Err(QueryError::UnknownType("mi300x".into()))
        );
        let q = hourly(
            &QuerySpec {
                types: vec!["l4".into()],
                ..spec()
            },
            &src(Dialect::Trino),
        )
        .unwrap();
        assert!(q.contains("('g6.48xlarge', 8, 'L4')"), "{q}");
        assert!(!q.contains("p4d.24xlarge"));
    }

    #[test]
    fn the_names_are_the_readers() {
        // The page's CUR reader reads a file of exactly these columns as a CUR, with the same
        // rule: a Spot p4d hour is 8 GPU-hours of A100 40GB, the SavingsPlanNegation row is
        // left out.
        use crate::core::ingest::{parse, ParseOptions};
        for n in [SNAKE, CUR1_CSV] {
            let header = [
                n.start,
                n.end,
                n.line_type,
                n.usage_type,
                n.instance_type,
                n.amount,
                n.unblended,
                n.ri_cost,
                n.sp_cost,
                n.currency,
            ]
            .join(",");
            let text = format!(
                "{header}\n\
                 2026-11-02T10:00:00Z,2026-11-02T11:00:00Z,Usage,USE1-SpotUsage:p4d.24xlarge,,1,10,,,USD\n\
                 2026-11-02T10:00:00Z,2026-11-02T11:00:00Z,SavingsPlanNegation,USE1-BoxUsage:p4d.24xlarge,p4d.24xlarge,1,-30,,,USD\n"
            );
            let p = parse(&text, &ParseOptions::default()).unwrap();
            assert!(p.report.cur.is_some(), "{header}");
            assert_eq!(p.series.values, [8.0]);
            assert_eq!(p.types[0].label, "A100 40GB");
        }
    }

    #[test]
    fn no_integer_division_and_no_zone_functions() {
        for d in [Dialect::Trino, Dialect::DuckDb] {
            for q in [
                hourly(&spec(), &src(d)).unwrap(),
                rates(&spec(), &src(d)).unwrap(),
            ] {
                // Every `/` divides a DOUBLE (Trino would truncate bigint / bigint); no `//`.
                for (i, _) in q.match_indices(" / ") {
                    let before = q[..i].trim_end();
                    assert!(
                        before.ends_with("AS DOUBLE)"),
                        "{}",
                        &q[i.saturating_sub(60)..i + 10]
                    );
                }
                assert!(!q.contains("//"));
                for f in [
                    "to_unixtime",
                    "from_unixtime",
                    "current_timezone",
                    "sequence(",
                    "generate_series",
                    "format_datetime",
                    "strftime",
                ] {
                    assert!(!q.contains(f), "{f}");
                }
                // LEAST / GREATEST only over `e`, `s` (never NULL: `e` is COALESCEd, `s` NULL
                // rows fail `i.s < …`) and numbers.
                assert!(q.contains("COALESCE(") && q.contains("i.e > i.s AND i.s <"));
            }
        }
        let t = hourly(&spec(), &src(Dialect::Trino)).unwrap();
        assert!(t.contains(
            "date_diff('second', TIMESTAMP '1970-01-01 00:00:00', \"line_item_usage_start_date\")"
        ));
        let k = hourly(&spec(), &src(Dialect::DuckDb)).unwrap();
        assert!(k.contains("epoch(CAST(\"line_item_usage_start_date\" AS TIMESTAMPTZ))"));
    }

    #[test]
    fn regexp_extract_is_only_compared_with_names() {
        // No match: Trino NULL, DuckDB ''. The kind is used only in `IN (…)` / `= 'SpotUsage'`
        // (both false-or-NULL for either), the instance type only after the kind matched.
        let q = rates(&spec(), &src(Dialect::Trino)).unwrap();
        assert!(q.contains("i.kind IN ('BoxUsage', 'DedicatedUsage', 'SpotUsage')"));
        assert_eq!(q.matches("regexp_extract(").count(), 3);
        assert!(!q.contains("kind IS NULL") && !q.contains("kind = ''"));
    }

    #[test]
    fn the_tag_columns() {
        for (tag, column) in [
            ("team", "resource_tags_user_team"),
            ("Cost Center", "resource_tags_user_cost_center"),
            ("user:team", "resource_tags_user_team"),
            ("resource_tags_user_team", "resource_tags_user_team"),
        ] {
            assert_eq!(legacy_tag_column(tag).unwrap(), column);
        }
        assert_eq!(legacy_tag_column(" "), Err(QueryError::BadTeam(" ".into())));
        assert_eq!(cur2_tag_key("team").unwrap(), "user_team");
        assert_eq!(cur2_tag_key("user_team").unwrap(), "user_team");
        assert!(cur2_tag_key("").is_err());
        assert_eq!(
            team_expr(Dialect::Trino, &Tags::Map("user_team".into())),
            "element_at(resource_tags, 'user_team')"
        );
        assert_eq!(
            team_expr(Dialect::DuckDb, &Tags::Map("user_team".into())),
            "resource_tags['user_team']"
        );
        assert_eq!(
            team_expr(Dialect::DuckDb, &Tags::Json("user_a/b~c".into())),
            "json_extract_string(resource_tags, '/user_a~1b~0c')"
        );
    }

    #[test]
    fn the_hour_text() {
        assert_eq!(
            hour_text("h"),
            "CAST(year((TIMESTAMP '1970-01-01 00:00:00' + INTERVAL '1' HOUR * h)) AS VARCHAR) || '-' || \
             lpad(CAST(month((TIMESTAMP '1970-01-01 00:00:00' + INTERVAL '1' HOUR * h)) AS VARCHAR), 2, '0') || '-' || \
             lpad(CAST(day((TIMESTAMP '1970-01-01 00:00:00' + INTERVAL '1' HOUR * h)) AS VARCHAR), 2, '0') || 'T' || \
             lpad(CAST(hour((TIMESTAMP '1970-01-01 00:00:00' + INTERVAL '1' HOUR * h)) AS VARCHAR), 2, '0') || ':00:00Z'"
        );
    }

    #[test]
    fn every_hour_of_the_window() {
        // The answer ends with the shared fill over `used`: every window hour × every model
        // (and team) with usage, 0 where idle; the `used` hours are the window's.
        for d in [Dialect::Trino, Dialect::DuckDb] {
            for team in [false, true] {
                let s = Source {
                    tags: team.then(|| Tags::Column("resource_tags_user_team".into())),
                    ..src(d)
                };
                let q = hourly(&spec(), &s).unwrap();
                let fill = crate::core::query::hours::fill(
                    spec().start,
                    spec().end,
                    "used",
                    team,
                    hour_text,
                );
                assert!(q.ends_with(&format!(")\n{fill}")), "{q}");
                let g = if team { ", team" } else { "" };
                assert!(q.contains(&format!(
                    "used AS (\n  SELECT h, gpu_type{g}, SUM(gh) AS gh\n  FROM hours\n  \
                     WHERE h >= 498216 AND h < 498240\n  GROUP BY h, gpu_type{g}\n)\n"
                )));
                assert_eq!(q.contains("s.team"), team);
                // The team is never NULL in the join: COALESCEd to '' when read.
                if team {
                    assert!(q.contains(
                        "COALESCE(CAST(\"resource_tags_user_team\" AS VARCHAR), '') AS team"
                    ));
                }
            }
        }
    }

    #[test]
    fn window_literals() {
        let q = hourly(&spec(), &src(Dialect::Trino)).unwrap();
        // [2026-11-02, 2026-11-03) in seconds and hours; the raw bound 9 999 hours earlier.
        assert!(q.contains("i.s < 1793664000 AND i.e > 1793577600"));
        assert!(q.contains("WHERE h >= 498216 AND h < 498240"));
        assert!(q.contains(&format!(
            "TIMESTAMP '{}'",
            utc_text(1_793_577_600 - 9_999 * 3600)
        )));
        assert!(q.contains("< TIMESTAMP '2026-11-03 00:00:00'"));
    }
}
