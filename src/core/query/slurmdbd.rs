//! SQL for slurmdbd's MySQL/MariaDB database (`slurm_acct_db`): GPU-hours per UTC hour and
//! GPU type (and account or user) from the hourly usage tables that slurmdbd's rollup keeps.
//!
//! The schema relied on (Slurm 22.05's `accounting_storage/mysql`, as `slurmdbd` creates it):
//! - `tres_table(id, type, name, deleted, …)`: `type = 'gres'` with `name = 'gpu'` for
//!   `gres/gpu` and `name = 'gpu:a100'` for a typed `gres/gpu:a100`, each tracked TRES of
//!   `AccountingStorageTRES` one row (`gres/gpumem`, `gres/gpuutil` are other names).
//! - `<cluster>_usage_hour_table(id_tres, time_start, alloc_secs, count, …, deleted)`: the
//!   cluster's allocated seconds of each TRES in the hour starting at `time_start` (Unix
//!   seconds, `BIGINT UNSIGNED`).
//! - `<cluster>_assoc_usage_hour_table(id, id_tres, time_start, alloc_secs, deleted)`: the
//!   same per association (`id` = `<cluster>_assoc_table.id_assoc`, whose `acct` and `user`
//!   name it; a job's usage is on its user association).
//!
//! A job with typed GPUs is recorded under both `gres/gpu` and `gres/gpu:<type>`, so the
//! typed rows are counted as their type and the untyped row only for what it has beyond the
//! typed ones in the same hour (and association): GPUs that name no type, as [`UNTYPED`].
//! Rollup hours are the database server's local hours; in a zone that is not a whole number
//! of hours from UTC they start at `:30` or `:45`, and such an hour's seconds are shared
//! between the two UTC hours it overlaps in proportion (evenly spread within the hour).
//!
//! Dialect points relied on (pinned against a real MariaDB in `end2end/tests/real_slurmdbd`):
//! `alloc_secs` is unsigned, and an unsigned difference below zero is an error, so every
//! subtraction is on `CAST(… AS SIGNED)`; `/` of integers keeps only 4 decimals
//! (`div_precision_increment`), so the GPU-hours divide by a `DOUBLE` (`…e0`), which the
//! client prints in its shortest exact form; `FROM_UNIXTIME` and `DATE_FORMAT` of a
//! `TIMESTAMP` follow the session's `time_zone`, so the hour is written from
//! `DATE_ADD(TIMESTAMP'1970-01-01 00:00:00', INTERVAL … SECOND)`, a zone-free `DATETIME`. No
//! `WITH` or window functions: MySQL 5.7 and MariaDB 10.1 run it too.

use super::quote::{mysql_ident, mysql_literal_strict};
use super::{utc_text, QueryError, QuerySpec};

/// The `gpu_type` of GPUs that name no type.
pub const UNTYPED: &str = "gpu";

/// MySQL identifiers are at most 64 characters; the longest table name adds this suffix.
const LONGEST_SUFFIX: &str = "_assoc_usage_hour_table";

/// The association column a team is read from.
fn team_column(team: &str) -> Option<&'static str> {
    match team.trim().to_ascii_lowercase().as_str() {
        "account" | "acct" => Some("acct"),
        "user" => Some("user"),
        _ => None,
    }
}

/// The cluster name as the tables' prefix: trimmed, not empty, short enough for the longest
/// table name, no control characters.
fn cluster(spec: &QuerySpec) -> Result<&str, QueryError> {
    let c = spec.table.trim();
    let bad = c.is_empty()
        || c.chars().count() + LONGEST_SUFFIX.len() > 64
        || c.chars().any(char::is_control);
    if bad {
        Err(QueryError::BadTable(spec.table.clone()))
    } else {
        Ok(c)
    }
}

/// `a100-40g` → (`a100`, `Some(40)`); `h100` → (`h100`, `None`): a type key's model and
/// memory size, each folded to `[a-z0-9]`.
fn key_parts(key: &str) -> (String, Option<String>) {
    let fold = |s: &str| -> String {
        s.chars()
            .filter(char::is_ascii_alphanumeric)
            .map(|c| c.to_ascii_lowercase())
            .collect()
    };
    if let Some((base, mem)) = key.trim().rsplit_once('-') {
        if let Some(n) = mem.strip_suffix('g') {
            if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) {
                return (fold(base), Some(n.to_string()));
            }
        }
    }
    (fold(key), None)
}

/// The pattern a folded Slurm type name (lowercase, `-`, `_`, ` `, `.` dropped) matches for
/// a type key: vendor words before, form factors and memory kinds around, the key's memory
/// size (`40g`, `40gb`) when it names one, else any size (a size that makes the model another
/// type key comes back under its own name, which the page folds again).
fn type_pattern(key: &str) -> Option<String> {
    let (base, mem) = key_parts(key);
    if base.is_empty() {
        return None;
    }
    const FORM: &str = "(sxm[0-9]*|pcie|nvl|hbm[0-9a-z]*|gddr[0-9a-z]*)*";
    let size = match mem {
        Some(n) => format!("{n}(g|gb|gib)"),
        None => "([0-9]+(g|gb|gib))?".into(),
    };
    Some(format!(
        "^(nvidia|tesla|geforce|rtx|gtx|amd|instinct)*{base}{FORM}{size}{FORM}$"
    ))
}

/// The SQL text. `spec.table` is the cluster name; `spec.team` `account` or `user` groups
/// by the association's account or user; `spec.types` keeps the typed GPUs whose Slurm type
/// name folds to one of the keys (untyped GPUs then drop out: their model is not known).
pub fn write(spec: &QuerySpec) -> Result<String, QueryError> {
    let cluster = cluster(spec)?;
    let team = match &spec.team {
        None => None,
        Some(t) => Some(team_column(t).ok_or_else(|| QueryError::BadTeam(t.clone()))?),
    };
    let patterns: Vec<String> = spec.types.iter().filter_map(|k| type_pattern(k)).collect();
    if !spec.types.is_empty() && patterns.is_empty() {
        return Err(QueryError::UnknownType(spec.types.join(",")));
    }
    let table = |suffix: &str| mysql_ident(&format!("{cluster}{suffix}"));
    let (start, end) = (spec.start, spec.end);

    let mut q = String::new();
    let by = match team {
        Some("acct") => " and account",
        Some(_) => " and user",
        None => "",
    };
    q.push_str(&format!(
        "-- GPU-hours per UTC hour, GPU type{by} from slurmdbd's hourly usage tables,\n\
         -- {} to {} UTC (end excluded). GPU Rent Planner.\n\
         -- Run it on slurmdbd's database and give the page the client's tab-separated answer:\n\
         --   mysql -B slurm_acct_db < query.sql > answer.tsv\n\
         -- (the same with `mariadb -B`). Typed GPUs (gres/gpu:<type>) count as their type;\n\
         -- gres/gpu counts only beyond them, as type '{UNTYPED}' (slurmdbd records both).\n",
        utc_text(start),
        utc_text(end)
    ));
    if !spec.types.is_empty() {
        q.push_str(&format!(
            "-- Only the GPU types {} (typed GPUs; untyped ones are left out).\n",
            spec.types
                .iter()
                .map(|k| k
                    .chars()
                    .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
                    .collect::<String>())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }

    // Rows of the hour tables: typed GPUs as they are, untyped beyond the typed ones.
    let (usage, id_col, group_id) = match team {
        Some(_) => (table("_assoc_usage_hour_table"), "u.id", "u.id, "),
        None => (table("_usage_hour_table"), "0", ""),
    };
    let from = format!(
        "    FROM {usage} AS u\n    JOIN tres_table AS t ON t.id = u.id_tres\n    \
         WHERE u.deleted = 0 AND t.type = 'gres'\n      \
         AND u.time_start >= {} AND u.time_start < {end}\n",
        start - 3600
    );
    let folded = "REPLACE(REPLACE(REPLACE(REPLACE(LOWER(CONVERT(SUBSTRING(t.name, 5) USING utf8mb4)), '-', ''), '_', ''), ' ', ''), '.', '')";
    let filter = if patterns.is_empty() {
        String::new()
    } else {
        let any = patterns
            .iter()
            .map(|p| format!("{folded} REGEXP {}", mysql_literal_strict(p)))
            .collect::<Vec<_>>()
            .join("\n        OR ");
        format!("      AND ({any})\n")
    };
    let secs = "CAST(u.alloc_secs AS SIGNED)";
    let mut rows = format!(
        "    SELECT {id_col} AS id, u.time_start, SUBSTRING(t.name, 5) AS gpu_type, {secs} AS secs\n\
         {from}      AND t.name LIKE 'gpu:%'\n{filter}"
    );
    if patterns.is_empty() {
        rows.push_str(&format!(
            "    UNION ALL\n    \
             SELECT {id_col} AS id, u.time_start, '{UNTYPED}' AS gpu_type,\n      \
             SUM(CASE WHEN t.name = 'gpu' THEN {secs} ELSE -{secs} END) AS secs\n\
             {from}      AND (t.name = 'gpu' OR t.name LIKE 'gpu:%')\n    \
             GROUP BY {group_id}u.time_start\n    \
             HAVING secs > 0\n"
        ));
    }

    // Hours: each rollup hour's seconds into the UTC hour(s) it overlaps.
    let (team_sel, team_join, team_group) = match team {
        Some(col) => (
            format!(",\n    a.{} AS team", mysql_ident(col)),
            format!(
                "  JOIN {} AS a ON a.id_assoc = g.id\n",
                table("_assoc_table")
            ),
            ", team",
        ),
        None => (String::new(), String::new(), ""),
    };
    // `used`: GPU-hours per UTC hour number (and team); then every hour of the window for
    // every series, 0 where idle (`hours::fill`: the reader needs hourly samples, never a
    // gap). A `WITH` (MySQL 8.0 / MariaDB 10.2 and later) because `used` is read twice.
    q.push_str(&format!(
        "WITH used AS (\n\
         SELECT\n  \
         h.hs DIV 3600 AS h,\n  \
         h.gpu_type,{}\n  \
         h.weighted / 12960000e0 AS gh\n\
         FROM (\n  \
         SELECT\n    \
         g.time_start - g.time_start % 3600 + p.k * 3600 AS hs,\n    \
         g.gpu_type{team_sel},\n    \
         SUM(g.secs * CASE p.k WHEN 0 THEN 3600 - g.time_start % 3600\n      \
         ELSE g.time_start % 3600 END) AS weighted\n  \
         FROM (\n{rows}  ) AS g\n  \
         JOIN (SELECT 0 AS k UNION ALL SELECT 1) AS p ON p.k = 0 OR g.time_start % 3600 <> 0\n\
         {team_join}  \
         GROUP BY hs, g.gpu_type{team_group}\n  \
         HAVING hs >= {start} AND hs < {end} AND weighted <> 0\n\
         ) AS h\n\
         )\n",
        if team.is_some() { "\n  h.team," } else { "" },
    ));
    // The hour's text from its number, without the session's time zone.
    let hour = |c: &str| {
        format!(
            "DATE_FORMAT(DATE_ADD(TIMESTAMP'1970-01-01 00:00:00', INTERVAL {c} * 3600 SECOND), \
             '%Y-%m-%dT%H:%i:%sZ')"
        )
    };
    let fill = super::hours::fill(start, end, "used", team.is_some(), hour);
    q.push_str(fill.trim_end());
    q.push_str(";\n");
    Ok(q)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::query::{write as write_any, Engine};

    fn spec(table: &str, team: Option<&str>, types: &[&str]) -> QuerySpec {
        QuerySpec {
            engine: Engine::Slurmdbd,
            start: 1_793_491_200, // 2026-11-01 00:00 UTC
            end: 1_793_491_200 + 7 * 86_400,
            table: table.into(),
            team: team.map(Into::into),
            types: types.iter().map(|s| s.to_string()).collect(),
            ..QuerySpec::default()
        }
    }

    /// The query with its comment lines left out and every backtick-quoted identifier and
    /// hex literal replaced by a placeholder: what the SQL lexer sees as structure.
    fn structure(q: &str) -> String {
        let body: String = q
            .lines()
            .filter(|l| !l.starts_with("--"))
            .collect::<Vec<_>>()
            .join("\n");
        let mut out = String::new();
        let mut it = body.chars().peekable();
        while let Some(c) = it.next() {
            if c == '`' {
                // A quoted identifier: to the closing backtick, doubled ones inside.
                loop {
                    match it.next() {
                        Some('`') if it.peek() == Some(&'`') => {
                            it.next();
                        }
                        Some('`') | None => break,
                        _ => {}
                    }
                }
                out.push_str("<ident>");
            } else if c == 'X' && it.peek() == Some(&'\'') && out.ends_with("_utf8mb4 ") {
                it.next();
                for d in it.by_ref() {
                    if d == '\'' {
                        break;
                    }
                    assert!(d.is_ascii_hexdigit(), "{d:?} in a hex literal");
                }
                out.push_str("<hex>");
            } else {
                out.push(c);
            }
        }
        out
    }

    const HOSTILE: &[&str] = &[
        "x`; DROP TABLE job_table; --",
        "a'b",
        "back\\slash`",
        "line\nbreak",
        "``",
        "团队`",
        "x\0y",
    ];

    #[test]
    fn hostile_cluster_names_stay_identifiers() {
        let plain = structure(&write(&spec("linux", Some("account"), &["a100"])).unwrap());
        for h in HOSTILE {
            let s = spec(h, Some("account"), &["a100"]);
            match write(&s) {
                Ok(q) => {
                    assert_eq!(structure(&q), plain, "{h:?}");
                    // The cluster's text is inside the identifiers, backticks doubled.
                    let clean: String = h.trim().chars().filter(|&c| c != '\0').collect();
                    let ident = mysql_ident(&format!("{clean}_assoc_table"));
                    assert!(q.contains(&ident), "{q}");
                }
                // A line break is a control character: not a cluster name.
                Err(e) => {
                    assert_eq!(e, QueryError::BadTable(h.to_string()));
                    assert!(h.chars().any(char::is_control), "{h:?}");
                }
            }
        }
    }

    #[test]
    fn hostile_types_are_hex_and_teams_are_a_choice() {
        let plain = structure(&write(&spec("c", None, &["a100"])).unwrap());
        for h in HOSTILE {
            let key = format!("a100{h}");
            let q = write(&spec("c", None, &[&key])).unwrap();
            assert_eq!(structure(&q), plain, "{h:?}");
            // Comment lines: the user's text is on one comment line only.
            assert!(q
                .lines()
                .all(|l| !l.contains("DROP") || l.starts_with("--")));
            assert_eq!(
                write(&spec("c", Some(h), &[])),
                Err(QueryError::BadTeam(h.to_string()))
            );
        }
    }

    #[test]
    fn errors() {
        for t in ["", "   ", "a\tb", &"c".repeat(42)] {
            assert_eq!(
                write_any(&spec(t, None, &[])),
                Err(QueryError::BadTable(t.to_string()))
            );
        }
        assert!(write_any(&spec(&"c".repeat(41), None, &[])).is_ok());
        for t in ["partition", "qos", "wckey", "", "team"] {
            assert_eq!(
                write_any(&spec("c", Some(t), &[])),
                Err(QueryError::BadTeam(t.to_string()))
            );
        }
        assert!(write_any(&spec("c", Some(" Account "), &[])).is_ok());
        assert!(write_any(&spec("c", Some("user"), &[])).is_ok());
        assert_eq!(
            write_any(&spec("c", None, &["--"])),
            Err(QueryError::UnknownType("--".into()))
        );
    }

    #[test]
    fn shapes() {
        let q = write(&spec("linux", Some("account"), &[])).unwrap();
        assert!(q.starts_with("-- GPU-hours per UTC hour, GPU type and account"));
        assert!(q.contains("mysql -B slurm_acct_db < query.sql > answer.tsv"));
        assert!(q.contains("FROM `linux_assoc_usage_hour_table` AS u"));
        assert!(q.contains("JOIN `linux_assoc_table` AS a ON a.id_assoc = g.id"));
        assert!(q.contains("a.`acct` AS team"));
        // 2026-11-01 00:00 UTC = 1793491200; rows from the hour before (a :30 rollup hour).
        assert!(q.contains("u.time_start >= 1793487600 AND u.time_start < 1794096000"));
        assert!(q.contains("HAVING hs >= 1793491200 AND hs < 1794096000"));
        assert!(q.contains("h.weighted / 12960000e0 AS gh"));
        assert!(q.starts_with("-- ") && q.contains("\nWITH used AS (\n"));
        assert!(q.contains("COALESCE(u.gh, 0) AS gpu_hours"));
        assert!(q.contains(
            "LEFT JOIN used AS u ON u.h = w.h AND u.gpu_type = s.gpu_type AND u.team = s.team"
        ));
        assert!(!q.contains("FROM_UNIXTIME"));
        assert!(q.contains("'gpu' AS gpu_type"));
        assert!(q.trim_end().ends_with("ORDER BY w.h, s.gpu_type, s.team;"));

        let q = write(&spec("linux", None, &[])).unwrap();
        assert!(q.contains("FROM `linux_usage_hour_table` AS u"));
        assert!(!q.contains("assoc"));
        assert!(!q.contains("team"));
        assert!(q.contains("h.gpu_type,\n  h.weighted"));

        let q = write(&spec("linux", Some("user"), &["a100", "h100"])).unwrap();
        assert!(q.contains("a.`user` AS team"));
        assert!(
            !q.contains("'gpu' AS gpu_type"),
            "no untyped GPUs with a type filter"
        );
        assert_eq!(q.matches(" REGEXP _utf8mb4 X'").count(), 2);
    }

    /// Reads the hex literals of a query back as text.
    fn literals(q: &str) -> Vec<String> {
        q.split("_utf8mb4 X'")
            .skip(1)
            .map(|s| {
                let hex = &s[..s.find('\'').unwrap()];
                let bytes: Vec<u8> = (0..hex.len())
                    .step_by(2)
                    .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
                    .collect();
                String::from_utf8(bytes).unwrap()
            })
            .collect()
    }

    /// A tiny regular-expression matcher for the patterns written here (`^…$`, groups with
    /// `|`, `*`, `?`, `+`, `[0-9]`, `[0-9a-z]`): what MariaDB's REGEXP does with them.
    fn matches(pattern: &str, text: &str) -> bool {
        #[derive(Debug)]
        enum Node {
            Lit(char),
            Class(Vec<(char, char)>),
            Group(Vec<Vec<(Node, char)>>),
        }
        fn alts(p: &[char], i: &mut usize) -> Vec<Vec<(Node, char)>> {
            let mut out = vec![Vec::new()];
            while *i < p.len() {
                let c = p[*i];
                *i += 1;
                let node = match c {
                    '(' => {
                        let g = alts(p, i);
                        *i += 1; // ')'
                        Node::Group(g)
                    }
                    ')' => {
                        *i -= 1;
                        return out;
                    }
                    '|' => {
                        out.push(Vec::new());
                        continue;
                    }
                    '[' => {
                        let mut ranges = Vec::new();
                        while p[*i] != ']' {
                            ranges.push((p[*i], p[*i + 2]));
                            *i += 3;
                        }
                        *i += 1;
                        Node::Class(ranges)
                    }
                    c => Node::Lit(c),
                };
                let rep = match p.get(*i) {
                    Some(&r @ ('*' | '?' | '+')) => {
                        *i += 1;
                        r
                    }
                    _ => '1',
                };
                out.last_mut().unwrap().push((node, rep));
            }
            out
        }
        // All end positions of matching `seq` at `at`.
        fn seq(s: &[(Node, char)], t: &[char], at: usize) -> Vec<usize> {
            let Some(((node, rep), rest)) = s.split_first() else {
                return vec![at];
            };
            let one = |from: usize| -> Vec<usize> {
                match node {
                    Node::Lit(c) => (t.get(from) == Some(c))
                        .then_some(from + 1)
                        .into_iter()
                        .collect(),
                    Node::Class(r) => t
                        .get(from)
                        .filter(|&&x| r.iter().any(|&(a, b)| a <= x && x <= b))
                        .map(|_| from + 1)
                        .into_iter()
                        .collect(),
                    Node::Group(g) => g.iter().flat_map(|a| seq(a, t, from)).collect(),
                }
            };
            let mut ends = Vec::new();
            let mut frontier = vec![at];
            if matches!(rep, '*' | '?') {
                ends.push(at);
            }
            let mut seen = std::collections::HashSet::new();
            while let Some(f) = frontier.pop() {
                for e in one(f) {
                    if seen.insert(e) {
                        ends.push(e);
                        if matches!(rep, '*' | '+') {
                            frontier.push(e);
                        }
                    }
                }
            }
            ends.sort_unstable();
            ends.dedup();
            ends.into_iter().flat_map(|e| seq(rest, t, e)).collect()
        }
        let p: Vec<char> = pattern
            .strip_prefix('^')
            .unwrap()
            .strip_suffix('$')
            .unwrap()
            .chars()
            .collect();
        let t: Vec<char> = text.chars().collect();
        let tree = alts(&p, &mut 0);
        tree.iter().any(|a| seq(a, &t, 0).contains(&t.len()))
    }

    fn folded(name: &str) -> String {
        name.to_lowercase().replace(['-', '_', ' ', '.'], "")
    }

    #[test]
    fn type_keys_match_slurm_spellings() {
        let q = write(&spec("c", None, &["a100", "a100-40g", "4090", "6000ada"])).unwrap();
        let pats = literals(&q);
        assert_eq!(pats.len(), 4);
        let hit = |i: usize, name: &str| matches(&pats[i], &folded(name));
        for n in [
            "a100",
            "A100",
            "a100_80gb",
            "nvidia_a100-sxm4-80gb",
            "a100-pcie",
        ] {
            assert!(hit(0, n), "a100 ~ {n}");
        }
        for n in ["a10", "a1000", "a100x", "h100", "a10g"] {
            assert!(!hit(0, n), "a100 !~ {n}");
        }
        for n in ["a100_40g", "A100-40GB", "a100-sxm4-40gb"] {
            assert!(hit(1, n), "a100-40g ~ {n}");
        }
        for n in ["a100", "a100_80gb"] {
            assert!(!hit(1, n), "a100-40g !~ {n}");
        }
        assert!(hit(2, "rtx_4090") && hit(2, "geforce_rtx_4090") && !hit(2, "40900"));
        assert!(hit(3, "rtx_6000_ada") && !hit(3, "rtx_6000"));
    }

    /// A hand-computed case of the hour split: a rollup hour starting 10:30 UTC with
    /// 5400 GPU-seconds gives 0.75 GPU-hours to 10:00 and 0.75 to 11:00 — the weights the
    /// query writes (3600 − 1800 and 1800, over 3600²).
    #[test]
    fn half_hour_rollups_split_evenly() {
        let (secs, off) = (5400_i64, 1800_i64);
        let first = (secs * (3600 - off)) as f64 / 12_960_000.0;
        let second = (secs * off) as f64 / 12_960_000.0;
        assert_eq!((first, second), (0.75, 0.75));
        let q = write(&spec("c", None, &[])).unwrap();
        assert!(q.contains("CASE p.k WHEN 0 THEN 3600 - g.time_start % 3600"));
        assert!(q.contains("ELSE g.time_start % 3600 END"));
        assert!(q.contains("ON p.k = 0 OR g.time_start % 3600 <> 0"));
    }
}
