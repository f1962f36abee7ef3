//! § 11 Burst what-if: J jobs × g GPUs × d hours, F fixed GPUs free, up to E elastic GPUs
//! at r, billed per second, minute or hour. Wall time and cost with the fixed GPUs only
//! and with elastic GPUs added.
//!
//! Slots (jobs at once) = floor(GPUs / g); batches = ceil(J / slots); wall = batches·d.
//! With elastic GPUs the batch count is the smallest possible, and only as many elastic
//! GPUs are rented as that batch count needs (slots' = ceil(J / batches)); the ones the
//! last, smaller batch does not need are released after the previous batch.

use super::error::{positive, Field, InputError, Problem};
use super::money::Money;
use super::profile::MAX_GPUS;

/// Largest number of jobs in a burst.
pub const MAX_JOBS: f64 = 1_000_000.0;
/// Longest job, hours.
pub const MAX_JOB_HOURS: f64 = 10_000.0;

/// How the elastic provider rounds each rental up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum BillingIncrement {
    Second,
    #[default]
    Minute,
    Hour,
}

impl BillingIncrement {
    pub fn seconds(self) -> u64 {
        match self {
            BillingIncrement::Second => 1,
            BillingIncrement::Minute => 60,
            BillingIncrement::Hour => 3600,
        }
    }
    pub fn key(self) -> &'static str {
        match self {
            BillingIncrement::Second => "second",
            BillingIncrement::Minute => "minute",
            BillingIncrement::Hour => "hour",
        }
    }
}

/// § 11 inputs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BurstInputs {
    /// J: jobs.
    pub jobs: u32,
    /// g: GPUs per job.
    pub gpus_per_job: u32,
    /// d: hours per job.
    pub job_hours: f64,
    /// F: fixed GPUs free for the burst (already paid for).
    pub fixed_gpus: u32,
    /// E: most elastic GPUs that may be rented.
    pub elastic_gpus: u32,
    pub increment: BillingIncrement,
}

/// One way of running the burst.
#[derive(Debug, Clone, PartialEq)]
pub struct BurstScenario {
    /// Jobs running at once.
    pub parallel_jobs: u32,
    /// ceil(J / parallel_jobs).
    pub batches: u32,
    /// batches × d, hours.
    pub wall_hours: f64,
    /// Elastic GPUs rented (0 for fixed only).
    pub elastic_gpus_used: u32,
    /// Elastic GPU-hours billed after rounding each rental up to the increment.
    pub elastic_gpu_hours_billed: f64,
    /// r × billed GPU-hours (0 for fixed only: the fixed GPUs are already paid).
    pub cost: Money,
}

/// § 11 result.
#[derive(Debug, Clone, PartialEq)]
pub struct Burst {
    /// `None` when F < g: the fixed GPUs cannot run even one job.
    pub fixed_only: Option<BurstScenario>,
    pub with_elastic: BurstScenario,
    /// Fixed-only wall time minus with-elastic wall time, hours (`None` without a fixed-only run).
    pub hours_saved: Option<f64>,
    /// cost / hours_saved: what each hour saved costs (`None` when no hour is saved).
    pub cost_per_hour_saved: Option<Money>,
}

fn billed_seconds(hours: f64, inc: u64) -> u64 {
    let secs = (hours * 3600.0).round().max(0.0) as u64;
    secs.div_ceil(inc) * inc
}

fn scenario(j: u32, g: u32, d: f64, f: u32, e: u32, r: f64, inc: u64) -> BurstScenario {
    let slots_max = ((f as u64 + e as u64) / g as u64).max(1);
    let batches = (j as u64).div_ceil(slots_max);
    let slots = (j as u64).div_ceil(batches);
    let rented = (slots * g as u64).saturating_sub(f as u64);
    let last_jobs = j as u64 - (batches - 1) * slots;
    let rented_last = (last_jobs * g as u64).saturating_sub(f as u64);
    let wall = batches as f64 * d;
    let full_secs = billed_seconds(wall, inc);
    let short_secs = if batches > 1 {
        billed_seconds((batches - 1) as f64 * d, inc)
    } else {
        0
    };
    let gpu_secs =
        rented_last as f64 * full_secs as f64 + (rented - rented_last) as f64 * short_secs as f64;
    let billed_hours = gpu_secs / 3600.0;
    BurstScenario {
        parallel_jobs: slots as u32,
        batches: batches as u32,
        wall_hours: wall,
        elastic_gpus_used: rented as u32,
        elastic_gpu_hours_billed: billed_hours,
        cost: Money::from_f64(r * billed_hours),
    }
}

/// § 11. `on_demand` is r (validated by the caller).
pub fn burst(inp: &BurstInputs, on_demand: f64) -> Result<Burst, InputError> {
    positive(Field::Jobs, inp.jobs as f64, MAX_JOBS)?;
    positive(Field::GpusPerJob, inp.gpus_per_job as f64, MAX_GPUS)?;
    let d = positive(Field::JobHours, inp.job_hours, MAX_JOB_HOURS)?;
    if inp.fixed_gpus as f64 > MAX_GPUS {
        return Err(InputError::new(
            Field::FixedGpus,
            Problem::TooLarge { max: MAX_GPUS },
        ));
    }
    if inp.elastic_gpus as f64 > MAX_GPUS {
        return Err(InputError::new(
            Field::ElasticGpus,
            Problem::TooLarge { max: MAX_GPUS },
        ));
    }
    let (j, g, f, e) = (inp.jobs, inp.gpus_per_job, inp.fixed_gpus, inp.elastic_gpus);
    let available = f as u64 + e as u64;
    if available < g as u64 {
        return Err(InputError::new(
            Field::GpusPerJob,
            Problem::TooLarge {
                max: available as f64,
            },
        ));
    }
    let inc = inp.increment.seconds();
    let fixed_only = (f >= g).then(|| scenario(j, g, d, f, 0, on_demand, inc));
    let with_elastic = scenario(j, g, d, f, e, on_demand, inc);
    let hours_saved = fixed_only
        .as_ref()
        .map(|s| s.wall_hours - with_elastic.wall_hours);
    let cost_per_hour_saved = hours_saved
        .filter(|&h| h > 0.0)
        .map(|h| Money::from_f64(with_elastic.cost.to_f64() / h));
    Ok(Burst {
        fixed_only,
        with_elastic,
        hours_saved,
        cost_per_hour_saved,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inp(j: u32, g: u32, d: f64, f: u32, e: u32, inc: BillingIncrement) -> BurstInputs {
        BurstInputs {
            jobs: j,
            gpus_per_job: g,
            job_hours: d,
            fixed_gpus: f,
            elastic_gpus: e,
            increment: inc,
        }
    }

    /// A run's jobs at once, batches, wall hours and elastic GPUs rented.
    fn run(w: &BurstScenario) -> (u32, u32, f64, u32) {
        (
            w.parallel_jobs,
            w.batches,
            w.wall_hours,
            w.elastic_gpus_used,
        )
    }

    #[test]
    fn spec_example_48_gpus_8_hours_at_2() {
        // 12 jobs × 4 GPUs × 8 h, no fixed GPUs, up to 48 elastic at $2: 12 at once, 1 batch,
        // 8 h; 48 GPUs × 8 h × 2 = 768.00.
        let b = burst(&inp(12, 4, 8.0, 0, 48, BillingIncrement::Hour), 2.0).unwrap();
        assert_eq!(b.fixed_only, None);
        let w = &b.with_elastic;
        assert_eq!(run(w), (12, 1, 8.0, 48));
        assert_eq!(w.cost.to_plain_string(), "768.00");
    }

    #[test]
    fn seed_36_lora_jobs_computed_correctly() {
        // Seed 001: 36 jobs × 4 GPUs, 6 fixed GPUs free, 4 h per job, 48 elastic at $2.
        // Fixed only: floor(6/4) = 1 job at a time → 36 batches → 144 h (the article's "6 batches"
        // is wrong). With elastic: floor(54/4) = 13 slots → ceil(36/13) = 3 batches → 12 h;
        // 3 batches need only ceil(36/3) = 12 slots = 48 GPUs → 42 elastic for 12 h each
        // (last batch is full) = 504 GPU-h × 2 = 1008.00. Saved 132 h at 1008/132 = 7.636… → 7.64 per hour.
        let b = burst(&inp(36, 4, 4.0, 6, 48, BillingIncrement::Minute), 2.0).unwrap();
        let f = b.fixed_only.as_ref().unwrap();
        assert_eq!(
            (f.parallel_jobs, f.batches, f.wall_hours, f.cost),
            (1, 36, 144.0, Money::ZERO)
        );
        let w = &b.with_elastic;
        assert_eq!(run(w), (12, 3, 12.0, 42));
        assert_eq!(w.elastic_gpu_hours_billed, 504.0);
        assert_eq!(w.cost.to_plain_string(), "1008.00");
        assert_eq!(b.hours_saved, Some(132.0));
        assert_eq!(b.cost_per_hour_saved.unwrap().to_plain_string(), "7.64");
    }

    #[test]
    fn last_batch_releases_unneeded_gpus() {
        // 5 jobs × 2 GPUs × 1 h, F = 0, E = 4: 2 slots → 3 batches (2, 2, 1) → 3 h.
        // GPUs 1–2 run 3 h, GPUs 3–4 run 2 h → 10 GPU-h × 3 = 30.00.
        let b = burst(&inp(5, 2, 1.0, 0, 4, BillingIncrement::Second), 3.0).unwrap();
        let w = &b.with_elastic;
        assert_eq!(
            (w.batches, w.wall_hours, w.elastic_gpu_hours_billed),
            (3, 3.0, 10.0)
        );
        assert_eq!(w.cost.to_plain_string(), "30.00");
    }

    #[test]
    fn billing_increments() {
        // One 1-GPU job of 0.51 h = 1836 s at r = 2:
        // second → 1836 s = 0.51 h → 1.02; minute → 31 min → 2·31/60 = 1.0333 → 1.03; hour → 2.00.
        let cost = |inc| {
            burst(&inp(1, 1, 0.51, 0, 1, inc), 2.0)
                .unwrap()
                .with_elastic
                .cost
                .to_plain_string()
        };
        assert_eq!(cost(BillingIncrement::Second), "1.02");
        assert_eq!(cost(BillingIncrement::Minute), "1.03");
        assert_eq!(cost(BillingIncrement::Hour), "2.00");
    }

    #[test]
    fn impossible_bursts_are_errors() {
        let e = burst(&inp(1, 8, 1.0, 2, 4, BillingIncrement::Hour), 2.0).unwrap_err();
        assert_eq!(
            (e.field, e.problem),
            (Field::GpusPerJob, Problem::TooLarge { max: 6.0 })
        );
        assert_eq!(
            burst(&inp(0, 1, 1.0, 2, 4, BillingIncrement::Hour), 2.0)
                .unwrap_err()
                .field,
            Field::Jobs
        );
        assert_eq!(
            burst(&inp(1, 1, 0.0, 2, 4, BillingIncrement::Hour), 2.0)
                .unwrap_err()
                .field,
            Field::JobHours
        );
        assert_eq!(
            burst(&inp(1, 0, 1.0, 2, 4, BillingIncrement::Hour), 2.0)
                .unwrap_err()
                .field,
            Field::GpusPerJob
        );
    }
}
