//! § 13 Hidden costs on the elastic path: storage, public IP and snapshots per month,
//! egress per GB, and auto-stop waste (sessions × idle timeout billed at r).

use super::error::{non_negative, Field, InputError};
use super::money::Money;

/// Largest monthly hidden amount (storage, IP, snapshots).
pub const MAX_HIDDEN_MONTHLY: f64 = 100_000_000.0;
/// Largest egress price per GB.
pub const MAX_EGRESS_PRICE: f64 = 10_000.0;
/// Largest egress volume per month, GB.
pub const MAX_EGRESS_GB: f64 = 1_000_000_000.0;
/// Most sessions per month.
pub const MAX_SESSIONS: f64 = 1_000_000.0;
/// Longest idle timeout, hours.
pub const MAX_IDLE_TIMEOUT_HOURS: f64 = 24.0;

/// § 13 inputs (all per month).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HiddenInputs {
    pub storage_monthly: f64,
    pub public_ip_monthly: f64,
    pub snapshots_monthly: f64,
    /// Price per GB of egress.
    pub egress_per_gb: f64,
    /// GB of egress per month.
    pub egress_gb: f64,
    /// Elastic sessions per month (each ends with one idle timeout billed).
    pub sessions: f64,
    /// Idle time before auto-stop, hours (billed at r per session, one GPU each).
    pub idle_timeout_hours: f64,
}

/// § 13 result, per month.
#[derive(Debug, Clone, PartialEq)]
pub struct HiddenCosts {
    pub storage: Money,
    pub public_ip: Money,
    pub snapshots: Money,
    /// egress_per_gb × egress_gb.
    pub egress: Money,
    /// sessions × idle timeout, GPU-hours billed while idle.
    pub autostop_gpu_hours: f64,
    /// r × autostop_gpu_hours.
    pub autostop_waste: Money,
    /// Sum of the five amounts (exact).
    pub total: Money,
    /// total / elastic GPU-hours of the plan: surcharge per elastic GPU-hour
    /// (`None` when the plan has no elastic hours).
    pub per_elastic_gpu_hour: Option<Money>,
    /// r + surcharge: the real on-demand price per GPU-hour (`None` as above).
    pub effective_on_demand_price: Option<Money>,
}

/// § 13. `on_demand` = r (validated); `elastic_gpu_hours` = the plan's elastic GPU-hours per month.
pub fn hidden_costs(
    inp: &HiddenInputs,
    on_demand: f64,
    elastic_gpu_hours: f64,
) -> Result<HiddenCosts, InputError> {
    let f = Field::HiddenCost;
    let storage = Money::from_f64(non_negative(f, inp.storage_monthly, MAX_HIDDEN_MONTHLY)?);
    let public_ip = Money::from_f64(non_negative(f, inp.public_ip_monthly, MAX_HIDDEN_MONTHLY)?);
    let snapshots = Money::from_f64(non_negative(f, inp.snapshots_monthly, MAX_HIDDEN_MONTHLY)?);
    let egress = Money::from_f64(
        non_negative(f, inp.egress_per_gb, MAX_EGRESS_PRICE)?
            * non_negative(f, inp.egress_gb, MAX_EGRESS_GB)?,
    );
    let autostop_gpu_hours = non_negative(f, inp.sessions, MAX_SESSIONS)?
        * non_negative(f, inp.idle_timeout_hours, MAX_IDLE_TIMEOUT_HOURS)?;
    let autostop_waste = Money::from_f64(on_demand * autostop_gpu_hours);
    let total = storage + public_ip + snapshots + egress + autostop_waste;
    let per =
        (elastic_gpu_hours > 0.0).then(|| Money::from_f64(total.to_f64() / elastic_gpu_hours));
    Ok(HiddenCosts {
        storage,
        public_ip,
        snapshots,
        egress,
        autostop_gpu_hours,
        autostop_waste,
        total,
        per_elastic_gpu_hour: per,
        effective_on_demand_price: per.map(|p| Money::from_f64(on_demand) + p),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn defaults() -> HiddenInputs {
        HiddenInputs {
            storage_monthly: 200.0,
            public_ip_monthly: 20.0,
            snapshots_monthly: 50.0,
            egress_per_gb: 0.8,
            egress_gb: 100.0,
            sessions: 60.0,
            idle_timeout_hours: 0.5,
        }
    }

    #[test]
    fn worked_example() {
        // 200 + 20 + 50 + 0.8·100 = 80 + auto-stop 60 × 0.5 h × 25 = 750 → 1100.00 a month.
        // Over 684.375 elastic GPU-hours: 1100/684.375 = 1.60730… → 1.61; r + 1.61 = 26.61.
        let h = hidden_costs(&defaults(), 25.0, 684.375).unwrap();
        assert_eq!(h.egress.to_plain_string(), "80.00");
        assert_eq!(h.autostop_gpu_hours, 30.0);
        assert_eq!(h.autostop_waste.to_plain_string(), "750.00");
        assert_eq!(h.total.to_plain_string(), "1100.00");
        assert_eq!(h.per_elastic_gpu_hour.unwrap().to_plain_string(), "1.61");
        assert_eq!(
            h.effective_on_demand_price.unwrap().to_plain_string(),
            "26.61"
        );
        let none = hidden_costs(&defaults(), 25.0, 0.0).unwrap();
        assert_eq!(none.per_elastic_gpu_hour, None);
    }

    #[test]
    fn bad_inputs() {
        let e = hidden_costs(
            &HiddenInputs {
                egress_gb: -1.0,
                ..defaults()
            },
            25.0,
            1.0,
        )
        .unwrap_err();
        assert_eq!(e.field, Field::HiddenCost);
        let e = hidden_costs(
            &HiddenInputs {
                idle_timeout_hours: 48.0,
                ..defaults()
            },
            25.0,
            1.0,
        )
        .unwrap_err();
        assert_eq!(e.field, Field::HiddenCost);
    }
}
