//! Validated price inputs shared by every section.

use super::breakeven::{hours_per_month, monthly_price, on_demand_price, MAX_HOURLY_PRICE};
use super::error::{positive, Field, InputError};
use super::money::Money;

/// P, r and H, validated (finite, positive, within the caps of `breakeven.rs`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Prices {
    /// P: monthly price per GPU (currency units per GPU-month).
    pub monthly: f64,
    /// P rounded to the cent, used for every fixed-spend amount (N × P is then exact).
    pub monthly_money: Money,
    /// r: on-demand price (currency units per GPU-hour).
    pub on_demand: f64,
    /// H: hours in a month.
    pub hours_per_month: f64,
}

impl Prices {
    pub fn new(monthly: f64, on_demand: f64, hours: f64) -> Result<Self, InputError> {
        let monthly = monthly_price(monthly)?;
        let on_demand = on_demand_price(on_demand)?;
        let hours_per_month = hours_per_month(hours)?;
        Ok(Self {
            monthly,
            monthly_money: Money::from_f64(monthly),
            on_demand,
            hours_per_month,
        })
    }

    /// H* = P / r, hours per month.
    pub fn breakeven_hours(&self) -> f64 {
        self.monthly / self.on_demand
    }
}

/// Validated spot price `s` per GPU-hour.
pub fn spot_price(s: f64) -> Result<f64, InputError> {
    positive(Field::SpotPrice, s, MAX_HOURLY_PRICE)
}

/// The worked examples' prices, P = 9 000, r = 25, H = 730 (the engine's unit tests).
#[cfg(test)]
pub(crate) fn example_prices() -> Prices {
    Prices::new(9000.0, 25.0, 730.0).unwrap()
}
