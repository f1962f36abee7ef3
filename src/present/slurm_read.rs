//! What the parse report says about a Slurm accounting export (`sacct`): the jobs read,
//! skipped and still running, and why a text that looks like `sacct` could not be read.
//! Pure; the report component places the lines.

use crate::core::ingest::{SacctProblem, SlurmReport, SACCT_COMMAND, UNTYPED_LABEL};
use crate::core::zone::Zone;
use crate::format::Lang;
use crate::format::{local_minute, number_trim};
use crate::i18n::pick;
use crate::present::ReportLine as Line;

/// The format's name in the "Read as" list and line.
pub fn format_name(l: Lang) -> &'static str {
    pick(
        l,
        "Slurm accounting (sacct -P)",
        "Slurm 作业记账（sacct -P）",
    )
}

fn jobs_word(l: Lang, n: usize) -> &'static str {
    match (l, n) {
        (Lang::En, 1) => "job",
        (Lang::En, _) => "jobs",
        (Lang::Zh, _) => "个作业",
    }
}

/// `n` jobs and what of them: `{n} job(s){en}` in English, `{zh.0}{n} 个作业{zh.1}` in Chinese.
fn jobs_text(l: Lang, n: usize, en: &str, zh: (&str, &str)) -> String {
    match l {
        Lang::En => format!("{n} {}{en}", jobs_word(l, n)),
        Lang::Zh => format!("{}{n} 个作业{}", zh.0, zh.1),
    }
}

/// A line of the report that counts `count` (its `data-value`), never a warning.
fn counted(testid: &'static str, term: &'static str, text: String, count: usize) -> Line {
    Line {
        testid,
        term,
        text,
        value: count.to_string(),
        warn: false,
    }
}

/// The report's lines for a `sacct` export read in `zone` (the planning zone).
pub fn report_lines(l: Lang, r: &SlurmReport, zone: &Zone) -> Vec<Line> {
    let mut out = Vec::new();
    let id = &r.id_column;
    out.push(counted(
        "slurm-jobs",
        pick(l, "Jobs read", "读取的作业"),
        jobs_text(
            l,
            r.jobs,
            &format!(" (allocation rows, by {id})"),
            ("", &format!("（分配行，按 {id} 识别）")),
        ),
        r.jobs,
    ));
    let hours = number_trim(r.gpu_hours, 1, l);
    let en = format!(", {hours} GPU-hours, each counted for the part of each hour it ran");
    let zh = format!("，共 {hours} GPU·小时，按每小时内实际运行的时长计入");
    out.push(counted(
        "slurm-gpu-jobs",
        pick(l, "Jobs with GPUs", "使用 GPU 的作业"),
        jobs_text(l, r.gpu_jobs, &en, ("", &zh)),
        r.gpu_jobs,
    ));
    let en = ": no gres/gpu in AllocTRES, counted as 0 GPUs";
    out.push(counted(
        "slurm-no-gpu",
        pick(l, "Jobs without GPUs", "未用 GPU 的作业"),
        jobs_text(
            l,
            r.no_gpu_jobs,
            en,
            ("", "：AllocTRES 中没有 gres/gpu，按 0 张 GPU 计"),
        ),
        r.no_gpu_jobs,
    ));
    let mut steps = match l {
        _ if r.steps_skipped + r.steps_counted == 0 => pick(
            l,
            "none in the file (exported with -X)",
            "文件中没有（导出时用了 -X）",
        )
        .to_string(),
        Lang::En => format!(
            "{} skipped (their job's allocation row is in the file)",
            r.steps_skipped
        ),
        Lang::Zh => format!("跳过 {} 个（文件中有其作业的分配行）", r.steps_skipped),
    };
    if r.steps_counted > 0 {
        steps.push_str(&match l {
            Lang::En => format!(
                "; {} counted as jobs (no allocation row for them)",
                r.steps_counted
            ),
            Lang::Zh => format!("；{} 个按作业计入（文件中没有其分配行）", r.steps_counted),
        });
    }
    out.push(counted(
        "slurm-steps",
        pick(l, "Job steps", "作业步"),
        steps,
        r.steps_skipped,
    ));
    out.push(counted(
        "slurm-never-started",
        pick(l, "Never started", "从未开始"),
        jobs_text(
            l,
            r.never_started,
            " skipped (pending, or cancelled before they started: Start Unknown or None)",
            (
                "跳过 ",
                "（排队中，或开始前已取消：Start 为 Unknown 或 None）",
            ),
        ),
        r.never_started,
    ));
    let running = match (r.run_to, l) {
        (Some(t), Lang::En) => format!(
            "{} {} (End Unknown), counted as running until {}, the latest time in the file",
            r.running,
            jobs_word(l, r.running),
            local_minute(t, zone)
        ),
        (Some(t), Lang::Zh) => format!(
            "{} 个作业（End 为 Unknown），按运行到 {} 计（文件中最晚的时间）",
            r.running,
            local_minute(t, zone)
        ),
        (None, _) => match l {
            Lang::En => "none (every job has an End)".to_string(),
            Lang::Zh => "无（每个作业都有 End）".to_string(),
        },
    };
    out.push(counted(
        "slurm-running",
        pick(l, "Still running", "仍在运行"),
        running,
        r.running,
    ));
    if !r.types.is_empty() {
        let sep = pick(l, ", ", "、");
        let list: Vec<String> = r
            .types
            .iter()
            .map(|(label, jobs)| {
                let label = if label == UNTYPED_LABEL {
                    pick(l, "no type (gres/gpu)", "未注明型号（gres/gpu）").to_string()
                } else {
                    label.clone()
                };
                match l {
                    Lang::En => format!("{label} ({jobs} {})", jobs_word(l, *jobs)),
                    Lang::Zh => format!("{label}（{jobs} 个作业）"),
                }
            })
            .collect();
        let mut text = list.join(sep);
        if r.untyped_jobs > 0 {
            text.push_str(pick(
                l,
                ". GPUs that name no type are planned as their own type.",
                "。未注明型号的 GPU 作为单独的型号规划。",
            ));
        }
        let term = pick(l, "GPU types (gres/gpu:…)", "GPU 型号（gres/gpu:…）");
        out.push(counted("slurm-types", term, text, r.types.len()));
    }
    out
}

/// Why a text that looks like `sacct` output was not read, with the command to run.
pub fn error_text(l: Lang, p: &SacctProblem) -> String {
    match (p, l) {
        (SacctProblem::FixedWidth, Lang::En) => format!(
            "This looks like sacct output in its default fixed-width columns (sacct without -P): values may be cut to the column width and cannot be read safely. Export it pipe-separated: {SACCT_COMMAND}"
        ),
        (SacctProblem::FixedWidth, Lang::Zh) => format!(
            "这看起来是 sacct 默认的定宽列输出（未加 -P）：数值可能被列宽截断，无法可靠读取。请导出为竖线分隔的格式：{SACCT_COMMAND}"
        ),
        (SacctProblem::MissingColumns(cols), Lang::En) => format!(
            "This looks like a sacct export, but it has no {} column{}. Export the columns the planner reads: {SACCT_COMMAND}",
            cols.join(", "),
            if cols.len() == 1 { "" } else { "s" }
        ),
        (SacctProblem::MissingColumns(cols), Lang::Zh) => format!(
            "这看起来是 sacct 导出，但缺少 {} 列。请导出规划器读取的列：{SACCT_COMMAND}",
            cols.join("、")
        ),
        (SacctProblem::NoJobRan { never_started }, Lang::En) => format!(
            "A sacct export, but none of its {never_started} jobs ever started (all pending, or cancelled before they started): there is no usage to plan from. Export a period in which jobs ran (sacct -S … -E …): {SACCT_COMMAND}"
        ),
        (SacctProblem::NoJobRan { never_started }, Lang::Zh) => format!(
            "是 sacct 导出，但其中 {never_started} 个作业都从未开始（都在排队，或开始前已取消）：没有可用于规划的用量。请导出有作业运行的时间段（sacct -S … -E …）：{SACCT_COMMAND}"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report() -> SlurmReport {
        SlurmReport {
            id_column: "JobIDRaw".into(),
            jobs: 5,
            gpu_jobs: 3,
            no_gpu_jobs: 1,
            steps_skipped: 4,
            steps_counted: 1,
            never_started: 2,
            running: 1,
            // 2026-03-01 12:00 UTC
            run_to: Some(1_772_366_400),
            gpu_hours: 12.5,
            types: vec![("a100".into(), 2), (UNTYPED_LABEL.into(), 1)],
            untyped_jobs: 1,
        }
    }

    fn find<'a>(lines: &'a [Line], id: &str) -> &'a Line {
        lines.iter().find(|x| x.testid == id).expect(id)
    }

    /// Each (test id, text) of `want` is a line of `lines` with that text.
    fn assert_texts(lines: &[Line], want: &[(&str, &str)]) {
        for (id, text) in want {
            assert_eq!(find(lines, id).text, *text, "{id}");
        }
    }

    #[test]
    fn english_lines_name_each_count() {
        let lines = report_lines(Lang::En, &report(), &Zone::fixed(480));
        assert_texts(
            &lines,
            &[
                ("slurm-jobs", "5 jobs (allocation rows, by JobIDRaw)"),
                ("slurm-steps", "4 skipped (their job's allocation row is in the file); 1 counted as jobs (no allocation row for them)"),
                // 12:00 UTC is 20:00 at UTC+8.
                ("slurm-running", "1 job (End Unknown), counted as running until 2026-03-01 20:00, the latest time in the file"),
                ("slurm-types", "a100 (2 jobs), no type (gres/gpu) (1 job). GPUs that name no type are planned as their own type."),
            ],
        );
        assert_eq!(find(&lines, "slurm-gpu-jobs").value, "3");
        assert!(find(&lines, "slurm-gpu-jobs")
            .text
            .starts_with("3 jobs, 12.5 GPU-hours"));
        assert_eq!(find(&lines, "slurm-never-started").value, "2");
        assert_eq!(find(&lines, "slurm-no-gpu").value, "1");
    }

    #[test]
    fn chinese_lines() {
        let lines = report_lines(Lang::Zh, &report(), &Zone::fixed(0));
        assert_texts(
            &lines,
            &[
                (
                    "slurm-running",
                    "1 个作业（End 为 Unknown），按运行到 2026-03-01 12:00 计（文件中最晚的时间）",
                ),
                (
                    "slurm-never-started",
                    "跳过 2 个作业（排队中，或开始前已取消：Start 为 Unknown 或 None）",
                ),
            ],
        );
        assert!(find(&lines, "slurm-types")
            .text
            .starts_with("a100（2 个作业）、未注明型号"));
    }

    #[test]
    fn an_export_without_steps_says_so() {
        let mut r = report();
        r.steps_skipped = 0;
        r.steps_counted = 0;
        let lines = report_lines(Lang::En, &r, &Zone::fixed(0));
        assert_eq!(
            find(&lines, "slurm-steps").text,
            "none in the file (exported with -X)"
        );
        assert_eq!(find(&lines, "slurm-steps").value, "0");
        let zh = report_lines(Lang::Zh, &r, &Zone::fixed(0));
        assert_eq!(find(&zh, "slurm-steps").text, "文件中没有（导出时用了 -X）");
    }

    #[test]
    fn no_running_and_untyped_file() {
        let mut r = report();
        r.running = 0;
        r.run_to = None;
        r.types.clear();
        r.steps_counted = 0;
        let lines = report_lines(Lang::En, &r, &Zone::fixed(0));
        assert_eq!(
            find(&lines, "slurm-running").text,
            "none (every job has an End)"
        );
        assert!(lines.iter().all(|x| x.testid != "slurm-types"));
        assert_eq!(
            find(&lines, "slurm-steps").text,
            "4 skipped (their job's allocation row is in the file)"
        );
    }

    #[test]
    fn errors_give_the_command() {
        for l in [Lang::En, Lang::Zh] {
            for p in [
                SacctProblem::FixedWidth,
                SacctProblem::MissingColumns(vec!["AllocTRES".into()]),
                SacctProblem::NoJobRan { never_started: 3 },
            ] {
                assert!(error_text(l, &p).ends_with(SACCT_COMMAND), "{p:?}");
            }
        }
        assert!(error_text(Lang::En, &SacctProblem::FixedWidth).contains("without -P"));
        assert!(error_text(
            Lang::En,
            &SacctProblem::MissingColumns(vec!["Start".into(), "AllocTRES".into()])
        )
        .contains("no Start, AllocTRES columns"));
        assert!(error_text(
            Lang::Zh,
            &SacctProblem::MissingColumns(vec!["AllocTRES".into()])
        )
        .contains("缺少 AllocTRES 列"));
    }
}
