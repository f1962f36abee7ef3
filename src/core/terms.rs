//! § 15 Commitment terms: on demand, monthly (包月), one year (包年) and three years, each
//! with its payment (all upfront, partial upfront, no upfront): which to buy, when it pays
//! back, and what it risks.
//!
//! A term of m months (1, 12, 36) with an upfront U and a monthly recurring R per GPU has the
//! effective monthly price E = U / m + R, break-even hours H*_E = E / r, and commits the N the
//! plan's rule gives at price E (the same load-duration rule, § 4, with E for P). Its monthly
//! cost is N·E + r·E(N)·H/T; the saving is the all-on-demand cost minus that.
//!
//! Break-even month: the first month m₀ ≥ 1 whose cumulative saving covers the upfront,
//! m₀·(A − N·R − X) ≥ N·U (A: all on demand a month, X: the elastic cost beside the N GPUs),
//! i.e. m₀ = ⌈N·U / (A − N·R − X)⌉, in cents; `None` when the term never pays within its m
//! months. Over a horizon of h months (after the months left on a current commitment), the
//! team buys k = ⌈h / m⌉ whole terms: cost N·k·(U + m·R) + h·X; if the work stops after the
//! horizon, the unpaid-for remainder is N·(U + m·R)·(k·m − h)/m. If usage falls to the 3-day
//! waterline w₃, the (N − w₃)⁺ GPUs idle cost (N − w₃)⁺·(U + m·R) over the term.
//!
//! The recommendation is the option with the lowest cost over the horizon among those that
//! pay back within it (on demand always qualifies); ties go to the shorter commitment.

use super::commitment::monthly_cost;
use super::error::{non_negative, Field, InputError, Problem};
use super::money::Money;
use super::prices::Prices;
use super::profile::LevelProfile;

/// Largest upfront or monthly recurring amount per GPU.
pub const MAX_TERM_PRICE: f64 = 1_000_000_000.0;
/// Longest horizon, months (ten years).
pub const MAX_HORIZON_MONTHS: u32 = 120;
/// Default horizon, months.
pub const DEFAULT_HORIZON_MONTHS: u32 = 12;

/// How long a commitment runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Term {
    OnDemand,
    Monthly,
    OneYear,
    ThreeYear,
}

impl Term {
    /// Months of commitment (0 for on demand).
    pub fn months(self) -> u32 {
        match self {
            Term::OnDemand => 0,
            Term::Monthly => 1,
            Term::OneYear => 12,
            Term::ThreeYear => 36,
        }
    }

    /// Stable key (`data-term`, exports).
    pub fn key(self) -> &'static str {
        match self {
            Term::OnDemand => "on-demand",
            Term::Monthly => "monthly",
            Term::OneYear => "1y",
            Term::ThreeYear => "3y",
        }
    }
}

/// How a term is paid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Payment {
    /// Nothing upfront (on demand, monthly, or a term billed by the month).
    NoUpfront,
    /// Part upfront, the rest by the month.
    Partial,
    /// Everything upfront.
    AllUpfront,
}

impl Payment {
    /// From an offer's upfront and monthly recurring amounts.
    pub fn of(upfront: f64, recurring: f64) -> Self {
        match (upfront > 0.0, recurring > 0.0) {
            (false, _) => Payment::NoUpfront,
            (true, true) => Payment::Partial,
            (true, false) => Payment::AllUpfront,
        }
    }

    /// Stable key (`data-payment`).
    pub fn key(self) -> &'static str {
        match self {
            Payment::NoUpfront => "none",
            Payment::Partial => "partial",
            Payment::AllUpfront => "upfront",
        }
    }
}

/// A term offer per GPU. Both amounts 0: not offered.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct TermOffer {
    /// Paid once at the start of each term.
    pub upfront: f64,
    /// Paid every month of the term.
    pub monthly: f64,
}

impl TermOffer {
    pub fn is_offered(&self) -> bool {
        self.upfront != 0.0 || self.monthly != 0.0
    }
}

/// The term inputs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TermInputs {
    pub one_year: TermOffer,
    pub three_year: TermOffer,
    /// How many months the team is confident the workload lasts.
    pub horizon_months: u32,
    /// Months left on a current commitment (new terms start after them).
    pub months_left: u32,
}

impl Default for TermInputs {
    fn default() -> Self {
        Self {
            one_year: TermOffer::default(),
            three_year: TermOffer::default(),
            horizon_months: DEFAULT_HORIZON_MONTHS,
            months_left: 0,
        }
    }
}

/// Why an option is not recommended although it is cheaper over the horizon.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotRecommended {
    /// It commits nothing at its price (no GPU is busy past its break-even hours).
    CommitsNothing,
    /// It never pays back within its own term.
    NeverPaysBack,
    /// It pays back only after the horizon (the month it pays back).
    PaysAfterHorizon(u32),
}

/// One option of the term table, per month and per GPU where said.
#[derive(Debug, Clone, PartialEq)]
pub struct TermRow {
    pub term: Term,
    pub payment: Payment,
    /// U per GPU, paid at the start of each term.
    pub upfront: Money,
    /// R per GPU per month.
    pub recurring: Money,
    /// E = U/m + R per GPU per month (on demand: r·H, a GPU held all month).
    pub effective_monthly: Money,
    /// E unrounded (the price the rule and N are computed at).
    pub effective_price: f64,
    /// E / r, hours per month a GPU must be busy for the term to pay (on demand: none).
    pub breakeven_hours: Option<f64>,
    /// breakeven_hours / H.
    pub breakeven_utilization: Option<f64>,
    /// N: GPUs committed (the plan's rule at price E).
    pub gpus: u32,
    /// N·E per month (rounded E × N).
    pub fixed: Money,
    /// r·E(N)·H/T per month.
    pub elastic: Money,
    /// fixed + elastic.
    pub monthly_total: Money,
    /// All on demand − monthly_total.
    pub saving: Money,
    /// The first month whose cumulative saving covers the upfront; `None`: never within the
    /// term (or nothing committed).
    pub breakeven_month: Option<u32>,
    /// Terms bought to cover the horizon, k = ⌈h / m⌉ (0 for on demand).
    pub terms_bought: u32,
    /// Cost over the horizon: N·k·(U + m·R) + h·elastic (on demand: h·A).
    pub horizon_cost: Money,
    /// If the work stops after the horizon: the committed remainder paid for nothing.
    pub stop_risk: Money,
    /// If usage falls to the 3-day waterline for the term: the idle committed GPUs' cost.
    /// `None` without a history (no recent level).
    pub drop_risk: Option<Money>,
    /// `None`: may be recommended.
    pub not_recommended: Option<NotRecommended>,
}

impl TermRow {
    /// `data-term`: the term's key, with the payment where it differs from the term's plain
    /// form (one amount: all upfront or all monthly): `1y`, `3y`, `1y-partial`, `3y-partial`.
    pub fn key(&self) -> &'static str {
        match (self.term, self.payment) {
            (Term::OneYear, Payment::Partial) => "1y-partial",
            (Term::ThreeYear, Payment::Partial) => "3y-partial",
            (t, _) => t.key(),
        }
    }

    /// Cumulative cost by the end of month `month` (0 = the start, when an upfront is
    /// paid): the upfronts of the terms started so far, the months of recurring and elastic.
    pub fn cumulative(&self, month: u32) -> Money {
        let m = self.term.months();
        if m == 0 {
            return self.monthly_total * u64::from(month);
        }
        let n = u64::from(self.gpus);
        let started = month.div_ceil(m).max(1);
        self.upfront * (n * u64::from(started))
            + (self.recurring * n + self.elastic) * u64::from(month)
    }
}

/// The term table and its recommendation.
#[derive(Debug, Clone, PartialEq)]
pub struct Terms {
    /// On demand, monthly, then each offered term, in that order.
    pub rows: Vec<TermRow>,
    /// Index into `rows`.
    pub recommended: usize,
    /// The next best option that may be recommended, if any.
    pub runner_up: Option<usize>,
    /// runner-up cost over the horizon − recommended cost over the horizon.
    pub difference: Money,
    /// h: the months compared (horizon − months left, at least 0).
    pub compared_months: u32,
    pub horizon_months: u32,
    pub months_left: u32,
    /// All on demand a month (A).
    pub all_on_demand: Money,
    /// w₃ used for the drop risk.
    pub drop_level: Option<u32>,
}

impl Terms {
    pub fn recommended(&self) -> &TermRow {
        &self.rows[self.recommended]
    }

    pub fn row(&self, term: Term) -> Option<&TermRow> {
        self.rows.iter().find(|r| r.term == term)
    }
}

/// Validate one offer amount.
pub fn term_price(v: f64) -> Result<f64, InputError> {
    non_negative(Field::TermPrice, v, MAX_TERM_PRICE)
}

/// Validate the horizon (1..=120 months; the field and the engine share this check).
pub fn horizon(months: u32) -> Result<u32, InputError> {
    if months == 0 {
        return Err(InputError::new(
            Field::Horizon,
            Problem::TooSmall { min: 1.0 },
        ));
    }
    if months > MAX_HORIZON_MONTHS {
        return Err(InputError::new(
            Field::Horizon,
            Problem::TooLarge {
                max: f64::from(MAX_HORIZON_MONTHS),
            },
        ));
    }
    Ok(months)
}

fn months_left(months: u32) -> Result<u32, InputError> {
    if months > MAX_HORIZON_MONTHS {
        return Err(InputError::new(
            Field::MonthsLeft,
            Problem::TooLarge {
                max: f64::from(MAX_HORIZON_MONTHS),
            },
        ));
    }
    Ok(months)
}

/// The 3-day waterline w₃ = #{k : O₃(k) ≥ (1 − q)·T₃}: GPUs busy at least (1 − q) of the
/// last three days (q: the waterline quantile as a fraction).
pub fn drop_level(recent: &LevelProfile, quantile: f64) -> u32 {
    let need = (1.0 - quantile) * recent.hours();
    recent
        .occupancy()
        .iter()
        .take_while(|&&o| o >= need * (1.0 - 1e-12) && o > 0.0)
        .count() as u32
}

/// ⌈a / b⌉ for cents, b > 0, a ≥ 0.
fn ceil_div(a: i64, b: i64) -> i64 {
    (a + b - 1) / b
}

/// The first month m₀ ≥ 1 with m₀·(all_on_demand − N·R − elastic) ≥ N·U, within `months`.
pub fn breakeven_month(
    all_on_demand: Money,
    gpus: u32,
    upfront: Money,
    recurring: Money,
    elastic: Money,
    months: u32,
) -> Option<u32> {
    if gpus == 0 {
        return None;
    }
    let n = u64::from(gpus);
    let net = all_on_demand - recurring * n - elastic;
    if net.cents() <= 0 {
        return None;
    }
    let need = (upfront * n).cents();
    let m = ceil_div(need, net.cents()).max(1);
    (m <= i64::from(months)).then_some(m as u32)
}

/// § 15. `levels`: the sizing window; `commit`: the plan's rule at a price (the N committed);
/// `drop_level`: w₃ when there is a history.
pub fn terms(
    levels: &LevelProfile,
    prices: &Prices,
    offers: &TermInputs,
    commit: &dyn Fn(&Prices) -> Result<u32, InputError>,
    drop_level: Option<u32>,
) -> Result<Terms, InputError> {
    let horizon_months = horizon(offers.horizon_months)?;
    let left = months_left(offers.months_left)?;
    let h = horizon_months.saturating_sub(left);
    let on_demand_row = monthly_cost(levels, prices, 0);
    let all_on_demand = on_demand_row.total;
    let r = prices.on_demand;

    let mut rows = Vec::with_capacity(4);
    rows.push(TermRow {
        term: Term::OnDemand,
        payment: Payment::NoUpfront,
        upfront: Money::ZERO,
        recurring: Money::ZERO,
        effective_monthly: Money::from_f64(r * prices.hours_per_month),
        effective_price: r * prices.hours_per_month,
        breakeven_hours: None,
        breakeven_utilization: None,
        gpus: 0,
        fixed: Money::ZERO,
        elastic: all_on_demand,
        monthly_total: all_on_demand,
        saving: Money::ZERO,
        breakeven_month: None,
        terms_bought: 0,
        horizon_cost: all_on_demand * u64::from(h),
        stop_risk: Money::ZERO,
        drop_risk: drop_level.map(|_| Money::ZERO),
        not_recommended: None,
    });

    let mut offered = vec![(
        Term::Monthly,
        TermOffer {
            upfront: 0.0,
            monthly: prices.monthly,
        },
    )];
    for (term, offer) in [
        (Term::OneYear, offers.one_year),
        (Term::ThreeYear, offers.three_year),
    ] {
        term_price(offer.upfront)?;
        term_price(offer.monthly)?;
        if offer.is_offered() {
            offered.push((term, offer));
        }
    }

    for (term, offer) in offered {
        let m = term.months();
        let effective = offer.upfront / f64::from(m) + offer.monthly;
        let at = Prices::new(effective, r, prices.hours_per_month).map_err(|e| {
            if term == Term::Monthly {
                e
            } else {
                InputError::new(Field::TermPrice, e.problem)
            }
        })?;
        let gpus = commit(&at)?;
        let cost = monthly_cost(levels, &at, gpus);
        let upfront = Money::from_f64(offer.upfront);
        let recurring = Money::from_f64(offer.monthly);
        let n = u64::from(gpus);
        let per_term = upfront + recurring * u64::from(m);
        let k = h.div_ceil(m);
        let breakeven_month =
            breakeven_month(all_on_demand, gpus, upfront, recurring, cost.elastic, m);
        let stop_risk = if k * m > h {
            Money::from_f64(per_term.to_f64() * gpus as f64 * f64::from(k * m - h) / f64::from(m))
        } else {
            Money::ZERO
        };
        let not_recommended = match breakeven_month {
            _ if gpus == 0 => Some(NotRecommended::CommitsNothing),
            None => Some(NotRecommended::NeverPaysBack),
            Some(b) if b > h => Some(NotRecommended::PaysAfterHorizon(b)),
            Some(_) => None,
        };
        rows.push(TermRow {
            term,
            payment: Payment::of(offer.upfront, offer.monthly),
            upfront,
            recurring,
            effective_monthly: Money::from_f64(effective),
            effective_price: effective,
            breakeven_hours: Some(at.breakeven_hours()),
            breakeven_utilization: Some(at.breakeven_hours() / prices.hours_per_month),
            gpus,
            fixed: cost.fixed,
            elastic: cost.elastic,
            monthly_total: cost.total,
            saving: all_on_demand - cost.total,
            breakeven_month,
            terms_bought: k,
            horizon_cost: per_term * (n * u64::from(k)) + cost.elastic * u64::from(h),
            stop_risk,
            drop_risk: drop_level.map(|w| per_term * u64::from(gpus.saturating_sub(w))),
            not_recommended,
        });
    }

    // Lowest cost over the horizon among the options that may be recommended; rows are in
    // order of commitment length, so the first of equal costs is the shorter commitment.
    let mut order: Vec<usize> = (0..rows.len())
        .filter(|&i| rows[i].not_recommended.is_none())
        .collect();
    order.sort_by_key(|&i| (rows[i].horizon_cost, i));
    let recommended = order[0];
    let runner_up = order.get(1).copied();
    let difference = runner_up
        .map(|i| rows[i].horizon_cost - rows[recommended].horizon_cost)
        .unwrap_or(Money::ZERO);
    Ok(Terms {
        rows,
        recommended,
        runner_up,
        difference,
        compared_months: h,
        horizon_months,
        months_left: left,
        all_on_demand,
        drop_level,
    })
}

/// Test support: § 15 at P = 9 000, r = 25, H = 730 on `levels`, committing N* at each price.
#[cfg(test)]
pub(crate) fn at_n_star(
    levels: &LevelProfile,
    offers: &TermInputs,
    drop_level: Option<u32>,
) -> Result<Terms, InputError> {
    let prices = Prices::new(9000.0, 25.0, 730.0).unwrap();
    let rule = |p: &Prices| Ok(super::commitment::n_star(levels, p));
    terms(levels, &prices, offers, &rule, drop_level)
}

/// Test support: the worked example of docs/formulas.md § 15, one GPU used 500 h a month and
/// 1 year at 90 000 all upfront, with a horizon of `horizon` months.
/// The default offers but a 1-year term at `upfront` and `monthly`.
#[cfg(test)]
fn one_year_offer(upfront: f64, monthly: f64) -> TermInputs {
    TermInputs {
        one_year: TermOffer { upfront, monthly },
        ..TermInputs::default()
    }
}

#[cfg(test)]
pub(crate) fn worked_example(horizon: u32) -> Result<Terms, InputError> {
    let offers = TermInputs {
        horizon_months: horizon,
        ..one_year_offer(90_000.0, 0.0)
    };
    at_n_star(&LevelProfile::flat(1, 500.0, 730.0), &offers, None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn cents(m: Money) -> i64 {
        m.cents()
    }

    /// The worked example of docs/formulas.md § 15: P = 9 000, r = 25, H = 730; one GPU used
    /// 500 h a month; 1 year at 90 000 all upfront.
    #[test]
    fn worked_example_one_year_all_upfront() {
        let t = worked_example(12).unwrap();
        assert_eq!(t.rows.len(), 3);
        let od = t.row(Term::OnDemand).unwrap();
        assert_eq!(cents(od.monthly_total), 1_250_000); // 500 h × 25
        assert_eq!(cents(od.horizon_cost), 15_000_000); // 12 × 12 500
        let monthly = t.row(Term::Monthly).unwrap();
        assert_eq!(monthly.gpus, 1);
        assert_eq!(cents(monthly.saving), 350_000); // 12 500 − 9 000
        assert_eq!(monthly.breakeven_hours, Some(360.0));
        assert_eq!(monthly.breakeven_month, Some(1));
        assert_eq!(cents(monthly.horizon_cost), 10_800_000); // 12 × 9 000
        let y1 = t.row(Term::OneYear).unwrap();
        assert_eq!(y1.payment, Payment::AllUpfront);
        assert_eq!(cents(y1.effective_monthly), 750_000); // 90 000 / 12
        assert_eq!(y1.breakeven_hours, Some(300.0)); // 7 500 / 25
        assert_eq!(y1.gpus, 1);
        assert_eq!(cents(y1.saving), 500_000); // 12 500 − 7 500
                                               // 7 × 12 500 = 87 500 < 90 000 ≤ 8 × 12 500 = 100 000.
        assert_eq!(y1.breakeven_month, Some(8));
        assert_eq!(cents(y1.horizon_cost), 9_000_000);
        assert_eq!(cents(y1.stop_risk), 0);
        assert_eq!(t.recommended().term, Term::OneYear);
        assert_eq!(t.rows[t.runner_up.unwrap()].term, Term::Monthly);
        assert_eq!(cents(t.difference), 1_800_000); // 108 000 − 90 000
    }

    /// A horizon of 6 months: the year pays back in month 8, after it: never recommended.
    #[test]
    fn a_term_paying_after_the_horizon_is_not_recommended() {
        let t = worked_example(6).unwrap();
        let y1 = t.row(Term::OneYear).unwrap();
        assert_eq!(
            y1.not_recommended,
            Some(NotRecommended::PaysAfterHorizon(8))
        );
        // Bought for 6 months, paid for 12: half the 90 000 is paid for nothing.
        assert_eq!(cents(y1.stop_risk), 4_500_000);
        assert_eq!(cents(y1.horizon_cost), 9_000_000);
        assert_eq!(t.recommended().term, Term::Monthly);
        assert_eq!(cents(t.recommended().horizon_cost), 5_400_000);
    }

    /// Partial upfront on 3 years and months left on a current commitment. 4 GPUs: 2 busy
    /// all month (730 h), 2 busy 300 h; r = 25, so A = (2·730 + 2·300)·25 = 51 500.
    /// 3 years: U = 108 000, R = 3 000 → E = 3 000 + 3 000 = 6 000, H*_E = 240 h, all 4
    /// levels pay (730, 730, 300, 300 > 240): 24 000 a month, saving 27 500. Break-even:
    /// 4·108 000 = 432 000 / (51 500 − 4·3 000 = 39 500) = 10.94 → month 11.
    /// Horizon 24, 6 months left → h = 18: k = 1 term, 4·(108 000 + 36·3 000) = 864 000;
    /// stop risk 4·216 000·18/36 = 432 000. Monthly at H* = 360 h commits 2:
    /// 2·9 000 + 600 h·25 = 33 000 a month, 18 × 33 000 = 594 000 (recommended).
    #[test]
    fn partial_upfront_three_years_with_months_left() {
        let values: Vec<f64> = (0..730).map(|t| if t < 300 { 4.0 } else { 2.0 }).collect();
        let levels = LevelProfile::from_values(&values);
        let offers = TermInputs {
            three_year: TermOffer {
                upfront: 108_000.0,
                monthly: 3_000.0,
            },
            horizon_months: 24,
            months_left: 6,
            ..TermInputs::default()
        };
        let t = at_n_star(&levels, &offers, Some(2)).unwrap();
        assert_eq!(t.compared_months, 18);
        assert_eq!(cents(t.all_on_demand), 5_150_000);
        let y3 = t.row(Term::ThreeYear).unwrap();
        assert_eq!((y3.payment, y3.key()), (Payment::Partial, "3y-partial"));
        assert_eq!(cents(y3.effective_monthly), 600_000);
        assert_eq!(y3.gpus, 4);
        assert_eq!(cents(y3.monthly_total), 2_400_000);
        assert_eq!(cents(y3.saving), 2_750_000);
        assert_eq!(y3.breakeven_month, Some(11));
        assert_eq!(y3.terms_bought, 1);
        assert_eq!(cents(y3.horizon_cost), 86_400_000);
        assert_eq!(cents(y3.stop_risk), 43_200_000);
        // Usage falls to w₃ = 2: 2 idle GPUs × 216 000 over the term.
        assert_eq!(y3.drop_risk.map(cents), Some(43_200_000));
        let monthly = t.row(Term::Monthly).unwrap();
        assert_eq!(monthly.gpus, 2);
        assert_eq!(cents(monthly.monthly_total), 3_300_000);
        assert_eq!(cents(monthly.horizon_cost), 59_400_000);
        assert_eq!(t.recommended().term, Term::Monthly);
        assert_eq!(t.rows[t.runner_up.unwrap()].term, Term::ThreeYear);
    }

    #[test]
    fn nothing_committed_never_recommended_and_on_demand_wins_ties() {
        let levels = LevelProfile::flat(3, 100.0, 730.0);
        let offers = one_year_offer(0.0, 8_000.0);
        let t = at_n_star(&levels, &offers, None).unwrap();
        assert_eq!(t.recommended().term, Term::OnDemand);
        let y1 = t.row(Term::OneYear).unwrap();
        assert_eq!(y1.payment, Payment::NoUpfront);
        assert_eq!(y1.not_recommended, Some(NotRecommended::CommitsNothing));
        assert_eq!(y1.breakeven_month, None);
    }

    #[test]
    fn bad_inputs_name_their_field() {
        let levels = LevelProfile::flat(1, 500.0, 730.0);
        let field = |offers: TermInputs| at_n_star(&levels, &offers, None).unwrap_err().field;
        let negative = TermOffer {
            upfront: -1.0,
            monthly: 0.0,
        };
        let d = TermInputs::default();
        assert_eq!(
            field(TermInputs {
                one_year: negative,
                ..d
            }),
            Field::TermPrice
        );
        assert_eq!(
            field(TermInputs {
                three_year: negative,
                ..d
            }),
            Field::TermPrice
        );
        assert_eq!(
            field(TermInputs {
                horizon_months: 0,
                ..d
            }),
            Field::Horizon
        );
        assert_eq!(
            field(TermInputs {
                horizon_months: 121,
                ..d
            }),
            Field::Horizon
        );
        assert_eq!(
            field(TermInputs {
                months_left: 500,
                ..d
            }),
            Field::MonthsLeft
        );
    }

    #[test]
    fn cumulative_steps_at_each_upfront() {
        let levels = LevelProfile::flat(1, 500.0, 730.0);
        let offers = TermInputs {
            horizon_months: 24,
            ..one_year_offer(60_000.0, 2_000.0)
        };
        let t = at_n_star(&levels, &offers, None).unwrap();
        let y1 = t.row(Term::OneYear).unwrap();
        assert_eq!(cents(y1.cumulative(0)), 6_000_000);
        assert_eq!(cents(y1.cumulative(12)), 6_000_000 + 12 * 200_000);
        assert_eq!(cents(y1.cumulative(13)), 12_000_000 + 13 * 200_000);
        assert_eq!(y1.cumulative(24), y1.horizon_cost);
        let od = t.row(Term::OnDemand).unwrap();
        assert_eq!(cents(od.cumulative(3)), 3 * 1_250_000);
        let monthly = t.row(Term::Monthly).unwrap();
        assert_eq!(monthly.cumulative(24), monthly.horizon_cost);
    }

    #[test]
    fn drop_level_counts_levels_busy_nearly_always() {
        // 72 hours: 2 GPUs always, a third 70 of 72 hours (97 %), a fourth 10 hours.
        let values: Vec<f64> = (0..72)
            .map(|t| 2.0 + f64::from(u8::from(t < 70)) + f64::from(u8::from(t < 10)))
            .collect();
        let recent = LevelProfile::from_values(&values);
        assert_eq!(drop_level(&recent, 0.0), 2);
        assert_eq!(drop_level(&recent, 0.05), 3);
    }

    proptest! {
        /// The break-even month equals a month-by-month sum: the first month whose
        /// cumulative on-demand cost reaches the cumulative committed cost.
        #[test]
        fn breakeven_month_matches_brute_force(
            a in 0i64..5_000_000,
            n in 0u32..8,
            u in 0i64..20_000_000,
            r in 0i64..2_000_000,
            x in 0i64..3_000_000,
            months in prop::sample::select(vec![1u32, 12, 36]),
        ) {
            let (a, u, r, x) = (
                Money::from_cents(a),
                Money::from_cents(u),
                Money::from_cents(r),
                Money::from_cents(x),
            );
            let got = breakeven_month(a, n, u, r, x, months);
            let nn = u64::from(n);
            let brute = (n > 0).then(|| {
                (1..=months).find(|&m| {
                    let mm = u64::from(m);
                    a * mm >= u * nn + (r * nn + x) * mm && (a - r * nn - x).cents() > 0
                })
            }).flatten();
            prop_assert_eq!(got, brute);
        }
    }
}
