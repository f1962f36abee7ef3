//! The data each chart draws, as memos on the page's context: each chart (a
//! `components::chart_figure::ChartFigure` placed in the card it explains) reads its own, so
//! a change redraws only the charts whose data changed. A fleet reading a typed history
//! stacks chart 1 by GPU type with each type's committed line (from the fleet's plan); the
//! other charts are the selected type's.

use leptos::prelude::*;

use crate::charts::usage::UsageData;
use crate::charts::{breakeven, budget, cost, load_duration};
use crate::core::series::UsageSeries;
use crate::page::context::Ctx;
use crate::state::{ParseStatus, UsageMode};

/// Chart 1 (usage over time; `None` without a history) and whether it is stacked by type.
pub fn usage(ctx: Ctx) -> (Memo<Option<UsageData>>, Memo<bool>) {
    let (state, outputs) = (ctx.state, ctx.outputs);
    let data_mode = Memo::new(move |_| state.with(|s| s.mode == UsageMode::Data));
    let lookback = Memo::new(move |_| state.with(|s| s.inputs.lookback));
    // A fleet on a typed history: each type's name and history keys (None otherwise).
    let fleet_keys = Memo::new(move |_| {
        state.with(|s| {
            (s.mode == UsageMode::Data && crate::state::fleet::active(&s.fleet)).then(|| {
                s.fleet
                    .types
                    .iter()
                    .map(|t| (t.name.clone(), t.keys.clone()))
                    .collect::<Vec<_>>()
            })
        })
    });
    // The stacked chart's bands (every type with its history; kept while prices change).
    let stacked = Memo::new(move |_| {
        let keys = fleet_keys.get()?;
        let lookback = lookback.get();
        ctx.parse_status.with(|p| match p {
            ParseStatus::Done(Ok(parsed)) if parsed.types.len() >= 2 => {
                let series = keys
                    .iter()
                    .map(|(_, k)| crate::state::fleet::row_series(k, &parsed.types))
                    .collect::<Option<Vec<UsageSeries>>>()?;
                let bands: Vec<(&str, &UsageSeries)> = keys
                    .iter()
                    .zip(&series)
                    .map(|((name, _), s)| (name.as_str(), s))
                    .collect();
                Some(UsageData::from_types(&bands, lookback)).filter(UsageData::stacked)
            }
            _ => None,
        })
    });
    // What the fleet's budget buys of each type (empty while it cannot be planned).
    let committed = Memo::new(move |_| {
        ctx.fleet.with(|f| match f {
            Some(Ok(plan)) => plan.rows.iter().map(|r| r.committed).collect(),
            _ => Vec::new(),
        })
    });
    let is_stacked = Memo::new(move |_| stacked.with(Option::is_some));
    let data = Memo::new(move |_| {
        if !data_mode.get() {
            return None;
        }
        if let Some(mut d) = stacked.get() {
            committed.with(|c: &Vec<u32>| {
                if c.len() == d.types.len() {
                    for (b, &n) in d.types.iter_mut().zip(c) {
                        b.committed = Some(n);
                    }
                }
            });
            return Some(d);
        }
        let lookback = lookback.get();
        ctx.parse_status.with(|p| match p {
            ParseStatus::Done(Ok(parsed)) => {
                outputs.with(|o| Some(UsageData::from_series(&parsed.series, lookback, o)))
            }
            _ => None,
        })
    });
    (data, is_stacked)
}

/// Chart 2: the load-duration curve.
pub fn load_duration(ctx: Ctx) -> Memo<Option<load_duration::LoadDurationData>> {
    let outputs = ctx.outputs;
    Memo::new(move |_| outputs.with(load_duration::LoadDurationData::from_outputs))
}

/// Chart 3: monthly cost against the GPUs committed.
pub fn cost(ctx: Ctx) -> Memo<Option<cost::CostData>> {
    let outputs = ctx.outputs;
    Memo::new(move |_| outputs.with(cost::CostData::from_outputs))
}

/// Chart 4: the budget split, target against plan.
pub fn budget(ctx: Ctx) -> Memo<Option<budget::BudgetData>> {
    let (state, outputs) = (ctx.state, ctx.outputs);
    Memo::new(move |_| {
        state.with(|s| outputs.with(|o| Some(budget::BudgetData::from_outputs(&s.inputs, o))))
    })
}

/// Chart 5: monthly against on-demand cost by hours used.
pub fn breakeven(ctx: Ctx) -> Memo<Option<breakeven::BreakevenData>> {
    let (state, outputs) = (ctx.state, ctx.outputs);
    Memo::new(move |_| {
        state.with(|s| outputs.with(|o| breakeven::BreakevenData::from_outputs(&s.inputs, o)))
    })
}

/// A chart's text alternative (its module's `summary`), empty without data.
pub fn summary<T: Send + Sync + 'static>(
    ctx: Ctx,
    data: Memo<Option<T>>,
    text: fn(&T, crate::i18n::Lang, &str) -> String,
) -> Signal<String> {
    let (lang, currency) = (ctx.lang, ctx.currency);
    Signal::derive(move || {
        data.with(|d| {
            d.as_ref()
                .map(|d| text(d, lang.get(), currency.get()))
                .unwrap_or_default()
        })
    })
}
