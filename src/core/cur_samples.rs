//! AWS Cost and Usage Reports built from an hourly series, for "Try an example"
//! (`sample-aws-cur`), the tests and the benchmarks. Pure and deterministic; read back by
//! `core::ingest`, the bill gives the series it was built from (GPUs busy = instance hours ×
//! 8 GPUs of `p4d.24xlarge`; the example's values are tenths, so every amount and cost is an
//! exact decimal).
//!
//! Each hour: up to [`RESERVED_GPUS`] GPUs on Reserved Instances (`DiscountedUsage`, effective
//! cost [`RI_EFFECTIVE_PER_INSTANCE_HOUR`]), the rest On Demand (`Usage`,
//! [`ON_DEMAND_PER_INSTANCE_HOUR`]); each day also a tax row, storage and data transfer rows,
//! a CPU instance's hours, an RI fee and the hours of an instance type the GPU table does not
//! list, so the parse report shows what is left out and why. Rates are illustrations.

use std::fmt::Write as _;

use crate::core::calendar::write_iso_seconds;
use crate::core::examples::{self, Example};
use crate::core::series::UsageSeries;

/// The example a bill is built from.
pub const SOURCE: Example = Example::BurstyLab;
/// GPUs per hour covered by Reserved Instances.
pub const RESERVED_GPUS: u64 = 4;
/// On-Demand price of a `p4d.24xlarge` instance-hour (USD, an illustration).
pub const ON_DEMAND_PER_INSTANCE_HOUR: &str = "32.7726";
/// Effective cost of a reserved `p4d.24xlarge` instance-hour (USD, an illustration).
pub const RI_EFFECTIVE_PER_INSTANCE_HOUR: &str = "19.2200";

/// The CUR 1.0 header of the sample (a few of the report's columns, in its order).
pub const HEADER: &str = "identity/LineItemId,identity/TimeInterval,bill/BillingPeriodStartDate,lineItem/LineItemType,lineItem/UsageStartDate,lineItem/UsageEndDate,lineItem/ProductCode,lineItem/UsageType,lineItem/Operation,lineItem/ResourceId,lineItem/UsageAmount,lineItem/CurrencyCode,lineItem/UnblendedRate,lineItem/UnblendedCost,lineItem/LineItemDescription,product/ProductName,product/instanceType,product/region,pricing/term,pricing/unit,reservation/EffectiveCost,savingsPlan/SavingsPlanEffectiveCost";

fn iso_utc(out: &mut String, t: i64) {
    write_iso_seconds(out, t);
    out.push('Z');
}

/// `units / 10^decimals` as plain decimal text.
fn decimal(units: u64, decimals: u32) -> String {
    let p = 10u64.pow(decimals);
    format!(
        "{}.{:0width$}",
        units / p,
        units % p,
        width = decimals as usize
    )
}

/// A decimal text with at most 4 decimals (`"32.7726"`) in units of 1e-4.
fn units4(s: &str) -> u64 {
    let (i, f) = s.split_once('.').unwrap_or((s, ""));
    let f = format!("{f:0<4}");
    i.parse::<u64>().unwrap_or(0) * 10_000 + f[..4].parse::<u64>().unwrap_or(0)
}

struct Row<'a> {
    id: usize,
    kind: &'a str,
    start: i64,
    end: i64,
    product: &'a str,
    usage_type: &'a str,
    amount: String,
    rate: String,
    cost: String,
    description: &'a str,
    instance_type: &'a str,
    term: &'a str,
    unit: &'a str,
    ri_effective: String,
}

fn push_row(out: &mut String, r: &Row) {
    let _ = write!(out, "li{:08},", r.id);
    iso_utc(out, r.start);
    out.push('/');
    iso_utc(out, r.end);
    out.push(',');
    let month = r.start - r.start.rem_euclid(86_400);
    iso_utc(out, month);
    let _ = write!(out, ",{},", r.kind);
    iso_utc(out, r.start);
    out.push(',');
    iso_utc(out, r.end);
    let product_name = match r.product {
        "AmazonEC2" => "Amazon Elastic Compute Cloud",
        _ => "",
    };
    let _ = writeln!(
        out,
        ",{},{},RunInstances,i-0sample,{},USD,{},{},\"{}\",{product_name},{},us-east-1,{},{},{},",
        r.product,
        r.usage_type,
        r.amount,
        r.rate,
        r.cost,
        r.description,
        r.instance_type,
        r.term,
        r.unit,
        r.ri_effective
    );
}

/// A CUR 1.0 CSV whose `p4d.24xlarge` hours give `s` (GPUs busy per hour, tenths): the hour
/// starting at `s.timestamps[i]` has `s.values[i]` GPUs busy. Every `extras`-th hour adds the
/// rows that are left out (tax, storage, data transfer, a CPU instance, an RI fee, an
/// instance type not in the table).
pub fn cur_from_series(s: &UsageSeries, extras: usize) -> String {
    let mut out = String::with_capacity(s.values.len() * 900 + 512);
    out.push_str(HEADER);
    out.push('\n');
    let od = units4(ON_DEMAND_PER_INSTANCE_HOUR);
    let ri = units4(RI_EFFECTIVE_PER_INSTANCE_HOUR);
    let mut id = 0;
    let ts = s.timestamps.clone().unwrap_or_default();
    for (k, (&t, &v)) in ts.iter().zip(&s.values).enumerate() {
        // GPUs busy in tenths; an instance-hour is 8 GPU-hours, so amount = tenths / 80
        // = tenths × 125 / 10^4, exact with 4 decimals.
        let tenths = (v * 10.0).round().max(0.0) as u64;
        let reserved = tenths.min(RESERVED_GPUS * 10);
        let on_demand = tenths - reserved;
        let end = t + 3600;
        for (kind, part, price, term) in [
            ("DiscountedUsage", reserved, ri, "Reserved"),
            ("Usage", on_demand, od, "OnDemand"),
        ] {
            if part == 0 {
                continue;
            }
            let amount = part * 125; // 1e-4 instance-hours
            let cost = amount * price; // 1e-8 currency units
            let ri_row = kind == "DiscountedUsage";
            id += 1;
            push_row(
                &mut out,
                &Row {
                    id,
                    kind,
                    start: t,
                    end,
                    product: "AmazonEC2",
                    usage_type: "USE1-BoxUsage:p4d.24xlarge",
                    amount: decimal(amount, 4),
                    rate: if ri_row {
                        "0.0".into()
                    } else {
                        decimal(price, 4)
                    },
                    cost: if ri_row {
                        "0.0".into()
                    } else {
                        decimal(cost, 8)
                    },
                    description: if ri_row {
                        "USD 0.0 hourly fee per Linux/UNIX (Amazon VPC), p4d.24xlarge instance"
                    } else {
                        "$32.7726 per On Demand Linux p4d.24xlarge Instance Hour"
                    },
                    instance_type: "p4d.24xlarge",
                    term,
                    unit: "Hrs",
                    ri_effective: if ri_row {
                        decimal(cost, 8)
                    } else {
                        String::new()
                    },
                },
            );
        }
        if extras > 0 && k % extras == 0 {
            let left_out: [(&str, &str, &str, &str, &str, &str, &str); 6] = [
                (
                    "Tax",
                    "AmazonEC2",
                    "",
                    "1.0",
                    "12.3400",
                    "Tax for product code AmazonEC2",
                    "",
                ),
                (
                    "Usage",
                    "AmazonEC2",
                    "USE1-EBS:VolumeUsage.gp3",
                    "26.8817",
                    "2.1505",
                    "$0.08 per GB-month of General Purpose (gp3)",
                    "",
                ),
                (
                    "Usage",
                    "AWSDataTransfer",
                    "USE1-DataTransfer-Out-Bytes",
                    "40.0",
                    "3.6000",
                    "$0.09 per GB - first 10 TB / month data transfer out",
                    "",
                ),
                (
                    "Usage",
                    "AmazonEC2",
                    "USE1-BoxUsage:m5.large",
                    "24.0",
                    "2.3040",
                    "$0.096 per On Demand Linux m5.large Instance Hour",
                    "m5.large",
                ),
                (
                    "RIFee",
                    "AmazonEC2",
                    "USE1-HeavyUsage:p4d.24xlarge",
                    "24.0",
                    "0.0",
                    "USD 0.0 hourly fee per Linux/UNIX (Amazon VPC), p4d.24xlarge instance",
                    "p4d.24xlarge",
                ),
                (
                    "Usage",
                    "AmazonEC2",
                    "USE1-BoxUsage:g6f.large",
                    "24.0",
                    "7.2000",
                    "On Demand Linux g6f.large Instance Hour",
                    "g6f.large",
                ),
            ];
            for (kind, product, usage_type, amount, cost, description, itype) in left_out {
                id += 1;
                push_row(
                    &mut out,
                    &Row {
                        id,
                        kind,
                        start: t,
                        end: t + 86_400,
                        product,
                        usage_type,
                        amount: amount.into(),
                        rate: String::new(),
                        cost: cost.into(),
                        description,
                        instance_type: itype,
                        term: if kind == "Tax" { "" } else { "OnDemand" },
                        unit: "",
                        ri_effective: String::new(),
                    },
                );
            }
        }
    }
    out
}

/// The example bill: [`SOURCE`]'s 30 days from the local hour containing `start_unix`, with
/// the left-out rows once a day.
pub fn sample(start_unix: i64, utc_offset_minutes: i32) -> String {
    let s = examples::series(SOURCE, start_unix, utc_offset_minutes);
    cur_from_series(&s, 24)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::ingest::{parse, BillLeftOut, BillTerm, ParseOptions};

    #[test]
    fn the_sample_reads_back_as_its_series() {
        let start = 1_793_491_200; // 2026-11-01 00:00 UTC
        for off in [0, 480, 330, -300] {
            let text = sample(start, off);
            let s = examples::series(SOURCE, start, off);
            let opts = ParseOptions {
                utc_offset_minutes: off,
                ..ParseOptions::default()
            };
            let p = parse(&text, &opts).unwrap();
            assert_eq!(p.series.timestamps, s.timestamps, "offset {off}");
            assert_eq!(p.series.values.len(), s.values.len());
            for (a, b) in p.series.values.iter().zip(&s.values) {
                assert!((a - b).abs() < 1e-9, "{a} vs {b}");
            }
            assert_eq!(p.types.len(), 1);
            assert_eq!(p.types[0].key, "a100-40g");
            let cur = p.report.cur.unwrap();
            assert_eq!(cur.types.len(), 1);
            // Left out: 30 days × one row of each kind.
            let left = |w| cur.left_out.iter().find(|x| x.0 == w).map(|x| x.1);
            assert_eq!(left(BillLeftOut::Tax), Some(30));
            assert_eq!(left(BillLeftOut::Fee), Some(30));
            assert_eq!(left(BillLeftOut::NotInstanceHours), Some(60));
            assert_eq!(left(BillLeftOut::NonGpuInstance), Some(30));
            assert_eq!(left(BillLeftOut::UnknownInstanceType), Some(30));
            assert_eq!(cur.unknown_types, [("g6f.large".to_string(), 30)]);
            // The rates are the prices written, per GPU (÷ 8), to the cent:
            // 32.7726 / 8 = 4.096575 → $4.10; 19.22 / 8 = 2.4025 → $2.40 (2.4025 rounds down:
            // the cent is decided by 0.25 of a cent).
            let t = &cur.types[0];
            assert_eq!(t.term(BillTerm::OnDemand).unwrap().rate_cents(), Some(410));
            assert_eq!(t.term(BillTerm::Reserved).unwrap().rate_cents(), Some(240));
            // 2.4025 × 730 = 1 753.825 → $1 753.83.
            assert_eq!(
                t.term(BillTerm::Reserved).unwrap().monthly_cents(730.0),
                Some(175_383)
            );
            assert_eq!(cur.currencies, ["USD"]);
        }
    }

    #[test]
    fn decimals_are_exact() {
        assert_eq!(decimal(125, 4), "0.0125");
        assert_eq!(decimal(4_096_575_000, 8), "40.96575000");
        assert_eq!(units4("32.7726"), 327_726);
        assert_eq!(units4("19.22"), 192_200);
        assert_eq!(units4("5"), 50_000);
    }
}
