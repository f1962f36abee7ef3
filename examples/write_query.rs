//! Writes one engine query from `key=value` arguments, for the real-engine tests and by
//! hand (`cargo run -q --example write_query -- engine=duckdb start=2026-11-01 end=2026-11-08
//! path=sacct.txt team=account types=a100,h100 table=cur.cur source=sacct prom=dcgm
//! threshold=10`). Dates are UTC days (`end` exclusive) or Unix seconds on the hour.

use gpu_rent_planner::core::query::{self, DuckSource, Engine, PromSource, QuerySpec};

fn time(v: &str) -> i64 {
    if let Ok(n) = v.parse::<i64>() {
        return n;
    }
    let p: Vec<i64> = v
        .split('-')
        .map(|x| x.parse().expect("YYYY-MM-DD"))
        .collect();
    gpu_rent_planner::core::calendar::days_from_civil(p[0], p[1], p[2]) * 86_400
}

fn main() {
    let mut spec = QuerySpec::default();
    for arg in std::env::args().skip(1) {
        let (k, v) = arg.split_once('=').expect("key=value");
        match k {
            "engine" => spec.engine = Engine::from_id(v).expect("engine id"),
            "start" => spec.start = time(v),
            "end" => spec.end = time(v),
            "path" => spec.path = v.into(),
            "team" => spec.team = (!v.is_empty()).then(|| v.into()),
            "types" => {
                spec.types = v
                    .split(',')
                    .filter(|s| !s.is_empty())
                    .map(Into::into)
                    .collect()
            }
            "table" => spec.table = v.into(),
            "rates" => spec.rates = v == "1" || v == "true",
            "threshold" => spec.busy_threshold_percent = v.parse().expect("number"),
            "source" => {
                spec.duck_source = match v {
                    "sacct" => DuckSource::Sacct,
                    "cur" => DuckSource::Cur,
                    "cur2" => DuckSource::Cur2,
                    _ => panic!("source: sacct, cur or cur2"),
                }
            }
            "prom" => {
                spec.prom = match v {
                    "dcgm" => PromSource::Dcgm,
                    "kube" => PromSource::KubeRequests,
                    _ => panic!("prom: dcgm or kube"),
                }
            }
            _ => panic!("unknown key {k}"),
        }
    }
    match query::write(&spec) {
        Ok(text) => print!("{text}"),
        Err(e) => {
            eprintln!("{e:?}");
            std::process::exit(2);
        }
    }
}
