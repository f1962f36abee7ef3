//! DuckDB over the files the user has: a `sacct -a -X -P` export (jobs expanded into the
//! hours they cover, each hour's share exact) or CUR Parquet/CSV files (the CUR logic of
//! [`super::cur_sql`], the same text Athena gets but for the `FROM` item, the time cast and
//! the map lookup). The path enters only as one string literal.
//!
//! The text starts with `SET TimeZone = 'UTC';`: DuckDB casts naive timestamps to
//! `TIMESTAMPTZ` (and compares them with zoned ones) in the session's zone, which is the
//! machine's by default.

use super::cur_sql::{self, Dialect, Source, Tags, CUR1_CSV, SNAKE};
use super::quote::{sql_ident, sql_literal};
use super::{utc_text, DuckSource, QueryError, QuerySpec};

/// The `sacct` columns a team can come from (the spec's lower-case name → the header name).
pub const SACCT_TEAMS: [(&str, &str); 4] = [
    ("account", "Account"),
    ("user", "User"),
    ("partition", "Partition"),
    ("qos", "QOS"),
];

/// The `sacct` export the query reads (times as Unix seconds, zone-free; `TZ=UTC` makes the
/// `-S`/`-E` bounds UTC too).
pub const SACCT_EXPORT: &str = "TZ=UTC SLURM_TIME_FORMAT=%s sacct -a -X -P \
     --format=JobIDRaw,Start,End,AllocTRES,State,Account,User,Partition,QOS";

/// The query for `spec` (`spec.rates` applies to CUR sources; a `sacct` export has no prices).
pub fn write(spec: &QuerySpec) -> Result<String, QueryError> {
    let path = spec.path.trim();
    if path.is_empty() {
        return Err(QueryError::EmptyPath);
    }
    match spec.duck_source {
        DuckSource::Sacct => sacct(spec, path),
        DuckSource::Cur | DuckSource::Cur2 => cur(spec, path),
    }
}

/// Is the path Parquet (a file or glob ending `.parquet`)? Else CSV (`.csv`, `.csv.gz`, …).
fn parquet(path: &str) -> bool {
    path.to_ascii_lowercase().ends_with(".parquet")
}

fn cur(spec: &QuerySpec, path: &str) -> Result<String, QueryError> {
    let cur2 = spec.duck_source == DuckSource::Cur2;
    let pq = parquet(path);
    let lit = sql_literal(path);
    // `union_by_name`: a legacy CUR's columns change from month to month.
    let from = if pq {
        format!("read_parquet({lit}, union_by_name = true)")
    } else {
        format!("read_csv({lit}, header = true, all_varchar = true, union_by_name = true)")
    };
    let names = if cur2 || pq { SNAKE } else { CUR1_CSV };
    let tags = match &spec.team {
        None => None,
        Some(k) if cur2 && pq => Some(Tags::Map(cur_sql::cur2_tag_key(k)?)),
        Some(k) if cur2 => Some(Tags::Json(cur_sql::cur2_tag_key(k)?)),
        Some(k) if pq => Some(Tags::Column(cur_sql::legacy_tag_column(k)?)),
        Some(key) => {
            let k = key.trim();
            if k.is_empty() {
                return Err(QueryError::BadTeam(key.clone()));
            }
            let k = k.strip_prefix("user:").unwrap_or(k);
            Some(Tags::Column(format!("resourceTags/user:{k}")))
        }
    };
    let src = Source {
        dialect: Dialect::DuckDb,
        from,
        names,
        tags,
    };
    let body = if spec.rates {
        cur_sql::rates(spec, &src)?
    } else {
        cur_sql::hourly(spec, &src)?
    };
    let what = if spec.rates {
        "Effective rates per GPU model and pricing"
    } else {
        "GPU-hours per hour (UTC) per GPU model"
    };
    let kind = match (cur2, pq) {
        (true, true) => "CUR 2.0 Parquet files (resource_tags a map)",
        (true, false) => "CUR 2.0 CSV files (resource_tags as JSON text)",
        (false, true) => "legacy CUR Parquet files (Athena column names)",
        (false, false) => "legacy CUR 1.0 CSV files (lineItem/UsageStartDate, ...)",
    };
    Ok(format!(
        "-- GPU Rent Planner: {what} from {kind}.\n\
         -- Window [{} UTC, {} UTC). Counts Usage, DiscountedUsage and SavingsPlanCoveredUsage\n\
         -- rows of EC2 instance hours (Spot included) x GPUs per instance; a row's usage is\n\
         -- spread evenly over its hours. Run: duckdb -csv < query.sql > answer.csv\n\
         SET TimeZone = 'UTC';\n{body}",
        utc_text(spec.start),
        utc_text(spec.end)
    ))
}

/// Seconds since 1970 of a `sacct` time cell: Unix seconds as `SLURM_TIME_FORMAT=%s` writes
/// them, else an ISO time read as UTC (`TZ=UTC` exports), else `NULL` (`Unknown`, `None`,
/// empty: not started, or still running).
fn sacct_secs(col: &str) -> String {
    let c = format!("trim(COALESCE({}, ''))", sql_ident(col));
    format!(
        "CASE WHEN regexp_full_match({c}, '-?[0-9]+') THEN CAST({c} AS BIGINT) \
         ELSE CAST(epoch(TRY_CAST({c} AS TIMESTAMP)) AS BIGINT) END"
    )
}

fn sacct(spec: &QuerySpec, path: &str) -> Result<String, QueryError> {
    let team = match &spec.team {
        None => None,
        Some(t) => Some(
            SACCT_TEAMS
                .iter()
                .find(|(k, _)| t.trim().eq_ignore_ascii_case(k))
                .map(|(_, col)| *col)
                .ok_or_else(|| QueryError::BadTeam(t.clone()))?,
        ),
    };
    let team_expr = match team {
        Some(c) => format!("trim(COALESCE({}, ''))", sql_ident(c)),
        None => "''".into(),
    };
    let team_group = if team.is_some() { ", team" } else { "" };
    let (w0, w1) = (spec.start, spec.end);
    // The chosen types: GRES names compared with the type keys in lower case (`a100`); the
    // untyped `gpu` is then left out.
    let type_filter = if spec.types.is_empty() {
        String::new()
    } else {
        let keys: Vec<String> = spec
            .types
            .iter()
            .map(|t| sql_literal(&t.trim().to_lowercase()))
            .collect();
        format!(" AND lower(gpu_type) IN ({})", keys.join(", "))
    };
    // `quote = ''`, `escape = ''`: sacct -P never quotes, a `"` in a field is a character.
    Ok(format!(
        "-- GPU Rent Planner: GPU-hours per hour (UTC) per GPU type from a Slurm sacct export.\n\
         -- Window [{start} UTC, {end} UTC). Export the jobs (times as Unix seconds; -X: one row\n\
         -- per job, its steps would count again):\n\
         --   {SACCT_EXPORT} -S {s_iso} -E {e_iso} > sacct.txt\n\
         -- ISO times are read as UTC: export them under TZ=UTC. Each job counts its GPUs\n\
         -- (AllocTRES gres/gpu:<type>=N; untyped gres/gpu=N beyond the typed ones as type gpu)\n\
         -- for the seconds it ran in each hour; pending jobs are skipped, running ones (End\n\
         -- Unknown) run to the latest time in the file. Run: duckdb -csv < query.sql > answer.csv\n\
         SET TimeZone = 'UTC';\n\
         WITH\n\
         jobs AS (\n  SELECT row_number() OVER () AS job,\n    {s} AS s,\n    {e} AS e,\n    \
         COALESCE(\"AllocTRES\", '') AS tres,\n    {team_expr} AS team\n  \
         FROM read_csv({path}, delim = '|', header = true, all_varchar = true, quote = '', escape = '')\n  \
         WHERE NOT starts_with(upper(trim(COALESCE(\"State\", ''))), 'PENDING')\n),\n\
         latest AS (\n  SELECT max(t) AS t FROM (SELECT s AS t FROM jobs UNION ALL SELECT e AS t FROM jobs) x\n),\n\
         runs AS (\n  SELECT j.job, j.s, COALESCE(j.e, l.t) AS e, j.tres, j.team\n  \
         FROM jobs j CROSS JOIN latest l\n  WHERE j.s IS NOT NULL\n),\n\
         gres AS (\n  SELECT r.job, r.s, r.e, r.team,\n    \
         NULLIF(trim(regexp_extract(trim(u.item), '{GRES_RE}', 2)), '') AS gpu_type,\n    \
         TRY_CAST(trim(regexp_extract(trim(u.item), '{GRES_RE}', 3)) AS DOUBLE) AS n\n  \
         FROM runs r, unnest(string_split(r.tres, ',')) AS u(item)\n  \
         WHERE regexp_full_match(trim(u.item), '{GRES_RE}')\n),\n\
         pieces AS (\n  \
         SELECT s, e, team, gpu_type, SUM(n) AS gpus FROM gres WHERE gpu_type IS NOT NULL\n  \
         GROUP BY job, s, e, team, gpu_type\n  \
         UNION ALL\n  \
         SELECT s, e, team, 'gpu' AS gpu_type, SUM(CASE WHEN gpu_type IS NULL THEN n ELSE -n END) AS gpus\n  \
         FROM gres GROUP BY job, s, e, team\n),\n\
         clipped AS (\n  SELECT gpu_type, team, gpus, GREATEST(s, {w0}) AS s, LEAST(e, {w1}) AS e\n  \
         FROM pieces WHERE gpus > 0 AND e > s AND s < {w1} AND e > {w0}{type_filter}\n),\n\
         hours AS (\n  SELECT c.gpu_type, c.team, u.h,\n    \
         c.gpus * CAST(LEAST(c.e, (u.h + 1) * 3600) - GREATEST(c.s, u.h * 3600) AS DOUBLE) / 3600 AS gh\n  \
         FROM clipped c,\n    \
         unnest(generate_series(CAST(floor(CAST(c.s AS DOUBLE) / 3600) AS BIGINT), \
         CAST(ceil(CAST(c.e AS DOUBLE) / 3600) AS BIGINT) - 1)) AS u(h)\n),\n\
         used AS (\n  SELECT h, gpu_type{team_group}, SUM(gh) AS gh\n  \
         FROM hours\n  \
         GROUP BY h, gpu_type{team_group}\n)\n\
         {fill}",
        start = utc_text(w0),
        end = utc_text(w1),
        s_iso = utc_text(w0).replace(' ', "T"),
        e_iso = utc_text(w1).replace(' ', "T"),
        s = sacct_secs("Start"),
        e = sacct_secs("End"),
        path = sql_literal(path),
        fill = super::hours::fill(w0, w1, "used", team.is_some(), cur_sql::hour_text),
    ))
}

/// A GPU item of `AllocTRES`: `gres/gpu=4` (group 2 empty) or `gres/gpu:a100=4` (group 2
/// the type); `gres/gpumem=…`, `gres/gpu:=4` are not GPU counts (as the page's reader).
pub const GRES_RE: &str = "^gres/gpu(:([^=]+))?=(.*)$";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::query::quote;

    const HOSTILE: &[&str] = &[
        "x'; DROP TABLE t; --",
        "a\"b.parquet",
        "back\\slash'",
        "line\nbreak\n-- comment",
        "'); COPY (SELECT 1) TO '/tmp/x",
        "团队'.parquet",
    ];

    fn spec(source: DuckSource) -> QuerySpec {
        QuerySpec {
            start: 1_793_577_600, // 2026-11-02T00:00:00Z
            end: 1_793_577_600 + 3 * 3600,
            duck_source: source,
            ..QuerySpec::default()
        }
    }

    #[test]
    fn hostile_paths_stay_one_literal() {
        for source in [DuckSource::Sacct, DuckSource::Cur, DuckSource::Cur2] {
            for (benign, ext) in [("sacct.txt", ""), ("cur.parquet", ".parquet")] {
                let b = write(&QuerySpec {
                    path: benign.into(),
                    ..spec(source)
                })
                .unwrap()
                .replace(&quote::sql_literal(benign), "@P");
                assert_eq!(b.matches("@P").count(), 1);
                for h in HOSTILE {
                    let p = format!("{h}{ext}");
                    // Paths are trimmed; these have no outer spaces.
                    let q = write(&QuerySpec {
                        path: p.clone(),
                        ..spec(source)
                    })
                    .unwrap();
                    let q = q.replace(&quote::sql_literal(&p), "@P");
                    if source == DuckSource::Sacct || parquet(&p) == parquet(benign) {
                        assert_eq!(q, b, "{p:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn hostile_tag_keys_stay_quoted() {
        for (source, path) in [
            (DuckSource::Cur, "c.parquet"),
            (DuckSource::Cur, "c.csv"),
            (DuckSource::Cur2, "c.parquet"),
            (DuckSource::Cur2, "c.csv"),
        ] {
            let with = |team: &str| {
                write(&QuerySpec {
                    team: Some(team.into()),
                    path: path.into(),
                    ..spec(source)
                })
                .unwrap()
            };
            // The quoted form of a key, as each source writes it.
            let quoted = |k: &str| match (source, parquet(path)) {
                (DuckSource::Cur, true) => {
                    quote::sql_ident(&cur_sql::legacy_tag_column(k).unwrap())
                }
                (DuckSource::Cur, false) => quote::sql_ident(&format!("resourceTags/user:{k}")),
                (_, true) => quote::sql_literal(&cur_sql::cur2_tag_key(k).unwrap()),
                (_, false) => quote::sql_literal(&format!(
                    "/{}",
                    cur_sql::cur2_tag_key(k)
                        .unwrap()
                        .replace('~', "~0")
                        .replace('/', "~1")
                )),
            };
            let b = with("team").replace(&quoted("team"), "@K");
            assert_eq!(b.matches("@K").count(), 1, "{source:?} {path}");
            for h in HOSTILE {
                assert_eq!(with(h).replace(&quoted(h), "@K"), b, "{h:?}");
            }
        }
    }

    #[test]
    fn bad_input() {
        for p in ["", "  "] {
            assert_eq!(
                write(&QuerySpec {
                    path: p.into(),
                    ..spec(DuckSource::Cur)
                }),
                Err(QueryError::EmptyPath)
            );
        }
        for t in ["team", "", "Account'; --"] {
            assert_eq!(
                write(&QuerySpec {
                    team: Some(t.into()),
                    ..spec(DuckSource::Sacct)
                }),
                Err(QueryError::BadTeam(t.into()))
            );
        }
        assert_eq!(
            write(&QuerySpec {
                team: Some(" ".into()),
                path: "c.csv".into(),
                ..spec(DuckSource::Cur)
            }),
            Err(QueryError::BadTeam(" ".into()))
        );
        assert_eq!(
            write(&QuerySpec {
                types: vec!["x100".into()],
                path: "c.parquet".into(),
                ..spec(DuckSource::Cur2)
            }),
            Err(QueryError::UnknownType("x100".into()))
        );
    }

    #[test]
    fn sacct_shape_by_hand() {
        let q = write(&QuerySpec {
            team: Some("QoS".into()),
            ..spec(DuckSource::Sacct)
        })
        .unwrap();
        assert!(q.contains(
            "--   TZ=UTC SLURM_TIME_FORMAT=%s sacct -a -X -P --format=JobIDRaw,Start,End,AllocTRES,State,Account,User,Partition,QOS -S 2026-11-02T00:00:00 -E 2026-11-02T03:00:00 > sacct.txt"
        ));
        assert!(q.contains("\nSET TimeZone = 'UTC';\nWITH\n"));
        assert!(q.contains(
            "FROM read_csv('sacct.txt', delim = '|', header = true, all_varchar = true, quote = '', escape = '')"
        ));
        assert!(q.contains("trim(COALESCE(\"QOS\", '')) AS team"));
        assert!(q.contains("GREATEST(s, 1793577600) AS s, LEAST(e, 1793588400) AS e"));
        assert!(q.contains(
            "used AS (\n  SELECT h, gpu_type, team, SUM(gh) AS gh\n  FROM hours\n  \
             GROUP BY h, gpu_type, team\n)\n"
        ));
        // Every hour of the window for each (type, team) with usage, 0 where idle.
        assert!(q.ends_with(&crate::core::query::hours::fill(
            1_793_577_600,
            1_793_588_400,
            "used",
            true,
            cur_sql::hour_text
        )));
        let plain = write(&spec(DuckSource::Sacct)).unwrap();
        assert!(plain.contains("used AS (\n  SELECT h, gpu_type, SUM(gh) AS gh\n"));
        assert!(plain.ends_with("ORDER BY w.h, s.gpu_type\n"));
        assert!(!plain.contains("s.team") && !plain.contains("AS team,"));
        // Times: Unix seconds or ISO (UTC); `Unknown` → NULL through TRY_CAST.
        assert!(q.contains(
            "CASE WHEN regexp_full_match(trim(COALESCE(\"Start\", '')), '-?[0-9]+') THEN CAST(trim(COALESCE(\"Start\", '')) AS BIGINT) ELSE CAST(epoch(TRY_CAST(trim(COALESCE(\"Start\", '')) AS TIMESTAMP)) AS BIGINT) END AS s"
        ));
        // LEAST/GREATEST see no NULL: `e` is COALESCEd with the latest time, `s` filtered.
        assert!(q.contains("COALESCE(j.e, l.t) AS e") && q.contains("WHERE j.s IS NOT NULL"));
        let t = write(&QuerySpec {
            types: vec!["A100".into(), "h100'".into()],
            ..spec(DuckSource::Sacct)
        })
        .unwrap();
        assert!(t.contains("AND lower(gpu_type) IN ('a100', 'h100''')\n"));
        // No `//` (DuckDB's integer division truncates toward zero, -7 // 2 = -3).
        assert!(!q.contains("//"));
    }

    /// DuckDB v2.0.1's (PyPI `duckdb`) CSV answer to the by-hand job of
    /// end2end/tests/real_duckdb.test.mjs (2 A100 from 10:59:30 to 12:00:15 UTC, QOS
    /// `normal`) for the window [08:00, 15:00) of 2 Nov 2026 grouped by QOS, exactly as DuckDB
    /// wrote it (the test checks the same text): idle hours at the window's start and end are
    /// rows of 0.
    pub(crate) const HAND_ANSWER: &str = "hour_utc,gpu_type,team,gpu_hours\n\
        2026-11-02T08:00:00Z,a100,normal,0.0\n\
        2026-11-02T09:00:00Z,a100,normal,0.0\n\
        2026-11-02T10:00:00Z,a100,normal,0.016666666666666666\n\
        2026-11-02T11:00:00Z,a100,normal,2.0\n\
        2026-11-02T12:00:00Z,a100,normal,0.008333333333333333\n\
        2026-11-02T13:00:00Z,a100,normal,0.0\n\
        2026-11-02T14:00:00Z,a100,normal,0.0\n";

    #[test]
    fn the_answer_reads_back() {
        // Through the page's reader: 7 hours from 08:00, the zeros kept as zeros (not gaps),
        // 30 s, a full hour, 15 s of 2 GPUs in between.
        use crate::core::ingest::{parse, ParseOptions};
        let p = parse(HAND_ANSWER, &ParseOptions::default()).unwrap();
        let v = &p.series.values;
        let want = [0.0, 0.0, 60.0 / 3600.0, 2.0, 30.0 / 3600.0, 0.0, 0.0];
        assert_eq!(v.len(), want.len(), "{v:?}");
        for (got, want) in v.iter().zip(want) {
            assert!((got - want).abs() < 1e-12, "{v:?}");
        }
        let t0 = 1_793_577_600 + 8 * 3600;
        let ts: Vec<i64> = (0..7).map(|i| t0 + i * 3600).collect();
        assert_eq!(p.series.timestamps.as_deref(), Some(&ts[..]));
        assert_eq!(p.types.len(), 1);
        assert_eq!(p.types[0].label, "a100");
        assert_eq!(p.types[0].series.values.len(), 7);
        assert_eq!(p.report.rows_read, 7);
        // What the fill prevents: with only the busy rows of a sparse series (10:00 and 12:00)
        // the reader takes a 2-hour period and holds each sample over it.
        let sparse = "hour_utc,gpu_type,gpu_hours\n\
                      2026-11-02T10:00:00Z,a100,1.0\n\
                      2026-11-02T12:00:00Z,a100,1.0\n";
        let p = parse(sparse, &ParseOptions::default()).unwrap();
        assert_eq!(p.series.values, [1.0; 4]);
        let filled = "hour_utc,gpu_type,gpu_hours\n\
                      2026-11-02T10:00:00Z,a100,1.0\n\
                      2026-11-02T11:00:00Z,a100,0.0\n\
                      2026-11-02T12:00:00Z,a100,1.0\n";
        let p = parse(filled, &ParseOptions::default()).unwrap();
        assert_eq!(p.series.values, [1.0, 0.0, 1.0]);
    }

    #[test]
    fn cur_sources() {
        let q = |source, path: &str, team: Option<&str>| {
            write(&QuerySpec {
                path: path.into(),
                team: team.map(Into::into),
                ..spec(source)
            })
            .unwrap()
        };
        let a = q(DuckSource::Cur, "cur/*.parquet", Some("team"));
        assert!(a.contains("FROM read_parquet('cur/*.parquet', union_by_name = true)"));
        assert!(a.contains("\"line_item_usage_start_date\""));
        assert!(a.contains("CAST(\"resource_tags_user_team\" AS VARCHAR)"));
        assert!(a.contains("\nSET TimeZone = 'UTC';\nWITH\n"));
        let b = q(DuckSource::Cur, "cur-00001.csv.gz", Some("team"));
        assert!(b.contains("read_csv('cur-00001.csv.gz', header = true, all_varchar = true"));
        assert!(b.contains("epoch(CAST(\"lineItem/UsageStartDate\" AS TIMESTAMPTZ))"));
        assert!(b.contains("CAST(\"resourceTags/user:team\" AS VARCHAR)"));
        let c = q(DuckSource::Cur2, "x.PARQUET", Some("team"));
        assert!(c.contains("resource_tags['user_team']"));
        let d = q(DuckSource::Cur2, "x.csv", Some("team"));
        assert!(d.contains("json_extract_string(resource_tags, '/user_team')"));
        let r = write(&QuerySpec {
            path: "x.parquet".into(),
            rates: true,
            ..spec(DuckSource::Cur2)
        })
        .unwrap();
        assert!(r.contains("SUM(cost * f) AS cost"));
    }
}
