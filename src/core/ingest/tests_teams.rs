//! Teams (issue 37): who used the GPUs, per reader (Slurm `sacct`, Prometheus, AWS CUR, CSV
//! long tables): hand-computed hours per team, the sum rules (the teams add up to the
//! series, per type to each type) on every reading including the corpus, the choice of
//! source, the merge past [`MAX_TEAMS`], and the same teams whole and in slices.

use super::test_feed::{column_name, one_column, opts, same_every_way};
use super::*;

fn with_team(team: TeamChoice) -> ParseOptions {
    ParseOptions {
        team,
        ..ParseOptions::default()
    }
}

fn named(n: &str) -> ParseOptions {
    with_team(TeamChoice::Named(n.to_string()))
}

/// Whole, in Parser chunks, Stepper slices and ByteStepper slices: all equal (and the sum
/// rules hold). Returns the whole reading.
fn same_everywhere(text: &str, o: &ParseOptions) -> ParseResult {
    let one = super::tests_slurm::same_everywhere(text, o);
    if let Ok(p) = &one {
        check_sums(p);
    }
    one
}

fn ok(text: &str, o: &ParseOptions) -> Parsed {
    same_everywhere(text, o).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1.0)
}

/// The rules every reading with teams keeps: each team on the series' hours; the teams add
/// up to the series hour by hour, and per type to each type; names kept short and distinct;
/// the order (first appearance, then UNALLOCATED, then OTHER_TEAMS); the source among the
/// choices.
fn check_sums(p: &Parsed) {
    let Some(t) = &p.teams else {
        return;
    };
    let n = p.series.values.len();
    assert!(!t.teams.is_empty(), "teams without a team");
    assert!(t.teams.len() <= MAX_TEAMS);
    assert!(
        t.choices.contains(&t.source),
        "{:?} not in {:?}",
        t.source,
        t.choices
    );
    let mut names: Vec<&str> = t.teams.iter().map(|s| s.name.as_str()).collect();
    for s in &t.teams {
        assert_eq!(s.values.len(), n, "team {}", s.name);
        assert!(s.name.chars().count() <= MAX_EXCERPT_CHARS);
        assert!(!s.name.chars().any(char::is_control));
        assert!(s.values.iter().all(|v| v.is_finite() && *v >= 0.0));
        if p.types.is_empty() {
            assert!(s.by_type.is_empty(), "untyped: no by_type");
        } else {
            assert_eq!(s.by_type.len(), p.types.len());
            for bt in &s.by_type {
                assert!(bt.is_empty() || bt.len() == n);
            }
            for i in 0..n {
                let sum: f64 = s
                    .by_type
                    .iter()
                    .filter(|v| !v.is_empty())
                    .map(|v| v[i])
                    .sum();
                assert!(close(sum, s.values[i]), "team {} hour {i}", s.name);
            }
        }
    }
    for i in 0..n {
        let sum: f64 = t.teams.iter().map(|s| s.values[i]).sum();
        assert!(
            close(sum, p.series.values[i]),
            "hour {i}: teams {sum} vs series {}",
            p.series.values[i]
        );
    }
    for (k, ty) in p.types.iter().enumerate() {
        for i in 0..n {
            let sum: f64 = t.teams.iter().filter_map(|s| s.by_type[k].get(i)).sum();
            assert!(close(sum, ty.series.values[i]), "type {} hour {i}", ty.key);
        }
    }
    let other = names.iter().position(|&s| s == OTHER_TEAMS);
    let unalloc = names.iter().position(|&s| s == UNALLOCATED);
    if let Some(o) = other {
        assert_eq!(o, names.len() - 1, "OTHER_TEAMS last");
        assert!(t.merged > 0);
    } else {
        assert_eq!(t.merged, 0);
    }
    if let Some(u) = unalloc {
        assert_eq!(
            u,
            names.len() - 1 - usize::from(other.is_some()),
            "UNALLOCATED last"
        );
    }
    names.sort_unstable();
    let len = names.len();
    names.dedup();
    assert_eq!(names.len(), len, "team names distinct");
}

fn team_names(p: &Parsed) -> Vec<&str> {
    p.teams
        .as_ref()
        .map(|t| t.teams.iter().map(|s| s.name.as_str()).collect())
        .unwrap_or_default()
}

fn team<'a>(p: &'a Parsed, name: &str) -> &'a TeamSeries {
    p.teams
        .as_ref()
        .and_then(|t| t.teams.iter().find(|s| s.name == name))
        .unwrap_or_else(|| panic!("no team {name}: {:?}", team_names(p)))
}

fn vals(p: &Parsed, name: &str) -> Vec<f64> {
    team(p, name)
        .values
        .iter()
        .map(|v| (v * 1e9).round() / 1e9)
        .collect()
}

// ---------------------------------------------------------------------------------------
// Slurm `sacct -P`.

const SACCT_HEAD: &str = "JobIDRaw|Start|End|ElapsedRaw|AllocTRES|State|Account|User|Partition";

/// Three accounts and a job without one, 10:00–12:00 UTC on 2026-11-01:
/// - 1 `vision`/ana 4 GPUs 10:30–11:30: 2 GPUs in hour 10, 2 in hour 11 (spans the boundary);
/// - 2 `nlp`/bo 2 GPUs 10:00–11:00: 2 in hour 10;
/// - 3 `speech`/chen 8 GPUs 11:15–12:00: 8 × 0.75 = 6 in hour 11;
/// - 4 no account/eve 1 GPU 11:00–12:00: 1 in hour 11 (unallocated);
/// - 5 `nlp`/bo pending, 6 `speech` CPU only: not counted.
///
/// Series: hour 10 = 2 + 2 = 4, hour 11 = 2 + 6 + 1 = 9.
fn sacct_three_accounts() -> String {
    format!(
        "{SACCT_HEAD}\n\
         1|2026-11-01T10:30:00|2026-11-01T11:30:00|3600|billing=4,cpu=16,gres/gpu=4|COMPLETED|vision|ana|gpu\n\
         2|2026-11-01T10:00:00|2026-11-01T11:00:00|3600|billing=2,cpu=8,gres/gpu=2|COMPLETED|nlp|bo|gpu\n\
         3|2026-11-01T11:15:00|2026-11-01T12:00:00|2700|cpu=32,gres/gpu=8|COMPLETED|speech|chen|gpu\n\
         4|2026-11-01T11:00:00|2026-11-01T12:00:00|3600|cpu=4,gres/gpu=1|COMPLETED||eve|debug\n\
         5|Unknown|Unknown|0|cpu=4,gres/gpu=4|PENDING|nlp|bo|gpu\n\
         6|2026-11-01T10:00:00|2026-11-01T12:00:00|7200|cpu=64|COMPLETED|speech|chen|cpu\n"
    )
}

#[test]
fn sacct_accounts_share_the_hours_as_the_jobs_ran() {
    let p = ok(&sacct_three_accounts(), &opts());
    assert_eq!(p.series.values, vec![4.0, 9.0]);
    let t = p.teams.as_ref().expect("teams");
    assert_eq!(t.source, TeamSource::Column("Account".into()));
    assert_eq!(
        t.choices,
        vec![
            TeamSource::Column("Account".into()),
            TeamSource::Column("User".into()),
            TeamSource::Column("Partition".into()),
        ]
    );
    assert_eq!(team_names(&p), ["vision", "nlp", "speech", UNALLOCATED]);
    assert_eq!(vals(&p, "vision"), [2.0, 2.0]);
    assert_eq!(vals(&p, "nlp"), [2.0, 0.0]);
    assert_eq!(vals(&p, "speech"), [0.0, 6.0]);
    assert_eq!(vals(&p, UNALLOCATED), [0.0, 1.0]);
    assert_eq!(t.merged, 0);
    assert!(team(&p, "nlp").by_type.is_empty());
}

#[test]
fn sacct_named_columns_off_and_absent() {
    let text = sacct_three_accounts();
    let users = ok(&text, &named("user"));
    let t = users.teams.as_ref().expect("teams by user");
    assert_eq!(t.source, TeamSource::Column("User".into()));
    assert_eq!(team_names(&users), ["ana", "bo", "chen", "eve"]);
    assert_eq!(vals(&users, "eve"), [0.0, 1.0]);
    let parts = ok(&text, &named("PARTITION"));
    assert_eq!(team_names(&parts), ["gpu", "debug"]);
    assert_eq!(vals(&parts, "gpu"), [4.0, 8.0]);
    assert_eq!(vals(&parts, "debug"), [0.0, 1.0]);
    // The series is the same whatever the choice.
    assert_eq!(users.series, parts.series);
    // Off, and a column the file does not have: no teams, no error.
    let off = ok(&text, &with_team(TeamChoice::Off));
    assert_eq!(off.teams, None);
    assert_eq!(off.series, users.series);
    assert_eq!(ok(&text, &named("QOS")).teams, None);
    assert_eq!(ok(&text, &named("JobIDRaw")).teams, None);
}

// ---------------------------------------------------------------------------------------
// Prometheus `query_range` answers.

/// 2026-11-01 13:00 UTC.
const T0: i64 = 1_793_538_000;

fn prom(series: &[(&str, &[(i64, &str)])]) -> String {
    let result: Vec<String> = series
        .iter()
        .map(|(metric, samples)| {
            let values: Vec<String> = samples
                .iter()
                .map(|(t, v)| format!("[{t},\"{v}\"]"))
                .collect();
            format!(
                "{{\"metric\":{{{metric}}},\"values\":[{}]}}",
                values.join(",")
            )
        })
        .collect();
    format!(
        "{{\"status\":\"success\",\"data\":{{\"resultType\":\"matrix\",\"result\":[{}]}}}}",
        result.join(",")
    )
}

fn prom_ok(text: &str, o: &ParseOptions) -> Parsed {
    let p = ok(text, o);
    assert_eq!(parse_prometheus_tree(text, o), Ok(p.clone()), "tree reader");
    p
}

/// Values (GPUs per series): `ml` 2 then 4 in hour 13 (mean 3), 1 in hour 14; `web` 1 and 3;
/// a series without `namespace` 0.5 and 0.5 (unallocated). Series: 4.5, 4.5.
fn prom_namespaces() -> String {
    prom(&[
        (
            "\"namespace\":\"ml\",\"pod\":\"a\"",
            &[(T0, "2"), (T0 + 1800, "4"), (T0 + 3600, "1")],
        ),
        (
            "\"namespace\":\"web\",\"pod\":\"b\"",
            &[(T0, "1"), (T0 + 3600, "3")],
        ),
        ("\"pod\":\"c\"", &[(T0, "0.5"), (T0 + 3600, "0.5")]),
    ])
}

#[test]
fn prometheus_values_by_namespace_and_a_series_without_it() {
    let p = prom_ok(&prom_namespaces(), &opts());
    assert_eq!(p.series.values, vec![4.5, 4.5]);
    let t = p.teams.as_ref().expect("teams");
    assert_eq!(t.source, TeamSource::Label("namespace".into()));
    assert_eq!(
        t.choices,
        vec![
            TeamSource::Label("namespace".into()),
            TeamSource::Label("pod".into())
        ]
    );
    assert_eq!(team_names(&p), ["ml", "web", UNALLOCATED]);
    assert_eq!(vals(&p, "ml"), [3.0, 1.0]);
    assert_eq!(vals(&p, "web"), [1.0, 3.0]);
    assert_eq!(vals(&p, UNALLOCATED), [0.5, 0.5]);
    // Any label by name: `pod`; one the answer does not have: none; off: none.
    let pods = prom_ok(&prom_namespaces(), &named("POD"));
    assert_eq!(
        pods.teams.as_ref().map(|t| &t.source),
        Some(&TeamSource::Label("pod".into()))
    );
    assert_eq!(team_names(&pods), ["a", "b", "c"]);
    assert_eq!(vals(&pods, "c"), [0.5, 0.5]);
    assert_eq!(pods.series, p.series);
    assert_eq!(prom_ok(&prom_namespaces(), &named("team")).teams, None);
    assert_eq!(
        prom_ok(&prom_namespaces(), &with_team(TeamChoice::Off)).teams,
        None
    );
}

#[test]
fn prometheus_auto_takes_the_first_team_label_present_else_none() {
    // No `namespace`: `team` (before `project`); neither: no teams (Auto), but by name.
    let text = prom(&[
        ("\"project\":\"p1\",\"team\":\"red\"", &[(T0, "1")]),
        ("\"project\":\"p2\"", &[(T0, "2")]),
    ]);
    let p = prom_ok(&text, &opts());
    assert_eq!(
        p.teams.as_ref().map(|t| &t.source),
        Some(&TeamSource::Label("team".into()))
    );
    assert_eq!(team_names(&p), ["red", UNALLOCATED]);
    assert_eq!(vals(&p, UNALLOCATED), [2.0]);
    let none = prom(&[
        ("\"instance\":\"n1\"", &[(T0, "1")]),
        ("\"instance\":\"n2\"", &[(T0, "2")]),
    ]);
    assert_eq!(prom_ok(&none, &opts()).teams, None);
    let by_instance = prom_ok(&none, &named("instance"));
    assert_eq!(team_names(&by_instance), ["n1", "n2"]);
    assert_eq!(vals(&by_instance, "n2"), [2.0]);
}

/// DCGM utilisation (busy at or above 10 %), steps 13:00 and 13:30: GPU0 (`ml`) 50, 50 → busy
/// twice; GPU1 (`ml`) 5, 90 → busy at 13:30; GPU2 (no namespace) 95, 0 → busy at 13:00.
/// Per step: 2 busy, 2 busy → hour 13 = 2. `ml`: 1 then 2 → 1.5; unallocated: 1 then 0 → 0.5.
#[test]
fn prometheus_dcgm_busy_counts_by_namespace() {
    let text = prom(&[
        (
            "\"__name__\":\"DCGM_FI_DEV_GPU_UTIL\",\"gpu\":\"0\",\"namespace\":\"ml\"",
            &[(T0, "50"), (T0 + 1800, "50")],
        ),
        (
            "\"__name__\":\"DCGM_FI_DEV_GPU_UTIL\",\"gpu\":\"1\",\"namespace\":\"ml\"",
            &[(T0, "5"), (T0 + 1800, "90")],
        ),
        (
            "\"__name__\":\"DCGM_FI_DEV_GPU_UTIL\",\"gpu\":\"2\"",
            &[(T0, "95"), (T0 + 1800, "0")],
        ),
    ]);
    let p = prom_ok(&text, &opts());
    assert_eq!(p.series.values, vec![2.0]);
    assert_eq!(team_names(&p), ["ml", UNALLOCATED]);
    assert_eq!(vals(&p, "ml"), [1.5]);
    assert_eq!(vals(&p, UNALLOCATED), [0.5]);
    let t = p.teams.as_ref().unwrap();
    assert_eq!(
        t.choices,
        vec![
            TeamSource::Label("gpu".into()),
            TeamSource::Label("namespace".into())
        ]
    );
}

/// Kubernetes requests, typed by `label_nvidia_com_gpu_product`, per namespace: by_type per
/// team. Steps 13:00, 13:30: `a` (ml, A100) 4, 4; `b` (web, H100) 2 at 13:00 only; `c` (ml,
/// H100) 1, 3. Hour 13: A100 = 4, H100 = (2 + 1 + 3) / 2 = 3. ml = 4 + 2 = 6 (A100 4, H100
/// 2), web = 1 (H100).
#[test]
fn prometheus_requests_by_namespace_and_type() {
    let req =
        "\"__name__\":\"kube_pod_container_resource_requests\",\"resource\":\"nvidia_com_gpu\"";
    let text = prom(&[
        (
            &format!("{req},\"namespace\":\"ml\",\"pod\":\"a\",\"label_nvidia_com_gpu_product\":\"NVIDIA-A100-SXM4-80GB\""),
            &[(T0, "4"), (T0 + 1800, "4")],
        ),
        (
            &format!("{req},\"namespace\":\"web\",\"pod\":\"b\",\"label_nvidia_com_gpu_product\":\"NVIDIA-H100-80GB-HBM3\""),
            &[(T0, "2")],
        ),
        (
            &format!("{req},\"namespace\":\"ml\",\"pod\":\"c\",\"label_nvidia_com_gpu_product\":\"NVIDIA-H100-80GB-HBM3\""),
            &[(T0, "1"), (T0 + 1800, "3")],
        ),
    ]);
    let p = prom_ok(&text, &opts());
    let keys: Vec<&str> = p.types.iter().map(|t| t.key.as_str()).collect();
    assert_eq!(keys, ["a100", "h100"]);
    assert_eq!(p.series.values, vec![7.0]);
    assert_eq!(team_names(&p), ["ml", "web"]);
    assert_eq!(vals(&p, "ml"), [6.0]);
    assert_eq!(team(&p, "ml").by_type, vec![vec![4.0], vec![2.0]]);
    assert_eq!(team(&p, "web").by_type, vec![vec![], vec![1.0]]);
}

// ---------------------------------------------------------------------------------------
// AWS Cost and Usage Reports.

const CUR1_HEAD: &str = "lineItem/LineItemType,lineItem/UsageStartDate,lineItem/UsageEndDate,lineItem/UsageType,lineItem/UsageAmount,lineItem/CurrencyCode,lineItem/UnblendedCost,product/instanceType,pricing/term,resourceTags/aws:createdBy,resourceTags/user:team,resourceTags/user:project";

/// Hour 0: p4d.24xlarge (8 × A100 40GB) 1 hour for `ml`/x, g5.xlarge (1 × A10G) 3 hours for
/// `web`/y. Hour 1: g5.xlarge 2 hours untagged/x, p4d.24xlarge 0.5 hour `ml`/untagged. A tax
/// line tagged `ml` does not count. Series 11, 6; A100 8, 4; A10G 3, 2.
fn cur1_tagged() -> String {
    [
        CUR1_HEAD,
        "Usage,2026-11-01T00:00:00Z,2026-11-01T01:00:00Z,USE1-BoxUsage:p4d.24xlarge,1,USD,32.7726,p4d.24xlarge,OnDemand,alice,ml,x",
        "Usage,2026-11-01T00:00:00Z,2026-11-01T01:00:00Z,USE1-BoxUsage:g5.xlarge,3,USD,3.018,g5.xlarge,OnDemand,bob,web,y",
        "Usage,2026-11-01T01:00:00Z,2026-11-01T02:00:00Z,USE1-BoxUsage:g5.xlarge,2,USD,2.012,g5.xlarge,OnDemand,bob,,x",
        "Usage,2026-11-01T01:00:00Z,2026-11-01T02:00:00Z,USE1-BoxUsage:p4d.24xlarge,0.5,USD,16.3863,p4d.24xlarge,OnDemand,alice,ml,",
        "Tax,2026-11-01T00:00:00Z,2026-11-01T01:00:00Z,,,USD,9.8,,,,ml,x",
    ]
    .join("\n")
}

#[test]
fn cur1_user_tag_columns_name_the_teams() {
    let p = ok(&cur1_tagged(), &opts());
    assert_eq!(p.series.values, vec![11.0, 6.0]);
    let keys: Vec<&str> = p.types.iter().map(|t| t.key.as_str()).collect();
    assert_eq!(keys, ["a100-40g", "a10g"]);
    let t = p.teams.as_ref().expect("teams");
    assert_eq!(t.source, TeamSource::Tag("resourceTags/user:team".into()));
    assert_eq!(
        t.choices,
        vec![
            TeamSource::Tag("resourceTags/user:team".into()),
            TeamSource::Tag("resourceTags/user:project".into()),
        ]
    );
    assert_eq!(team_names(&p), ["ml", "web", UNALLOCATED]);
    assert_eq!(vals(&p, "ml"), [8.0, 4.0]);
    assert_eq!(team(&p, "ml").by_type, vec![vec![8.0, 4.0], vec![]]);
    assert_eq!(team(&p, "web").by_type, vec![vec![], vec![3.0, 0.0]]);
    assert_eq!(team(&p, UNALLOCATED).by_type, vec![vec![], vec![0.0, 2.0]]);
    let by_project = ok(&cur1_tagged(), &named("resourcetags/USER:project"));
    assert_eq!(team_names(&by_project), ["x", "y", UNALLOCATED]);
    assert_eq!(vals(&by_project, "x"), [8.0, 2.0]);
    assert_eq!(vals(&by_project, UNALLOCATED), [0.0, 4.0]);
    assert_eq!(by_project.series, p.series);
    // AWS's own tags are not teams.
    assert_eq!(
        ok(&cur1_tagged(), &named("resourceTags/aws:createdBy")).teams,
        None
    );
    assert_eq!(ok(&cur1_tagged(), &with_team(TeamChoice::Off)).teams, None);
}

const CUR2_HEAD: &str = "line_item_line_item_type,line_item_usage_start_date,line_item_usage_end_date,line_item_usage_type,line_item_usage_amount,line_item_unblended_cost,product_instance_type,resource_tags";

/// CUR 2.0's `resource_tags` map: hour 0 p4d.24xlarge 1 hour with no tag (8), g5.xlarge 3
/// hours `user_team` web (3); hour 1 g5.xlarge 2 hours `user_team` ml in Athena's form (2),
/// p4d.24xlarge 0.5 hour without `user_team` (4). Auto takes the first user tag met:
/// `user_team`.
fn cur2_tagged() -> String {
    [
        CUR2_HEAD,
        "Usage,2026-11-01T00:00:00Z,2026-11-01T01:00:00Z,USE1-BoxUsage:p4d.24xlarge,1,32.7726,p4d.24xlarge,{}",
        "Usage,2026-11-01T00:00:00Z,2026-11-01T01:00:00Z,USE1-BoxUsage:g5.xlarge,3,3.018,g5.xlarge,\"{\"\"aws_createdBy\"\":\"\"x\"\",\"\"user_team\"\":\"\"web\"\",\"\"user_env\"\":\"\"prod\"\"}\"",
        "Usage,2026-11-01T01:00:00Z,2026-11-01T02:00:00Z,USE1-BoxUsage:g5.xlarge,2,2.012,g5.xlarge,\"{user_env=dev, user_team=ml}\"",
        "Usage,2026-11-01T01:00:00Z,2026-11-01T02:00:00Z,USE1-BoxUsage:p4d.24xlarge,0.5,16.3863,p4d.24xlarge,\"{\"\"user_env\"\":\"\"prod\"\"}\"",
    ]
    .join("\n")
}

#[test]
fn cur2_resource_tags_keys_name_the_teams() {
    let p = ok(&cur2_tagged(), &opts());
    assert_eq!(p.series.values, vec![11.0, 6.0]);
    let t = p.teams.as_ref().expect("teams");
    assert_eq!(t.source, TeamSource::Tag("user_team".into()));
    assert_eq!(
        t.choices,
        vec![
            TeamSource::Tag("user_team".into()),
            TeamSource::Tag("user_env".into())
        ]
    );
    assert_eq!(team_names(&p), ["web", "ml", UNALLOCATED]);
    assert_eq!(vals(&p, "web"), [3.0, 0.0]);
    assert_eq!(vals(&p, "ml"), [0.0, 2.0]);
    assert_eq!(vals(&p, UNALLOCATED), [8.0, 4.0]);
    let env = ok(&cur2_tagged(), &named("USER_ENV"));
    assert_eq!(
        env.teams.as_ref().unwrap().source,
        TeamSource::Tag("user_env".into())
    );
    assert_eq!(team_names(&env), ["prod", "dev", UNALLOCATED]);
    assert_eq!(vals(&env, "prod"), [3.0, 4.0]);
    assert_eq!(vals(&env, UNALLOCATED), [8.0, 0.0]);
    assert_eq!(ok(&cur2_tagged(), &named("user_owner")).teams, None);
    assert_eq!(ok(&cur2_tagged(), &named("aws_createdBy")).teams, None);
}

// ---------------------------------------------------------------------------------------
// CSV long tables.

/// `ml` 2 at 13:00 and 4 at 13:30 (hour 13: 3), 1 at 14:00; `web` 1 and 3 at 13:00 (the same
/// time twice: their mean, 2), 2 at 14:00; an empty team 5 at 14:00 (unallocated). Series:
/// 13:00 = 5, 14:00 = 8. The team cells repeat too little in the first lines to be taken for
/// a series-name column by their cells: the header says they are teams.
const LONG: &str = "timestamp,team,gpus
2026-11-01 13:00,ml,2
2026-11-01 13:30,ml,4
2026-11-01 13:00,web,1
2026-11-01 13:00,web,3
2026-11-01 14:00,ml,1
2026-11-01 14:00,,5
2026-11-01 14:00,web,2
";

#[test]
fn long_table_team_column_is_a_series_per_team() {
    let p = ok(LONG, &opts());
    assert_eq!(p.series.values, vec![5.0, 8.0]);
    assert_eq!(p.report.duplicates, 1);
    let t = p.teams.as_ref().expect("teams");
    assert_eq!(t.source, TeamSource::Column("team".into()));
    assert_eq!(t.choices, vec![TeamSource::Column("team".into())]);
    assert_eq!(team_names(&p), ["ml", "web", UNALLOCATED]);
    assert_eq!(vals(&p, "ml"), [3.0, 1.0]);
    assert_eq!(vals(&p, "web"), [2.0, 2.0]);
    assert_eq!(vals(&p, UNALLOCATED), [0.0, 5.0]);
    assert!(p.types.is_empty());
    let off = ok(LONG, &with_team(TeamChoice::Off));
    assert_eq!(off.teams, None);
    assert_eq!(off.series, p.series);
    assert_eq!(ok(LONG, &named("project")).teams, None);
    // Columns in another order, and a Chinese header.
    let other = "团队;gpus;time\nml;2;2026-11-01 13:00\nml;4;2026-11-01 13:30\nweb;1;2026-11-01 13:00\nweb;3;2026-11-01 13:00\nml;1;2026-11-01 14:00\n;5;2026-11-01 14:00\nweb;2;2026-11-01 14:00\n";
    let q = ok(other, &opts());
    assert_eq!(q.series.values, p.series.values);
    assert_eq!(
        q.teams.as_ref().unwrap().source,
        TeamSource::Column("团队".into())
    );
    assert_eq!(team_names(&q), team_names(&p));
    assert_eq!(vals(&q, "web"), [2.0, 2.0]);
}

/// Types and teams: A100 = 4 (ml) + 1 (web) at 13:00, 3 (ml) at 14:00; H100 = 2 (ml) at 13:00,
/// 2 (no team) at 14:00.
#[test]
fn long_table_with_types_and_teams() {
    let text = "time,gpu_type,team,gpus
2026-11-01 13:00,A100,ml,4
2026-11-01 13:00,H100,ml,2
2026-11-01 13:00,A100,web,1
2026-11-01 14:00,A100,ml,3
2026-11-01 14:00,H100,,2
";
    let p = ok(text, &opts());
    let keys: Vec<&str> = p.types.iter().map(|t| t.key.as_str()).collect();
    assert_eq!(keys, ["a100", "h100"]);
    assert_eq!(p.types[0].series.values, [5.0, 3.0]);
    assert_eq!(p.types[1].series.values, [2.0, 2.0]);
    assert_eq!(p.series.values, [7.0, 5.0]);
    assert_eq!(team_names(&p), ["ml", "web", UNALLOCATED]);
    assert_eq!(vals(&p, "ml"), [6.0, 3.0]);
    assert_eq!(team(&p, "ml").by_type, vec![vec![4.0, 3.0], vec![2.0, 0.0]]);
    assert_eq!(team(&p, "web").by_type, vec![vec![1.0, 0.0], vec![]]);
    assert_eq!(team(&p, UNALLOCATED).by_type, vec![vec![], vec![0.0, 2.0]]);
    // In another column order (team first, the type named `type`).
    let moved = "team,gpus,type,time
ml,4,A100,2026-11-01 13:00
ml,2,H100,2026-11-01 13:00
web,1,A100,2026-11-01 13:00
ml,3,A100,2026-11-01 14:00
,2,H100,2026-11-01 14:00
";
    let q = ok(moved, &opts());
    assert_eq!(q.series.values, p.series.values);
    assert_eq!(team(&q, "ml").by_type, team(&p, "ml").by_type);
}

/// A series-name column besides the team: each (node, team) is a series. 13:00: n1/ml 2,
/// n2/ml 3, n1/web 1; 14:00: n1/ml 4 and 2 (the same time twice: 3).
#[test]
fn long_table_with_a_series_name_column_and_teams() {
    let text = "time,node,team,gpus
2026-11-01 13:00,n1,ml,2
2026-11-01 13:00,n2,ml,3
2026-11-01 13:00,n1,web,1
2026-11-01 14:00,n1,ml,4
2026-11-01 14:00,n1,ml,2
";
    let p = ok(text, &opts());
    assert_eq!(p.series.values, [6.0, 3.0]);
    assert_eq!(column_name(&p.report.series_column), Some("node"));
    let cols: Vec<&str> = p.report.columns.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(cols, ["n1 · ml", "n2 · ml", "n1 · web"]);
    assert_eq!(vals(&p, "ml"), [5.0, 3.0]);
    assert_eq!(vals(&p, "web"), [1.0, 0.0]);
    // The column picker's one series: its team only.
    let one = ok(text, &one_column(1));
    assert_eq!(one.series.values, [3.0]);
    assert_eq!(team_names(&one), ["ml"]);
    assert_eq!(vals(&one, "ml"), [3.0]);
}

/// Two team columns: Auto takes the first; either by name; the series is the same.
#[test]
fn long_table_two_team_columns_choose_by_name() {
    let text = "time,Project,Owner,gpus
2026-11-01 13:00,p1,ana,2
2026-11-01 13:00,p1,bo,1
2026-11-01 13:00,p2,ana,4
2026-11-01 14:00,p2,bo,3
";
    let p = ok(text, &opts());
    let t = p.teams.as_ref().unwrap();
    assert_eq!(t.source, TeamSource::Column("Project".into()));
    assert_eq!(
        t.choices,
        vec![
            TeamSource::Column("Project".into()),
            TeamSource::Column("Owner".into())
        ]
    );
    assert_eq!(p.series.values, [7.0, 3.0]);
    assert_eq!(vals(&p, "p1"), [3.0, 0.0]);
    assert_eq!(vals(&p, "p2"), [4.0, 3.0]);
    let owners = ok(text, &named("owner"));
    assert_eq!(owners.series, p.series);
    assert_eq!(team_names(&owners), ["ana", "bo"]);
    assert_eq!(vals(&owners, "ana"), [6.0, 0.0]);
    assert_eq!(vals(&owners, "bo"), [1.0, 3.0]);
}

/// A numeric team column (account numbers) is never a value column; a table without a time
/// column or with several value columns has no teams.
#[test]
fn team_columns_are_never_values_and_wide_tables_have_no_teams() {
    let text = "time,account,gpus
2026-11-01 13:00,1001,2
2026-11-01 13:00,1002,5
2026-11-01 14:00,1001,1
";
    let p = ok(text, &opts());
    assert_eq!(p.series.values, [7.0, 1.0]);
    assert_eq!(p.report.columns.len(), 2, "series 1001 and 1002");
    assert_eq!(team_names(&p), ["1001", "1002"]);
    assert_eq!(vals(&p, "1002"), [5.0, 0.0]);
    let wide = "time,team,a100,h100\n2026-11-01 13:00,ml,2,3\n2026-11-01 14:00,web,1,1\n";
    let w = ok(wide, &opts());
    assert_eq!(w.teams, None);
    assert_eq!(w.series.values, [5.0, 2.0]);
    let untimed = "team,gpus\nml,2\nweb,3\n";
    assert_eq!(ok(untimed, &opts()).teams, None);
    // Without a team column: no teams (a series-name column is not a team), and the reading
    // as before: `node` repeats too little in so few lines to be a series-name column, so
    // the rows of 13:00 are one series' duplicates (their mean).
    let plain =
        "time,node,gpus\n2026-11-01 13:00,n1,2\n2026-11-01 13:00,n2,3\n2026-11-01 14:00,n1,1\n";
    let q = ok(plain, &opts());
    assert_eq!(q.teams, None);
    assert_eq!(q.series.values, [2.5, 1.0]);
    assert_eq!(ok("3\n4\n5\n", &opts()).teams, None);
}

// ---------------------------------------------------------------------------------------
// Every reader: hours, gaps, names, the merge past MAX_TEAMS.

/// Gaps (hourly samples): 13:00 `ml` 1 and `web` 2, 14:00 `ml` 1, 17:00 `ml` 3. Excluded: the
/// teams on the three hours read; zero-filled: 0 for every team in the hours between.
#[test]
fn teams_follow_the_gap_policy() {
    let text = "time,team,gpus\n2026-11-01 13:00,ml,1\n2026-11-01 13:00,web,2\n2026-11-01 14:00,ml,1\n2026-11-01 17:00,ml,3\n";
    let p = ok(text, &opts());
    assert_eq!(p.series.values, [3.0, 1.0, 3.0]);
    assert_eq!(vals(&p, "ml"), [1.0, 1.0, 3.0]);
    assert_eq!(vals(&p, "web"), [2.0, 0.0, 0.0]);
    let z = ok(
        text,
        &ParseOptions {
            gaps: GapPolicy::Zero,
            ..opts()
        },
    );
    assert_eq!(z.series.values, [3.0, 1.0, 0.0, 0.0, 3.0]);
    assert_eq!(vals(&z, "ml"), [1.0, 1.0, 0.0, 0.0, 3.0]);
    assert_eq!(vals(&z, "web"), [2.0, 0.0, 0.0, 0.0, 0.0]);
}

/// Daily samples are held for their day, per team as for the series.
#[test]
fn coarser_samples_are_held_per_team() {
    let text = "date,team,gpus\n2026-11-01,ml,2\n2026-11-01,web,1\n2026-11-02,ml,3\n";
    let p = ok(text, &opts());
    assert_eq!(p.series.values.len(), 48);
    assert_eq!(vals(&p, "ml")[..24], [2.0; 24]);
    assert_eq!(vals(&p, "ml")[24..], [3.0; 24]);
    assert_eq!(vals(&p, "web")[..24], [1.0; 24]);
    assert_eq!(vals(&p, "web")[24..], [0.0; 24]);
}

/// Names are trimmed, lose their control characters and are cut to 40 characters; names
/// equal after that are one team; an empty (or blank) cell is unallocated.
#[test]
fn team_names_are_cleaned_and_merged() {
    let long_a = "x".repeat(45);
    let long_b = format!("{}y", "x".repeat(44));
    let row = |id: usize, account: &str| {
        format!("{id}|2026-11-01T10:00:00|2026-11-01T11:00:00|3600|gres/gpu=1|COMPLETED|{account}|u|gpu\n")
    };
    let mut text = format!("{SACCT_HEAD}\n");
    for (i, a) in [" ml ", "ml\u{7}", &long_a, &long_b, " ", "web"]
        .iter()
        .enumerate()
    {
        text.push_str(&row(i + 1, a));
    }
    let p = ok(&text, &opts());
    let cut = format!("{}…", "x".repeat(39));
    assert_eq!(team_names(&p), ["ml", cut.as_str(), "web", UNALLOCATED]);
    assert_eq!(vals(&p, "ml"), [2.0]);
    assert_eq!(vals(&p, &cut), [2.0]);
    assert_eq!(vals(&p, UNALLOCATED), [1.0]);
}

/// The table of cell forms: thousands of teams, each found again by its bytes, other forms of
/// one name (spaces, a control character) the same team, ids in order of appearance.
#[test]
fn team_table_finds_every_form_again() {
    let mut t = super::teams::TeamTable::default();
    for i in 0..5000u32 {
        assert_eq!(t.intern(&format!("t{i}")), i);
    }
    for i in (0..5000u32).rev() {
        assert_eq!(t.intern(&format!("t{i}")), i);
        assert_eq!(t.intern(&format!("  t{i}\u{1}")), i);
    }
    assert_eq!(t.len(), 5000);
    let u = t.intern("   ");
    assert_eq!(t.names[u as usize], UNALLOCATED);
    assert_eq!(t.intern(""), u);
    assert_eq!(t.intern(UNALLOCATED), u);
    assert_eq!(t.len(), 5001);
}

/// 300 accounts (account i runs i + 1 GPUs for the hour) and a job without an account: the
/// 254 largest accounts kept in order of appearance, the unallocated team kept, the 46
/// smallest (1 + … + 46 = 1 081 GPUs) summed into OTHER_TEAMS.
#[test]
fn more_than_max_teams_merge_the_smallest() {
    let mut text = format!("{SACCT_HEAD}\n");
    for i in 0..300 {
        text.push_str(&format!(
            "{}|2026-11-01T10:00:00|2026-11-01T11:00:00|3600|gres/gpu={}|COMPLETED|acc{i}|u|gpu\n",
            i + 1,
            i + 1
        ));
    }
    text.push_str("301|2026-11-01T10:00:00|2026-11-01T11:00:00|3600|gres/gpu=7|COMPLETED||u|gpu\n");
    let p = parse(&text, &opts()).unwrap();
    check_sums(&p);
    let t = p.teams.as_ref().unwrap();
    assert_eq!(t.teams.len(), MAX_TEAMS);
    assert_eq!(t.merged, 46);
    let names = team_names(&p);
    assert_eq!(names[0], "acc46");
    assert_eq!(names[253], "acc299");
    assert_eq!(names[254..], [UNALLOCATED, OTHER_TEAMS]);
    assert_eq!(vals(&p, OTHER_TEAMS), [1081.0]);
    assert_eq!(vals(&p, UNALLOCATED), [7.0]);
    assert_eq!(vals(&p, "acc46"), [47.0]);
    // The same through a long table (the series' path): 300 teams, 45 merged (1 + … + 45).
    let mut long = String::from("time,team,gpus\n");
    for i in 0..300 {
        long.push_str(&format!("2026-11-01 10:00,t{i},{}\n", i + 1));
    }
    let q = parse(&long, &opts()).unwrap();
    check_sums(&q);
    let t = q.teams.as_ref().unwrap();
    assert_eq!((t.teams.len(), t.merged), (MAX_TEAMS, 45));
    assert_eq!(team_names(&q)[0], "t45");
    assert_eq!(vals(&q, OTHER_TEAMS), [1035.0]);
    let same = parse(&long, &opts()).unwrap();
    assert_eq!(same, q);
}

/// Prometheus choices: every label but `__name__`, sorted, at most 32 (the chosen among them).
#[test]
fn prometheus_choices_are_sorted_and_at_most_32() {
    let labels: Vec<String> = (0..40).map(|i| format!("\"l{i:02}\":\"v\"")).collect();
    let metric = format!(
        "\"zz_namespace\":\"x\",\"namespace\":\"ml\",{}",
        labels.join(",")
    );
    let text = prom(&[(metric.as_str(), &[(T0, "1")])]);
    let p = prom_ok(&text, &opts());
    let t = p.teams.as_ref().unwrap();
    assert_eq!(t.choices.len(), 32);
    assert_eq!(t.source, TeamSource::Label("namespace".into()));
    let names: Vec<&str> = t.choices.iter().map(TeamSource::name).collect();
    let mut sorted = names.clone();
    sorted.sort_unstable();
    assert_eq!(names, sorted);
    assert_eq!(names[0], "l00");
}

// ---------------------------------------------------------------------------------------
// The corpus of real exports (tests/corpus): every reading keeps the sum rules, with every
// choice offered, whole and in slices.

/// Whole, and in a few slice sizes (the corpus files are larger than the hand-written ones).
fn same_in_some_slices(text: &str, o: &ParseOptions) -> ParseResult {
    same_every_way(text, o, &[997], &[4096, 64 * 1024], &[1000, 1 << 20])
}

#[test]
fn corpus_teams_add_up_with_every_choice() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("the corpus")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension()
                .is_some_and(|e| ["csv", "txt", "json"].contains(&e.to_str().unwrap_or("")))
        })
        .collect();
    files.sort();
    assert!(files.len() >= 30, "{} corpus files", files.len());
    let mut with_teams = Vec::new();
    for path in &files {
        let text = String::from_utf8_lossy(&std::fs::read(path).expect("readable")).into_owned();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let auto = same_in_some_slices(&text, &opts());
        let off = parse(&text, &with_team(TeamChoice::Off));
        let Ok(p) = auto else {
            assert_eq!(
                off.map(|_| ()),
                Err(auto.unwrap_err()),
                "{name}: Off refuses alike"
            );
            continue;
        };
        check_sums(&p);
        let off = off.unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(off.teams, None, "{name}");
        assert_eq!(
            off.series, p.series,
            "{name}: the series does not depend on teams"
        );
        assert_eq!(off.types, p.types, "{name}");
        if let Some(t) = &p.teams {
            with_teams.push(format!(
                "{name}: {} ({} teams)",
                t.source.name(),
                t.teams.len()
            ));
            for c in &t.choices {
                let q = same_in_some_slices(&text, &named(c.name()))
                    .unwrap_or_else(|e| panic!("{name} by {}: {e}", c.name()));
                check_sums(&q);
                assert_eq!(q.teams.as_ref().map(|t| &t.source), Some(c), "{name}");
                assert_eq!(q.series, p.series, "{name} by {}", c.name());
            }
            if name.ends_with(".json") {
                assert_eq!(
                    parse_prometheus_tree(&text, &opts()),
                    Ok(p.clone()),
                    "{name}"
                );
            }
        }
    }
    // The corpus's Slurm exports and Kubernetes answers name teams.
    let joined = with_teams.join("\n");
    for f in [
        "slurm-sacct-P-X-mixed-a100-h100-l40s.txt: Account",
        "slurm-sacct-P-with-steps-no-X.txt: Account",
        "slurm-sacct-p-parsable-trailing-pipe-v100.txt: User",
        "prom-sum-gpu-requests-by-namespace.json: namespace",
    ] {
        assert!(joined.contains(f), "{f} not in\n{joined}");
    }
}

// ---------------------------------------------------------------------------------------
// Timing (not run by default): `cargo test --release --lib time_sacct_1m_parse -- --ignored
// --nocapture`; RUNS=n parses (default 3), TEAM=off reads without teams, ACCOUNTS=k rewrites
// the accounts to k of them (job i: account i mod k).

/// The 1 000 000-job `sacct` export of the benchmarks (`slurm_sample::generate_sacct`: three
/// accounts, so Auto reads its teams) through `parse`.
#[test]
#[ignore]
fn time_sacct_1m_parse() {
    let env = |k: &str| std::env::var(k).ok();
    let mut text = crate::core::slurm_sample::generate_sacct(1_000_000);
    if let Some(k) = env("ACCOUNTS").and_then(|s| s.parse::<usize>().ok()) {
        let mut out = String::with_capacity(text.len() + text.len() / 20);
        for (i, line) in text.lines().enumerate() {
            let cells: Vec<&str> = line.split('|').collect();
            if i == 0 || cells.len() < 7 {
                out.push_str(line);
            } else {
                let acc = format!("acc{}", i % k);
                let mut c = cells.clone();
                c[6] = &acc;
                out.push_str(&c.join("|"));
            }
            out.push('\n');
        }
        text = out;
    }
    let o = ParseOptions {
        max_input_bytes: MAX_FILE_BYTES,
        team: match env("TEAM").as_deref() {
            Some("off") => TeamChoice::Off,
            _ => TeamChoice::Auto,
        },
        ..ParseOptions::default()
    };
    let runs: usize = env("RUNS").and_then(|s| s.parse().ok()).unwrap_or(3);
    let mut times = Vec::new();
    let mut teams = 0;
    for _ in 0..runs {
        let t0 = std::time::Instant::now();
        let p = parse(std::hint::black_box(&text), &o).expect("parses");
        times.push(t0.elapsed().as_secs_f64());
        teams = p.teams.as_ref().map_or(0, |t| t.teams.len());
        std::hint::black_box(&p);
    }
    times.sort_by(f64::total_cmp);
    println!(
        "SACCT1M teams {teams} times {times:?} min {:.3} median {:.3}",
        times[0],
        times[times.len() / 2]
    );
}

/// CUR 2.0 tag maps as written: a comma and an escaped quote inside a value, a `null` value
/// (unallocated), spaces.
#[test]
fn cur2_tag_values_are_read_as_written() {
    let text = [
        CUR2_HEAD,
        "Usage,2026-11-01T00:00:00Z,2026-11-01T01:00:00Z,USE1-BoxUsage:g5.xlarge,1,1.006,g5.xlarge,\"{\"\"user_team\"\":\"\"a,b\"\"}\"",
        "Usage,2026-11-01T00:00:00Z,2026-11-01T01:00:00Z,USE1-BoxUsage:g5.xlarge,2,2.012,g5.xlarge,\"{ \"\"user_team\"\" : \"\"q\\\"\"t\"\" }\"",
        "Usage,2026-11-01T00:00:00Z,2026-11-01T01:00:00Z,USE1-BoxUsage:g5.xlarge,4,4.024,g5.xlarge,\"{\"\"user_team\"\":null}\"",
    ]
    .join("\n");
    let p = ok(&text, &opts());
    assert_eq!(p.series.values, vec![7.0]);
    assert_eq!(team_names(&p), ["a,b", "q\"t", UNALLOCATED]);
    assert_eq!(vals(&p, "a,b"), [1.0]);
    assert_eq!(vals(&p, "q\"t"), [2.0]);
    assert_eq!(vals(&p, UNALLOCATED), [4.0]);
}
