//! BigQuery standard SQL over the Cloud Billing detailed (resource-level) export
//! (`project.dataset.gcp_billing_export_resource_v1_<ACCOUNT>`), issue 38.
//!
//! The export's columns used: `sku.description` (the GPU's model and pricing: `Nvidia Tesla
//! A100 GPU running in Americas`, `Nvidia H100 80GB GPU running in …`, `Spot Preemptible
//! Nvidia L4 GPU …`, `Commitment v1: Nvidia …`), `usage_start_time` / `usage_end_time`
//! (an hour per row, as exported), `usage.amount` with `usage.unit = 'seconds'` (GPU
//! seconds: 2 GPUs for an hour are 7200), `labels` (`ARRAY<STRUCT<key, value>>`), `cost`,
//! `credits` (`ARRAY<STRUCT<name, amount, full_name, id, type>>`, amounts negative),
//! `currency`, `cost_type` (`regular`, `tax`, `adjustment`, `rounding error`).
//!
//! **Hourly query**: the usage rows of GPU SKUs (commitment fees, licences and non-regular
//! cost types left out), seconds → GPU-hours; a row spanning more than one hour is spread
//! over the hours it covers in proportion to its time in each (rows are hourly in the
//! export, so this is 1:1 there); hours outside `[start, end)` dropped; the model from the
//! SKU description mapped to the page's type keys ([`SKU_TYPES`]; an unknown GPU SKU keeps
//! its description's model words, which the page folds); the team from the resource label
//! whose key is `spec.team` (a literal). Answer: `hour_utc, gpu_type[, team], gpu_hours`,
//! every hour of the window for each model (and team) with any usage in it, 0 where it had
//! none ([`super::hours`]: hour numbers `DIV(UNIX_SECONDS(hour), 3600)`, back to text with
//! `TIMESTAMP_SECONDS(h * 3600)`).
//!
//! **Rates query** (`spec.rates`): per model and pricing over the window, `on_demand`,
//! `spot` (Spot / Preemptible SKUs), `reserved` (usage a committed-use discount covers, and
//! the commitment fees of GPU commitments, whose hours are not counted twice); the cost is
//! `cost` plus every credit (GCP's effective cost).
//!
//! Dialect points relied on: `TIMESTAMP_TRUNC(…, HOUR)` and `FORMAT_TIMESTAMP` default to
//! UTC (named anyway); `GENERATE_TIMESTAMP_ARRAY` includes both ends (so the last is the end
//! minus 1 µs); `LEAST`/`GREATEST` are NULL if any argument is (rows without times are
//! left out first); `/` is always floating-point division.

use super::quote::{bigquery_ident, bigquery_literal};
use super::{utc_text, QueryError, QuerySpec};
use crate::core::ingest::normalize_type;

/// SKU description patterns (RE2, on the lower-cased description) → the page's type key,
/// first match wins. GCP's `A100` without a size is the 40 GB card (`a2-highgpu`), its
/// `V100` the 16 GB one.
pub const SKU_TYPES: [(&str, &str); 12] = [
    (r"\bgb200\b", "gb200"),
    (r"\bb200\b", "b200"),
    (r"\bh200\b", "h200"),
    (r"\bh100\b", "h100"),
    (r"\ba100 80 ?gb\b", "a100"),
    (r"\ba100\b", "a100-40g"),
    (r"\bl4\b", "l4"),
    (r"\bt4\b", "t4"),
    (r"\bv100\b", "v100-16g"),
    (r"\bp100\b", "p100"),
    (r"\bp4\b", "p4"),
    (r"\bk80\b", "k80"),
];

/// What makes a SKU a GPU's: an Nvidia GPU, not a licence (virtual workstation).
const GPU_SKU: &str = r"(?i)\bnvidia\b.*\bgpu\b";
const NOT_GPU_TIME: &str = r"(?i)virtual workstation|\blicen[cs]e\b";
const COMMITMENT: &str = r"(?i)^commitment";
const SPOT: &str = r"(?i)\b(spot|preemptible)\b";
/// The description's model words, when no pattern knows the model.
const MODEL_WORDS: &str = r"^(commitment[^:]*: *)?((spot|preemptible) )*(nvidia )?(tesla )?|( gpu)?( attached| running| in) .*$";

/// The query text for `spec` (the hourly answer, or the rates when `spec.rates`).
pub fn write(spec: &QuerySpec) -> Result<String, QueryError> {
    let table = table(spec)?;
    let team = team_literal(spec)?;
    let types = type_filter(spec)?;
    if spec.rates {
        Ok(rates(spec, &table, types.as_deref()))
    } else {
        Ok(hourly(spec, &table, team.as_deref(), types.as_deref()))
    }
}

fn table(spec: &QuerySpec) -> Result<String, QueryError> {
    let t = spec.table.trim();
    let parts: Vec<&str> = t.split('.').collect();
    if t.is_empty() || parts.len() < 2 || parts.len() > 3 || parts.iter().any(|p| p.is_empty()) {
        return Err(QueryError::BadTable(spec.table.chars().take(200).collect()));
    }
    Ok(bigquery_ident(t))
}

fn team_literal(spec: &QuerySpec) -> Result<Option<String>, QueryError> {
    match &spec.team {
        None => Ok(None),
        Some(t) if t.trim().is_empty() => Err(QueryError::BadTeam(t.clone())),
        Some(t) => Ok(Some(bigquery_literal(t.trim()))),
    }
}

/// `gpu_type IN (…)` of the chosen keys (each one [`SKU_TYPES`] knows), or `None`.
fn type_filter(spec: &QuerySpec) -> Result<Option<String>, QueryError> {
    if spec.types.is_empty() {
        return Ok(None);
    }
    let mut keys: Vec<String> = Vec::new();
    for t in &spec.types {
        let k = normalize_type(t);
        if !SKU_TYPES.iter().any(|(_, key)| *key == k) {
            return Err(QueryError::UnknownType(t.chars().take(100).collect()));
        }
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    let list: Vec<String> = keys.iter().map(|k| bigquery_literal(k)).collect();
    Ok(Some(format!("gpu_type IN ({})", list.join(", "))))
}

/// A raw-string regex literal (`r'…'`): the patterns are constants without quotes.
fn re(p: &str) -> String {
    debug_assert!(!p.contains('\''));
    format!("r'{p}'")
}

/// The type key of `d` (the lower-cased SKU description).
fn type_case(d: &str) -> String {
    let mut out = String::from("CASE\n");
    for (p, key) in SKU_TYPES {
        out.push_str(&format!(
            "      WHEN REGEXP_CONTAINS({d}, {}) THEN '{key}'\n",
            re(p)
        ));
    }
    out.push_str(&format!(
        "      ELSE REGEXP_REPLACE({d}, {}, '')\n    END",
        re(MODEL_WORDS)
    ));
    out
}

fn ts(t: i64) -> String {
    format!("TIMESTAMP '{}+00'", utc_text(t))
}

/// `hour_utc` of an hour number column (hours since 1970).
fn hour_text(h: &str) -> String {
    format!("FORMAT_TIMESTAMP('%Y-%m-%dT%H:00:00Z', TIMESTAMP_SECONDS({h} * 3600), 'UTC')")
}

fn hourly(spec: &QuerySpec, table: &str, team: Option<&str>, types: Option<&str>) -> String {
    let (start, end) = (ts(spec.start), ts(spec.end));
    let team_col = match team {
        Some(key) => format!(
            "\n    IFNULL((SELECT l.value FROM UNNEST(labels) AS l WHERE l.key = {key} LIMIT 1), '') AS team,"
        ),
        None => String::new(),
    };
    let team_group = if team.is_some() { ", team" } else { "" };
    let type_where = types.map_or(String::new(), |f| format!("\n  WHERE {f}"));
    format!(
        "-- GPU Rent Planner: BigQuery standard SQL over the Cloud Billing detailed export.\n\
         -- GPU-hours per hour per GPU model{team_note}, {} to {} UTC ([start, end)).\n\
         -- Run it in the BigQuery console or `bq query --use_legacy_sql=false --format=csv`\n\
         -- (or --format=json); save the result as CSV or JSON and load it into the page.\n\
         -- Add your table's partition filter (e.g. on _PARTITIONTIME) to read less.\n\
         WITH gpu AS (\n  \
           SELECT\n    \
             usage_start_time AS s,\n    \
             usage_end_time AS e,\n    \
             usage.amount / 3600 AS row_gpu_hours,\n    \
             {} AS gpu_type,{team_col}\n    \
             TIMESTAMP_DIFF(usage_end_time, usage_start_time, MICROSECOND) AS span_us\n  \
           FROM {table}\n  \
           WHERE usage.unit = 'seconds'\n    \
             AND cost_type = 'regular'\n    \
             AND REGEXP_CONTAINS(sku.description, {})\n    \
             AND NOT REGEXP_CONTAINS(sku.description, {})\n    \
             AND NOT REGEXP_CONTAINS(sku.description, {})\n    \
             AND usage_start_time IS NOT NULL AND usage_end_time IS NOT NULL\n    \
             AND usage_end_time > {start} AND usage_start_time < {end}\n\
         ),\n\
         hours AS (\n  \
           -- Each row over the hours it covers, in proportion to its time in each.\n  \
           SELECT\n    \
             hour,\n    \
             gpu_type,{team_sel}\n    \
             row_gpu_hours * IF(span_us <= 0, 1,\n      \
               TIMESTAMP_DIFF(LEAST(e, TIMESTAMP_ADD(hour, INTERVAL 1 HOUR)), GREATEST(s, hour), MICROSECOND) / span_us\n    \
             ) AS gpu_hours\n  \
           FROM gpu,\n  \
           UNNEST(GENERATE_TIMESTAMP_ARRAY(\n    \
             TIMESTAMP_TRUNC(s, HOUR, 'UTC'),\n    \
             IF(span_us <= 0, s, TIMESTAMP_SUB(e, INTERVAL 1 MICROSECOND)),\n    \
             INTERVAL 1 HOUR)) AS hour\n  \
           WHERE hour >= {start} AND hour < {end}\n\
         ),\n\
         used AS (\n  \
           SELECT\n    \
             DIV(UNIX_SECONDS(hour), 3600) AS h,\n    \
             gpu_type,{team_sel}\n    \
             SUM(gpu_hours) AS gh\n  \
           FROM hours{type_where}\n  \
           GROUP BY h, gpu_type{team_group}\n\
         )\n\
         {fill}",
        utc_text(spec.start),
        utc_text(spec.end),
        type_case("LOWER(sku.description)"),
        re(GPU_SKU),
        re(NOT_GPU_TIME),
        re(COMMITMENT),
        team_note = if team.is_some() {
            " and team label"
        } else {
            ""
        },
        team_sel = if team.is_some() { "\n    team," } else { "" },
        fill = super::hours::fill(spec.start, spec.end, "used", team.is_some(), hour_text),
    )
}

fn rates(spec: &QuerySpec, table: &str, types: Option<&str>) -> String {
    let (start, end) = (ts(spec.start), ts(spec.end));
    let type_where = types.map_or(String::new(), |f| format!("\nWHERE {f}"));
    format!(
        "-- GPU Rent Planner: BigQuery standard SQL over the Cloud Billing detailed export.\n\
         -- Effective GPU rates per model and pricing, usage starting {} to {} UTC:\n\
         -- on_demand, spot (Spot / Preemptible SKUs), reserved (covered by a committed-use\n\
         -- discount, plus GPU commitment fees); cost = cost + credits (credits are negative).\n\
         WITH g AS (\n  \
           SELECT\n    \
             {} AS gpu_type,\n    \
             CASE\n      \
               WHEN REGEXP_CONTAINS(sku.description, {}) THEN 'spot'\n      \
               WHEN REGEXP_CONTAINS(sku.description, {})\n        \
                 OR EXISTS (SELECT 1 FROM UNNEST(credits) AS c WHERE c.type = 'COMMITTED_USAGE_DISCOUNT')\n        \
                 THEN 'reserved'\n      \
               ELSE 'on_demand'\n    \
             END AS pricing,\n    \
             IF(REGEXP_CONTAINS(sku.description, {}) OR usage.unit != 'seconds', 0, usage.amount / 3600) AS gpu_hours,\n    \
             cost + IFNULL((SELECT SUM(c.amount) FROM UNNEST(credits) AS c), 0) AS cost,\n    \
             currency\n  \
           FROM {table}\n  \
           WHERE cost_type = 'regular'\n    \
             AND REGEXP_CONTAINS(sku.description, {})\n    \
             AND NOT REGEXP_CONTAINS(sku.description, {})\n    \
             AND usage_start_time >= {start} AND usage_start_time < {end}\n\
         )\n\
         SELECT * FROM (\n  \
           SELECT gpu_type, pricing, SUM(gpu_hours) AS gpu_hours, SUM(cost) AS cost, currency\n  \
           FROM g\n  \
           GROUP BY gpu_type, pricing, currency\n\
         ){type_where}\n\
         ORDER BY gpu_type, pricing, currency\n",
        utc_text(spec.start),
        utc_text(spec.end),
        type_case("LOWER(sku.description)"),
        re(SPOT),
        re(COMMITMENT),
        re(COMMITMENT),
        re(GPU_SKU),
        re(NOT_GPU_TIME),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::query::{Engine, ANSWER_HEADER, RATES_HEADER};

    const NOV1: i64 = 1_793_491_200; // 2026-11-01 00:00 UTC

    fn spec() -> QuerySpec {
        QuerySpec {
            engine: Engine::BigQuery,
            start: NOV1,
            end: NOV1 + 7 * 86_400,
            table: "my-proj.billing.gcp_billing_export_resource_v1_01A2B3_C4D5E6_F7A8B9".into(),
            ..QuerySpec::default()
        }
    }

    /// The text outside comments, string literals, raw strings and quoted identifiers (to
    /// check that nothing the user typed reaches it).
    fn code_only(q: &str) -> String {
        let mut out = String::new();
        let mut it = q.chars().peekable();
        let mut quote: Option<char> = None;
        let mut raw = false;
        let mut prev = ' ';
        while let Some(c) = it.next() {
            match quote {
                Some(qc) => {
                    if c == '\\' && !raw {
                        it.next();
                    } else if c == qc {
                        quote = None;
                    }
                }
                None => {
                    if c == '-' && it.peek() == Some(&'-') {
                        // A comment, to the line's end (no user text is ever in one).
                        for c in it.by_ref() {
                            if c == '\n' {
                                break;
                            }
                        }
                        out.push('\n');
                    } else if c == '\'' || c == '`' {
                        raw = prev == 'r';
                        quote = Some(c);
                        out.push('\u{1}');
                    } else {
                        out.push(c);
                    }
                }
            }
            prev = c;
        }
        assert!(quote.is_none(), "an unclosed literal in {q}");
        out
    }

    #[test]
    fn hourly_shape() {
        let mut s = spec();
        s.team = Some("team".into());
        let q = super::super::write(&s).unwrap();
        assert!(q.contains(
            "FROM `my-proj.billing.gcp_billing_export_resource_v1_01A2B3_C4D5E6_F7A8B9`"
        ));
        assert!(q.contains("WHERE l.key = 'team' LIMIT 1), '') AS team,"));
        assert!(q.contains("usage.amount / 3600 AS row_gpu_hours"));
        assert!(q.contains("AND usage_end_time > TIMESTAMP '2026-11-01 00:00:00+00' AND usage_start_time < TIMESTAMP '2026-11-08 00:00:00+00'"));
        assert!(q.contains("WHERE hour >= TIMESTAMP '2026-11-01 00:00:00+00' AND hour < TIMESTAMP '2026-11-08 00:00:00+00'"));
        assert!(q.contains(
            "used AS (\n  SELECT\n    DIV(UNIX_SECONDS(hour), 3600) AS h,\n    gpu_type,\n    team,\n    \
             SUM(gpu_hours) AS gh\n  FROM hours\n  GROUP BY h, gpu_type, team\n)\n"
        ));
        // Every hour of the week (168) for each (model, team) with usage, 0 where idle.
        let fill = crate::core::query::hours::fill(s.start, s.end, "used", true, hour_text);
        assert!(q.ends_with(&format!(")\n{fill}")));
        assert!(fill.contains("SELECT 498192 + d0.d + 10 * d1.d + 100 * d2.d AS h\n"));
        assert!(fill.contains("WHERE d0.d + 10 * d1.d + 100 * d2.d < 168\n"));
        // Exactly the answer's columns, in order.
        let sel = &q[q.rfind("SELECT FORMAT_TIMESTAMP").unwrap()..q.rfind("\nFROM (\n").unwrap()];
        let cols: Vec<&str> = sel
            .split(", ")
            .filter_map(|c| c.rsplit(" AS ").next())
            .filter(|c| !c.contains('(') && !c.contains('\''))
            .collect();
        assert_eq!(cols, ["hour_utc", "gpu_type", "team", "gpu_hours"]);
        assert_eq!(ANSWER_HEADER, ["hour_utc", "gpu_type", "team", "gpu_hours"]);
        assert!(q.contains(
            "SELECT FORMAT_TIMESTAMP('%Y-%m-%dT%H:00:00Z', TIMESTAMP_SECONDS(w.h * 3600), 'UTC') AS hour_utc"
        ));
        // Without a team: no team column.
        let q = super::super::write(&spec()).unwrap();
        assert!(!q.contains("team"));
        assert!(q.contains("GROUP BY h, gpu_type\n"));
        assert!(q.ends_with("ORDER BY w.h, s.gpu_type\n"));
    }

    #[test]
    fn sku_patterns_map_to_the_pages_type_keys() {
        for (_, key) in SKU_TYPES {
            assert_eq!(normalize_type(key), key, "{key} is a type key");
        }
        // GCP's A100 without a size is the 40 GB card; with 80GB, the usual A100.
        assert_eq!(normalize_type("A100 40GB"), "a100-40g");
        assert_eq!(normalize_type("NVIDIA A100 80GB"), "a100");
        assert_eq!(normalize_type("Tesla V100 16GB"), "v100-16g");
        let q = super::super::write(&spec()).unwrap();
        let a80 = q.find("a100 80 ?gb").unwrap();
        let a40 = q.find(r"\ba100\b").unwrap();
        assert!(a80 < a40, "the 80 GB pattern comes first");
    }

    #[test]
    fn spreading_a_row_over_hours_by_hand() {
        // A row 00:30–02:00 of 5400 GPU-seconds (1 GPU × 1.5 h): the query's shares are
        // (01:00 − 00:30)/90 min = 1/3 of 1.5 → 0.5 in hour 00, 60/90 → 1.0 in hour 01.
        let row_gpu_hours: f64 = 5400.0 / 3600.0;
        let span_us: f64 = 90.0 * 60.0 * 1e6;
        let h0 = row_gpu_hours * (30.0 * 60.0 * 1e6) / span_us;
        let h1 = row_gpu_hours * (60.0 * 60.0 * 1e6) / span_us;
        assert_eq!((h0, h1), (0.5, 1.0));
        let q = super::super::write(&spec()).unwrap();
        assert!(q.contains("TIMESTAMP_DIFF(LEAST(e, TIMESTAMP_ADD(hour, INTERVAL 1 HOUR)), GREATEST(s, hour), MICROSECOND) / span_us"));
        assert!(q.contains("IF(span_us <= 0, s, TIMESTAMP_SUB(e, INTERVAL 1 MICROSECOND))"));
    }

    #[test]
    fn types_filter_on_keys() {
        let mut s = spec();
        s.types = vec![
            "a100".into(),
            "A100 40GB".into(),
            "h100".into(),
            "a100".into(),
        ];
        let q = super::super::write(&s).unwrap();
        // Before the fill: a type without usage gets no rows, not rows of zeros.
        assert!(q.contains(
            "FROM hours\n  WHERE gpu_type IN ('a100', 'a100-40g', 'h100')\n  GROUP BY h, gpu_type\n)\n"
        ));
        s.types = vec!["mi300x".into()];
        assert_eq!(
            super::super::write(&s),
            Err(QueryError::UnknownType("mi300x".into()))
        );
    }

    #[test]
    fn rates_shape() {
        let mut s = spec();
        s.rates = true;
        let q = super::super::write(&s).unwrap();
        let sel =
            "SELECT gpu_type, pricing, SUM(gpu_hours) AS gpu_hours, SUM(cost) AS cost, currency";
        assert!(q.contains(sel));
        assert_eq!(
            RATES_HEADER,
            ["gpu_type", "pricing", "gpu_hours", "cost", "currency"]
        );
        assert!(q.contains("THEN 'spot'") && q.contains("THEN 'reserved'"));
        assert!(q.contains("ELSE 'on_demand'"));
        assert!(q.contains("c.type = 'COMMITTED_USAGE_DISCOUNT'"));
        assert!(q.contains(
            "cost + IFNULL((SELECT SUM(c.amount) FROM UNNEST(credits) AS c), 0) AS cost"
        ));
        // Commitment fees: their cost counts, their hours do not.
        assert!(q.contains(r"IF(REGEXP_CONTAINS(sku.description, r'(?i)^commitment') OR usage.unit != 'seconds', 0, usage.amount / 3600) AS gpu_hours"));
        for p in ["on_demand", "spot", "reserved"] {
            assert!(crate::core::query::PRICINGS.contains(&p));
        }
    }

    #[test]
    fn hostile_text_cannot_change_the_query() {
        let hostile = [
            "x'; DROP TABLE t; --",
            "a\\' OR TRUE --",
            "line\nbreak') --",
            "`tick`.b.c",
            "p.d.t` WHERE TRUE --",
            "\"}[5m]) or vector(1)",
            "back\\slash'",
        ];
        let base = code_only(&super::super::write(&spec()).unwrap());
        let mut with_team = spec();
        with_team.team = Some("team".into());
        let base_team = code_only(&super::super::write(&with_team).unwrap());
        for h in hostile {
            let mut s = spec();
            s.team = Some(h.into());
            let q = super::super::write(&s).unwrap();
            assert_eq!(code_only(&q), base_team, "team {h:?}");
            assert!(q.contains(&bigquery_literal(h.trim())));
            let mut s = spec();
            s.table = format!("proj.data.{h}");
            match super::super::write(&s) {
                Ok(q) => {
                    assert_eq!(code_only(&q), base, "table {h:?}");
                    assert!(q.contains(&bigquery_ident(s.table.trim())));
                }
                Err(QueryError::BadTable(_)) => {}
                Err(e) => panic!("{e:?}"),
            }
            let mut s = spec();
            s.types = vec![h.into()];
            assert!(matches!(
                super::super::write(&s),
                Err(QueryError::UnknownType(_))
            ));
        }
    }

    #[test]
    fn errors() {
        let mut s = spec();
        s.table = "no_dataset".into();
        assert!(matches!(
            super::super::write(&s),
            Err(QueryError::BadTable(_))
        ));
        s.table = "a..b".into();
        assert!(matches!(
            super::super::write(&s),
            Err(QueryError::BadTable(_))
        ));
        let mut s = spec();
        s.team = Some("  ".into());
        assert!(matches!(
            super::super::write(&s),
            Err(QueryError::BadTeam(_))
        ));
    }
}
