//! One entry point for the page: all inputs in, every result out.
//! `plan` is pure and cheap to call on every input change.

use super::breakeven::{break_even, BreakEven, DEFAULT_HOURS_PER_MONTH};
use super::error::InputError;

/// Every scalar input of the planner (the URL carries exactly these).
#[derive(Debug, Clone, PartialEq)]
pub struct PlanInputs {
    /// P: monthly price per GPU.
    pub monthly_price: f64,
    /// r: on-demand price per GPU-hour.
    pub on_demand_price: f64,
    /// H: hours in a month.
    pub hours_per_month: f64,
}

impl Default for PlanInputs {
    fn default() -> Self {
        Self {
            monthly_price: 9000.0,
            on_demand_price: 25.0,
            hours_per_month: DEFAULT_HOURS_PER_MONTH,
        }
    }
}

/// Every result the page shows. Each part fails on its own, naming the field at fault.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanOutputs {
    pub breakeven: Result<BreakEven, InputError>,
}

pub fn plan(inputs: &PlanInputs) -> PlanOutputs {
    PlanOutputs {
        breakeven: break_even(inputs.monthly_price, inputs.on_demand_price, inputs.hours_per_month),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_give_360_hours() {
        let out = plan(&PlanInputs::default());
        assert_eq!(out.breakeven.unwrap().hours, 360.0);
    }
}
