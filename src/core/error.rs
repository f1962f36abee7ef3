//! Typed input errors. The engine never returns NaN or infinity: every input is
//! validated first and a bad one becomes an [`InputError`] naming the field.
//! The UI translates `(field, problem)` into the user's language.

use std::fmt;

/// Every user-editable numeric input the engine validates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Field {
    MonthlyPrice,
    OnDemandPrice,
    SpotPrice,
    HoursPerMonth,
    UsedHours,
    Gpus,
    Budget,
    BudgetShare,
    Quantile,
    BandHours,
    InterruptionRate,
    CheckpointSave,
    RestartTime,
    CheckpointInterval,
    JobLength,
    InterruptibleShare,
    Jobs,
    GpusPerJob,
    JobHours,
    FixedGpus,
    ElasticGpus,
    Purchase,
    DepreciationMonths,
    PowerKw,
    Pue,
    ElectricityPrice,
    ColoOps,
    HiddenCost,
    Threshold,
    TermPrice,
    Horizon,
    MonthsLeft,
    UsageHistory,
    /// § 17 the elastic region's prices and data transfer.
    Region,
    /// The configuration snippets' free text (Prometheus address, metric, target).
    Autoscaler,
    /// § 21 the fixed percentages of the idle committed cost per team.
    TeamShares,
    /// § 22 growth per month, the level at the horizon's end, the decline of the risk
    /// scenario and the ladder's cap.
    Growth,
    GrowthEndLevel,
    GrowthDecline,
    LadderCap,
}

impl Field {
    /// Stable machine name (also the `data-testid` stem where one exists).
    pub fn key(self) -> &'static str {
        match self {
            Field::MonthlyPrice => "monthly-price",
            Field::OnDemandPrice => "on-demand-price",
            Field::SpotPrice => "spot-price",
            Field::HoursPerMonth => "hours-per-month",
            Field::UsedHours => "used-hours",
            Field::Gpus => "gpus",
            Field::Budget => "budget",
            Field::BudgetShare => "budget-share",
            Field::Quantile => "quantile",
            Field::BandHours => "band-hours",
            Field::InterruptionRate => "interruption-rate",
            Field::CheckpointSave => "checkpoint-save",
            Field::RestartTime => "restart-time",
            Field::CheckpointInterval => "checkpoint-interval",
            Field::JobLength => "job-length",
            Field::InterruptibleShare => "interruptible-share",
            Field::Jobs => "jobs",
            Field::GpusPerJob => "gpus-per-job",
            Field::JobHours => "job-hours",
            Field::FixedGpus => "fixed-gpus",
            Field::ElasticGpus => "elastic-gpus",
            Field::Purchase => "purchase",
            Field::DepreciationMonths => "depreciation-months",
            Field::PowerKw => "power-kw",
            Field::Pue => "pue",
            Field::ElectricityPrice => "electricity-price",
            Field::ColoOps => "colo-ops",
            Field::HiddenCost => "hidden-cost",
            Field::Threshold => "threshold",
            Field::TermPrice => "term-price",
            Field::Horizon => "horizon-months",
            Field::MonthsLeft => "months-left",
            Field::UsageHistory => "usage-data",
            Field::Region => "region",
            Field::Autoscaler => "autoscaler",
            Field::TeamShares => "team-shares",
            Field::Growth => "growth-per-month",
            Field::GrowthEndLevel => "growth-end-level",
            Field::GrowthDecline => "growth-decline",
            Field::LadderCap => "ladder-cap",
        }
    }
}

/// What is wrong with a field's value.
#[derive(Debug, Clone, PartialEq)]
pub enum Problem {
    /// Not a number at all (NaN, infinity, unparsable text).
    NotANumber,
    /// Must be strictly greater than zero.
    MustBePositive,
    /// Must be zero or more.
    MustBeNonNegative,
    /// Above the largest value the planner accepts for this field.
    TooLarge { max: f64 },
    /// Below the smallest value the planner accepts for this field.
    TooSmall { min: f64 },
    /// Shares that must add up to 100 % do not.
    SharesDoNotSumTo100 { sum_percent: f64 },
    /// Empty history or no usable rows.
    Empty,
    /// Must be a whole number (a count of GPUs, jobs…).
    NotWhole,
    /// Anything else, stated in English for logs; the UI maps known cases.
    Other(String),
}

#[derive(Debug, Clone, PartialEq)]
pub struct InputError {
    pub field: Field,
    pub problem: Problem,
}

impl InputError {
    pub fn new(field: Field, problem: Problem) -> Self {
        Self { field, problem }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match &self.problem {
            Problem::NotANumber => "is not a number".to_string(),
            Problem::MustBePositive => "must be greater than 0".to_string(),
            Problem::MustBeNonNegative => "must be 0 or more".to_string(),
            Problem::TooLarge { max } => format!("must be at most {max}"),
            Problem::TooSmall { min } => format!("must be at least {min}"),
            Problem::SharesDoNotSumTo100 { sum_percent } => {
                format!("shares add up to {sum_percent} %, not 100 %")
            }
            Problem::Empty => "is empty".to_string(),
            Problem::NotWhole => "must be a whole number".to_string(),
            Problem::Other(s) => s.clone(),
        };
        write!(f, "{} {}", self.field.key(), what)
    }
}

impl std::error::Error for InputError {}

/// The smallest non-zero magnitude any input may have. Below it a quotient such as P / r
/// overflows to infinity (1e-308 was found by the fuzz suite); no price, duration, rate or
/// share of this planner is meaningful that small.
pub const MIN_MAGNITUDE: f64 = 1e-9;

/// Validate a value that must be finite and strictly positive, up to `max`.
pub fn positive(field: Field, value: f64, max: f64) -> Result<f64, InputError> {
    if value.is_finite() && value <= 0.0 {
        return Err(InputError::new(field, Problem::MustBePositive));
    }
    // Not a number, too small, too large: as for a value that may be zero.
    non_negative(field, value, max)
}

/// Validate a value that must be finite and zero or more, up to `max`
/// (a non-zero value must be at least [`MIN_MAGNITUDE`]).
pub fn non_negative(field: Field, value: f64, max: f64) -> Result<f64, InputError> {
    if !value.is_finite() {
        return Err(InputError::new(field, Problem::NotANumber));
    }
    if value < 0.0 {
        return Err(InputError::new(field, Problem::MustBeNonNegative));
    }
    if value > 0.0 && value < MIN_MAGNITUDE {
        return Err(InputError::new(
            field,
            Problem::TooSmall { min: MIN_MAGNITUDE },
        ));
    }
    if value > max {
        return Err(InputError::new(field, Problem::TooLarge { max }));
    }
    Ok(value)
}

/// Validate a count: a finite whole number from 0 to `max`.
pub fn whole(field: Field, value: f64, max: f64) -> Result<f64, InputError> {
    let v = non_negative(field, value, max)?;
    if v.fract() != 0.0 {
        return Err(InputError::new(field, Problem::NotWhole));
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positive_rejects_zero_negative_nan_inf_and_huge() {
        assert_eq!(
            positive(Field::MonthlyPrice, 0.0, 10.0)
                .unwrap_err()
                .problem,
            Problem::MustBePositive
        );
        assert_eq!(
            positive(Field::MonthlyPrice, -1.0, 10.0)
                .unwrap_err()
                .problem,
            Problem::MustBePositive
        );
        assert_eq!(
            positive(Field::MonthlyPrice, f64::NAN, 10.0)
                .unwrap_err()
                .problem,
            Problem::NotANumber
        );
        assert_eq!(
            positive(Field::MonthlyPrice, f64::INFINITY, 10.0)
                .unwrap_err()
                .problem,
            Problem::NotANumber
        );
        assert_eq!(
            positive(Field::MonthlyPrice, 11.0, 10.0)
                .unwrap_err()
                .problem,
            Problem::TooLarge { max: 10.0 }
        );
        assert_eq!(positive(Field::MonthlyPrice, 10.0, 10.0), Ok(10.0));
    }

    #[test]
    fn vanishing_values_are_too_small_not_infinite_later() {
        let tiny = InputError::new(
            Field::OnDemandPrice,
            Problem::TooSmall { min: MIN_MAGNITUDE },
        );
        assert_eq!(
            positive(Field::OnDemandPrice, 1e-308, 10.0),
            Err(tiny.clone())
        );
        assert_eq!(non_negative(Field::OnDemandPrice, 1e-300, 10.0), Err(tiny));
        assert_eq!(positive(Field::OnDemandPrice, 1e-9, 10.0), Ok(1e-9));
        assert_eq!(non_negative(Field::UsedHours, 0.0, 10.0), Ok(0.0));
    }

    #[test]
    fn non_negative_accepts_zero() {
        assert_eq!(non_negative(Field::UsedHours, 0.0, 10.0), Ok(0.0));
        assert!(non_negative(Field::UsedHours, -0.5, 10.0).is_err());
    }

    #[test]
    fn whole_accepts_counts_only() {
        assert_eq!(whole(Field::Gpus, 4.0, 100.0), Ok(4.0));
        assert_eq!(whole(Field::Gpus, 0.0, 100.0), Ok(0.0));
        assert_eq!(
            whole(Field::Gpus, 2.5, 100.0).unwrap_err().problem,
            Problem::NotWhole
        );
        assert!(whole(Field::Gpus, 101.0, 100.0).is_err());
        assert!(whole(Field::Gpus, -1.0, 100.0).is_err());
    }

    #[test]
    fn display_names_the_field() {
        let e = InputError::new(Field::OnDemandPrice, Problem::MustBePositive);
        assert_eq!(e.to_string(), "on-demand-price must be greater than 0");
    }
}
