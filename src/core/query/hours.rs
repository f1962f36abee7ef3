//! Every hour of the window, for the SQL answers. The page's reader (`core::ingest::parse`)
//! takes a series' sample period from the median spacing of its timestamps and holds each
//! sample over it; a missing hour is a gap (left out), and a series with few busy hours
//! would be read as longer samples (rows at 10:00 and 12:00 only: 2-hour samples, 10:00 to
//! 14:00 all busy). The waterline needs the idle hours as zeros too. So an answer has a row
//! for EVERY hour of `[start, end)` of each series (each `gpu_type`, or `(gpu_type, team)`)
//! that has any usage in the window, `gpu_hours` 0 where it had none. A window without any
//! usage answers no rows.
//!
//! Two pieces, in plain SQL that Trino (Athena), DuckDB, BigQuery and MySQL/MariaDB read
//! alike (no `sequence`, `generate_series`, `GENERATE_ARRAY`, recursive CTE or `VALUES`
//! table — MySQL 5.7 has none of them; no `WITH` either, so MySQL 5.7 can take it too):
//! - [`window_hours`]: the window's hours as a derived table of one integer column `h`;
//! - [`fill`]: the answer's final `SELECT` over a `used (h, gpu_type[, team], gh)` relation
//!   (a CTE or table the caller defines): every window hour × every series of `used`, with
//!   `used`'s GPU-hours or 0.

use super::{ANSWER_HEADER, MAX_HOURS};

/// How many decimal digits count `n` offsets `0 … n − 1` (at least one).
fn digits_for(n: i64) -> u32 {
    let mut d = 1;
    let mut cap = 10;
    while cap < n {
        d += 1;
        cap *= 10;
    }
    d
}

/// Every hour of the window `[start, end)` (Unix seconds, on the hour, `start < end`, at
/// most [`MAX_HOURS`] hours apart, as `query::write` checks) as a parenthesised derived table
/// without an alias (the caller writes ` AS w`), of one integer column `h`: each hour number
/// (Unix seconds ÷ 3600) from `start / 3600` to `end / 3600 − 1` exactly once, in no
/// particular order.
///
/// Built from cross-joined digit tables `(SELECT 0 AS d UNION ALL … SELECT 9)`, only as many
/// as the window's length needs (5 for [`MAX_HOURS`]), and a `WHERE` on the offset: no
/// engine-specific series function. `h` is an `INTEGER` in Trino and DuckDB (hour numbers
/// fit until the year 246 970), `INT64` in BigQuery, `BIGINT` in MySQL; comparing it with a
/// `BIGINT` column coerces in all four.
pub(crate) fn window_hours(start: i64, end: i64) -> String {
    let n = ((end - start) / 3600).clamp(1, MAX_HOURS);
    debug_assert!(start % 3600 == 0 && end % 3600 == 0 && end > start);
    let h0 = start.div_euclid(3600);
    let k = digits_for(n);
    let digit = (0..10)
        .map(|i| format!("SELECT {i} AS d"))
        .collect::<Vec<_>>()
        .join(" UNION ALL ");
    let offset = (0..k)
        .map(|i| match i {
            0 => "d0.d".to_string(),
            _ => format!("{} * d{i}.d", 10_i64.pow(i)),
        })
        .collect::<Vec<_>>()
        .join(" + ");
    let from = (0..k)
        .map(|i| format!("({digit}) AS d{i}"))
        .collect::<Vec<_>>()
        .join("\n    CROSS JOIN ");
    // 10^k offsets: the `WHERE` keeps the first n (always, so the shape does not depend on
    // whether n is a power of ten).
    format!("(\n  SELECT {h0} + {offset} AS h\n  FROM {from}\n  WHERE {offset} < {n}\n)")
}

/// The answer's final `SELECT` ([`ANSWER_HEADER`], `team` only when `team`): every hour of
/// [`window_hours`]`(start, end)` × every distinct `(gpu_type[, team])` of the relation
/// `used` (columns `h` the hour number, `gpu_type`, `team` when grouped, `gh` the GPU-hours;
/// one row per key, never a `NULL` key: `team` is `''` for none), with `used.gh` or 0;
/// ordered by hour, type, team. `hour(col)` writes the dialect's `hour_utc` text of an hour
/// number column. Ends with a line break, no `;`.
pub(crate) fn fill(
    start: i64,
    end: i64,
    used: &str,
    team: bool,
    hour: impl Fn(&str) -> String,
) -> String {
    let [hc, tc, teamc, vc] = ANSWER_HEADER;
    let (team_sel, team_key, team_on, team_order) = if team {
        (
            format!(" s.team AS {teamc},"),
            ", team",
            " AND u.team = s.team",
            ", s.team",
        )
    } else {
        (String::new(), "", "", "")
    };
    format!(
        "SELECT {hour_w} AS {hc}, s.gpu_type AS {tc},{team_sel} COALESCE(u.gh, 0) AS {vc}\n\
         FROM {hours} AS w\n\
         CROSS JOIN (SELECT DISTINCT gpu_type{team_key} FROM {used}) AS s\n\
         LEFT JOIN {used} AS u ON u.h = w.h AND u.gpu_type = s.gpu_type{team_on}\n\
         ORDER BY w.h, s.gpu_type{team_order}\n",
        hour_w = hour("w.h"),
        hours = window_hours(start, end),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOV2: i64 = 1_793_577_600; // 2026-11-02T00:00:00Z = hour 498216

    #[test]
    fn digits_follow_the_window() {
        for (n, d) in [
            (1, 1),
            (9, 1),
            (10, 1),
            (11, 2),
            (100, 2),
            (101, 3),
            (8784, 4),
            (MAX_HOURS, 5),
        ] {
            assert_eq!(digits_for(n), d, "{n}");
        }
    }

    #[test]
    fn the_hours_table_by_hand() {
        // 3 hours: one digit table, offsets 0–9 of which 0, 1, 2 are kept.
        let digit = "(SELECT 0 AS d UNION ALL SELECT 1 AS d UNION ALL SELECT 2 AS d UNION ALL \
                     SELECT 3 AS d UNION ALL SELECT 4 AS d UNION ALL SELECT 5 AS d UNION ALL \
                     SELECT 6 AS d UNION ALL SELECT 7 AS d UNION ALL SELECT 8 AS d UNION ALL \
                     SELECT 9 AS d)";
        assert_eq!(
            window_hours(NOV2, NOV2 + 3 * 3600),
            format!("(\n  SELECT 498216 + d0.d AS h\n  FROM {digit} AS d0\n  WHERE d0.d < 3\n)")
        );
        // A week (168 hours): three digit tables.
        let w = window_hours(NOV2, NOV2 + 168 * 3600);
        assert!(w.contains("SELECT 498216 + d0.d + 10 * d1.d + 100 * d2.d AS h\n"));
        assert!(w.contains(&format!(
            "FROM {digit} AS d0\n    CROSS JOIN {digit} AS d1\n    CROSS JOIN {digit} AS d2\n"
        )));
        assert!(w.ends_with("WHERE d0.d + 10 * d1.d + 100 * d2.d < 168\n)"));
        // The longest window: five; nothing any one engine lacks.
        let w = window_hours(0, MAX_HOURS * 3600);
        assert!(w.contains("10000 * d4.d AS h") && !w.contains("d5"));
        assert!(w.ends_with(&format!("< {MAX_HOURS}\n)")));
        for f in [
            "sequence",
            "generate_series",
            "GENERATE_ARRAY",
            "RECURSIVE",
            "VALUES",
            "WITH",
            "::",
            "//",
            " / ",
        ] {
            assert!(!w.contains(f), "{f}");
        }
    }

    #[test]
    fn the_hours_are_the_window() {
        // The table's rows computed as an engine would: every digit combination, filtered.
        for (start, hours) in [
            (NOV2, 1),
            (NOV2, 3),
            (NOV2 - 7200, 10),
            (NOV2, 37),
            (0, 100),
        ] {
            let n = hours as i64;
            let k = digits_for(n);
            let mut got: Vec<i64> = (0..10_i64.pow(k))
                .filter(|off| *off < n)
                .map(|off| start / 3600 + off)
                .collect();
            got.sort();
            let want: Vec<i64> = (0..n).map(|i| start / 3600 + i).collect();
            assert_eq!(got, want);
            let w = window_hours(start, start + n * 3600);
            assert!(
                w.contains(&format!("SELECT {} + d0.d", start / 3600)),
                "{w}"
            );
            assert!(w.contains(&format!(" < {n}\n)")), "{w}");
        }
    }

    #[test]
    fn the_fill_by_hand() {
        let hour = |c: &str| format!("HOUR_TEXT({c})");
        let q = fill(NOV2, NOV2 + 2 * 3600, "used", true, hour);
        let hours = window_hours(NOV2, NOV2 + 2 * 3600);
        assert_eq!(
            q,
            format!(
                "SELECT HOUR_TEXT(w.h) AS hour_utc, s.gpu_type AS gpu_type, s.team AS team, COALESCE(u.gh, 0) AS gpu_hours\n\
                 FROM {hours} AS w\n\
                 CROSS JOIN (SELECT DISTINCT gpu_type, team FROM used) AS s\n\
                 LEFT JOIN used AS u ON u.h = w.h AND u.gpu_type = s.gpu_type AND u.team = s.team\n\
                 ORDER BY w.h, s.gpu_type, s.team\n"
            )
        );
        let q = fill(NOV2, NOV2 + 2 * 3600, "used", false, hour);
        assert!(q.starts_with(
            "SELECT HOUR_TEXT(w.h) AS hour_utc, s.gpu_type AS gpu_type, COALESCE(u.gh, 0) AS gpu_hours\n"
        ));
        assert!(q.contains("CROSS JOIN (SELECT DISTINCT gpu_type FROM used) AS s\n"));
        assert!(q.contains("ON u.h = w.h AND u.gpu_type = s.gpu_type\n"));
        assert!(q.ends_with("ORDER BY w.h, s.gpu_type\n") && !q.contains("team"));
    }
}
