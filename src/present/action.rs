//! §§ 17–18 The "Put it into practice" card: the plan as Volcano, KEDA and Slurm
//! configuration, and the elastic pools in a cheaper second region. The snippets are
//! configuration text (English comments, as configuration files have); the sentences are in
//! the page's language. Free text from a link reaches the page as text only.

use super::{error_message, failed, Presented, Shown};
use crate::core::action::{
    checkpoint_minutes, clean_text, keda_scaled_objects, plan_action, slurm_fleet, unique_slugs,
    volcano_queues, ActionInputs, TypeBasis, TypeTag, MAX_TEXT_CHARS,
};
use crate::core::error::InputError;
use crate::core::fleet_plan::FleetPlan;
use crate::core::money::Money;
use crate::core::plan::{PlanInputs, PlanOutputs};
use crate::core::region::{BreakEvenGb, Region, RegionPlan};
use crate::format::Lang;
use crate::format::{money, number_trim, plain};
use crate::i18n::pick;

#[derive(Debug, Clone, PartialEq)]
pub struct ActionView {
    /// N, E and the Volcano share (`action-committed`, `action-elastic-max`).
    pub committed: Shown,
    pub elastic_max: Shown,
    /// The snippets, exactly what Copy copies.
    pub volcano: String,
    pub keda: String,
    pub slurm: String,
    /// The idle auto-stop rule and the checkpoint interval, in words.
    pub auto_stop: String,
    pub checkpoint: String,
    /// § 17: `elastic-region` (`home` | `alt`), `spot-region`, `alt-effective-price`,
    /// `region-saving`, `region-breakeven-gb`.
    pub elastic_region: Shown,
    pub spot_region: Shown,
    pub home_price: Shown,
    pub alt_effective_price: Shown,
    pub alt_spot_price: Shown,
    pub region_saving: Shown,
    pub region_breakeven_gb: Shown,
    /// The region note as typed (text only; empty: none).
    pub region_note: String,
    pub region_sentence: String,
    /// In a fleet: what the snippets configure (every type at its N_t) and whose the
    /// figures are (`action-scope`); empty for one type.
    pub scope: String,
    /// The card's answer in one line (its summary while closed).
    pub gist: String,
    pub formula: String,
}

/// The § 17 plan and the § 18 inputs of one type's own plan: its baseline's N and pools
/// (the first error of the parts it reads, or of the region's inputs).
pub fn compute(i: &PlanInputs, o: &PlanOutputs) -> Result<(RegionPlan, ActionInputs), InputError> {
    let pools = o.pools.as_ref().map_err(Clone::clone)?;
    let n = o.baseline.as_ref().map_err(Clone::clone)?.gpus;
    plan_action(i, &TypeBasis::of(i, o, n, pools)?)
}

fn duration(l: Lang, seconds: u32) -> String {
    let minutes = (f64::from(seconds) / 60.0).round();
    match l {
        Lang::En if minutes == 1.0 => "1 minute".into(),
        Lang::En => format!("{} minutes", number_trim(minutes, 0, l)),
        Lang::Zh => format!("{} 分钟", number_trim(minutes, 0, l)),
    }
}

fn region_name(l: Lang, r: Region) -> &'static str {
    match r {
        Region::Home => pick(l, "Home region", "本区域"),
        Region::Alt => pick(l, "Second region", "第二区域"),
    }
}

/// A mixed fleet for the card: its plan (each row's §§ 17–18 at the N_t the budget buys) and
/// the type the cards show.
#[derive(Debug, Clone, Copy)]
pub struct FleetScope<'a> {
    pub plan: &'a FleetPlan,
    pub selected: usize,
}

/// Every type's region plan and snippet inputs at its N_t, each named by its type, or the
/// first failing type's message (named). `i`: what the fleet shares.
fn fleet_actions(
    l: Lang,
    i: &PlanInputs,
    f: &FleetPlan,
) -> Result<(Vec<RegionPlan>, Vec<ActionInputs>), String> {
    let slugs = unique_slugs(f.rows.iter().map(|r| r.name.as_str()));
    let default_type = f.rows.iter().position(|r| r.committed > 0);
    let (mut regions, mut all) = (Vec::new(), Vec::new());
    for (k, (r, slug)) in f.rows.iter().zip(slugs).enumerate() {
        let name = clean_text(&r.name, MAX_TEXT_CHARS);
        match r
            .action
            .as_ref()
            .map_err(Clone::clone)
            .and_then(|b| plan_action(i, b))
        {
            Ok((region, mut a)) => {
                a.gpu_type = Some(TypeTag {
                    name,
                    slug,
                    default_partition: default_type == Some(k),
                });
                regions.push(region);
                all.push(a);
            }
            Err(e) => {
                return Err(format!(
                    "{name}{}{}",
                    pick(l, ": ", "："),
                    error_message(l, &e)
                ))
            }
        }
    }
    Ok((regions, all))
}

/// §§ 17–18. One type: at the baseline's N. In a fleet: the snippets configure every type at
/// the N_t the shared budget buys; the figures and the region are the selected type's at its N_t.
pub fn present(
    l: Lang,
    cur: &str,
    i: &PlanInputs,
    o: &PlanOutputs,
    fleet: Option<FleetScope<'_>>,
) -> Presented<ActionView> {
    let m = |v| money(v, cur, l);
    let (regions, all, selected) = match fleet {
        None => match compute(i, o) {
            Ok((r, a)) => (vec![r], vec![a], 0),
            Err(e) => return failed(l, &e),
        },
        Some(FleetScope { plan, selected }) => {
            let (regions, all) = fleet_actions(l, i, plan)?;
            (regions, all, selected)
        }
    };
    let (Some(&region), Some(a)) = (regions.get(selected), all.get(selected)) else {
        return Err(String::new());
    };
    let scope = match fleet {
        None => String::new(),
        Some(_) => {
            let saving: Money = regions.iter().map(|r| r.saving).sum();
            let selected = a.gpu_type.as_ref().map_or("", |t| t.name.as_str());
            match l {
                Lang::En => format!(
                    "For the whole fleet: one Queue, ScaledObject and QOS per GPU type, each at what the shared budget buys. The figures above are {selected}'s; the second region saves the fleet {} a month.",
                    m(saving)
                ),
                Lang::Zh => format!(
                    "为整个机群配置：每种卡型一个 Queue、ScaledObject 与 QOS，各按共用预算买下的包月数。上面的数字为 {selected} 的；第二区域为机群每月节省 {}。",
                    m(saving)
                ),
            }
        }
    };
    let gpus = |n: u32| match l {
        Lang::En if n == 1 => "1 GPU".to_string(),
        Lang::En => format!("{n} GPUs"),
        Lang::Zh => format!("{n} 张卡"),
    };
    let idle = duration(l, a.idle_seconds);
    let auto_stop = match l {
        Lang::En => format!(
            "Stop an on-demand instance after {idle} with no GPU activity (KEDA cooldownPeriod {}, Slurm SuspendTime {}).",
            a.idle_seconds, a.idle_seconds
        ),
        Lang::Zh => format!(
            "按需实例连续 {idle}没有 GPU 活动就关机（KEDA cooldownPeriod {}，Slurm SuspendTime {}）。",
            a.idle_seconds, a.idle_seconds
        ),
    };
    let checkpoint = match (a.checkpoint_interval_hours, l) {
        (Some(h), Lang::En) => format!(
            "Spot jobs checkpoint every {} minutes (the spot card's interval).",
            checkpoint_minutes(h)
        ),
        (Some(h), Lang::Zh) => format!(
            "竞价任务每 {} 分钟保存一次检查点（竞价卡片的间隔）。",
            checkpoint_minutes(h)
        ),
        (None, _) => pick(
            l,
            "Spot is never reclaimed here: no checkpoint interval.",
            "此处竞价从不回收：无需检查点间隔。",
        )
        .to_string(),
    };

    let e = &region.elastic;
    let s = &region.spot;
    let has_alt_od = e.breakeven != BreakEvenGb::NoAlt;
    let has_alt_spot = s.breakeven != BreakEvenGb::NoAlt;
    let none = || Shown::new("—", "none");
    let alt_effective_price = if has_alt_od {
        Shown::new(m(e.alt_price_money), e.alt_price_money.to_plain_string())
    } else {
        none()
    };
    let alt_spot_price = if has_alt_spot {
        Shown::new(m(s.alt_price_money), s.alt_price_money.to_plain_string())
    } else {
        none()
    };
    let breakeven = match e.breakeven {
        BreakEvenGb::NoAlt => none(),
        BreakEvenGb::HomeAlways => Shown::new(
            pick(
                l,
                "0 GB (home is cheaper at any volume)",
                "0 GB（任何数据量下本区域都更便宜）",
            ),
            "0",
        ),
        BreakEvenGb::AltAlways => Shown::new(
            pick(
                l,
                "none (free transfer: the second region is always cheaper)",
                "无（流量免费：第二区域总是更便宜）",
            ),
            "any",
        ),
        BreakEvenGb::At(g) => Shown::new(format!("{} GB", number_trim(g, 3, l)), plain(g, 6)),
    };
    let note = clean_text(&i.region_note, MAX_TEXT_CHARS);
    let region_sentence = if !region.has_alt() {
        pick(
            l,
            "No second region given: the elastic and spot pools stay home. Type a nearby region's prices to compare.",
            "未填写第二区域：弹性池与竞价池都留在本区域。填入邻近区域的价格即可比较。",
        )
        .to_string()
    } else {
        let saving = m(region.saving);
        match l {
            Lang::En => format!(
                "Elastic pool: {}; spot pool: {}. The fixed baseline stays home (a monthly commitment is bound to its region). Saving {saving} a month.",
                region_name(l, e.region).to_ascii_lowercase(),
                region_name(l, s.region).to_ascii_lowercase()
            ),
            Lang::Zh => format!(
                "弹性池：{}；竞价池：{}。固定基线留在本区域（包月承诺绑定所在区域）。每月节省 {saving}。",
                region_name(l, e.region),
                region_name(l, s.region)
            ),
        }
    };
    let t = region.transfer_per_gpu_hour;
    let n2 = |v: f64| number_trim(v, 4, l);
    let mut formula = format!(
        "t = g·x = {} × {} = {};  ",
        n2(i.data_gb_per_gpu_hour),
        n2(i.transfer_price_per_gb),
        n2(t)
    );
    if has_alt_od {
        formula.push_str(&format!(
            "r' + t = {} + {} = {} {} r = {};  ",
            n2(i.alt_on_demand_price),
            n2(t),
            m(e.alt_price_money),
            if e.region == Region::Alt { "<" } else { "≥" },
            m(e.home_price_money),
        ));
    }
    if has_alt_spot {
        formula.push_str(&format!(
            "s'·k + t = {} × {} + {} = {} {} s_eff = {};  ",
            n2(i.alt_spot_price),
            n2(o.spot.as_ref().map(|s| s.factor).unwrap_or(1.0)),
            n2(t),
            m(s.alt_price_money),
            if s.region == Region::Alt { "<" } else { "≥" },
            m(s.home_price_money),
        ));
    }
    formula.push_str(&format!(
        "{} = ({} − {}) + ({} − {}) = {}",
        pick(l, "saving", "节省"),
        m(e.home_cost),
        m(e.chosen_cost),
        m(s.home_cost),
        m(s.chosen_cost),
        m(region.saving)
    ));
    if let BreakEvenGb::At(g) = e.breakeven {
        formula.push_str(&format!(
            ";  g* = (r − r')/x = ({} − {}) / {} = {} GB",
            n2(i.on_demand_price),
            n2(i.alt_on_demand_price),
            n2(i.transfer_price_per_gb),
            number_trim(g, 3, l)
        ));
    }
    formula.push_str(&format!(
        ";  N = {}, E = {}, deserved = {}, capability = {}",
        a.committed,
        a.elastic_max,
        a.deserved(),
        a.capability()
    ));

    let total_n: u32 = all.iter().map(|x| x.committed).fold(0, u32::saturating_add);
    let total_e: u32 = all
        .iter()
        .map(|x| x.elastic_max)
        .fold(0, u32::saturating_add);
    let whose = a.gpu_type.as_ref().map(|t| t.name.as_str());
    let gist = match l {
        Lang::En => format!(
            "Volcano, KEDA and Slurm configuration{}: {} guaranteed, up to {} elastic GPU{}; {}elastic pool: {}.",
            if all.len() > 1 { format!(" for {} GPU types", all.len()) } else { String::new() },
            gpus(total_n),
            total_e,
            if total_e == 1 { "" } else { "s" },
            whose.map_or(String::new(), |w| format!("{w}'s ")),
            region_name(l, e.region).to_ascii_lowercase()
        ),
        Lang::Zh => format!(
            "Volcano、KEDA 与 Slurm 配置{}：保证 {}，弹性最多 {}；{}弹性池：{}。",
            if all.len() > 1 { format!("（{} 种卡型）", all.len()) } else { String::new() },
            gpus(total_n),
            gpus(total_e),
            whose.map_or(String::new(), |w| format!("{w} 的")),
            region_name(l, e.region)
        ),
    };
    Ok(ActionView {
        committed: Shown::new(gpus(a.committed), a.committed.to_string()),
        elastic_max: Shown::new(gpus(a.elastic_max), a.elastic_max.to_string()),
        volcano: volcano_queues(&all),
        keda: keda_scaled_objects(&all),
        slurm: slurm_fleet(&all),
        scope,
        auto_stop,
        checkpoint,
        elastic_region: Shown::new(region_name(l, e.region), e.region.key()),
        spot_region: Shown::new(region_name(l, s.region), s.region.key()),
        home_price: Shown::new(m(e.home_price_money), e.home_price_money.to_plain_string()),
        alt_effective_price,
        alt_spot_price,
        region_saving: Shown::new(m(region.saving), region.saving.to_plain_string()),
        region_breakeven_gb: breakeven,
        region_note: note,
        region_sentence,
        gist,
        formula,
    })
}

/// A fenced code block whose fence is longer than any backtick run inside (at least 3).
fn fenced(info: &str, text: &str) -> String {
    let (mut run, mut longest) = (0, 0);
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat((longest + 1).max(3));
    format!("{fence}{info}\n{text}{fence}\n")
}

/// The card in the Markdown export: the region's figures and sentences, then each snippet
/// in a fenced block (somebody else's text: the note as a code span, the snippets fenced).
pub fn markdown(
    l: Lang,
    cur: &str,
    i: &PlanInputs,
    o: &PlanOutputs,
    fleet: Option<FleetScope<'_>>,
) -> String {
    let v = match present(l, cur, i, o, fleet) {
        Ok(v) => v,
        Err(_) => return String::new(),
    };
    let mut md = format!("### {}\n\n", pick(l, "Put it into practice", "付诸实践"));
    if !v.scope.is_empty() {
        md.push_str(&format!("{}\n\n", v.scope));
    }
    let sep = pick(l, ": ", "：");
    let line = |md: &mut String, label: &str, text: &str| {
        md.push_str(&format!("- {label}{sep}{text}\n"));
    };
    line(
        &mut md,
        pick(l, "Elastic pool runs in", "弹性池所在区域"),
        &v.elastic_region.text,
    );
    line(
        &mut md,
        pick(l, "Spot pool runs in", "竞价池所在区域"),
        &v.spot_region.text,
    );
    if !v.region_note.is_empty() {
        line(
            &mut md,
            pick(l, "Second region", "第二区域"),
            &crate::inputs::code_span(&v.region_note),
        );
    }
    line(
        &mut md,
        pick(
            l,
            "Second region per GPU-hour, transfer included",
            "第二区域每卡时价格（含流量）",
        ),
        &v.alt_effective_price.text,
    );
    line(
        &mut md,
        pick(l, "Monthly saving", "每月节省"),
        &v.region_saving.text,
    );
    line(
        &mut md,
        pick(
            l,
            "Break-even data per GPU-hour",
            "盈亏平衡数据量（每卡时）",
        ),
        &v.region_breakeven_gb.text,
    );
    md.push_str(&format!(
        "- {}\n- {}\n- {}\n\n",
        v.region_sentence, v.auto_stop, v.checkpoint
    ));
    for (title, text, info) in [
        ("Volcano Queue", &v.volcano, "yaml"),
        ("KEDA ScaledObject", &v.keda, "yaml"),
        ("Slurm", &v.slurm, "sh"),
    ] {
        md.push_str(&format!("{title}:\n\n{}\n", fenced(info, text)));
    }
    md
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::plan::plan;

    /// The page with the § 17 example's region on the default plan (sliders 4 GPUs × 200 h:
    /// N = 0, 800 elastic GPU-hours, f = 50 %: 400 h on demand at 25 = 10 000.00, 400 h spot
    /// at s_eff = 8.3978 = 3 359.11).
    fn inputs() -> PlanInputs {
        PlanInputs {
            alt_on_demand_price: 20.0,
            alt_spot_price: 6.0,
            data_gb_per_gpu_hour: 5.0,
            transfer_price_per_gb: 0.5,
            region_note: "Tianjin, 2 ms".into(),
            ..PlanInputs::default()
        }
    }

    #[test]
    fn default_plan_with_the_example_region() {
        // Elastic 22.50 < 25 → alt: 22.5 × 400 = 9 000.00, saving 1 000.00. Spot: 6 × 1.0497214
        // + 2.5 = 8.80 > 8.40 → home. g* = 10 GB. E = max(48 burst quota, 4 − 0) = 48.
        let i = inputs();
        let v = present(Lang::En, "¥", &i, &plan(&i), None).unwrap();
        assert_eq!(v.elastic_region.value, "alt");
        assert_eq!(v.spot_region.value, "home");
        assert_eq!(v.alt_effective_price.value, "22.50");
        assert_eq!(v.alt_effective_price.text, "¥22.50");
        assert_eq!(v.region_saving.value, "1000.00");
        assert_eq!(v.region_breakeven_gb.value, "10");
        assert_eq!(v.region_breakeven_gb.text, "10 GB");
        assert_eq!(
            (v.committed.value.as_str(), v.elastic_max.value.as_str()),
            ("0", "48")
        );
        assert!(v.keda.contains("maxReplicaCount: 48\n"));
        assert!(v.keda.contains("cooldownPeriod: 1800\n"));
        assert!(v.slurm.contains("after 30 minutes with no GPU activity"));
        assert!(
            v.slurm.contains("checkpoint every 2 hours 14 minutes"),
            "{}",
            v.slurm
        );
        assert!(v.region_sentence.contains("Saving ¥1,000.00 a month"));
        assert_eq!(
            v.gist,
            "Volcano, KEDA and Slurm configuration: 0 GPUs guaranteed, up to 48 elastic GPUs; elastic pool: second region."
        );
        assert!(
            v.formula
                .contains("g* = (r − r')/x = (25 − 20) / 0.5 = 10 GB"),
            "{}",
            v.formula
        );
        let zh = present(Lang::Zh, "¥", &i, &plan(&i), None).unwrap();
        assert_eq!(zh.elastic_region.text, "第二区域");
        assert_eq!(
            zh.gist,
            "Volcano、KEDA 与 Slurm 配置：保证 0 张卡，弹性最多 48 张卡；弹性池：第二区域。"
        );
        assert!(zh.auto_stop.contains("30 分钟"));
        assert!(zh.checkpoint.contains("134 分钟"));
        // The snippets do not depend on the language.
        assert_eq!(
            (zh.volcano, zh.keda, zh.slurm),
            (v.volcano, v.keda, v.slurm)
        );
    }

    #[test]
    fn no_second_region_by_default() {
        let i = PlanInputs::default();
        let v = present(Lang::En, "$", &i, &plan(&i), None).unwrap();
        assert_eq!(v.elastic_region.value, "home");
        assert_eq!(v.alt_effective_price.value, "none");
        assert_eq!(v.region_saving.value, "0.00");
        assert_eq!(v.region_breakeven_gb.value, "none");
        assert!(v.region_sentence.starts_with("No second region"));
        assert!(v.gist.ends_with("elastic pool: home region."), "{}", v.gist);
        assert!(v.volcano.contains("elastic-region: \"home\""));
        assert!(!v.volcano.contains("region-note"));
    }

    #[test]
    fn a_bad_region_value_from_a_link_names_the_field() {
        let i = PlanInputs {
            alt_on_demand_price: -1.0,
            ..PlanInputs::default()
        };
        let e = present(Lang::En, "$", &i, &plan(&i), None).unwrap_err();
        assert!(e.starts_with("Second region"), "{e}");
    }

    #[test]
    fn markdown_has_the_snippets_fenced_and_the_note_as_code() {
        let mut i = inputs();
        i.region_note = "[a](http://e) ![i](http://e/i.png) ``` `".into();
        let md = markdown(Lang::En, "¥", &i, &plan(&i), None);
        assert!(
            md.starts_with("### Put it into practice\n\n- Elastic pool runs in: Second region\n"),
            "{md}"
        );
        assert!(
            md.contains("- Second region: ```` [a](http://e) ![i](http://e/i.png) ``` ` ````\n"),
            "{md}"
        );
        assert!(md.contains("- Monthly saving: ¥1,000.00\n"), "{md}");
        let v = present(Lang::En, "¥", &i, &plan(&i), None).unwrap();
        // The note contains a run of 3 backticks: the YAML blocks are fenced with 4.
        assert!(
            md.contains(&format!("Volcano Queue:\n\n````yaml\n{}````\n", v.volcano)),
            "{md}"
        );
        assert!(
            md.contains(&format!("Slurm:\n\n````sh\n{}````\n", v.slurm)),
            "{md}"
        );
        let zh = markdown(Lang::Zh, "¥", &i, &plan(&i), None);
        assert!(
            zh.starts_with("### 付诸实践\n\n- 弹性池所在区域：第二区域\n"),
            "{zh}"
        );
    }

    /// §§ 17–18 in a fleet (formulas § 18, "In a fleet"): the § 16 example with the burst
    /// quota 0 and A100's second region r' = 20, g = 5 GB, x = 0.5 (t = 2.50).
    fn fleet_example() -> (PlanInputs, PlanOutputs, FleetPlan) {
        crate::core::fleet_plan::example::plan_with(
            |s| s.burst_elastic_gpus = 0,
            |a| {
                a.alt_on_demand_price = 20.0;
                a.data_gb_per_gpu_hour = 5.0;
                a.transfer_price_per_gb = 0.5;
            },
        )
    }

    /// The card in English for the fleet `f`, its type `selected` chosen.
    fn in_fleet(
        i: &PlanInputs,
        o: &PlanOutputs,
        f: &FleetPlan,
        selected: usize,
    ) -> Presented<ActionView> {
        present(Lang::En, "¥", i, o, Some(FleetScope { plan: f, selected }))
    }

    #[test]
    fn a_fleet_configures_every_type_at_what_the_budget_buys() {
        let (i, o, f) = fleet_example();
        // The budget buys A100 3 (its own rule: 4) and H100 1 (of 3).
        assert_eq!((f.rows[0].committed, f.rows[1].committed), (3, 1));
        let scope = FleetScope {
            plan: &f,
            selected: 0,
        };
        let v = present(Lang::En, "¥", &i, &o, Some(scope)).unwrap();
        // A100 at N_t = 3: E = ⌈6⌉ − 3 = 3; elastic 200·3 + 530·1 = 1 130 GPU-hours on demand
        // (f = 0) at 25 = 28 250.00; second region 22.50 × 1 130 = 25 425.00: saving 2 825.00
        // (at its own N = 4: 400 h, saving 1 000.00).
        assert_eq!(v.committed.value, "3");
        assert_eq!(v.elastic_max.value, "3");
        assert_eq!(v.elastic_region.value, "alt");
        assert_eq!(v.alt_effective_price.value, "22.50");
        assert_eq!(v.region_saving.value, "2825.00");
        let own = present(Lang::En, "¥", &i, &o, None).unwrap();
        assert_eq!(
            (
                own.committed.value.as_str(),
                own.region_saving.value.as_str()
            ),
            ("4", "1000.00")
        );
        // H100 at N_t = 1: E = 4 − 1 = 3, deserved ⌈2 490 / 730⌉ = ⌈3.41⌉ = 4 = capability.
        let (_, all) = fleet_actions(Lang::En, &i, &f).unwrap();
        let h = &all[1];
        assert_eq!(
            (h.committed, h.elastic_max, h.deserved(), h.capability()),
            (1, 3, 4, 4)
        );
        let a = &all[0];
        // A100: deserved ⌈3 320 / 730⌉ = ⌈4.55⌉ = 5, capability 6.
        assert_eq!((a.deserved(), a.capability()), (5, 6));
        assert_eq!(v.volcano, FLEET_VOLCANO_GOLDEN);
        assert!(v.keda.contains("  name: gpu-elastic-h100\n"), "{}", v.keda);
        assert!(
            v.keda.contains(
                "query: \"clamp_min(sum(gpu_queue_demand_gpus{gpu_type=\\\"A100\\\"}) - 3, 0)\""
            ),
            "{}",
            v.keda
        );
        assert!(
            v.keda.contains("    name: \"gpu-elastic-workers-a100\"\n"),
            "{}",
            v.keda
        );
        let tau = o.spot.as_ref().unwrap().interval_hours.unwrap();
        assert_eq!(
            v.slurm,
            FLEET_SLURM_GOLDEN.replace(
                "{tau}",
                &crate::core::action::duration_words(checkpoint_minutes(tau) * 60)
            )
        );
        assert_eq!(
            v.scope,
            "For the whole fleet: one Queue, ScaledObject and QOS per GPU type, each at what the shared budget buys. The figures above are A100's; the second region saves the fleet ¥2,825.00 a month."
        );
        assert_eq!(
            v.gist,
            "Volcano, KEDA and Slurm configuration for 2 GPU types: 4 GPUs guaranteed, up to 6 elastic GPUs; A100's elastic pool: second region."
        );
        let zh = present(Lang::Zh, "¥", &i, &o, Some(scope)).unwrap();
        assert_eq!(
            zh.volcano, v.volcano,
            "configuration text is the same in both languages"
        );
        assert_eq!(zh.scope, "为整个机群配置：每种卡型一个 Queue、ScaledObject 与 QOS，各按共用预算买下的包月数。上面的数字为 A100 的；第二区域为机群每月节省 ¥2,825.00。");
        assert!(
            zh.gist
                .contains("（2 种卡型）：保证 4 张卡，弹性最多 6 张卡；A100 的弹性池：第二区域"),
            "{}",
            zh.gist
        );
        // The selected type's figures follow the selection.
        let hv = in_fleet(&i, &o, &f, 1).unwrap();
        assert_eq!(hv.volcano, v.volcano);
        // The Markdown export carries the scope and the fleet's snippets.
        let md = markdown(Lang::En, "¥", &i, &o, Some(scope));
        assert!(
            md.contains(&v.scope) && md.contains("gpu-plan-h100"),
            "{md}"
        );
    }

    #[test]
    fn a_fleet_snippet_parses_as_one_document_per_type() {
        let (i, o, f) = fleet_example();
        let v = in_fleet(&i, &o, &f, 0).unwrap();
        for (text, kind) in [(&v.volcano, "Queue"), (&v.keda, "ScaledObject")] {
            let docs: Vec<yaml_serde::Value> = yaml_serde::Deserializer::from_str(text)
                .map(|d| serde::Deserialize::deserialize(d).unwrap())
                .collect();
            assert_eq!(docs.len(), 2, "{text}");
            for (d, ty) in docs.iter().zip(["A100", "H100"]) {
                assert_eq!(d["kind"].as_str(), Some(kind));
                assert_eq!(
                    d["metadata"]["annotations"]["gpu-rent-planner/gpu-type"].as_str(),
                    Some(ty)
                );
            }
        }
    }

    #[test]
    fn a_failing_type_names_itself() {
        let (i, o, mut f) = fleet_example();
        f.rows[1].action = Err(crate::core::error::InputError::new(
            crate::core::error::Field::UsageHistory,
            crate::core::error::Problem::Empty,
        ));
        let e = in_fleet(&i, &o, &f, 0).unwrap_err();
        assert!(e.starts_with("H100: "), "{e}");
    }

    const FLEET_VOLCANO_GOLDEN: &str = r#"apiVersion: scheduling.volcano.sh/v1beta1
kind: Queue
metadata:
  name: gpu-plan-a100
  annotations:
    gpu-rent-planner/gpu-type: "A100"
    gpu-rent-planner/elastic-region: "alt"
spec:
  weight: 1
  reclaimable: true
  guarantee:
    resource:
      nvidia.com/gpu: "3"
  deserved:
    nvidia.com/gpu: "5"
  capability:
    nvidia.com/gpu: "6"
---
apiVersion: scheduling.volcano.sh/v1beta1
kind: Queue
metadata:
  name: gpu-plan-h100
  annotations:
    gpu-rent-planner/gpu-type: "H100"
    gpu-rent-planner/elastic-region: "home"
spec:
  weight: 1
  reclaimable: true
  guarantee:
    resource:
      nvidia.com/gpu: "1"
  deserved:
    nvidia.com/gpu: "4"
  capability:
    nvidia.com/gpu: "4"
"#;

    const FLEET_SLURM_GOLDEN: &str = r#"# A100 fixed partition: 3 GPUs committed. Elastic partition: up to 3 GPUs in the cloud.
sacctmgr -i add qos gpu-fixed-a100 GrpTRES=gres/gpu:a100=3
sacctmgr -i add qos gpu-elastic-a100 GrpTRES=gres/gpu:a100=3
# H100 fixed partition: 1 GPU committed. Elastic partition: up to 3 GPUs in the cloud.
sacctmgr -i add qos gpu-fixed-h100 GrpTRES=gres/gpu:h100=1
sacctmgr -i add qos gpu-elastic-h100 GrpTRES=gres/gpu:h100=3
# slurm.conf (one GPU per node; adjust the node names, and the gres types to gres.conf)
PartitionName=fixed-a100 Nodes=a100-fixed-[1-3] QOS=gpu-fixed-a100 Default=YES State=UP
PartitionName=elastic-a100 Nodes=a100-cloud-[1-3] QOS=gpu-elastic-a100 SuspendTime=1800 State=UP
PartitionName=fixed-h100 Nodes=h100-fixed-[1-1] QOS=gpu-fixed-h100 State=UP
PartitionName=elastic-h100 Nodes=h100-cloud-[1-3] QOS=gpu-elastic-h100 SuspendTime=1800 State=UP
# Auto-stop: stop an on-demand instance after 30 minutes with no GPU activity.
# A100 spot: checkpoint every {tau} (the spot card's interval).
# H100 spot: checkpoint every {tau} (the spot card's interval).
# A100 elastic region: alt ""
"#;
}
