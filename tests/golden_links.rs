//! Golden links: URLs saved by released versions, with the figures they must open to.
//!
//! NEVER EDIT AN EXISTING CASE; ADD NEW ONES. A link pasted into a planning document must
//! open identically a year later: if one of these fails, the change broke old links.
//!
//! Each link is opened the way the page opens it: `url::decode`, the history (if any)
//! written out as text with `url::series_to_csv`, read back with `core::ingest::parse`
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
use gpu_rent_planner::state::UsageMode;
use gpu_rent_planner::url;

/// Open a link as the page does; return its outputs.
fn open(link: &str) -> PlanOutputs {
    let query = link.split_once('?').map(|(_, q)| q).unwrap_or(link);
    let (state, problems) = url::decode(query);
    assert_eq!(problems, vec![], "{link}");
    let prof = state.history.as_ref().and_then(|h| {
        if state.mode != UsageMode::Data {
            return None;
        }
        let text = url::series_to_csv(&h.series);
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
                &url::quantize(&parsed.series),
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

struct Case {
    name: &'static str,
    link: &'static str,
    expect: &'static str,
}

const CASES: &[Case] = &[
    Case {
        name: "defaults",
        link: "https://plan.example/?v=1",
        expect: "H*=360.0000 u=0.493151 N=0 total=13359.11 sizing=[average:1:24000.00 waterline:0:20000.00 cost-optimal:0:20000.00 peak:4:36000.00] ondemand=20000.00 peak=36000.00 wl=0.000/0 avg=1.0959 guard=none spot=8.397771 budgetgpus=6 burst=12 own=3628.18 hidden=1100.00 review=none",
    },
    Case {
        name: "three_parameter_link_of_the_first_release",
        link: "https://plan.example/?v=1&lang=en&monthly=9000&ondemand=25&hours=730",
        expect: "H*=360.0000 u=0.493151 N=0 total=13359.11 sizing=[average:1:24000.00 waterline:0:20000.00 cost-optimal:0:20000.00 peak:4:36000.00] ondemand=20000.00 peak=36000.00 wl=0.000/0 avg=1.0959 guard=none spot=8.397771 budgetgpus=6 burst=12 own=3628.18 hidden=1100.00 review=none",
    },
    Case {
        name: "prices_currency_lang",
        link: "https://plan.example/?v=1&lang=zh&cur=usd&monthly=1500&ondemand=3&hours=744&spot=1.2&gpus=8&used=600",
        expect: "H*=500.0000 u=0.672043 N=8 total=12000.00 sizing=[average:6:12600.00 waterline:0:14400.00 cost-optimal:8:12000.00 peak:8:12000.00] ondemand=14400.00 peak=12000.00 wl=0.000/0 avg=6.4516 guard=none spot=1.259666 budgetgpus=40 burst=12 own=3634.90 hidden=440.00 review=none",
    },
    Case {
        name: "rule_average",
        link: "https://plan.example/?v=1&lang=en&gpus=6&used=600&rule=average",
        expect: "H*=360.0000 u=0.493151 N=5 total=55019.33 sizing=[average:5:60000.00 waterline:0:90000.00 cost-optimal:6:54000.00 peak:6:54000.00] ondemand=90000.00 peak=54000.00 wl=0.000/0 avg=4.9315 guard=none spot=8.397771 budgetgpus=6 burst=12 own=3628.18 hidden=1100.00 review=none",
    },
    Case {
        name: "rule_waterline",
        link: "https://plan.example/?v=1&lang=en&gpus=6&used=600&rule=waterline&q=0",
        expect: "H*=360.0000 u=0.493151 N=0 total=60115.99 sizing=[average:5:60000.00 waterline:0:90000.00 cost-optimal:6:54000.00 peak:6:54000.00] ondemand=90000.00 peak=54000.00 wl=0.000/0 avg=4.9315 guard=none spot=8.397771 budgetgpus=6 burst=12 own=3628.18 hidden=1100.00 review=none",
    },
    Case {
        name: "rule_guarded",
        link: "https://plan.example/?v=1&lang=en&gpus=6&used=600&rule=guarded",
        expect: "H*=360.0000 u=0.493151 N=6 total=54000.00 sizing=[average:5:60000.00 waterline:0:90000.00 cost-optimal:6:54000.00 peak:6:54000.00] ondemand=90000.00 peak=54000.00 wl=0.000/0 avg=4.9315 guard=none spot=8.397771 budgetgpus=6 burst=12 own=3628.18 hidden=1100.00 review=none",
    },
    Case {
        name: "rule_peak",
        link: "https://plan.example/?v=1&lang=en&gpus=6&used=600&rule=peak",
        expect: "H*=360.0000 u=0.493151 N=6 total=54000.00 sizing=[average:5:60000.00 waterline:0:90000.00 cost-optimal:6:54000.00 peak:6:54000.00] ondemand=90000.00 peak=54000.00 wl=0.000/0 avg=4.9315 guard=none spot=8.397771 budgetgpus=6 burst=12 own=3628.18 hidden=1100.00 review=none",
    },
    Case {
        name: "rule_custom",
        link: "https://plan.example/?v=1&lang=en&gpus=6&used=600&rule=custom&custom=3",
        expect: "H*=360.0000 u=0.493151 N=3 total=57057.99 sizing=[average:5:60000.00 waterline:0:90000.00 cost-optimal:6:54000.00 peak:6:54000.00] ondemand=90000.00 peak=54000.00 wl=0.000/0 avg=4.9315 guard=none spot=8.397771 budgetgpus=6 burst=12 own=3628.18 hidden=1100.00 review=none",
    },
    Case {
        name: "budget_shares",
        link: "https://plan.example/?v=1&lang=en&budget=50000&bfixed=50&belastic=30&bspot=20",
        expect: "H*=360.0000 u=0.493151 N=0 total=13359.11 sizing=[average:1:24000.00 waterline:0:20000.00 cost-optimal:0:20000.00 peak:4:36000.00] ondemand=20000.00 peak=36000.00 wl=0.000/0 avg=1.0959 guard=none spot=8.397771 budgetgpus=2 burst=12 own=3628.18 hidden=1100.00 review=none",
    },
    Case {
        name: "spot_params",
        link: "https://plan.example/?v=1&lang=en&spot=6.5&lambda=0.05&ckpt=0.1&restart=0.5&tau=2&job=24&interruptible=80&gpus=10&used=500&rule=custom&custom=2",
        expect: "H*=360.0000 u=0.493151 N=2 total=61400.00 sizing=[average:7:100500.00 waterline:0:125000.00 cost-optimal:10:90000.00 peak:10:90000.00] ondemand=125000.00 peak=90000.00 wl=0.000/0 avg=6.8493 guard=none spot=7.312500 budgetgpus=6 burst=12 own=3628.18 hidden=1100.00 review=none",
    },
    Case {
        name: "burst_own_hidden",
        link: "https://plan.example/?v=1&lang=en&jobs=20&jobgpus=8&jobhours=6&freegpus=4&maxelastic=32&billing=hour&buy=150000&depmonths=48&kw=0.7&pue=1.3&kwh=1.2&colo=800&storage=500&ip=30&snapshots=80&egress=0.6&egressgb=400&sessions=100&idle=1",
        expect: "H*=360.0000 u=0.493151 N=0 total=13359.11 sizing=[average:1:24000.00 waterline:0:20000.00 cost-optimal:0:20000.00 peak:4:36000.00] ondemand=20000.00 peak=36000.00 wl=0.000/0 avg=1.0959 guard=none spot=8.397771 budgetgpus=6 burst=30 own=4722.16 hidden=3350.00 review=none",
    },
    Case {
        name: "data_timestamped_with_gap",
        link: "https://plan.example/?v=1&lang=en&rule=waterline&daystart=9&dayend=21&q=0&lookback=all&tz=480&data=lY6xCkBAHIe7hVGSJO8gSZK8iVc8y00m3WDCcFjOwqKUySM4d4lj4bd9_b_-fQCkWMVL0mqVXhqFmVvIhg5hNPtjMIRd1MSbu3oHUU5Eqx-moF4y33dkZ4zun4Q9cZJN6Jw9VCq4eoQJvk0Bv7cD",
        expect: "H*=360.0000 u=0.493151 N=2 total=50050.54 sizing=[average:5:60392.97 waterline:2:65983.06 cost-optimal:4:60016.60 peak:8:72000.00] ondemand=84483.06 peak=72000.00 wl=2.000/2 avg=4.6292 guard=4/4/4 spot=8.397771 budgetgpus=6 burst=12 own=3628.18 hidden=1100.00 review=2m/1a/2693.85+3287.60",
    },
    Case {
        name: "data_values_only",
        link: "https://plan.example/?v=1&lang=en&monthly=2000&ondemand=5&lookback=7&data=AWIAnf8BADAA3Au4FwDKEaAf5DLZDLUYfccSnSDhM9YNshn6AcQTmiHeNNMOrxr3AsEUlyLbNdAPrBv0A74VlCPYNs0QqRzxBLsWkSTVN8oRph3uBbgXjiXSOMcSox7rBrUYiybPOQ",
        expect: "H*=400.0000 u=0.547945 N=3 total=10750.10 sizing=[average:3:9545.44 waterline:0:12090.63 cost-optimal:3:9545.44 peak:8:16000.00] ondemand=12090.63 peak=16000.00 wl=0.250/0 avg=3.3125 guard=3/3/3 spot=8.397771 budgetgpus=30 burst=12 own=3628.18 hidden=500.00 review=1m/0a/233.13",
    },
    Case {
        name: "data_histogram",
        link: "https://plan.example/?v=1&lang=en&lookback=all&tz=480&data=lZLbDYAgDEWriWHRM6gjOIZj6Ack0F4a4KMNfZxLgeN8rru8xf6FKUu1NaRdWzi_m1cJzGT1BL26Y1cx05uNQYIWVxiZRJ8LtEfrCWM1I2kEEyK-uqt0x9VEhZS_BxP9uC4pThjnAw",
        expect: "H*=360.0000 u=0.493151 N=5 total=59426.74 sizing=[average:5:66598.37 waterline:1:86037.81 cost-optimal:5:66598.37 peak:10:90000.00] ondemand=95287.81 peak=90000.00 wl=1.700/1 avg=5.2213 guard=9/5/5 spot=8.397771 budgetgpus=6 burst=12 own=3628.18 hidden=1100.00 review=1m/0a/21302.50",
    },
    Case {
        name: "review_months",
        link: "https://plan.example/?v=1&lang=en&gpus=12&used=700&lowutil=65&queue=1.5&review=2026-08~70~108000~15000~0.5_2026-09~58~108000~30000~2_2026-10~55~108000~41000~3",
        expect: "H*=360.0000 u=0.493151 N=12 total=108000.00 sizing=[average:12:108000.00 waterline:12:108000.00 cost-optimal:12:108000.00 peak:12:108000.00] ondemand=210000.00 peak=108000.00 wl=12.000/12 avg=11.5068 guard=none spot=8.397771 budgetgpus=6 burst=12 own=3628.18 hidden=1100.00 review=3m/2a/15000.00+30000.00+41000.00",
    },
];

#[test]
fn golden_links_open_identically() {
    let mut failures = Vec::new();
    for c in CASES {
        let got = figures(&open(c.link));
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
    for c in CASES {
        let query = c.link.split_once('?').map(|(_, q)| q).unwrap_or(c.link);
        let (state, _) = url::decode(query);
        let again = url::encode_with_history(&state);
        assert_eq!(figures(&open(&again)), c.expect, "{}", c.name);
    }
}

#[test]
fn hand_checked_figures() {
    let d = open(CASES[0].link);
    assert_eq!(ok(&d.breakeven).hours, 360.0);
    assert_eq!(ok(&d.pools).total.to_plain_string(), "13359.11");
    let p = open(CASES[2].link);
    assert_eq!(ok(&p.breakeven).hours, 500.0);
    assert_eq!(ok(&p.baseline).gpus, 8);
    assert_eq!(ok(&p.pools).total.to_plain_string(), "12000.00");
    assert_eq!(ok(&p.sizing).all_on_demand.to_plain_string(), "14400.00");
}

#[test]
fn unknown_parameters_and_newer_versions() {
    let (s, p) = url::decode("v=1&utm_source=doc&monthly=8000&future_thing=1");
    assert_eq!((s.inputs.monthly_price, p), (8000.0, vec![]));
    let (_, p) = url::decode("v=3&monthly=8000");
    assert_eq!(p, vec![url::LinkProblem::NewerVersion(3)]);
}

/// Version 2 links (the commitment terms): saved links with the term figures they must open
/// to. Never edit a case; add new ones.
#[test]
fn version_2_term_links_open_identically() {
    // The worked example of docs/formulas.md § 15.
    let o = open("https://plan.example/?v=2&lang=en&gpus=1&used=500&y1up=90000");
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
    let o = open(
        "https://plan.example/?v=2&lang=en&gpus=4&used=600&y3up=108000&y3mo=3000&horizon=30&left=6",
    );
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
    let o = open("https://plan.example/?v=1&lang=en&gpus=1&used=500&y1up=90000");
    assert_eq!(ok(&o.terms).rows.len(), 2);
    assert_eq!(ok(&o.pools).reserved.to_plain_string(), "9000.00");
}
