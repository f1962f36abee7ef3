//! Date and time forms spreadsheets write: a known 30-day series written in each form reads
//! back to the same hourly series (hence the same hours, waterline and N*) as the plain
//! ISO CSV; the report names the time column and the form; no silent fallback.

use super::test_feed::{column_name, stepped};
use super::*;
use crate::core::plan::{plan_with_history, PlanInputs};
use crate::core::profile::profile;

/// 2026-10-05 00:00 UTC (a Monday).
const START: i64 = 1_791_158_400;
const HOURS: i64 = 30 * 24;

/// GPUs busy in hour `h`: busy weekdays 08–20, a floor of 2, halves.
fn value(h: i64) -> f64 {
    let day = h / 24;
    let hour = h % 24;
    let weekend = matches!(day % 7, 5 | 6);
    let base = if !weekend && (8..20).contains(&hour) {
        6.0
    } else {
        2.0
    };
    base + ((h * 7) % 5) as f64 * 0.5
}

fn civil(unix: i64) -> (i64, i64, i64, i64, i64) {
    let (y, m, d) = crate::core::calendar::civil_from_days(unix.div_euclid(86_400));
    let s = unix.rem_euclid(86_400);
    (y, m, d, s / 3600, (s % 3600) / 60)
}

/// Write the series: `step_min` minutes per row, each row's cells from `fmt(unix)` and the value
/// as `num(v)`, with `header` and `sep`. Sub-hourly rows average to the hour's value.
fn write(
    header: &str,
    sep: &str,
    step_min: i64,
    fmt: impl Fn(i64) -> String,
    num: impl Fn(f64) -> String,
) -> String {
    let mut out = String::new();
    if !header.is_empty() {
        out.push_str(header);
        out.push('\n');
    }
    let per_hour = 60 / step_min;
    for h in 0..HOURS {
        let v = value(h);
        for k in 0..per_hour {
            // Alternate ±0.5 around the hour's value (even count: the average is v).
            let x = if per_hour == 1 {
                v
            } else if k % 2 == 0 {
                v - 0.5
            } else {
                v + 0.5
            };
            let t = START + h * 3600 + k * step_min * 60;
            out.push_str(&fmt(t));
            out.push_str(sep);
            out.push_str(&num(x));
            out.push('\n');
        }
    }
    out
}

/// The series hour by hour under `header`, comma-separated, each time written by `time` from
/// its civil (year, month, day, hour, minute).
fn hourly(header: &str, time: impl Fn((i64, i64, i64, i64, i64)) -> String) -> String {
    write(header, ",", 60, |t| time(civil(t)), |v| v.to_string())
}

/// The series hour by hour as `time,gpus` rows (see [`hourly`]).
fn hourly_csv(time: impl Fn((i64, i64, i64, i64, i64)) -> String) -> String {
    hourly("time,gpus", time)
}

fn plain() -> Parsed {
    let text = hourly_csv(|(y, m, d, hh, mm)| format!("{y:04}-{m:02}-{d:02} {hh:02}:{mm:02}"));
    parse(&text, &ParseOptions::default()).expect("plain CSV")
}

fn twelve(hh: i64) -> (i64, &'static str) {
    match hh {
        0 => (12, "AM"),
        1..=11 => (hh, "AM"),
        12 => (12, "PM"),
        _ => (hh - 12, "PM"),
    }
}

/// Parse whole and in 64 KiB slices (as the page does); both must equal the plain series.
fn same_as_plain(name: &str, text: &str, opts: &ParseOptions) -> Parsed {
    let want = plain();
    let got = parse(text, opts).unwrap_or_else(|e| panic!("{name}: {e:?}"));
    assert_eq!(got.report.hours, 720, "{name}: hours");
    assert_eq!(got.series.values, want.series.values, "{name}: values");
    assert_eq!(
        got.series.timestamps, want.series.timestamps,
        "{name}: timestamps"
    );
    assert_eq!(
        got.report.rows_rejected, 0,
        "{name}: {:?}",
        got.report.rejected
    );
    for slice in [64 * 1024, 4096, 777] {
        let sliced =
            stepped(text, opts, slice).unwrap_or_else(|e| panic!("{name} in slices: {e:?}"));
        assert_eq!(sliced, got, "{name}: slices of {slice} bytes");
    }
    // The same plan: waterline and N*.
    let inputs = PlanInputs::default();
    let a = plan_with_history(
        &inputs,
        Some(&profile(&got.series, &inputs.profile_settings()).unwrap()),
    );
    let b = plan_with_history(
        &inputs,
        Some(&profile(&want.series, &inputs.profile_settings()).unwrap()),
    );
    assert_eq!(a.waterline, b.waterline, "{name}: waterline");
    assert_eq!(a.sizing, b.sizing, "{name}: N*");
    got
}

/// The default options in a browser whose locale writes dates `order`.
fn locale_order(order: DateOrder) -> ParseOptions {
    ParseOptions {
        locale_date_order: order,
        ..ParseOptions::default()
    }
}

/// The default options with the time form chosen.
fn form(time_form: TimeForm) -> ParseOptions {
    ParseOptions {
        time_form,
        ..ParseOptions::default()
    }
}

#[test]
fn chinese_excel_slash_dates() {
    let text = hourly("时间,GPU数", |(y, m, d, hh, mm)| {
        format!("{y}/{m}/{d} {hh}:{mm:02}")
    });
    let p = same_as_plain("2026/10/5 0:00", &text, &ParseOptions::default());
    assert_eq!(p.report.timestamp_style, Some(TimestampStyle::SlashLocal));
    assert_eq!(p.report.time_example.as_deref(), Some("2026/10/5 0:00"));
    assert_eq!(p.report.date_order, None);
}

fn us(t: i64, seconds: bool) -> String {
    let (y, m, d, hh, mm) = civil(t);
    let (h12, ap) = twelve(hh);
    if seconds {
        format!("{m}/{d}/{y} {h12}:{mm:02}:00 {ap}")
    } else {
        format!("{m}/{d}/{y} {h12}:{mm:02} {ap}")
    }
}

#[test]
fn us_excel_twelve_hour_clock_hourly_and_every_15_minutes() {
    let hourly = write("Time,GPUs", ",", 60, |t| us(t, false), |v| v.to_string());
    let p = same_as_plain("10/5/2026 12:00 AM", &hourly, &ParseOptions::default());
    assert_eq!(p.report.timestamp_style, Some(TimestampStyle::MonthFirst));
    assert!(p.report.twelve_hour);
    // 10/13/2026 and later fix the order: month first, from the file.
    assert_eq!(
        p.report.date_order,
        Some((DateOrder::MonthFirst, OrderSource::File))
    );
    // Every 15 minutes: 720 hours, not 2 880.
    let quarter = write("Time,GPUs", ",", 15, |t| us(t, true), |v| v.to_string());
    let q = same_as_plain("10/5/2026 12:15:00 AM", &quarter, &ParseOptions::default());
    assert_eq!(q.report.resolution_seconds, Some(900));
    // Even in a browser whose locale writes the day first.
    let dayfirst_locale = locale_order(DateOrder::DayFirst);
    let q = same_as_plain("15 min, day-first locale", &quarter, &dayfirst_locale);
    assert_eq!(
        q.report.date_order,
        Some((DateOrder::MonthFirst, OrderSource::File))
    );
}

#[test]
fn us_twenty_four_hour_clock() {
    let text = hourly("date,busy", |(y, m, d, hh, mm)| {
        format!("{m}/{d}/{y} {hh}:{mm:02}")
    });
    same_as_plain("M/D/YYYY H:mm", &text, &ParseOptions::default());
}

#[test]
fn german_excel_semicolons_decimal_commas_dotted_dates() {
    let text = write(
        "Zeit;GPUs",
        ";",
        60,
        |t| {
            let (y, m, d, hh, mm) = civil(t);
            format!("{d:02}.{m:02}.{y} {hh:02}:{mm:02}")
        },
        |v| format!("{v:.1}").replace('.', ","),
    );
    let p = same_as_plain("05.10.2026 00:00;2,0", &text, &ParseOptions::default());
    assert_eq!(p.report.delimiter, Delimiter::Semicolon);
    assert_eq!(p.report.timestamp_style, Some(TimestampStyle::DayFirst));
}

#[test]
fn day_first_slashes_decided_by_the_file() {
    let text = hourly_csv(|(y, m, d, hh, mm)| format!("{d:02}/{m:02}/{y} {hh:02}:{mm:02}"));
    // The first 100 lines (5–9 October) read both ways; 13/10 decides, whatever the locale.
    for locale in [DateOrder::MonthFirst, DateOrder::DayFirst] {
        let o = locale_order(locale);
        let p = same_as_plain("05/10/2026 00:00", &text, &o);
        assert_eq!(
            p.report.date_order,
            Some((DateOrder::DayFirst, OrderSource::File))
        );
        assert_eq!(p.report.timestamp_style, Some(TimestampStyle::DayFirst));
    }
}

#[test]
fn an_ambiguous_file_takes_the_locale_order_and_says_so() {
    // 1–12 October only: every date reads both ways.
    let text: String = (0..24 * 12)
        .map(|h| {
            let (y, m, d, hh, _) = civil(START - 4 * 86_400 + h * 3600);
            format!("{d:02}/{m:02}/{y} {hh:02}:00,{}\n", value(h))
        })
        .collect();
    let month_first = parse(&text, &ParseOptions::default()).unwrap();
    assert_eq!(
        month_first.report.date_order,
        Some((DateOrder::MonthFirst, OrderSource::Locale))
    );
    let day_first = parse(&text, &locale_order(DateOrder::DayFirst)).unwrap();
    assert_eq!(
        day_first.report.date_order,
        Some((DateOrder::DayFirst, OrderSource::Locale))
    );
    // The user's choice wins and is named as such.
    let chosen = parse(&text, &form(TimeForm::DayFirst)).unwrap();
    assert_eq!(chosen.series, day_first.series);
    assert_eq!(
        chosen.report.date_order,
        Some((DateOrder::DayFirst, OrderSource::Choice))
    );
    assert_ne!(month_first.series.timestamps, day_first.series.timestamps);
}

#[test]
fn month_names() {
    let text = hourly("timestamp,gpus", |(y, m, d, hh, mm)| {
        let mon = [
            "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
        ][m as usize - 1];
        format!("{d:02}-{mon}-{y} {hh:02}:{mm:02}")
    });
    let p = same_as_plain("05-Oct-2026 00:00", &text, &ParseOptions::default());
    assert_eq!(p.report.timestamp_style, Some(TimestampStyle::MonthName));
}

#[test]
fn excel_serial_dates_under_a_time_header() {
    let serial = |t: i64| {
        let days = t as f64 / 86_400.0 + 25_569.0;
        format!("{days}")
    };
    let text = write("Time,GPUs", ",", 60, serial, |v| v.to_string());
    let p = same_as_plain("Excel serials", &text, &ParseOptions::default());
    assert_eq!(p.report.timestamp_style, Some(TimestampStyle::ExcelSerial));
    assert_eq!(column_name(&p.report.timestamp_column), Some("Time"));
    // Without a time header the numbers are not taken for dates, and the report says the
    // column looks like time only when asked: here it is simply two numeric columns.
    let bare = write("", ",", 60, serial, |v| v.to_string());
    let b = parse(&bare, &ParseOptions::default()).unwrap();
    assert_eq!(b.report.timestamp_column, None);
    // Choosing the form reads it.
    let chosen = parse(&bare, &form(TimeForm::ExcelSerial)).unwrap();
    assert_eq!(chosen.series, plain().series);
}

#[test]
fn a_time_column_not_read_is_reported_with_an_example() {
    // A form no spreadsheet writes: the report names the column and a cell.
    let text = "when,gpus\n2026-10-05 00h00,3\n2026-10-05 01h00,4\n2026-10-05 02h00,5\n";
    let p = parse(text, &ParseOptions::default()).unwrap();
    assert_eq!(p.report.timestamp_column, None);
    let unread = p.report.unread_time.expect("reported");
    assert_eq!(unread.column.name, "when");
    assert_eq!(unread.example, "2026-10-05 00h00");
    assert_eq!(p.report.columns.len(), 1);
    assert_eq!(p.report.columns[0].name, "gpus");
    // Time-looking cells without a time header, e.g. `5:00 PM`.
    let q = parse(
        "start,gpus\n5.10.26 5:00 PX,3\n5.10.26 6:00 PX,4\n",
        &ParseOptions::default(),
    )
    .unwrap();
    assert_eq!(
        q.report.unread_time.map(|u| u.example),
        Some("5.10.26 5:00 PX".into())
    );
    // A plain file with a time column reports none.
    assert_eq!(plain().report.unread_time, None);
    // No time column at all: consecutive hours, nothing looks like time.
    let v = parse("gpus\n3\n4\n", &ParseOptions::default()).unwrap();
    assert_eq!(
        (v.report.timestamp_column.clone(), v.report.unread_time),
        (None, None)
    );
}

#[test]
fn notes_columns_are_never_series_names() {
    // Repeating notes ("ok", "retry") look like a long table's series column; they are not.
    let text: String = std::iter::once("time,gpus,notes\n".to_string())
        .chain((0..48).map(|h| {
            let (y, m, d, hh, mm) = civil(START + h * 3600);
            let note = ["ok", "retry", "\"node 3, \"\"slow\"\"\nline 2\""][h as usize % 3];
            format!("{y}-{m:02}-{d:02} {hh:02}:{mm:02},{},{note}\n", value(h))
        }))
        .collect();
    let p = parse(&text, &ParseOptions::default()).unwrap();
    assert_eq!(p.report.series_column, None);
    assert_eq!(p.report.columns.len(), 1);
    assert_eq!(p.report.columns[0].name, "gpus");
    assert_eq!(p.report.used, ColumnUse::One(0));
    assert_eq!(p.report.hours, 48);
}

#[test]
fn notes_columns_are_never_gpu_counts() {
    let text = "time,gpus,notes\n2026-10-05 00:00,3,1\n2026-10-05 01:00,4,\n2026-10-05 02:00,5,2\n";
    let p = parse(text, &ParseOptions::default()).unwrap();
    assert_eq!(p.report.columns.len(), 1);
    assert_eq!(p.report.columns[0].name, "gpus");
    assert_eq!(p.series.values, vec![3.0, 4.0, 5.0]);
}

/// Weekdays 08:00–20:00 Beijing time busy (6 GPUs), else 2; written with `+08:00`.
fn beijing_file() -> String {
    write(
        "time,gpus",
        ",",
        60,
        |t| {
            let (y, m, d, hh, mm) = civil(t + 8 * 3600);
            format!("{y:04}-{m:02}-{d:02}T{hh:02}:{mm:02}:00+08:00")
        },
        |_| String::new(),
    )
    .lines()
    .enumerate()
    .map(|(i, l)| {
        if i == 0 {
            format!("{l}\n")
        } else {
            let local_h = (i as i64 - 1 + 8) % 24;
            let local_day = (i as i64 - 1 + 8) / 24; // day 0 = Monday 5 October, Beijing
            let busy = local_day % 7 < 5 && (8..20).contains(&local_h);
            format!("{l}{}\n", if busy { 6 } else { 2 })
        }
    })
    .collect()
}

#[test]
fn timestamps_with_an_offset_plan_on_the_team_clock_wherever_the_browser_is() {
    let text = beijing_file();
    let inputs = PlanInputs::default();
    let mut tables = Vec::new();
    for browser in [0, 480, -420] {
        let o = ParseOptions {
            utc_offset_minutes: browser,
            zone_from_data: true,
            ..ParseOptions::default()
        };
        let p = parse(&text, &o).unwrap();
        assert!(p.report.zone_from_data);
        assert_eq!(p.series.utc_offset_minutes, 480);
        let prof = profile(&p.series, &inputs.profile_settings()).unwrap();
        let out = plan_with_history(&inputs, Some(&prof));
        let w = out.waterline.unwrap();
        tables.push(w.bands.clone());
    }
    assert_eq!(tables[0], tables[1]);
    assert_eq!(tables[1], tables[2]);
    // The weekday-day band's stable minimum is 6 on the team's clock.
    let bands = tables[0].clone().expect("bands");
    assert_eq!(bands[0].waterline, Some(6.0), "{bands:?}");
    // Told to ignore the offsets, a UTC plan sees another day.
    let utc = parse(
        &text,
        &ParseOptions {
            zone_from_data: false,
            ..ParseOptions::default()
        },
    )
    .unwrap();
    assert!(!utc.report.zone_from_data);
    assert_eq!(utc.series.utc_offset_minutes, 0);
}
