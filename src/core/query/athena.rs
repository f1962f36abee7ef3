//! Athena (Trino) over a Cost and Usage Report table: the hourly GPU-hours per GPU model (or
//! the effective rates, [`QuerySpec::rates`]), with the legacy Athena column names
//! (`resource_tags_user_team`) or CUR 2.0's (`resource_tags` map). The logic is
//! [`super::cur_sql`]'s, shared with DuckDB; the table name enters only as quoted identifiers.

use super::cur_sql::{self, Dialect, Source, Tags, SNAKE};
use super::quote::sql_dotted;
use super::{utc_text, QueryError, QuerySpec};

/// The query for `spec` (`cur2`: CUR 2.0 column names).
pub fn write(spec: &QuerySpec, cur2: bool) -> Result<String, QueryError> {
    let table = spec.table.trim();
    if table.is_empty() || table.split('.').any(|p| p.trim().is_empty()) {
        return Err(QueryError::BadTable(spec.table.clone()));
    }
    let tags = match &spec.team {
        None => None,
        Some(k) if cur2 => Some(Tags::Map(cur_sql::cur2_tag_key(k)?)),
        Some(k) => Some(Tags::Column(cur_sql::legacy_tag_column(k)?)),
    };
    let src = Source {
        dialect: Dialect::Trino,
        from: sql_dotted(table),
        names: SNAKE,
        tags,
    };
    let body = if spec.rates {
        cur_sql::rates(spec, &src)?
    } else {
        cur_sql::hourly(spec, &src)?
    };
    Ok(format!("{}{body}", comment(spec, cur2)))
}

/// The query's leading comment: what it counts, for which window, how to run it and hand the
/// answer back. Static text and the window only: user text never goes into a comment (a line
/// break in it would end the comment).
fn comment(spec: &QuerySpec, cur2: bool) -> String {
    let what = if spec.rates {
        "Effective rates per GPU model and pricing (on_demand, spot, reserved, savings_plan)"
    } else {
        "GPU-hours per hour (UTC) per GPU model"
    };
    let names = if cur2 {
        "CUR 2.0 (Data Exports) column names; teams from resource_tags['user_<key>']"
    } else {
        "legacy CUR column names (Athena integration); teams from resource_tags_user_<key>"
    };
    let team = if spec.team.is_some() { " and team" } else { "" };
    let rates_note = if spec.rates && !cur2 {
        "\n-- A legacy CUR without Reserved Instances or Savings Plans has no\n\
         -- reservation_effective_cost / savings_plan_savings_plan_effective_cost column:\n\
         -- write NULL in its place."
    } else {
        ""
    };
    format!(
        "-- GPU Rent Planner: {what}{team} from an AWS Cost and Usage Report in Athena.\n\
         -- Window [{} UTC, {} UTC); {names}.\n\
         -- Counts Usage, DiscountedUsage and SavingsPlanCoveredUsage rows of EC2 instance hours\n\
         -- (Spot included) x GPUs per instance; a row's usage is spread evenly over its hours.\n\
         -- Run it in the Athena console (engine v3), then \"Download results\" (CSV) and load\n\
         -- that file into the planner.{rates_note}\n",
        utc_text(spec.start),
        utc_text(spec.end)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::query::{self, quote, Engine};

    const HOSTILE: &[&str] = &[
        "x'; DROP TABLE t; --",
        "a\"b",
        "back\\slash'",
        "line\nbreak\n-- comment",
        "*/ SELECT 1 /*",
        "团队'",
    ];

    fn spec() -> QuerySpec {
        QuerySpec {
            engine: Engine::Athena,
            start: 1_793_577_600, // 2026-11-02T00:00:00Z
            end: 1_793_577_600 + 3 * 3600,
            table: "cur.cur_table".into(),
            ..QuerySpec::default()
        }
    }

    #[test]
    fn hostile_table_names_stay_identifiers() {
        for cur2 in [false, true] {
            let benign = write(&spec(), cur2).unwrap();
            let b = benign.replace(&quote::sql_dotted("cur.cur_table"), "@T");
            assert_eq!(b.matches("@T").count(), 1);
            for h in HOSTILE {
                let table = format!("db.{h}");
                let q = write(
                    &QuerySpec {
                        table: table.clone(),
                        ..spec()
                    },
                    cur2,
                )
                .unwrap();
                assert_eq!(q.replace(&quote::sql_dotted(&table), "@T"), b, "{h}");
            }
        }
    }

    #[test]
    fn hostile_tag_keys_stay_quoted() {
        // Legacy: the key becomes part of one quoted identifier; CUR 2.0: one literal.
        let with = |team: &str, cur2| {
            write(
                &QuerySpec {
                    team: Some(team.into()),
                    ..spec()
                },
                cur2,
            )
            .unwrap()
        };
        let b1 = with("team", false).replace("\"resource_tags_user_team\"", "@K");
        let b2 = with("team", true).replace("'user_team'", "@K");
        assert_eq!(b1.matches("@K").count(), 1);
        assert_eq!(b2.matches("@K").count(), 1);
        for h in HOSTILE {
            let col = cur_sql::legacy_tag_column(h).unwrap();
            assert!(col.starts_with("resource_tags_user_"));
            let q1 = with(h, false).replace(&quote::sql_ident(&col), "@K");
            assert_eq!(q1, b1, "{h}");
            let key = cur_sql::cur2_tag_key(h).unwrap();
            let q2 = with(h, true).replace(&quote::sql_literal(&key), "@K");
            assert_eq!(q2, b2, "{h}");
        }
    }

    #[test]
    fn bad_input() {
        for t in ["", " ", "db.", ".t", "a..b"] {
            assert_eq!(
                write(
                    &QuerySpec {
                        table: t.into(),
                        ..spec()
                    },
                    false
                ),
                Err(QueryError::BadTable(t.into()))
            );
        }
        assert_eq!(
            write(
                &QuerySpec {
                    team: Some("  ".into()),
                    ..spec()
                },
                true
            ),
            Err(QueryError::BadTeam("  ".into()))
        );
        assert_eq!(
            write(
                &QuerySpec {
                    types: vec!["a100-40g".into(), "nope".into()],
                    ..spec()
                },
                false
            ),
            Err(QueryError::UnknownType("nope".into()))
        );
        // Through the dispatch: the window is checked first.
        assert_eq!(
            query::write(&QuerySpec {
                end: 1_793_577_600 + 1800,
                ..spec()
            }),
            Err(QueryError::BadWindow)
        );
    }

    #[test]
    fn the_shape_by_hand() {
        // 2 Nov 2026 00:00–03:00 UTC, A100 40GB only, legacy names, by team: the text a user
        // gets, in its parts.
        let q = write(
            &QuerySpec {
                types: vec!["a100-40g".into()],
                team: Some("team".into()),
                ..spec()
            },
            false,
        )
        .unwrap();
        assert!(
            q.starts_with("-- GPU Rent Planner: GPU-hours per hour (UTC) per GPU model and team")
        );
        assert!(q.contains("-- Window [2026-11-02 00:00:00 UTC, 2026-11-02 03:00:00 UTC)"));
        assert!(q.contains(
            "gpu_instances (instance_type, gpus, gpu_type) AS (VALUES\n    ('p4d.24xlarge', 8, 'A100 40GB')\n)"
        ));
        assert!(q.contains("FROM \"cur\".\"cur_table\"\n"));
        assert!(q.contains("COALESCE(CAST(\"resource_tags_user_team\" AS VARCHAR), '') AS team"));
        assert!(q.contains(
            "WHERE \"line_item_line_item_type\" IN ('Usage', 'DiscountedUsage', 'SavingsPlanCoveredUsage')"
        ));
        assert!(q.contains("i.s < 1793588400 AND i.e > 1793577600"));
        assert!(q.contains(
            "used AS (\n  SELECT h, gpu_type, team, SUM(gh) AS gh\n  FROM hours\n  \
             WHERE h >= 498216 AND h < 498219\n  GROUP BY h, gpu_type, team\n)\n"
        ));
        // Every hour of the window for each (model, team) with usage, 0 where idle.
        assert!(q.contains(
            " AS hour_utc, s.gpu_type AS gpu_type, s.team AS team, COALESCE(u.gh, 0) AS gpu_hours\n"
        ));
        assert!(q.contains(&format!(
            "FROM {} AS w\n",
            crate::core::query::hours::window_hours(1_793_577_600, 1_793_588_400)
        )));
        assert!(q.contains("SELECT 498216 + d0.d AS h\n") && q.contains("WHERE d0.d < 3\n"));
        assert!(q.ends_with("ORDER BY w.h, s.gpu_type, s.team\n"));
        assert!(!q.contains("SavingsPlanNegation'") && !q.contains("'Tax'"));
        // CUR 2.0: the map, looked up with element_at (Trino's m['k'] fails on a missing key).
        let q2 = write(
            &QuerySpec {
                team: Some("team".into()),
                ..spec()
            },
            true,
        )
        .unwrap();
        assert!(q2.contains("COALESCE(element_at(resource_tags, 'user_team'), '') AS team"));
        assert!(!q2.contains("resource_tags['user_team']"));
    }

    #[test]
    fn the_rates_shape() {
        let q = write(
            &QuerySpec {
                rates: true,
                ..spec()
            },
            false,
        )
        .unwrap();
        assert!(q.contains(
            "WHEN 'DiscountedUsage' THEN TRY_CAST(\"reservation_effective_cost\" AS DOUBLE)"
        ));
        assert!(q.contains(
            "WHEN 'SavingsPlanCoveredUsage' THEN TRY_CAST(\"savings_plan_savings_plan_effective_cost\" AS DOUBLE)"
        ));
        assert!(q.contains("ELSE TRY_CAST(\"line_item_unblended_cost\" AS DOUBLE)"));
        assert!(q.contains(
            "SELECT gpu_type AS gpu_type, pricing AS pricing, SUM(gh * f) AS gpu_hours, SUM(cost * f) AS cost, currency AS currency"
        ));
        for p in crate::core::query::PRICINGS {
            assert!(q.contains(&format!("'{p}'")), "{p}");
        }
        assert!(q.contains("write NULL in its place"));
    }
}
