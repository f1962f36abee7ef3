//! The `sacct` command line for an exact window: every user's job allocations (`-a -X`) that
//! ran in `[start, end)`, cut to the window (`-T`), pipe-separated (`-P`), times as Unix
//! seconds (`SLURM_TIME_FORMAT=%s`), into the file the page (or the DuckDB query) reads.
//!
//! `-S` and `-E` are read by `sacct` in its local time zone, so the command sets `TZ=UTC` for
//! it and writes the window's UTC times; with `SLURM_TIME_FORMAT=%s` every `Start` and `End`
//! comes back as Unix seconds, whatever the zone. With `-T` a job that started before the
//! window starts at `-S`, and one still running (or ending after `-E`) ends at `-E` (at the
//! export's time when `-E` is later than that), so the file's GPU-seconds are the window's.
//! `--state=RUNNING` selects the jobs that were running at some time in the window (any state
//! now), so jobs still pending at `-E` are not written with a start after the window. The
//! page's Slurm reader (`core::ingest::slurm`) reads the columns written here.

use super::quote::shell_word;
use super::{utc_text, QueryError, QuerySpec};

/// The columns asked for, in this order.
pub const FORMAT: &str = "JobIDRaw,Start,End,ElapsedRaw,AllocTRES,State,Account,User,Partition,QOS";

/// The fields the page can group Slurm jobs by.
const TEAM_FIELDS: [&str; 4] = ["account", "user", "partition", "qos"];

/// `2026-11-01T00:00:00`: the form `sacct -S` parses.
fn sacct_time(t: i64) -> String {
    utc_text(t).replacen(' ', "T", 1)
}

/// The command. `spec.table`, when not empty, is the cluster (`-M`); `spec.path` is the
/// file written; the team field (if any) must be one of the exported columns.
pub fn write(spec: &QuerySpec) -> Result<String, QueryError> {
    if let Some(t) = &spec.team {
        let f = t.trim().to_ascii_lowercase();
        if !TEAM_FIELDS.contains(&f.as_str()) {
            return Err(QueryError::BadTeam(t.clone()));
        }
    }
    let path = spec.path.trim();
    if path.is_empty() {
        return Err(QueryError::EmptyPath);
    }
    let cluster = spec.table.trim();
    if cluster.chars().any(char::is_control) {
        return Err(QueryError::BadTable(spec.table.clone()));
    }
    let (s, e) = (sacct_time(spec.start), sacct_time(spec.end));
    let mut out = format!(
        "# GPU jobs of every user from {s} to {e} UTC (end excluded), cut to the window,\n\
         # times as Unix seconds. GPU Rent Planner. Give the page the file it writes.\n"
    );
    if !spec.types.is_empty() {
        out.push_str("# Every GPU type is written; the page keeps the types chosen.\n");
    }
    out.push_str("TZ=UTC SLURM_TIME_FORMAT=%s sacct -a -X -P -T --state=RUNNING");
    if !cluster.is_empty() {
        out.push_str(&format!(" -M {}", shell_word(cluster)));
    }
    out.push_str(&format!(
        " -S {s} -E {e} --format={FORMAT} > {}\n",
        shell_word(path)
    ));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::ingest::{parse, Format, ParseOptions};
    use crate::core::query::{write as write_any, Engine};

    const NOV1: i64 = 1_793_491_200; // 2026-11-01 00:00 UTC

    fn spec(table: &str, path: &str, team: Option<&str>) -> QuerySpec {
        QuerySpec {
            engine: Engine::Sacct,
            start: NOV1,
            end: NOV1 + 7 * 86_400,
            table: table.into(),
            path: path.into(),
            team: team.map(Into::into),
            ..QuerySpec::default()
        }
    }

    /// The command line of the text (its comment lines left out).
    fn command(text: &str) -> &str {
        let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(lines.len(), 1, "{text}");
        lines[0]
    }

    /// Splits a POSIX shell line into words the way `sh` does for the quoting used here
    /// (`'…'`, `\'`, plain words, `>`): `None` if a quote is left open.
    fn words(line: &str) -> Option<Vec<String>> {
        let mut out = Vec::new();
        let mut cur = String::new();
        let mut in_word = false;
        let mut it = line.chars();
        while let Some(c) = it.next() {
            match c {
                '\'' => {
                    in_word = true;
                    loop {
                        match it.next()? {
                            '\'' => break,
                            c => cur.push(c),
                        }
                    }
                }
                '\\' => {
                    in_word = true;
                    cur.push(it.next()?);
                }
                ' ' | '\t' => {
                    if in_word {
                        out.push(std::mem::take(&mut cur));
                        in_word = false;
                    }
                }
                c => {
                    // Anything a shell would act on outside quotes is not written unquoted.
                    assert!(
                        !"$`;&|()<*?[]{}\"\n".contains(c),
                        "{c:?} unquoted in {line}"
                    );
                    in_word = true;
                    cur.push(c);
                }
            }
        }
        if in_word {
            out.push(cur);
        }
        Some(out)
    }

    #[test]
    fn the_command() {
        let t = write(&spec("", "sacct.txt", Some("account"))).unwrap();
        assert_eq!(
            command(&t),
            "TZ=UTC SLURM_TIME_FORMAT=%s sacct -a -X -P -T --state=RUNNING \
             -S 2026-11-01T00:00:00 -E 2026-11-08T00:00:00 \
             --format=JobIDRaw,Start,End,ElapsedRaw,AllocTRES,State,Account,User,Partition,QOS \
             > 'sacct.txt'"
        );
        assert!(t.starts_with("# GPU jobs of every user from 2026-11-01T00:00:00"));
        let t = write(&spec("linux", "x.txt", None)).unwrap();
        assert!(command(&t).contains(" --state=RUNNING -M 'linux' -S "));
    }

    #[test]
    fn hostile_cluster_and_path_stay_one_word() {
        for h in [
            "x'; rm -rf ~; echo '",
            "$(reboot)",
            "`id`",
            "a b > /etc/passwd",
            "it's",
            "\\'",
            "团队'",
        ] {
            let t = write_any(&spec(h, h, None)).unwrap();
            let w = words(command(&t)).unwrap();
            let clean = h.trim();
            assert_eq!(w[w.len() - 2], ">");
            assert_eq!(w[w.len() - 1], clean, "{t}");
            let m = w.iter().position(|x| x == "-M").unwrap();
            assert_eq!(w[m + 1], clean);
            // The same words as a plain name, the names aside.
            let plain = words(command(&write(&spec("c", "p", None)).unwrap())).unwrap();
            assert_eq!(w.len(), plain.len());
            for (a, b) in w.iter().zip(&plain) {
                if a != clean {
                    assert_eq!(a, b);
                }
            }
        }
    }

    #[test]
    fn errors() {
        assert_eq!(write_any(&spec("", "", None)), Err(QueryError::EmptyPath));
        assert_eq!(
            write_any(&spec("a\nb", "p", None)),
            Err(QueryError::BadTable("a\nb".into()))
        );
        for t in ["wckey", "team", "", "account; rm"] {
            assert_eq!(
                write_any(&spec("", "p", Some(t))),
                Err(QueryError::BadTeam(t.into()))
            );
        }
        for t in ["account", "User", " qos ", "partition"] {
            assert!(write_any(&spec("", "p", Some(t))).is_ok());
        }
    }

    /// The export of `end2end/tests/real_slurm.test.mjs`, as Debian's Slurm 22.05.8 wrote it
    /// for the written command: an untyped `--gres=gpu:1` (job 5) is recorded with the type it
    /// got, every typed count again under `gres/gpu`, a job without GPUs has no `gres/`.
    /// Hand-computed, all in the hour from 1796450400: A100 2×3 + 1×4 + 1×2 + 1×2 = 14
    /// GPU-seconds, H100 2×3 + 1×2 = 8; physics 12, bio 10.
    #[test]
    fn a_real_export_reads() {
        const REAL: &str = "JobIDRaw|Start|End|ElapsedRaw|AllocTRES|State|Account|User|Partition|QOS
1|1796453101|1796453104|3|billing=1,cpu=1,gres/gpu:a100=2,gres/gpu=2,node=1|COMPLETED|physics|root|gpu|normal
2|1796453101|1796453105|4|billing=1,cpu=1,gres/gpu:a100=1,gres/gpu=1,node=1|COMPLETED|bio|root|gpu|normal
3|1796453101|1796453104|3|billing=1,cpu=1,gres/gpu:h100=2,gres/gpu=2,node=1|COMPLETED|physics|root|gpu|normal
4|1796453105|1796453107|2|billing=1,cpu=1,gres/gpu:a100=1,gres/gpu:h100=1,gres/gpu=2,node=1|COMPLETED|bio|root|gpu|normal
5|1796453105|1796453107|2|billing=1,cpu=1,gres/gpu:a100=1,gres/gpu=1,node=1|COMPLETED|bio|root|gpu|normal
6|1796453105|1796453106|1|billing=1,cpu=1,node=1|COMPLETED|physics|root|gpu|normal
";
        assert!(REAL.starts_with(&FORMAT.replace(',', "|")));
        let p = parse(REAL, &ParseOptions::default()).expect("read");
        assert_eq!(p.report.format, Format::Slurm);
        assert_eq!(p.series.timestamps, Some(vec![1_796_450_400]));
        let near = |a: f64, b: f64| (a - b).abs() < 1e-12;
        assert!(near(p.series.values[0], 22.0 / 3600.0));
        let types: Vec<(&str, f64)> = p
            .types
            .iter()
            .map(|t| (t.key.as_str(), t.series.values[0]))
            .collect();
        assert_eq!(types.len(), 2);
        assert!(types[0].0 == "a100" && near(types[0].1, 14.0 / 3600.0));
        assert!(types[1].0 == "h100" && near(types[1].1, 8.0 / 3600.0));
        let teams = p.teams.expect("teams");
        let got: Vec<(&str, f64)> = teams
            .teams
            .iter()
            .map(|t| (t.name.as_str(), t.values[0]))
            .collect();
        assert_eq!(got.len(), 2);
        assert!(got[0].0 == "physics" && near(got[0].1, 12.0 / 3600.0));
        assert!(got[1].0 == "bio" && near(got[1].1, 10.0 / 3600.0));
        let s = p.report.slurm.as_ref().unwrap();
        assert_eq!((s.jobs, s.gpu_jobs, s.no_gpu_jobs), (6, 5, 1));
    }

    /// What the command's output looks like (`SLURM_TIME_FORMAT=%s`, `-T`): the page's Slurm
    /// reader takes the epoch times, typed GPUs and accounts. Hand-computed: job 1 with 2
    /// A100 from 10:30 to 12:00 UTC → 1 GPU in the 10:00 hour, 2 in 11:00; job 2 with an
    /// H100 from 11:00 to 11:15 → 0.25 in 11:00.
    #[test]
    fn the_page_reads_the_output() {
        let t10 = NOV1 + 10 * 3600;
        let text = format!(
            "{}\n\
             1|{}|{}|5400|billing=2,cpu=2,gres/gpu:a100=2,gres/gpu=2,mem=1G,node=1|COMPLETED|physics|root|gpu|normal\n\
             2|{}|{}|900|billing=1,cpu=1,gres/gpu:h100=1,gres/gpu=1,mem=1G,node=1|COMPLETED|bio|alice|gpu|normal\n",
            FORMAT.replace(',', "|"),
            t10 + 1800,
            t10 + 7200,
            t10 + 3600,
            t10 + 4500,
        );
        let p = parse(&text, &ParseOptions::default()).expect("read");
        assert_eq!(p.report.format, Format::Slurm);
        assert_eq!(p.series.timestamps, Some(vec![t10, t10 + 3600]));
        assert_eq!(p.series.values, vec![1.0, 2.25]);
        let types: Vec<(&str, &[f64])> = p
            .types
            .iter()
            .map(|t| (t.key.as_str(), t.series.values.as_slice()))
            .collect();
        assert_eq!(
            types,
            vec![("a100", &[1.0, 2.0][..]), ("h100", &[0.0, 0.25][..])]
        );
        let teams = p.teams.expect("teams");
        let names: Vec<&str> = teams.teams.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["physics", "bio"]);
        assert_eq!(p.report.slurm.as_ref().unwrap().gpu_hours, 3.25);
    }
}
