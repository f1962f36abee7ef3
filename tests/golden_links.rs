//! Golden links: URLs saved by released versions, with the figures they must open to.
//!
//! NEVER EDIT AN EXISTING CASE; ADD NEW ONES. A link pasted into a planning document must
//! open identically a year later: if one of these fails, the change broke old links.
//! The links live in `tests/fixtures/golden_links.json`: one list, also opened in Chromium,
//! Firefox and WebKit by the cross-engine smoke suite (`end2end/engines/`).
//!
//! Each link is opened the way the page opens it: `link::decode`, the history (if any)
//! written out as text with `link::series_to_csv`, read back with `core::ingest::parse`
//! under the link's options, quantised, profiled, planned.
//!
//! Hand checks:
//! - `defaults`: H* = P/r = 9000/25 = 360 h. Sliders: 4 GPUs × 200 h < H*, so N* = 0
//!   and the plan is all elastic: 800 GPU-h → half on demand 400 × 25 = 10 000, half spot
//!   400 × 8.3977709 = 3359.11 (see plan.rs) → 13 359.11; all on demand 800 × 25 = 20 000.
//! - `prices_currency_lang`: H* = 1500/3 = 500 h, of a 744-h month = 67.20 %. Sliders
//!   8 GPUs × 600 h ≥ H* → N* = 8 (every GPU busy 600 h beats 500): fixed 8 × 1500 = 12 000,
//!   nothing elastic; all on demand = 8 × 600 × 3 = 14 400; peak = N* = 8 → 12 000.
//! - `rule_custom`: N = 3 of 6 GPUs busy 600 h: fixed 3 × 9000 = 27 000; elastic
//!   3 × 600 h = 1800 GPU-h, half on demand 900 × 25 = 22 500, half spot
//!   900 × 8.3977709 = 7557.99 → 57 057.99.

use gpu_rent_planner::core::ingest::{self, ParseOptions};
use gpu_rent_planner::core::plan::{plan_with_history, PlanOutputs};
use gpu_rent_planner::core::profile::profile;
use gpu_rent_planner::core::zone::ZoneChoice;
use gpu_rent_planner::link;
use gpu_rent_planner::state::UsageMode;

/// Open a link as the page does; return its outputs.
fn open(link: &str) -> PlanOutputs {
    let query = link.split_once('?').map(|(_, q)| q).unwrap_or(link);
    let (state, problems) = link::decode(query);
    assert_eq!(problems, vec![], "{link}");
    let prof = state.history.as_ref().and_then(|h| {
        if state.mode != UsageMode::Data {
            return None;
        }
        let text = link::series_to_csv(&h.series);
        let opts = ParseOptions {
            column: state.column,
            gaps: state.gaps,
            // Golden links carry a fixed offset (`tz=480`); no browser here for named zones.
            utc_offset_minutes: match state.tz {
                Some(ZoneChoice::Offset(m)) => m,
                _ => 0,
            },
            busy_threshold_percent: state.busy_threshold_percent,
            ..ParseOptions::default()
        };
        let parsed = ingest::parse(&text, &opts).expect("the carried history reads back");
        assert_eq!(parsed.series, h.series, "text round trip");
        Some(
            profile(
                &link::quantize(&parsed.series),
                &state.inputs.profile_settings(),
            )
            .expect("profile"),
        )
    });
    plan_with_history(&state.inputs, prof.as_ref())
}

fn ok<T: std::fmt::Debug, E: std::fmt::Debug>(r: &Result<T, E>) -> &T {
    r.as_ref().expect("section computes")
}

/// The figures a reader of the plan sees, as one line.
fn figures(o: &PlanOutputs) -> String {
    let be = ok(&o.breakeven);
    let sizing = ok(&o.sizing);
    let rows: Vec<String> = sizing
        .rows
        .iter()
        .map(|r| format!("{}:{}:{}", r.rule.key(), r.n, r.total.to_plain_string()))
        .collect();
    let wl = ok(&o.waterline);
    let pools = ok(&o.pools);
    let review = match &o.review {
        Ok(Some(r)) => format!(
            "{}m/{}a/{}",
            r.rows.len(),
            r.actions.len(),
            r.rows
                .iter()
                .map(|x| x.elastic_spend.to_plain_string())
                .collect::<Vec<_>>()
                .join("+")
        ),
        Ok(None) => "none".into(),
        Err(e) => format!("err {e:?}"),
    };
    let guard = match &o.recent_drop_guard {
        Ok(Some(g)) => format!("{}/{}/{}", g.recent_n_star, g.long_n_star, g.recommended),
        Ok(None) => "none".into(),
        Err(_) => "err".into(),
    };
    format!(
        "H*={:.4} u={:.6} N={} total={} sizing=[{}] ondemand={} peak={} wl={:.3}/{} avg={:.4} guard={} spot={:.6} budgetgpus={} burst={} own={} hidden={} review={}",
        be.hours,
        be.utilization,
        ok(&o.baseline).gpus,
        pools.total.to_plain_string(),
        rows.join(" "),
        sizing.all_on_demand.to_plain_string(),
        sizing.all_peak.to_plain_string(),
        wl.overall,
        wl.buy,
        wl.average,
        guard,
        ok(&o.spot).effective_price,
        ok(&o.budget).fixed_gpus,
        ok(&o.burst).with_elastic.wall_hours,
        ok(&o.own_hardware).monthly.to_plain_string(),
        ok(&o.hidden).total.to_plain_string(),
        review,
    )
}

/// One saved link and the figures line it must open to.
#[derive(serde::Deserialize)]
struct Case {
    name: String,
    link: String,
    expect: String,
}

/// A saved link whose figures a test below asserts by name.
#[derive(serde::Deserialize)]
struct Link {
    name: String,
    link: String,
}

/// `tests/fixtures/golden_links.json`: the one list of golden links, read here and by the
/// cross-engine smoke suite (`end2end/engines/`), which opens each in Chromium, Firefox and
/// WebKit. JSON is YAML, so the YAML reader the tests already use reads it.
#[derive(serde::Deserialize)]
struct Fixture {
    cases: Vec<Case>,
    term_links: Vec<Link>,
}

fn fixture() -> Fixture {
    yaml_serde::from_str(include_str!("fixtures/golden_links.json")).expect("golden_links.json")
}

/// The saved term link called `name`.
fn term_link(name: &str) -> String {
    let f = fixture();
    let l = f.term_links.into_iter().find(|l| l.name == name);
    l.unwrap_or_else(|| panic!("no term link {name}")).link
}

#[test]
fn golden_links_open_identically() {
    let mut failures = Vec::new();
    let cases = fixture().cases;
    assert!(cases.len() >= 15, "a case was lost: never remove one");
    for c in &cases {
        let got = figures(&open(&c.link));
        if got != c.expect {
            failures.push(format!(
                "{}:\n  link   {}\n  expect {}\n  got    {}",
                c.name, c.link, c.expect, got
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn golden_links_are_stable_when_re_encoded() {
    // Opening a golden link and writing it again gives a link that opens the same.
    for c in &fixture().cases {
        let query = c.link.split_once('?').map(|(_, q)| q).unwrap_or(&c.link);
        let (state, _) = link::decode(query);
        let again = link::encode_with_history(&state);
        assert_eq!(figures(&open(&again)), c.expect, "{}", c.name);
    }
}

#[test]
fn hand_checked_figures() {
    let cases = fixture().cases;
    let d = open(&cases[0].link);
    assert_eq!(ok(&d.breakeven).hours, 360.0);
    assert_eq!(ok(&d.pools).total.to_plain_string(), "13359.11");
    let p = open(&cases[2].link);
    assert_eq!(ok(&p.breakeven).hours, 500.0);
    assert_eq!(ok(&p.baseline).gpus, 8);
    assert_eq!(ok(&p.pools).total.to_plain_string(), "12000.00");
    assert_eq!(ok(&p.sizing).all_on_demand.to_plain_string(), "14400.00");
}

#[test]
fn unknown_parameters_and_newer_versions() {
    let (s, p) = link::decode("v=1&utm_source=doc&monthly=8000&future_thing=1");
    assert_eq!((s.inputs.monthly_price, p), (8000.0, vec![]));
    let (_, p) = link::decode("v=5&monthly=8000");
    assert_eq!(p, vec![link::LinkProblem::NewerVersion(5)]);
}

/// Version 2 links (the commitment terms): saved links with the term figures they must open
/// to. Never edit a case; add new ones.
#[test]
fn version_2_term_links_open_identically() {
    // The worked example of docs/formulas.md § 15.
    let o = open(&term_link("term_1y_worked_example"));
    let t = ok(&o.terms);
    let y1 = t.rows.iter().find(|r| r.key() == "1y").unwrap();
    assert_eq!(
        (
            y1.effective_monthly.to_plain_string(),
            y1.saving.to_plain_string(),
            y1.breakeven_month,
            t.recommended().key(),
        ),
        ("7500.00".into(), "5000.00".into(), Some(8), "1y")
    );
    assert_eq!(ok(&o.baseline).gpus, 1);
    assert_eq!(ok(&o.pools).reserved.to_plain_string(), "7500.00");
    // Partial upfront on 3 years, a 30-month horizon with 6 months left: A = 4·600·25 =
    // 60 000; break-even ⌈432 000 / (60 000 − 12 000)⌉ = 9; over 24 months the 3 years cost
    // 4·216 000 = 864 000, exactly monthly's 24·36 000: the tie goes to the shorter term.
    let o = open(&term_link("term_3y_partial_horizon"));
    let t = ok(&o.terms);
    let y3 = t.rows.iter().find(|r| r.key() == "3y-partial").unwrap();
    assert_eq!(
        (
            y3.effective_monthly.to_plain_string(),
            y3.gpus,
            y3.breakeven_month,
            y3.horizon_cost.to_plain_string(),
            t.compared_months,
            t.recommended().key(),
        ),
        (
            "6000.00".into(),
            4,
            Some(9),
            "864000.00".into(),
            24,
            "monthly"
        )
    );
    // The same terms in a version-1 link are not read: the plan it always had.
    let o = open(&term_link("term_in_version_1_link_not_read"));
    assert_eq!(ok(&o.terms).rows.len(), 2);
    assert_eq!(ok(&o.pools).reserved.to_plain_string(), "9000.00");
}

/// Version 3 (issue 37): a link carrying teams (series format 3) — the formulas doc's § 21
/// example, teams A, B and C over four hours — opens to the team table of the doc, to the
/// cent. Never edit this case; add new ones.
#[test]
fn version_3_team_link_opens_identically() {
    use gpu_rent_planner::page::team_memos::{shapley_of, table, teams_data};
    const LINK: &str = "?v=3&monthly=12000&lookback=all&lambda=0&tz=0&data=Y2ZkYXjywoaBmdGR0YnR-QX7C_YL_AwMIPoFO4jeIc7IyAgA";
    let (link, problems) = link::decode(LINK.trim_start_matches('?'));
    assert_eq!(problems, vec![]);
    let h = link.history.as_ref().expect("a history");
    assert_eq!(h.teams.len(), 3);
    // Opened as the page opens it: the history's text read back, teams included.
    let text = link::history_to_csv(h);
    let mut parsed = ingest::parse(&text, &ParseOptions::default()).expect("reads back");
    link::quantize_parsed(&mut parsed);
    let state = link.app_state(gpu_rent_planner::format::Lang::En);
    let d = teams_data(&state, &parsed).expect("teams");
    assert_eq!(d.names, ["A", "B", "C"]);
    let prof = profile(&parsed.series, &state.inputs.profile_settings()).unwrap();
    let o = plan_with_history(&state.inputs, Some(&prof));
    let t = table(&d, &o, &state.inputs).unwrap().unwrap();
    let totals: Vec<String> = t.rows.iter().map(|r| r.total.to_plain_string()).collect();
    assert_eq!(totals, ["13296.97", "9868.39", "12879.64"]);
    assert_eq!(t.total.to_plain_string(), "36045.00");
    let s = shapley_of(&d, &state.inputs).unwrap();
    let phi: Vec<String> = s.values.iter().map(|m| m.to_plain_string()).collect();
    assert_eq!(phi, ["12509.38", "11003.75", "12531.87"]);
}
