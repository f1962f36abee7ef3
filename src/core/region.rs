//! § 17 The elastic region: a second, cheaper region for the elastic and spot pools, at the
//! price of moving data there. The fixed baseline stays home (a monthly commitment is bound
//! to its region).
//!
//! Per GPU-hour of the plan (§ 9): transfer t = g·x (GB per GPU-hour × price per GB).
//! Elastic (on demand): home r, alt r' + t. Spot (per useful GPU-hour, § 8 factor k): home
//! s·k, alt s'·k + t. A pool goes to the alt region when its price there is strictly lower.
//! Saving = home cost − chosen cost of the two pools (each rounded to the cent).
//! Break-even g* = (r − r') / x: above g* GB per GPU-hour the home region is cheaper.
//! An alt price of 0 means "no second region" for that pool.

use super::error::{non_negative, Field, InputError};
use super::money::Money;

/// Largest alt-region price per GPU-hour (as § 0 caps r and s).
pub const MAX_ALT_PRICE: f64 = 1_000_000.0;
/// Most data moved per elastic GPU-hour, GB.
pub const MAX_GB_PER_GPU_HOUR: f64 = 100_000.0;
/// Largest transfer price per GB.
pub const MAX_TRANSFER_PRICE: f64 = 10_000.0;

/// § 17 inputs (the home prices and hours come from the plan).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RegionInputs {
    /// r: home on-demand price per GPU-hour.
    pub home_on_demand: f64,
    /// s·k: home spot price per useful GPU-hour (§ 8 s_eff).
    pub home_spot_effective: f64,
    /// k: the § 8 factor (1 + δ/τ + λ(τ/2 + R)); the alt region's spot reclaims alike.
    pub spot_factor: f64,
    /// r': alt on-demand price per GPU-hour (0: no second region for the elastic pool).
    pub alt_on_demand: f64,
    /// s': alt spot list price per GPU-hour (0: no second region for the spot pool).
    pub alt_spot: f64,
    /// g: GB moved per elastic GPU-hour.
    pub gb_per_gpu_hour: f64,
    /// x: cross-region transfer price per GB.
    pub transfer_per_gb: f64,
    /// § 9 on-demand GPU-hours per month, (1 − f)·E_m.
    pub on_demand_gpu_hours: f64,
    /// § 9 spot GPU-hours per month, f·E_m.
    pub spot_gpu_hours: f64,
    /// § 9 home on-demand and spot amounts (so the home cost is the one the pools card shows).
    pub home_on_demand_cost: Money,
    pub home_spot_cost: Money,
}

/// Where a pool runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Region {
    Home,
    Alt,
}

impl Region {
    pub fn key(self) -> &'static str {
        match self {
            Region::Home => "home",
            Region::Alt => "alt",
        }
    }
}

/// The data volume at which both regions cost the same for a pool.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum BreakEvenGb {
    /// No second-region price given.
    NoAlt,
    /// The alt price alone is not lower: home is cheaper (or equal) at any volume.
    HomeAlways,
    /// Transfer is free and the alt price is lower: alt is cheaper at any volume.
    AltAlways,
    /// Above this many GB per GPU-hour the home region is cheaper.
    At(f64),
}

impl BreakEvenGb {
    fn of(home: f64, alt_before_transfer: f64, alt_given: bool, x: f64) -> Self {
        if !alt_given {
            BreakEvenGb::NoAlt
        } else if alt_before_transfer >= home {
            BreakEvenGb::HomeAlways
        } else if x == 0.0 {
            BreakEvenGb::AltAlways
        } else {
            BreakEvenGb::At((home - alt_before_transfer) / x)
        }
    }
}

/// One pool in both regions.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PoolRegion {
    /// Price per GPU-hour at home and in the alt region (transfer included).
    pub home_price: f64,
    pub alt_price: f64,
    pub home_price_money: Money,
    pub alt_price_money: Money,
    pub region: Region,
    pub gpu_hours: f64,
    pub home_cost: Money,
    /// `None` without an alt price.
    pub alt_cost: Option<Money>,
    pub chosen_cost: Money,
    pub breakeven: BreakEvenGb,
}

/// § 17 result.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RegionPlan {
    /// t = g·x per GPU-hour.
    pub transfer_per_gpu_hour: f64,
    pub elastic: PoolRegion,
    pub spot: PoolRegion,
    /// Home cost of both pools − the chosen cost (≥ 0).
    pub saving: Money,
}

impl RegionPlan {
    /// A second region was given for at least one pool.
    pub fn has_alt(&self) -> bool {
        self.elastic.breakeven != BreakEvenGb::NoAlt || self.spot.breakeven != BreakEvenGb::NoAlt
    }
}

/// Validate the four region inputs.
pub fn validate(alt_on_demand: f64, alt_spot: f64, gb: f64, x: f64) -> Result<(), InputError> {
    non_negative(Field::Region, alt_on_demand, MAX_ALT_PRICE)?;
    non_negative(Field::Region, alt_spot, MAX_ALT_PRICE)?;
    non_negative(Field::Region, gb, MAX_GB_PER_GPU_HOUR)?;
    non_negative(Field::Region, x, MAX_TRANSFER_PRICE)?;
    Ok(())
}

fn pool(
    home_price: f64,
    alt_before_transfer: f64,
    alt_given: bool,
    t: f64,
    x: f64,
    hours: f64,
    home_cost: Money,
) -> PoolRegion {
    let alt_price = alt_before_transfer + t;
    let region = if alt_given && alt_price < home_price {
        Region::Alt
    } else {
        Region::Home
    };
    let alt_cost = alt_given.then(|| Money::from_f64(alt_price * hours));
    let chosen_cost = match (region, alt_cost) {
        (Region::Alt, Some(c)) if c < home_cost => c,
        _ => home_cost,
    };
    PoolRegion {
        home_price,
        alt_price,
        home_price_money: Money::from_f64(home_price),
        alt_price_money: Money::from_f64(alt_price),
        region,
        gpu_hours: hours,
        home_cost,
        alt_cost,
        chosen_cost,
        breakeven: BreakEvenGb::of(home_price, alt_before_transfer, alt_given, x),
    }
}

/// § 17.
pub fn region_plan(inp: &RegionInputs) -> Result<RegionPlan, InputError> {
    validate(
        inp.alt_on_demand,
        inp.alt_spot,
        inp.gb_per_gpu_hour,
        inp.transfer_per_gb,
    )?;
    let x = inp.transfer_per_gb;
    let t = inp.gb_per_gpu_hour * x;
    let elastic = pool(
        inp.home_on_demand,
        inp.alt_on_demand,
        inp.alt_on_demand > 0.0,
        t,
        x,
        inp.on_demand_gpu_hours,
        inp.home_on_demand_cost,
    );
    let spot = pool(
        inp.home_spot_effective,
        inp.alt_spot * inp.spot_factor,
        inp.alt_spot > 0.0,
        t,
        x,
        inp.spot_gpu_hours,
        inp.home_spot_cost,
    );
    let saving = (elastic.home_cost - elastic.chosen_cost) + (spot.home_cost - spot.chosen_cost);
    Ok(RegionPlan {
        transfer_per_gpu_hour: t,
        elastic,
        spot,
        saving,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The § 9 example's pools: E_m = 684.375 h, f = 40 %: 410.625 h on demand at r = 25
    /// (10 265.63), 273.75 h spot at s_eff = 8.40 (2 299.50), k = 1.05.
    fn example(alt_on_demand: f64, alt_spot: f64, gb: f64, x: f64) -> RegionInputs {
        RegionInputs {
            home_on_demand: 25.0,
            home_spot_effective: 8.4,
            spot_factor: 1.05,
            alt_on_demand,
            alt_spot,
            gb_per_gpu_hour: gb,
            transfer_per_gb: x,
            on_demand_gpu_hours: 410.625,
            spot_gpu_hours: 273.75,
            home_on_demand_cost: Money::from_cents(1_026_563),
            home_spot_cost: Money::from_cents(229_950),
        }
    }

    #[test]
    fn worked_example() {
        // r' = 20, s' = 6, g = 5 GB, x = 0.5 → t = 2.5. Elastic: 20 + 2.5 = 22.50 < 25 → alt,
        // 22.5 × 410.625 = 9 239.0625 → 9 239.06, saving 10 265.63 − 9 239.06 = 1 026.57.
        // Spot: 6 × 1.05 + 2.5 = 8.80 > 8.40 → home. g* = (25 − 20) / 0.5 = 10 GB;
        // spot g* = (8.40 − 6.30) / 0.5 = 4.2 GB.
        let r = region_plan(&example(20.0, 6.0, 5.0, 0.5)).unwrap();
        assert_eq!(r.transfer_per_gpu_hour, 2.5);
        assert_eq!(r.elastic.region, Region::Alt);
        assert_eq!(r.elastic.alt_price_money.to_plain_string(), "22.50");
        assert_eq!(r.elastic.alt_cost.unwrap().to_plain_string(), "9239.06");
        assert_eq!(r.elastic.chosen_cost.to_plain_string(), "9239.06");
        assert_eq!(r.spot.region, Region::Home);
        assert_eq!(r.spot.alt_price_money.to_plain_string(), "8.80");
        assert_eq!(r.spot.alt_cost.unwrap().to_plain_string(), "2409.00");
        assert_eq!(r.spot.chosen_cost.to_plain_string(), "2299.50");
        assert_eq!(r.saving.to_plain_string(), "1026.57");
        assert_eq!(r.elastic.breakeven, BreakEvenGb::At(10.0));
        match r.spot.breakeven {
            BreakEvenGb::At(g) => assert!((g - 4.2).abs() < 1e-12),
            other => panic!("{other:?}"),
        }
        assert!(r.has_alt());
    }

    #[test]
    fn both_pools_move_when_transfer_is_small() {
        // g = 1 GB → t = 0.5: elastic 20.50 → 8 417.81; spot 6.80 → 273.75 × 6.8 = 1 861.50.
        // Saving (10 265.63 − 8 417.81) + (2 299.50 − 1 861.50) = 1 847.82 + 438.00 = 2 285.82.
        let r = region_plan(&example(20.0, 6.0, 1.0, 0.5)).unwrap();
        assert_eq!(
            (r.elastic.region, r.spot.region),
            (Region::Alt, Region::Alt)
        );
        assert_eq!(r.elastic.chosen_cost.to_plain_string(), "8417.81");
        assert_eq!(r.spot.chosen_cost.to_plain_string(), "1861.50");
        assert_eq!(r.saving.to_plain_string(), "2285.82");
    }

    #[test]
    fn at_the_break_even_home_is_kept() {
        // g = 10 GB exactly: 20 + 5 = 25 = r → home (ties stay home), saving 0.
        let r = region_plan(&example(20.0, 0.0, 10.0, 0.5)).unwrap();
        assert_eq!(r.elastic.region, Region::Home);
        assert_eq!(r.saving, Money::ZERO);
        assert_eq!(r.spot.breakeven, BreakEvenGb::NoAlt);
    }

    #[test]
    fn no_alt_region_free_transfer_and_dearer_alt() {
        let none = region_plan(&example(0.0, 0.0, 5.0, 0.5)).unwrap();
        assert!(!none.has_alt());
        assert_eq!(
            (none.elastic.region, none.spot.region),
            (Region::Home, Region::Home)
        );
        assert_eq!(none.saving, Money::ZERO);
        assert_eq!(none.elastic.alt_cost, None);
        let free = region_plan(&example(20.0, 0.0, 5.0, 0.0)).unwrap();
        assert_eq!(free.elastic.breakeven, BreakEvenGb::AltAlways);
        assert_eq!(free.elastic.region, Region::Alt);
        let dear = region_plan(&example(30.0, 9.0, 0.0, 0.5)).unwrap();
        assert_eq!(dear.elastic.breakeven, BreakEvenGb::HomeAlways);
        assert_eq!(dear.spot.breakeven, BreakEvenGb::HomeAlways);
        assert_eq!(dear.saving, Money::ZERO);
    }

    #[test]
    fn bad_inputs_name_the_region_field() {
        for bad in [
            example(-1.0, 0.0, 0.0, 0.0),
            example(0.0, f64::NAN, 0.0, 0.0),
            example(0.0, 0.0, 1e9, 0.0),
            example(0.0, 0.0, 0.0, f64::INFINITY),
        ] {
            assert_eq!(region_plan(&bad).unwrap_err().field, Field::Region);
        }
    }
}
