//! AWS Cost and Usage Reports: detection, what counts, the windows, the types, the rates,
//! the errors, and the same result in slices as whole.

use super::test_feed::{byte_stepped, stepped};
use super::*;
use crate::core::cur_samples;
use crate::core::examples::{self, Example};

const H1: &str = "lineItem/LineItemType,lineItem/UsageStartDate,lineItem/UsageEndDate,lineItem/UsageType,lineItem/UsageAmount,lineItem/CurrencyCode,lineItem/UnblendedCost,product/instanceType,pricing/term,reservation/EffectiveCost,savingsPlan/SavingsPlanEffectiveCost";

fn cur(rows: &[&str]) -> String {
    let mut s = format!("{H1}\n");
    for r in rows {
        s.push_str(r);
        s.push('\n');
    }
    s
}

fn whole(text: &str) -> ParseResult {
    parse(text, &ParseOptions::default())
}

/// A type's rate for `term`, in cents (the type must have bought at that term).
fn rate(t: &CurType, term: BillTerm) -> Option<i64> {
    t.term(term)
        .unwrap_or_else(|| panic!("{}: no {term:?} rate", t.key))
        .rate_cents()
}

/// The same text through the `Stepper` and the `ByteStepper` in slices of `n` bytes.
fn sliced(text: &str, opts: &ParseOptions, n: usize) -> (ParseResult, ParseResult) {
    (stepped(text, opts, n), byte_stepped(text, opts, n))
}

#[test]
fn a_cur_of_a_known_series_reads_back_in_slices_as_whole() {
    let s = examples::series(Example::BurstyLab, 1_793_491_200, 480);
    let text = cur_samples::cur_from_series(&s, 5);
    let opts = ParseOptions {
        utc_offset_minutes: 480,
        ..ParseOptions::default()
    };
    let p = parse(&text, &opts).unwrap();
    assert_eq!(p.report.format, Format::AwsCur);
    assert_eq!(p.series.timestamps, s.timestamps);
    for (a, b) in p.series.values.iter().zip(&s.values) {
        assert!((a - b).abs() < 1e-9);
    }
    for n in [1, 7, 100, 4096, 1 << 20] {
        let (a, b) = sliced(&text, &opts, n);
        assert_eq!(a.as_ref(), Ok(&p), "Stepper, slices of {n}");
        assert_eq!(b.as_ref(), Ok(&p), "ByteStepper, slices of {n}");
    }
}

#[test]
fn several_rows_in_one_hour_add_up_and_types_split() {
    let text = cur(&[
        "Usage,2026-11-01T00:00:00Z,2026-11-01T01:00:00Z,USE1-BoxUsage:p4d.24xlarge,1,USD,32.7726,p4d.24xlarge,OnDemand,,",
        "Usage,2026-11-01T00:00:00Z,2026-11-01T01:00:00Z,USE1-BoxUsage:p4d.24xlarge,0.5,USD,16.3863,p4d.24xlarge,OnDemand,,",
        "Usage,2026-11-01T00:00:00Z,2026-11-01T01:00:00Z,USE1-BoxUsage:g5.xlarge,3,USD,3.018,g5.xlarge,OnDemand,,",
        "SavingsPlanCoveredUsage,2026-11-01T01:00:00Z,2026-11-01T02:00:00Z,USE1-BoxUsage:g5.12xlarge,1,USD,5.672,g5.12xlarge,OnDemand,,2.5",
        "Usage,2026-11-01T01:00:00Z,2026-11-01T02:00:00Z,USE1-SpotUsage:g5.xlarge,2,USD,0.8,g5.xlarge,,,",
    ]);
    let p = whole(&text).unwrap();
    assert_eq!(p.series.values, [15.0, 6.0]);
    assert_eq!(p.types.len(), 2);
    assert_eq!(p.types[0].key, "a100-40g");
    assert_eq!(p.types[0].series.values, [12.0, 0.0]);
    assert_eq!(p.types[1].key, "a10g");
    assert_eq!(p.types[1].series.values, [3.0, 6.0]);
    let c = p.report.cur.unwrap();
    assert_eq!((c.rows, c.gpu_rows, c.hourly_rows), (5, 5, 5));
    let a10g = &c.types[1];
    assert_eq!(a10g.instance_types, ["g5.xlarge", "g5.12xlarge"]);
    // On demand 3.018 / 3 GPU-hours = $1.006 → $1.01; Savings Plans 2.5 / 4 = $0.625 →
    // $0.63 (half away from zero); spot 0.8 / 2 = $0.40.
    assert_eq!(rate(a10g, BillTerm::OnDemand), Some(101));
    assert_eq!(rate(a10g, BillTerm::Reserved), Some(63));
    assert_eq!(rate(a10g, BillTerm::Spot), Some(40));
    assert_eq!(c.sp_rows, 1);
    // A100 40GB: 49.1589 / 12 = 4.096575 → $4.10.
    assert_eq!(rate(&c.types[0], BillTerm::OnDemand), Some(410));
    let fills = c.price_fills(730.0);
    assert_eq!(fills.len(), 2);
    assert_eq!(fills[1].monthly_cents, Some(45_625)); // 0.625 × 730 = 456.25
    assert_eq!(fills[1].spot_cents, Some(40));
}

#[test]
fn a_daily_row_spreads_over_its_24_hours() {
    let text = cur(&[
        "Usage,2026-11-01T00:00:00Z,2026-11-02T00:00:00Z,USE1-BoxUsage:g6.xlarge,48,USD,38.6016,g6.xlarge,OnDemand,,",
    ]);
    let p = whole(&text).unwrap();
    assert_eq!(p.series.values, vec![2.0; 24]);
    let c = p.report.cur.unwrap();
    assert_eq!((c.daily_rows, c.hourly_rows), (1, 0));
    assert_eq!(c.types[0].key, "l4");
    // 38.6016 / 48 GPU-hours = 0.8042 → $0.80.
    assert_eq!(c.types[0].terms[0].rate_cents(), Some(80));
}

#[test]
fn left_out_rows_are_counted_by_reason_and_unknown_types_named() {
    let text = cur(&[
        "Usage,2026-11-01T00:00:00Z,2026-11-01T01:00:00Z,USE1-BoxUsage:p5.48xlarge,1,USD,98.32,p5.48xlarge,OnDemand,,",
        "Tax,2026-11-01T00:00:00Z,2026-11-01T01:00:00Z,,,USD,9.8,,,,",
        "Credit,2026-11-01T00:00:00Z,2026-11-01T01:00:00Z,,,USD,-50,,,,",
        "RIFee,2026-11-01T00:00:00Z,2026-11-01T01:00:00Z,USE1-HeavyUsage:p5.48xlarge,1,USD,60,p5.48xlarge,Reserved,,",
        "SavingsPlanNegation,2026-11-01T00:00:00Z,2026-11-01T01:00:00Z,USE1-BoxUsage:p5.48xlarge,1,USD,-98.32,p5.48xlarge,,,",
        "EdpDiscount,2026-11-01T00:00:00Z,2026-11-01T01:00:00Z,,,USD,-3,,,,",
        "Usage,2026-11-01T00:00:00Z,2026-11-01T01:00:00Z,USE1-EBS:VolumeUsage.gp3,100,USD,0.3,,,,",
        "Usage,2026-11-01T00:00:00Z,2026-11-01T01:00:00Z,USE1-BoxUsage:m7i.large,1,USD,0.1,m7i.large,OnDemand,,",
        "Usage,2026-11-01T00:00:00Z,2026-11-01T01:00:00Z,USE1-BoxUsage:p7.96xlarge,1,USD,200,p7.96xlarge,OnDemand,,",
        "Usage,2026-11-01T00:00:00Z,2026-11-01T01:00:00Z,USE1-BoxUsage:p7.96xlarge,1,USD,200,p7.96xlarge,OnDemand,,",
    ]);
    let p = whole(&text).unwrap();
    assert_eq!(p.series.values, [8.0]);
    assert_eq!(p.report.rows_read, 1);
    let c = p.report.cur.unwrap();
    assert_eq!(c.rows, 10);
    assert_eq!(
        c.left_out,
        [
            (BillLeftOut::Tax, 1),
            (BillLeftOut::Credit, 1),
            (BillLeftOut::Fee, 1),
            (BillLeftOut::Negation, 1),
            (BillLeftOut::Discount, 1),
            (BillLeftOut::NotInstanceHours, 1),
            (BillLeftOut::NonGpuInstance, 1),
            (BillLeftOut::UnknownInstanceType, 2),
        ]
    );
    assert_eq!(c.unknown_types, [("p7.96xlarge".to_string(), 2)]);
    assert_eq!(c.non_gpu_types, ["m7i.large"]);
}

#[test]
fn cur2_names_quotes_and_fractional_seconds() {
    let text = "line_item_line_item_type,line_item_usage_start_date,line_item_usage_end_date,line_item_usage_type,line_item_usage_amount,line_item_currency_code,line_item_unblended_cost,line_item_line_item_description,product_instance_type,pricing_term,reservation_effective_cost\n\
        \"DiscountedUsage\",\"2026-11-01T00:00:00.000Z\",\"2026-11-01T01:00:00.000Z\",\"USE1-BoxUsage:g6e.12xlarge\",\"1.0\",\"CNY\",\"0.0\",\"RI, \"\"regional\"\"\nfee\",\"g6e.12xlarge\",\"Reserved\",\"40.0\"\n";
    let p = whole(text).unwrap();
    assert_eq!(p.series.values, [4.0]);
    let c = p.report.cur.unwrap();
    assert_eq!(c.version, CurVersion::Cur2);
    assert_eq!(c.currencies, ["CNY"]);
    assert_eq!(c.types[0].key, "l40s");
    assert_eq!(rate(&c.types[0], BillTerm::Reserved), Some(1000));
    assert_eq!(p.report.lines, 3);
}

#[test]
fn bad_rows_name_the_line_and_the_reason() {
    let text = cur(&[
        "Usage,2026-11-01T00:00:00Z,2026-11-01T01:00:00Z,USE1-BoxUsage:g5.xlarge,1,USD,1.006,g5.xlarge,OnDemand,,",
        "Usage,yesterday,2026-11-01T01:00:00Z,USE1-BoxUsage:g5.xlarge,1,USD,1.006,g5.xlarge,OnDemand,,",
        "Usage,2026-11-01T00:00:00Z,2026-11-01T01:00:00Z,USE1-BoxUsage:g5.xlarge,lots,USD,1.006,g5.xlarge,OnDemand,,",
        "Usage,2026-11-01T00:00:00Z,2026-11-01T01:00:00Z,USE1-BoxUsage:g5.xlarge,-1,USD,1.006,g5.xlarge,OnDemand,,",
        "Usage,2026-11-01T02:00:00Z,2026-11-01T01:00:00Z,USE1-BoxUsage:g5.xlarge,1,USD,1.006,g5.xlarge,OnDemand,,",
        "Usage,2026-11-01T00:00:00Z",
    ]);
    let p = whole(&text).unwrap();
    let r = &p.report;
    assert_eq!(r.rows_read, 1);
    let got: Vec<(usize, RejectReason, &str)> = r
        .rejected
        .iter()
        .map(|x| (x.line, x.reason, x.excerpt.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            (3, RejectReason::BadTimestamp, "yesterday"),
            (4, RejectReason::NotANumber, "lots"),
            (5, RejectReason::Negative, "-1"),
            (6, RejectReason::EndBeforeStart, got[3].2),
            (7, RejectReason::TooFewColumns, got[4].2),
        ]
    );
}

#[test]
fn errors_other_bills_gzip_and_no_gpu() {
    let ce =
        "\"Service\",\"EC2-Instances($)\",\"Total costs($)\"\n\"Service total\",\"100\",\"100\"\n";
    assert_eq!(
        whole(ce),
        Err(IngestError::OtherBill(OtherBill::CostExplorer))
    );
    let focus = "BilledCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,EffectiveCost\n1,USD,2026-11-01,2026-11-02,1\n";
    assert_eq!(whole(focus), Err(IngestError::OtherBill(OtherBill::Focus)));
    let bytes: &[u8] = &[
        0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, b'\n', 0xab, 0x00,
    ];
    let mut st = ByteStepper::new(bytes.len() as u64, &ParseOptions::default());
    while let Some(at) = st.wants() {
        st.feed(&bytes[at as usize..]);
    }
    assert_eq!(st.finish(), Err(IngestError::Gzip));
    let cpu = cur(&["Usage,2026-11-01T00:00:00Z,2026-11-01T01:00:00Z,USE1-BoxUsage:m5.large,1,USD,0.096,m5.large,OnDemand,,"]);
    match whole(&cpu) {
        Err(IngestError::NoGpuInstances(r)) => {
            let c = r.cur.unwrap();
            assert_eq!(c.left_out, [(BillLeftOut::NonGpuInstance, 1)]);
        }
        other => panic!("{other:?}"),
    }
    // Forced on a plain table: the columns are missing.
    let opts = ParseOptions {
        format: Some(Format::AwsCur),
        ..ParseOptions::default()
    };
    assert_eq!(
        parse("time,gpus\n2026-11-01 00:00,3\n", &opts),
        Err(IngestError::LayoutMismatch {
            format: Format::AwsCur
        })
    );
    // A plain table is still a table.
    assert_eq!(
        whole("time,gpus\n2026-11-01 00:00,3\n")
            .unwrap()
            .report
            .format,
        Format::Table
    );
}

#[test]
fn the_formats_doc_example_reads_as_it_says() {
    let doc = include_str!("../../../docs/formats.md");
    let at = doc.find("Example (CUR 1.0, five lines").unwrap();
    let block = &doc[at..];
    let start = block.find("```\n").unwrap() + 4;
    let end = start + block[start..].find("```").unwrap();
    let text = &block[start..end];
    assert_eq!(text.lines().count(), 5);
    let p = whole(text).unwrap();
    assert_eq!(p.series.values, [6.0]);
    let c = p.report.cur.unwrap();
    let a100 = &c.types[0];
    assert_eq!(a100.key, "a100-40g");
    assert_eq!(rate(a100, BillTerm::Reserved), Some(240));
    assert_eq!(rate(a100, BillTerm::OnDemand), Some(410));
    assert_eq!(
        c.left_out,
        [(BillLeftOut::Tax, 1), (BillLeftOut::NotInstanceHours, 1)]
    );
}
