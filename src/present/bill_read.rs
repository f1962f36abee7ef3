//! What the page says about a cloud bill read as a history (an AWS Cost and Usage Report,
//! `core::ingest` `Format::AwsCur`): rows read and counted, GPU-hours per model, rows left out
//! and why, instance types not in the table, the currency, the bill's effective rates and the
//! price fill. Pure: (language, report, page currency, month length) → texts.

use crate::core::gpu_instances::TABLE_DATE;
use crate::core::ingest::{
    BillLeftOut, BillTerm, CurReport, CurVersion, IngestError, OtherBill, PriceFill,
};
use crate::core::money::Money;
use crate::format::{money, number, number_trim};
use crate::format::{Currency, Lang};
use crate::i18n::pick;

/// The format's name in the format list and the "read as" line.
pub fn format_name(l: Lang) -> &'static str {
    pick(
        l,
        "AWS Cost and Usage Report (cloud bill)",
        "AWS 成本和使用情况报告（云账单）",
    )
}

/// The messages of the bill errors (`None` for the other errors).
pub fn error_text(l: Lang, e: &IngestError) -> Option<String> {
    Some(match e {
        IngestError::Gzip => pick(
            l,
            "This is a gzip file (.csv.gz, as AWS delivers Cost and Usage Reports): the page reads text only. Unzip it first (double-click it, or gunzip FILE.csv.gz) and choose the .csv.",
            "这是 gzip 压缩文件（.csv.gz，AWS 成本和使用情况报告的交付格式）：本页只读取文本。请先解压（双击，或 gunzip 文件名.csv.gz），再选择解压后的 .csv。",
        )
        .to_string(),
        IngestError::OtherBill(b) => other_bill_text(l, b),
        IngestError::NoGpuInstances(r) => {
            let rows = r.cur.as_ref().map_or(0, |c| c.rows);
            match l {
                Lang::En => format!("This AWS Cost and Usage Report has no GPU instance hours: none of its {} rows is EC2 usage of a GPU instance type in the table (see what was left out below).", number(rows as f64, 0, l)),
                Lang::Zh => format!("这份 AWS 成本和使用情况报告没有 GPU 实例时长：{} 行中没有一行是表中 GPU 实例类型的 EC2 用量（被排除的行见下方）。", number(rows as f64, 0, l)),
            }
        }
        _ => return None,
    })
}

fn other_bill_text(l: Lang, b: &OtherBill) -> String {
    let expects = pick(
        l,
        " The page reads the AWS Cost and Usage Report (CUR 1.0 or 2.0, CSV): Billing and Cost Management → Data Exports → Create → Standard data export (CUR 2.0), hourly, CSV; or a legacy CUR. See Formats read.",
        "本页读取 AWS 成本和使用情况报告（CUR 1.0 或 2.0，CSV）：账单与成本管理 → 数据导出 → 创建 → 标准数据导出（CUR 2.0），按小时，CSV；或旧版 CUR。见“支持的格式”。",
    );
    let what = match (b, l) {
        (OtherBill::CostExplorer, Lang::En) => "This looks like an AWS Cost Explorer CSV export: costs per service and period, without instance hours, so it cannot give GPUs busy per hour.".to_string(),
        (OtherBill::CostExplorer, Lang::Zh) => "这看起来是 AWS Cost Explorer（成本管理器）导出的 CSV：按服务和时段的费用，没有实例时长，无法得出每小时忙碌的 GPU 数。".to_string(),
        (OtherBill::Focus, Lang::En) => "This looks like a FOCUS cost export (BilledCost, ChargePeriodStart): the page does not read FOCUS yet.".to_string(),
        (OtherBill::Focus, Lang::Zh) => "这看起来是 FOCUS 格式的费用导出（BilledCost、ChargePeriodStart）：本页暂不读取 FOCUS。".to_string(),
        (OtherBill::AzureCost, Lang::En) => "This looks like an Azure cost details export (CostInBillingCurrency, MeterCategory): the page does not read Azure bills.".to_string(),
        (OtherBill::AzureCost, Lang::Zh) => "这看起来是 Azure 费用明细导出（CostInBillingCurrency、MeterCategory）：本页不读取 Azure 账单。".to_string(),
        (OtherBill::GcpBilling, Lang::En) => "This looks like a Google Cloud billing export (sku.description, usage_start_time, cost): the page does not read GCP bills yet, and its cost column is money, never GPUs.".to_string(),
        (OtherBill::GcpBilling, Lang::Zh) => "这看起来是 Google Cloud 账单导出（sku.description、usage_start_time、cost）：本页暂不读取 GCP 账单，其 cost 列是金额，绝不是 GPU 数。".to_string(),
        (OtherBill::CurWithoutColumns(cols), Lang::En) => format!("This is an AWS Cost and Usage Report without the column{} {}.", if cols.len() == 1 { "" } else { "s" }, cols.join(", ")),
        (OtherBill::CurWithoutColumns(cols), Lang::Zh) => format!("这是缺少 {} 列的 AWS 成本和使用情况报告。", cols.join("、")),
    };
    format!("{what}{expects}")
}

/// The bill's lines in the parse report.
#[derive(Debug, Clone, PartialEq)]
pub struct BillRead {
    /// Rows read and counted, by window (`bill-summary`; value: GPU rows).
    pub summary: (String, String),
    /// Per GPU model: key and text (`bill-type`).
    pub types: Vec<(String, String)>,
    /// The rows left out, by reason (`bill-left-out`; value: how many).
    pub left_out: Option<(String, String)>,
    /// Instance types not in the table, by name (`bill-unknown-types`; value: how many names).
    pub unknown: Option<(String, String)>,
    /// The bill's currency (`bill-currency`; value: its code).
    pub currency: Option<(String, String)>,
    /// The bill's currency is not the page's (`bill-currency-warning`).
    pub currency_warning: Option<String>,
    /// The effective rates, per model: key and text (`bill-rate`; value: `key`).
    pub rates: Vec<(String, String)>,
    /// Why there is no rate (no cost columns), when there is none.
    pub no_rates: Option<String>,
    /// The fill button's label, when the prices can be filled (`bill-fill-prices`).
    pub fill: Option<String>,
    /// What the fill sets.
    pub fill_note: Option<String>,
}

/// One line of the bill's list: test id, text, `data-value`, `data-key`.
pub type BillItem = (&'static str, String, Option<String>, Option<String>);

impl BillRead {
    /// The list's lines in the order shown (summary, models, currency, rates, left out).
    pub fn items(&self) -> Vec<BillItem> {
        let mut v: Vec<BillItem> = vec![(
            "bill-summary",
            self.summary.0.clone(),
            Some(self.summary.1.clone()),
            None,
        )];
        v.extend(
            self.types
                .iter()
                .map(|(k, t)| ("bill-type", t.clone(), None, Some(k.clone()))),
        );
        if let Some((t, c)) = &self.currency {
            v.push(("bill-currency", t.clone(), Some(c.clone()), None));
        }
        v.extend(
            self.rates
                .iter()
                .map(|(k, t)| ("bill-rate", t.clone(), None, Some(k.clone()))),
        );
        if let Some(t) = &self.no_rates {
            v.push(("bill-no-rates", t.clone(), None, None));
        }
        if let Some((t, n)) = &self.left_out {
            v.push(("bill-left-out", t.clone(), Some(n.clone()), None));
        }
        if let Some((t, n)) = &self.unknown {
            v.push(("bill-unknown-types", t.clone(), Some(n.clone()), None));
        }
        v
    }
}

/// The sign of a bill currency code, as the page writes money (`$`, `¥`), else `EUR `.
fn sign(code: &str) -> String {
    match code.to_ascii_uppercase().as_str() {
        "USD" => "$".into(),
        "CNY" | "RMB" => "¥".into(),
        other => format!("{other} "),
    }
}

/// Does the bill's currency `code` match the page's?
pub fn same_currency(code: &str, page: Currency) -> bool {
    match page {
        Currency::Usd => code.eq_ignore_ascii_case("usd"),
        Currency::Cny => code.eq_ignore_ascii_case("cny") || code.eq_ignore_ascii_case("rmb"),
    }
}

fn cents(c: i64, sign: &str, l: Lang) -> String {
    money(Money::from_cents(c), sign, l)
}

fn hours(v: f64, l: Lang) -> String {
    number_trim(v, 2, l)
}

fn left_out_name(l: Lang, why: BillLeftOut) -> &'static str {
    match why {
        BillLeftOut::Tax => pick(l, "tax", "税费"),
        BillLeftOut::Credit => pick(l, "credits and refunds", "抵扣与退款"),
        BillLeftOut::Fee => pick(
            l,
            "fees (RI and Savings Plans fees, upfront and monthly)",
            "费用（预留实例与 Savings Plans 的预付和月费）",
        ),
        BillLeftOut::Negation => pick(l, "Savings Plans negations", "Savings Plans 冲销行"),
        BillLeftOut::Discount => pick(l, "discounts", "折扣"),
        BillLeftOut::OtherLineType => pick(l, "other line item types", "其他明细类型"),
        BillLeftOut::NotInstanceHours => pick(
            l,
            "not EC2 instance hours (storage, data transfer, other services)",
            "非 EC2 实例时长（存储、数据传输、其他服务）",
        ),
        BillLeftOut::NonGpuInstance => pick(l, "instances without GPUs", "无 GPU 的实例"),
        BillLeftOut::UnknownInstanceType => pick(
            l,
            "GPU instance types not in the table",
            "不在表中的 GPU 实例类型",
        ),
    }
}

fn term_name(l: Lang, t: BillTerm) -> &'static str {
    match t {
        BillTerm::OnDemand => pick(l, "on demand", "按需"),
        BillTerm::Reserved => pick(
            l,
            "reserved (RI and Savings Plans, effective cost)",
            "预留（预留实例与 Savings Plans，有效成本）",
        ),
        BillTerm::Spot => pick(l, "spot", "竞价"),
    }
}

/// The bill's lines for a report `cur`, on a page in `page` currency with months of
/// `hours_per_month` hours.
pub fn bill_read(l: Lang, cur: &CurReport, page: Currency, hours_per_month: f64) -> BillRead {
    let n = |v: usize| number(v as f64, 0, l);
    let version = match cur.version {
        CurVersion::Cur1 => "CUR 1.0",
        CurVersion::Cur2 => "CUR 2.0",
    };
    // "; N rows of another kind, and how they were read", when there are any.
    let rows_note = |count: usize, en: &str, zh: &str| match (count, l) {
        (0, _) => String::new(),
        (_, Lang::En) => format!("; {} {en}", n(count)),
        (_, Lang::Zh) => format!("；{} {zh}", n(count)),
    };
    let daily = rows_note(
        cur.daily_rows,
        "daily rows, each day's usage spread evenly over its 24 hours",
        "行按天计，每天的用量平均摊到其 24 小时",
    );
    let other = rows_note(
        cur.other_window_rows,
        "rows over another span (a month, part of an hour), spread evenly over it",
        "行的时段为其他长度（一个月、不足一小时），平均摊到该时段",
    );
    let summary = match l {
        Lang::En => format!(
            "{version}: {} rows read, {} GPU instance rows counted ({} hourly{daily}{other}). Several rows in one hour add up.",
            n(cur.rows), n(cur.gpu_rows), n(cur.hourly_rows)
        ),
        Lang::Zh => format!(
            "{version}：读取 {} 行，计入 {} 行 GPU 实例用量（{} 行按小时{daily}{other}）。同一小时的多行相加。",
            n(cur.rows), n(cur.gpu_rows), n(cur.hourly_rows)
        ),
    };
    let types = cur
        .types
        .iter()
        .map(|t| {
            let its = t.instance_types.join(", ");
            let text = match l {
                Lang::En => format!(
                    "{} ({its}): {} GPU-hours in {} rows",
                    t.label,
                    hours(t.gpu_hours(), l),
                    n(t.rows)
                ),
                Lang::Zh => format!(
                    "{}（{its}）：{} GPU·小时，{} 行",
                    t.label,
                    hours(t.gpu_hours(), l),
                    n(t.rows)
                ),
            };
            (t.key.clone(), text)
        })
        .collect();
    let left_total: usize = cur.left_out.iter().map(|(_, k)| k).sum();
    let left_out = (left_total > 0).then(|| {
        let parts: Vec<String> = cur
            .left_out
            .iter()
            .map(|&(why, k)| {
                let mut s = format!("{} {}", n(k), left_out_name(l, why));
                if why == BillLeftOut::NonGpuInstance && !cur.non_gpu_types.is_empty() {
                    s.push_str(&format!(" ({}…)", cur.non_gpu_types.join(", ")));
                }
                s
            })
            .collect();
        let text = match l {
            Lang::En => format!("Left out ({} rows): {}. Only usage line items (Usage, DiscountedUsage, SavingsPlanCoveredUsage) of EC2 instance hours of GPU instance types count.", n(left_total), parts.join("; ")),
            Lang::Zh => format!("已排除（{} 行）：{}。只计入 GPU 实例类型的 EC2 实例时长用量明细（Usage、DiscountedUsage、SavingsPlanCoveredUsage）。", n(left_total), parts.join("；")),
        };
        (text, left_total.to_string())
    });
    let unknown = (!cur.unknown_types.is_empty()).then(|| {
        let names: Vec<String> = cur
            .unknown_types
            .iter()
            .map(|(name, k)| match l {
                Lang::En => format!("{name} ({} rows)", n(*k)),
                Lang::Zh => format!("{name}（{} 行）", n(*k)),
            })
            .collect();
        let more = if cur.unknown_not_listed > 0 {
            match l {
                Lang::En => format!(" and {} more", n(cur.unknown_not_listed)),
                Lang::Zh => format!("，另有 {} 种", n(cur.unknown_not_listed)),
            }
        } else {
            String::new()
        };
        let text = match l {
            Lang::En => format!("Not in the GPU instance table (of {TABLE_DATE}, from AWS's accelerated computing instance specifications), so left out rather than guessed: {}{more}.", names.join(", ")),
            Lang::Zh => format!("不在 GPU 实例表中（{TABLE_DATE} 的表，取自 AWS 加速计算实例规格），因此排除而不猜测：{}{more}。", names.join("、")),
        };
        (text, (cur.unknown_types.len() + cur.unknown_not_listed).to_string())
    });
    let code = cur.currency().map(str::to_string);
    let currency = code.as_ref().map(|c| {
        let text = match (l, cur.currencies.len() > 1) {
            (Lang::En, true) => format!(
                "Bill currency: {c} (also {}: rates are summed as written, not converted)",
                cur.currencies[1..].join(", ")
            ),
            (Lang::Zh, true) => format!(
                "账单币种：{c}（另有 {}：费率按原币种相加，未换算）",
                cur.currencies[1..].join("、")
            ),
            (Lang::En, false) => format!("Bill currency: {c}"),
            (Lang::Zh, false) => format!("账单币种：{c}"),
        };
        (text, c.clone())
    });
    let matches = code.as_deref().is_none_or(|c| same_currency(c, page));
    let currency_warning = (!matches).then(|| {
        let c = code.clone().unwrap_or_default();
        match l {
            Lang::En => format!("The bill is in {c}; the page's prices are in {}. Nothing is converted: choose the bill's currency under Prices to fill its rates.", page.code().to_ascii_uppercase()),
            Lang::Zh => format!("账单币种为 {c}，本页价格为 {}。不做换算：如需填入账单费率，请先在“价格”中选择账单的币种。", page.code().to_ascii_uppercase()),
        }
    });
    let s = sign(code.as_deref().unwrap_or(page.code()));
    let rates: Vec<(String, String)> = cur
        .types
        .iter()
        .filter_map(|t| {
            let parts: Vec<String> = t
                .terms
                .iter()
                .filter_map(|r| {
                    let c = r.rate_cents()?;
                    let mut p = match l {
                        Lang::En => format!(
                            "{} {} per GPU-hour over {} GPU-hours",
                            term_name(l, r.term),
                            cents(c, &s, l),
                            hours(r.gpu_hours(), l)
                        ),
                        Lang::Zh => format!(
                            "{} {}/GPU·小时（共 {} GPU·小时）",
                            term_name(l, r.term),
                            cents(c, &s, l),
                            hours(r.gpu_hours(), l)
                        ),
                    };
                    if r.term == BillTerm::Reserved {
                        if let Some(m) = r.monthly_cents(hours_per_month) {
                            let h = number_trim(hours_per_month, 0, l);
                            p.push_str(&match l {
                                Lang::En => format!(", {} a month of {h} hours", cents(m, &s, l)),
                                Lang::Zh => format!("，按每月 {h} 小时为每月 {}", cents(m, &s, l)),
                            });
                        }
                    }
                    if r.rows_without_cost > 0 {
                        p.push_str(&match l {
                            Lang::En => format!(
                                " ({} rows without a cost left out of the rate)",
                                n(r.rows_without_cost)
                            ),
                            Lang::Zh => {
                                format!("（{} 行无费用，未计入费率）", n(r.rows_without_cost))
                            }
                        });
                    }
                    Some(p)
                })
                .collect();
            (!parts.is_empty()).then(|| {
                let sep = pick(l, "; ", "；");
                (
                    t.key.clone(),
                    format!("{}{}{}", t.label, pick(l, ": ", "："), parts.join(sep)),
                )
            })
        })
        .collect();
    let no_rates = rates.is_empty().then(|| {
        let mut why = pick(
            l,
            "No effective rate: the counted rows carry no cost (lineItem/UnblendedCost, reservation/EffectiveCost, savingsPlan/SavingsPlanEffectiveCost).",
            "没有有效费率：计入的行没有费用（lineItem/UnblendedCost、reservation/EffectiveCost、savingsPlan/SavingsPlanEffectiveCost）。",
        )
        .to_string();
        if cur.ri_rows > 0 && cur.no_ri_effective_cost {
            why.push_str(pick(
                l,
                " The report has reserved rows but no reservation/EffectiveCost column.",
                " 报告有预留实例行，但没有 reservation/EffectiveCost 列。",
            ));
        }
        why
    });
    let fills: Vec<PriceFill> = cur.price_fills(hours_per_month);
    let can_fill = !fills.is_empty() && matches;
    let fill = can_fill
        .then(|| pick(l, "Fill the prices from the bill", "用账单费率填入价格").to_string());
    let fill_note = can_fill.then(|| {
        let h = number_trim(hours_per_month, 0, l);
        match l {
            Lang::En => format!("Sets each GPU type's on-demand price to its on-demand rate, its monthly price to its reserved rate × {h} hours, and its spot price to its spot rate (where the bill has them). The link then carries them."),
            Lang::Zh => format!("把每个 GPU 型号的按需价设为其按需费率、包月价设为其预留费率 × {h} 小时、竞价价设为其竞价费率（账单中有的才填）。链接随之带上这些价格。"),
        }
    });
    BillRead {
        summary: (summary, cur.gpu_rows.to_string()),
        types,
        left_out,
        unknown,
        currency,
        currency_warning,
        rates,
        no_rates,
        fill,
        fill_note,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::ingest::{parse, ParseOptions};

    const CUR: &str = "\
identity/LineItemId,lineItem/LineItemType,lineItem/UsageStartDate,lineItem/UsageEndDate,lineItem/ProductCode,lineItem/UsageType,lineItem/UsageAmount,lineItem/CurrencyCode,lineItem/UnblendedCost,product/instanceType,pricing/term,reservation/EffectiveCost
a,Usage,2026-11-01T00:00:00Z,2026-11-01T01:00:00Z,AmazonEC2,USE1-BoxUsage:p4d.24xlarge,1,USD,32.7726,p4d.24xlarge,OnDemand,
b,DiscountedUsage,2026-11-01T00:00:00Z,2026-11-01T01:00:00Z,AmazonEC2,USE1-BoxUsage:p4d.24xlarge,1,USD,0,p4d.24xlarge,Reserved,20
c,Tax,2026-11-01T00:00:00Z,2026-11-01T01:00:00Z,AmazonEC2,,,USD,5.2,,,
d,Usage,2026-11-01T00:00:00Z,2026-11-01T01:00:00Z,AmazonEC2,USE1-BoxUsage:g6f.large,1,USD,0.2,g6f.large,OnDemand,
";

    fn report() -> CurReport {
        let p = parse(CUR, &ParseOptions::default()).unwrap();
        *p.report.cur.unwrap()
    }

    #[test]
    fn english_lines() {
        let b = bill_read(Lang::En, &report(), Currency::Usd, 730.0);
        assert_eq!(
            b.summary.0,
            "CUR 1.0: 4 rows read, 2 GPU instance rows counted (2 hourly). Several rows in one hour add up."
        );
        assert_eq!(
            b.types,
            [(
                "a100-40g".to_string(),
                "A100 40GB (p4d.24xlarge): 16 GPU-hours in 2 rows".to_string()
            )]
        );
        // On demand: 32.7726 / 8 = 4.096575 → $4.10; reserved: 20 / 8 = 2.5 → $2.50, × 730 = $1,825.00.
        assert_eq!(
            b.rates[0].1,
            "A100 40GB: on demand $4.10 per GPU-hour over 8 GPU-hours; reserved (RI and Savings Plans, effective cost) $2.50 per GPU-hour over 8 GPU-hours, $1,825.00 a month of 730 hours"
        );
        let left = b.left_out.clone().unwrap();
        assert_eq!(left.1, "2");
        assert!(
            left.0
                .contains("1 tax; 1 GPU instance types not in the table"),
            "{}",
            left.0
        );
        assert!(b.unknown.as_ref().unwrap().0.contains("g6f.large (1 rows)"));
        assert_eq!(
            b.currency.as_ref().unwrap(),
            &("Bill currency: USD".to_string(), "USD".to_string())
        );
        assert!(b.currency_warning.is_none());
        assert!(b.fill.is_some());
        let ids: Vec<&str> = b.items().iter().map(|i| i.0).collect();
        assert_eq!(
            ids,
            [
                "bill-summary",
                "bill-type",
                "bill-currency",
                "bill-rate",
                "bill-left-out",
                "bill-unknown-types"
            ]
        );
    }

    #[test]
    fn chinese_lines_and_other_currency() {
        let b = bill_read(Lang::Zh, &report(), Currency::Cny, 720.0);
        assert!(b.summary.0.starts_with("CUR 1.0：读取 4 行，计入 2 行"));
        assert!(
            b.rates[0]
                .1
                .starts_with("A100 40GB：按需 $4.10/GPU·小时（共 8 GPU·小时）"),
            "{}",
            b.rates[0].1
        );
        assert!(b.rates[0].1.contains("每月 $1,800.00"), "{}", b.rates[0].1);
        assert!(b.currency_warning.unwrap().contains("账单币种为 USD"));
        // Not the page's currency: no fill.
        assert!(b.fill.is_none());
    }

    #[test]
    fn error_messages_name_what_it_looks_like() {
        let e = parse("\"Service\",\"EC2-Instances($)\",\"Total costs($)\"\n\"2026-11-01\",\"12.5\",\"12.5\"\n", &ParseOptions::default()).unwrap_err();
        let t = error_text(Lang::En, &e).unwrap();
        assert!(
            t.starts_with("This looks like an AWS Cost Explorer CSV export"),
            "{t}"
        );
        assert!(t.contains("Data Exports"));
        assert!(error_text(Lang::Zh, &e).unwrap().contains("Cost Explorer"));
        assert!(error_text(Lang::En, &IngestError::Gzip)
            .unwrap()
            .contains("Unzip it first"));
        assert!(error_text(Lang::En, &IngestError::Empty).is_none());
    }
}
