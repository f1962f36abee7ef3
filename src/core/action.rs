//! § 18 From plan to action: the configuration that makes a cluster follow the plan.
//! Volcano `Queue` (guarantee N ≤ deserved ≤ capability N + E), KEDA `ScaledObject` for the
//! elastic pool (0…E replicas, released after the idle timeout, a Prometheus trigger on the
//! queued work above what the N committed GPUs carry), Slurm QOS and partition lines with the
//! idle auto-stop rule in plain words and the spot checkpoint interval.
//!
//! In a mixed fleet (§ 16) each GPU type gets its own Queue, ScaledObject and QOS at the N_t
//! the shared budget buys ([`TypeTag`]): the names carry the type's [`slug`], the KEDA query
//! filters a bare metric by `gpu_type`, Slurm counts `gres/gpu:<slug>`.
//!
//! Free text (Prometheus address, queue metric, target name, region note) is somebody
//! else's text when a link brought it: it is cleaned ([`clean_text`]) and always written as
//! a double-quoted YAML scalar ([`yaml_quoted`]), so no value can add a key, a line or a
//! document.

use super::error::InputError;
use super::money::Money;
use super::plan::{PlanInputs, PlanOutputs};
use super::pools::ThreePools;
use super::region::{region_plan, RegionInputs, RegionPlan};

/// Longest free-text value kept (characters).
pub const MAX_TEXT_CHARS: usize = 200;

/// Default Prometheus address, queue metric and target name (placeholders to edit).
pub const DEFAULT_PROMETHEUS: &str = "http://prometheus.monitoring.svc:9090";
pub const DEFAULT_METRIC: &str = "gpu_queue_demand_gpus";
pub const DEFAULT_TARGET: &str = "gpu-elastic-workers";

/// Somebody else's text as this planner keeps it: control characters (line breaks, tabs,
/// bidi controls, BOM) become spaces, runs of spaces one space, trimmed, cut to `max` chars.
pub fn clean_text(s: &str, max: usize) -> String {
    let mut out = String::new();
    let mut space = false;
    for c in s.chars() {
        let c = if c.is_control() || is_format_char(c) {
            ' '
        } else {
            c
        };
        if c.is_whitespace() {
            space = !out.is_empty();
            continue;
        }
        if space {
            out.push(' ');
            space = false;
        }
        out.push(c);
    }
    out.chars()
        .take(max)
        .collect::<String>()
        .trim_end()
        .to_string()
}

/// Invisible format characters that could reorder or hide text (bidi, zero-width, BOM,
/// line and paragraph separators).
fn is_format_char(c: char) -> bool {
    matches!(c,
        '\u{200B}'..='\u{200F}' | '\u{2028}'..='\u{202E}' | '\u{2060}'..='\u{2069}' | '\u{FEFF}' | '\u{FFF9}'..='\u{FFFB}')
}

/// A YAML double-quoted scalar of any text: `"`, `\` and every non-printable character are
/// escaped, so the value is one scalar whatever it holds (YAML 1.1 and 1.2).
pub fn yaml_quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || (0x7F..=0x9F).contains(&(c as u32)) => {
                out.push_str(&format!("\\x{:02X}", c as u32))
            }
            c if is_format_char(c) || c == '\u{FFFE}' || c == '\u{FFFF}' => {
                out.push_str(&format!("\\u{:04X}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// What the snippets are made from.
#[derive(Debug, Clone, PartialEq)]
pub struct ActionInputs {
    /// N: committed GPUs.
    pub committed: u32,
    /// E: the most elastic GPUs the plan allows.
    pub elastic_max: u32,
    /// ⌈mean GPUs busy⌉ (Volcano's deserved share, kept within N…N + E).
    pub mean_ceil: u32,
    /// Idle time before an elastic GPU is released, seconds (§ 13 idle timeout).
    pub idle_seconds: u32,
    /// § 8 τ, hours (`None`: spot reclaims never, no checkpoint rule).
    pub checkpoint_interval_hours: Option<f64>,
    /// Where the elastic pool runs (`home` or `alt`, § 17) and the region note.
    pub elastic_region: &'static str,
    pub region_note: String,
    pub prometheus: String,
    pub metric: String,
    pub target: String,
    /// The GPU type in a fleet (`None`: one type, the one-type names).
    pub gpu_type: Option<TypeTag>,
}

/// A fleet type as the snippets name it.
#[derive(Debug, Clone, PartialEq)]
pub struct TypeTag {
    /// The name as shown, cleaned (`clean_text`): one line.
    pub name: String,
    /// [`slug`], made unique in the fleet: Kubernetes names, Slurm QOS, partitions, gres type.
    pub slug: String,
    /// The fleet's first type with committed GPUs: its fixed partition is Slurm's default.
    pub default_partition: bool,
}

/// A name usable in Kubernetes object names (DNS-1123 label: `a-z`, `0-9`, `-`, at most
/// 63 characters in all) and in Slurm: ASCII letters lowercased, digits kept, every other
/// run of characters one `-`, trimmed, at most 30 characters; `fallback` when nothing is left.
pub fn slug(name: &str, fallback: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    out.truncate(30);
    let out = out.trim_end_matches('-');
    if out.is_empty() {
        fallback.to_string()
    } else {
        out.to_string()
    }
}

/// Each name's [`slug`], made unique (`a100`, `a100-2`, …); `type-K` for a name without
/// ASCII letters or digits.
pub fn unique_slugs<'a>(names: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (k, name) in names.into_iter().enumerate() {
        let base = slug(name, &format!("type-{}", k + 1));
        let mut s = base.clone();
        let mut n = 2;
        while out.contains(&s) {
            s = format!("{base}-{n}");
            n += 1;
        }
        out.push(s);
    }
    out
}

/// What §§ 17–18 read of one type's plan at `committed` GPUs (plain figures: a fleet row keeps
/// it, so planning a fleet builds no region plan and no snippet; `plan_action` does, on the page).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TypeBasis {
    pub committed: u32,
    /// § 3 peak and mean GPUs busy.
    pub peak: f64,
    pub mean: f64,
    /// § 8: s_eff, k and τ.
    pub spot_effective: f64,
    pub spot_factor: f64,
    pub checkpoint_interval_hours: Option<f64>,
    /// § 9 at `committed`: the elastic GPU-hours and their cost per pool.
    pub on_demand_gpu_hours: f64,
    pub spot_gpu_hours: f64,
    pub on_demand_cost: Money,
    pub spot_cost: Money,
    /// The type's own prices: r, r', s'.
    pub on_demand_price: f64,
    pub alt_on_demand_price: f64,
    pub alt_spot_price: f64,
}

impl TypeBasis {
    /// One plan (`i`, `o`) at `committed` GPUs with its three pools at that N (§ 9). One
    /// type: the baseline's N and the plan's pools; in a fleet: N_t and the pools at N_t.
    pub fn of(
        i: &PlanInputs,
        o: &PlanOutputs,
        committed: u32,
        pools: &ThreePools,
    ) -> Result<Self, InputError> {
        let spot = o.spot.as_ref().map_err(Clone::clone)?;
        let load = o.load_duration.as_ref().map_err(Clone::clone)?;
        Ok(Self {
            committed,
            peak: load.peak,
            mean: load.mean,
            spot_effective: spot.effective_price,
            spot_factor: spot.factor,
            checkpoint_interval_hours: spot.interval_hours,
            on_demand_gpu_hours: pools.on_demand_gpu_hours,
            spot_gpu_hours: pools.spot_gpu_hours,
            on_demand_cost: pools.on_demand,
            spot_cost: pools.spot,
            on_demand_price: i.on_demand_price,
            alt_on_demand_price: i.alt_on_demand_price,
            alt_spot_price: i.alt_spot_price,
        })
    }
}

/// §§ 17–18 for one type's basis; `i` gives what a fleet shares (g, x, the burst quota, the
/// idle timeout and the free text).
pub fn plan_action(
    i: &PlanInputs,
    b: &TypeBasis,
) -> Result<(RegionPlan, ActionInputs), InputError> {
    let region = region_plan(&RegionInputs {
        home_on_demand: b.on_demand_price,
        home_spot_effective: b.spot_effective,
        spot_factor: b.spot_factor,
        alt_on_demand: b.alt_on_demand_price,
        alt_spot: b.alt_spot_price,
        gb_per_gpu_hour: i.data_gb_per_gpu_hour,
        transfer_per_gb: i.transfer_price_per_gb,
        on_demand_gpu_hours: b.on_demand_gpu_hours,
        spot_gpu_hours: b.spot_gpu_hours,
        home_on_demand_cost: b.on_demand_cost,
        home_spot_cost: b.spot_cost,
    })?;
    let mean = b.mean;
    let committed = b.committed;
    let action = ActionInputs {
        committed,
        elastic_max: elastic_max(i.burst_elastic_gpus, b.peak, committed),
        mean_ceil: if mean.is_finite() && mean > 0.0 {
            mean.ceil().min(u32::MAX as f64) as u32
        } else {
            0
        },
        idle_seconds: (i.hidden_idle_timeout_hours * 3600.0)
            .round()
            .clamp(0.0, 86_400.0) as u32,
        checkpoint_interval_hours: b.checkpoint_interval_hours,
        elastic_region: region.elastic.region.key(),
        region_note: i.region_note.clone(),
        prometheus: i.prometheus_address.clone(),
        metric: i.queue_metric.clone(),
        target: i.target_name.clone(),
        gpu_type: None,
    };
    Ok((region, action))
}

impl ActionInputs {
    pub fn capability(&self) -> u32 {
        self.committed.saturating_add(self.elastic_max)
    }

    /// guarantee N ≤ deserved ≤ capability N + E.
    pub fn deserved(&self) -> u32 {
        self.mean_ceil.clamp(self.committed, self.capability())
    }

    fn text_or(s: &str, default: &str) -> String {
        let s = clean_text(s, MAX_TEXT_CHARS);
        if s.is_empty() {
            default.to_string()
        } else {
            s
        }
    }

    pub fn prometheus_or_default(&self) -> String {
        Self::text_or(&self.prometheus, DEFAULT_PROMETHEUS)
    }
    pub fn metric_or_default(&self) -> String {
        Self::text_or(&self.metric, DEFAULT_METRIC)
    }
    pub fn target_or_default(&self) -> String {
        Self::text_or(&self.target, DEFAULT_TARGET)
    }
    fn note(&self) -> String {
        clean_text(&self.region_note, MAX_TEXT_CHARS)
    }
}

/// Elastic maximum E: the larger of the burst card's elastic quota and the peak above N
/// (⌈peak⌉ − N, 0 when the peak is under N).
pub fn elastic_max(burst_quota: u32, peak: f64, committed: u32) -> u32 {
    let peak = if peak.is_finite() && peak > 0.0 {
        peak.ceil().min(u32::MAX as f64) as u32
    } else {
        0
    };
    burst_quota.max(peak.saturating_sub(committed))
}

/// The object's name: `base`, and `base-<slug>` for a fleet type.
fn object_name(base: &str, a: &ActionInputs) -> String {
    match &a.gpu_type {
        Some(t) => format!("{base}-{}", t.slug),
        None => base.to_string(),
    }
}

/// A Kubernetes object up to its `spec:`: `head` (its `apiVersion` and `kind` lines), then
/// its `metadata`: its name and the plan's annotations (the GPU type in a fleet, the elastic
/// region, and the region note when there is one, each a double-quoted scalar).
fn object_head(head: &str, name: &str, a: &ActionInputs) -> String {
    let mut y = head.to_string();
    y.push_str("metadata:\n");
    y.push_str(&format!("  name: {}\n", object_name(name, a)));
    y.push_str("  annotations:\n");
    if let Some(t) = &a.gpu_type {
        y.push_str(&format!(
            "    gpu-rent-planner/gpu-type: {}\n",
            yaml_quoted(&t.name)
        ));
    }
    y.push_str(&format!(
        "    gpu-rent-planner/elastic-region: {}\n",
        yaml_quoted(a.elastic_region)
    ));
    let note = a.note();
    if !note.is_empty() {
        y.push_str(&format!(
            "    gpu-rent-planner/region-note: {}\n",
            yaml_quoted(&note)
        ));
    }
    y.push_str("spec:\n");
    y
}

/// Documents one after another (`---` between them).
fn documents(list: &[ActionInputs], doc: fn(&ActionInputs) -> String) -> String {
    list.iter().map(doc).collect::<Vec<_>>().join("---\n")
}

/// Volcano `Queue` YAML.
pub fn volcano_queue(a: &ActionInputs) -> String {
    let head = "apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\n";
    let mut y = object_head(head, "gpu-plan", a);
    y.push_str("  weight: 1\n");
    y.push_str("  reclaimable: true\n");
    y.push_str("  guarantee:\n");
    y.push_str("    resource:\n");
    y.push_str(&format!("      nvidia.com/gpu: \"{}\"\n", a.committed));
    y.push_str("  deserved:\n");
    y.push_str(&format!("    nvidia.com/gpu: \"{}\"\n", a.deserved()));
    y.push_str("  capability:\n");
    y.push_str(&format!("    nvidia.com/gpu: \"{}\"\n", a.capability()));
    y
}

/// One Volcano `Queue` per type (one type: [`volcano_queue`]).
pub fn volcano_queues(list: &[ActionInputs]) -> String {
    documents(list, volcano_queue)
}

/// A metric name alone (no selector, no function): `[A-Za-z_:][A-Za-z0-9_:]*`.
fn bare_metric(m: &str) -> bool {
    let mut cs = m.chars();
    cs.next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == ':')
        && cs.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':')
}

/// A PromQL double-quoted string.
fn promql_quoted(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// The PromQL query of the KEDA trigger: queued GPUs beyond what the N committed GPUs carry.
/// For a fleet type a bare metric is filtered by its `gpu_type` label (an expression is
/// used as typed).
pub fn keda_query(a: &ActionInputs) -> String {
    let metric = a.metric_or_default();
    let metric = match &a.gpu_type {
        Some(t) if bare_metric(&metric) => {
            format!("{metric}{{gpu_type={}}}", promql_quoted(&t.name))
        }
        _ => metric,
    };
    format!("clamp_min(sum({metric}) - {}, 0)", a.committed)
}

/// KEDA `ScaledObject` YAML for the elastic pool (a fleet type scales its own target,
/// `<target>-<slug>`).
pub fn keda_scaled_object(a: &ActionInputs) -> String {
    let head = "apiVersion: keda.sh/v1alpha1\nkind: ScaledObject\n";
    let mut y = object_head(head, "gpu-elastic", a);
    y.push_str("  scaleTargetRef:\n");
    y.push_str(&format!(
        "    name: {}\n",
        yaml_quoted(&object_name(&a.target_or_default(), a))
    ));
    y.push_str("  minReplicaCount: 0\n");
    y.push_str(&format!("  maxReplicaCount: {}\n", a.elastic_max));
    y.push_str(&format!("  cooldownPeriod: {}\n", a.idle_seconds));
    y.push_str("  triggers:\n");
    y.push_str("    - type: prometheus\n");
    y.push_str("      metadata:\n");
    y.push_str(&format!(
        "        serverAddress: {}\n",
        yaml_quoted(&a.prometheus_or_default())
    ));
    y.push_str(&format!("        query: {}\n", yaml_quoted(&keda_query(a))));
    y.push_str("        threshold: \"1\"\n");
    y.push_str("        activationThreshold: \"0\"\n");
    y
}

/// One KEDA `ScaledObject` per type (one type: [`keda_scaled_object`]).
pub fn keda_scaled_objects(list: &[ActionInputs]) -> String {
    documents(list, keda_scaled_object)
}

/// "30 minutes", "1 hour 30 minutes", "45 seconds".
pub fn duration_words(seconds: u64) -> String {
    if seconds == 0 {
        return "0 minutes".into();
    }
    if seconds < 60 {
        return format!("{seconds} seconds");
    }
    let minutes = (seconds + 30) / 60;
    let (h, m) = (minutes / 60, minutes % 60);
    let unit = |n: u64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    match (h, m) {
        (0, m) => unit(m, "minute", "minutes"),
        (h, 0) => unit(h, "hour", "hours"),
        (h, m) => format!(
            "{} {}",
            unit(h, "hour", "hours"),
            unit(m, "minute", "minutes")
        ),
    }
}

fn gpus_words(n: u32) -> String {
    format!("{n} {}", if n == 1 { "GPU" } else { "GPUs" })
}

/// The spot checkpoint interval rounded to whole minutes (at least 1).
pub fn checkpoint_minutes(hours: f64) -> u64 {
    ((hours * 60.0).round() as u64).max(1)
}

/// What a comment of [`slurm_fleet`] calls a part of the plan: `alone` without a type name,
/// else the name (with its space), then `named`.
fn part(name: &str, alone: &str, named: &str) -> String {
    if name.is_empty() {
        alone.to_string()
    } else {
        format!("{name}{named}")
    }
}

/// Slurm QOS and partition lines, the auto-stop rule and the spot checkpoint interval.
pub fn slurm(a: &ActionInputs) -> String {
    slurm_fleet(std::slice::from_ref(a))
}

/// [`slurm`] for a fleet: a fixed and an elastic QOS and partition per type (counted in
/// `gres/gpu:<slug>`), then the shared auto-stop rule, each type's checkpoint interval and
/// elastic region.
pub fn slurm_fleet(list: &[ActionInputs]) -> String {
    let mut s = String::new();
    // (what the comment calls the type, the names' suffix, the TRES counted)
    let tag = |a: &ActionInputs| match &a.gpu_type {
        Some(t) => (
            format!("{} ", t.name),
            format!("-{}", t.slug),
            format!("gres/gpu:{}", t.slug),
        ),
        None => (String::new(), String::new(), "gres/gpu".to_string()),
    };
    for a in list {
        let (name, sfx, tres) = tag(a);
        let (n, e) = (a.committed, a.elastic_max);
        let fixed = part(&name, "Fixed partition", "fixed partition");
        s.push_str(&format!(
            "# {fixed}: {} committed. Elastic partition: up to {} in the cloud.\n",
            gpus_words(n),
            gpus_words(e)
        ));
        s.push_str(&format!(
            "sacctmgr -i add qos gpu-fixed{sfx} GrpTRES={tres}={n}\n"
        ));
        s.push_str(&format!(
            "sacctmgr -i add qos gpu-elastic{sfx} GrpTRES={tres}={e}\n"
        ));
    }
    let typed = list.iter().any(|a| a.gpu_type.is_some());
    s.push_str(if typed {
        "# slurm.conf (one GPU per node; adjust the node names, and the gres types to gres.conf)\n"
    } else {
        "# slurm.conf (one GPU per node; adjust the node names)\n"
    });
    for a in list {
        let (_, sfx, _) = tag(a);
        let (n, e) = (a.committed, a.elastic_max);
        let nodes = match &a.gpu_type {
            Some(t) => t.slug.clone(),
            None => "gpu".to_string(),
        };
        let default = match &a.gpu_type {
            Some(t) => t.default_partition,
            None => true,
        };
        if n > 0 {
            s.push_str(&format!(
                "PartitionName=fixed{sfx} Nodes={nodes}-fixed-[1-{n}] QOS=gpu-fixed{sfx}{} State=UP\n",
                if default { " Default=YES" } else { "" }
            ));
        }
        if e > 0 {
            s.push_str(&format!(
                "PartitionName=elastic{sfx} Nodes={nodes}-cloud-[1-{e}] QOS=gpu-elastic{sfx} SuspendTime={} State=UP\n",
                a.idle_seconds
            ));
        }
    }
    if let Some(first) = list.first() {
        s.push_str(&format!(
            "# Auto-stop: stop an on-demand instance after {} with no GPU activity.\n",
            duration_words(u64::from(first.idle_seconds))
        ));
    }
    for a in list {
        let (name, _, _) = tag(a);
        let spot = part(&name, "Spot", "spot");
        match a.checkpoint_interval_hours {
            Some(h) => s.push_str(&format!(
                "# {spot}: checkpoint every {} (the spot card's interval).\n",
                duration_words(checkpoint_minutes(h) * 60)
            )),
            None => s.push_str(&format!(
                "# {spot}: no checkpoint interval (no reclaims expected).\n"
            )),
        }
    }
    for a in list {
        let (name, _, _) = tag(a);
        let note = a.note();
        if a.elastic_region == "alt" || !note.is_empty() {
            let region = part(&name, "Elastic region", "elastic region");
            s.push_str(&format!(
                "# {region}: {} {}\n",
                a.elastic_region,
                yaml_quoted(&note)
            ));
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use yaml_serde::Value;

    /// The formulas-doc example (§ 18): the § 9 plan, N = 1, peak 3 → E = 2 (burst quota 0),
    /// mean 1.6875 → deserved 2, idle 30 min, τ = 2 h, elastic pool in the alt region.
    fn example() -> ActionInputs {
        ActionInputs {
            committed: 1,
            elastic_max: elastic_max(0, 3.0, 1),
            mean_ceil: 2,
            idle_seconds: 1800,
            checkpoint_interval_hours: Some(2.0),
            elastic_region: "alt",
            region_note: "Tianjin, 2 ms".into(),
            prometheus: String::new(),
            metric: String::new(),
            target: String::new(),
            gpu_type: None,
        }
    }

    fn parse(y: &str) -> Value {
        yaml_serde::from_str(y).unwrap_or_else(|e| panic!("{e}\n{y}"))
    }

    fn gpus(v: &Value) -> u32 {
        v["nvidia.com/gpu"].as_str().unwrap().parse().unwrap()
    }

    const VOLCANO_GOLDEN: &str = r#"apiVersion: scheduling.volcano.sh/v1beta1
kind: Queue
metadata:
  name: gpu-plan
  annotations:
    gpu-rent-planner/elastic-region: "alt"
    gpu-rent-planner/region-note: "Tianjin, 2 ms"
spec:
  weight: 1
  reclaimable: true
  guarantee:
    resource:
      nvidia.com/gpu: "1"
  deserved:
    nvidia.com/gpu: "2"
  capability:
    nvidia.com/gpu: "3"
"#;

    const KEDA_GOLDEN: &str = r#"apiVersion: keda.sh/v1alpha1
kind: ScaledObject
metadata:
  name: gpu-elastic
  annotations:
    gpu-rent-planner/elastic-region: "alt"
    gpu-rent-planner/region-note: "Tianjin, 2 ms"
spec:
  scaleTargetRef:
    name: "gpu-elastic-workers"
  minReplicaCount: 0
  maxReplicaCount: 2
  cooldownPeriod: 1800
  triggers:
    - type: prometheus
      metadata:
        serverAddress: "http://prometheus.monitoring.svc:9090"
        query: "clamp_min(sum(gpu_queue_demand_gpus) - 1, 0)"
        threshold: "1"
        activationThreshold: "0"
"#;

    const SLURM_GOLDEN: &str = r#"# Fixed partition: 1 GPU committed. Elastic partition: up to 2 GPUs in the cloud.
sacctmgr -i add qos gpu-fixed GrpTRES=gres/gpu=1
sacctmgr -i add qos gpu-elastic GrpTRES=gres/gpu=2
# slurm.conf (one GPU per node; adjust the node names)
PartitionName=fixed Nodes=gpu-fixed-[1-1] QOS=gpu-fixed Default=YES State=UP
PartitionName=elastic Nodes=gpu-cloud-[1-2] QOS=gpu-elastic SuspendTime=1800 State=UP
# Auto-stop: stop an on-demand instance after 30 minutes with no GPU activity.
# Spot: checkpoint every 2 hours (the spot card's interval).
# Elastic region: alt "Tianjin, 2 ms"
"#;

    #[test]
    fn golden_snippets_for_the_formulas_example() {
        let a = example();
        assert_eq!(a.elastic_max, 2);
        assert_eq!((a.committed, a.deserved(), a.capability()), (1, 2, 3));
        assert_eq!(volcano_queue(&a), VOLCANO_GOLDEN);
        assert_eq!(keda_scaled_object(&a), KEDA_GOLDEN);
        assert_eq!(slurm(&a), SLURM_GOLDEN);
    }

    #[test]
    fn volcano_parses_with_its_order_relations() {
        for (n, e, mean) in [(1, 2, 2), (0, 0, 0), (5, 0, 9), (3, 40, 1), (0, 7, 100)] {
            let a = ActionInputs {
                committed: n,
                elastic_max: e,
                mean_ceil: mean,
                ..example()
            };
            let v = parse(&volcano_queue(&a));
            assert_eq!(
                v["apiVersion"].as_str(),
                Some("scheduling.volcano.sh/v1beta1")
            );
            assert_eq!(v["kind"].as_str(), Some("Queue"));
            assert_eq!(v["spec"]["reclaimable"].as_bool(), Some(true));
            let g = gpus(&v["spec"]["guarantee"]["resource"]);
            let d = gpus(&v["spec"]["deserved"]);
            let c = gpus(&v["spec"]["capability"]);
            assert_eq!((g, c), (n, n + e));
            assert!(g <= d && d <= c, "{g} ≤ {d} ≤ {c}");
        }
    }

    #[test]
    fn keda_parses_with_its_fields() {
        let a = ActionInputs {
            prometheus: "http://prom:9090".into(),
            metric: "volcano_queue_pending{queue=\"gpu\"}".into(),
            target: "trainers".into(),
            ..example()
        };
        let v = parse(&keda_scaled_object(&a));
        assert_eq!(v["apiVersion"].as_str(), Some("keda.sh/v1alpha1"));
        assert_eq!(v["kind"].as_str(), Some("ScaledObject"));
        let s = &v["spec"];
        assert_eq!(s["scaleTargetRef"]["name"].as_str(), Some("trainers"));
        assert_eq!(s["minReplicaCount"].as_u64(), Some(0));
        assert_eq!(s["maxReplicaCount"].as_u64(), Some(2));
        assert_eq!(s["cooldownPeriod"].as_u64(), Some(1800));
        let t = &s["triggers"][0];
        assert_eq!(t["type"].as_str(), Some("prometheus"));
        assert_eq!(
            t["metadata"]["serverAddress"].as_str(),
            Some("http://prom:9090")
        );
        assert_eq!(
            t["metadata"]["query"].as_str(),
            Some("clamp_min(sum(volcano_queue_pending{queue=\"gpu\"}) - 1, 0)")
        );
        assert_eq!(t["metadata"]["threshold"].as_str(), Some("1"));
        assert!(s["minReplicaCount"].as_u64() <= s["maxReplicaCount"].as_u64());
    }

    const HOSTILE: [&str; 8] = [
        "x\"\nspec:\n  evil: true",
        "a: b",
        "'single' \\ back\\\"slash",
        "\u{2028}injected: 1\u{2029}\u{85}more: 2",
        "- item\n---\nkind: Secret",
        "&anchor *alias !!binary |",
        "#comment {flow: map} [seq]",
        "\u{202E}reversed\u{FEFF}\t\r\x07bell\x1b[31m",
    ];

    #[test]
    fn hostile_text_stays_one_scalar() {
        for h in HOSTILE {
            let a = ActionInputs {
                region_note: h.into(),
                prometheus: h.into(),
                metric: h.into(),
                target: h.into(),
                ..example()
            };
            let clean = clean_text(h, MAX_TEXT_CHARS);
            assert!(
                !clean.contains(['\n', '\r', '\u{2028}', '\u{85}']),
                "{clean:?}"
            );
            for y in [volcano_queue(&a), keda_scaled_object(&a)] {
                let v = parse(&y);
                let ann = v["metadata"]["annotations"].as_mapping().unwrap();
                assert_eq!(ann.len(), 2, "{y}");
                assert_eq!(
                    v["metadata"]["annotations"]["gpu-rent-planner/region-note"].as_str(),
                    Some(clean.as_str()),
                    "{y}"
                );
                // The same keys as the plain example: no key was added anywhere.
                let plain = parse(&if y.starts_with("apiVersion: keda") {
                    keda_scaled_object(&example())
                } else {
                    volcano_queue(&example())
                });
                assert_eq!(keys(&v), keys(&plain), "{y}");
            }
            let k = parse(&keda_scaled_object(&a));
            assert_eq!(
                k["spec"]["scaleTargetRef"]["name"].as_str(),
                Some(clean.as_str())
            );
            // The Slurm lines: no line was added by the text.
            assert_eq!(slurm(&a).lines().count(), SLURM_GOLDEN.lines().count());
        }
    }

    fn keys(v: &Value) -> Vec<String> {
        let mut out = Vec::new();
        fn walk(v: &Value, path: &str, out: &mut Vec<String>) {
            match v {
                Value::Mapping(m) => {
                    for (k, v) in m {
                        let p = format!("{path}/{}", k.as_str().unwrap_or("?"));
                        out.push(p.clone());
                        walk(v, &p, out);
                    }
                }
                Value::Sequence(s) => {
                    for (i, v) in s.iter().enumerate() {
                        walk(v, &format!("{path}/{i}"), out);
                    }
                }
                _ => {}
            }
        }
        walk(v, "", &mut out);
        out
    }

    #[test]
    fn quoting_round_trips_every_character_class() {
        let all: String = (0u32..0x3000)
            .chain([0xFEFF, 0xFFFE, 0xFFFF, 0x1F600])
            .filter_map(char::from_u32)
            .collect();
        let y = format!("k: {}\n", yaml_quoted(&all));
        let v = parse(&y);
        assert_eq!(v["k"].as_str(), Some(all.as_str()));
    }

    #[test]
    fn clean_text_cuts_and_folds() {
        assert_eq!(clean_text("  a\n\n b\tc  ", 10), "a b c");
        assert_eq!(
            clean_text(&"é".repeat(300), MAX_TEXT_CHARS).chars().count(),
            200
        );
        assert_eq!(clean_text("ab cd", 3), "ab");
        assert_eq!(clean_text("\u{202E}x\u{200B}y", 10), "x y");
    }

    #[test]
    fn elastic_max_and_durations() {
        assert_eq!(elastic_max(48, 4.0, 0), 48);
        assert_eq!(elastic_max(0, 3.2, 1), 3);
        assert_eq!(elastic_max(0, 0.5, 2), 0);
        assert_eq!(elastic_max(0, f64::NAN, 0), 0);
        assert_eq!(duration_words(1800), "30 minutes");
        assert_eq!(duration_words(3600), "1 hour");
        assert_eq!(duration_words(5400), "1 hour 30 minutes");
        assert_eq!(duration_words(45), "45 seconds");
        assert_eq!(checkpoint_minutes(5f64.sqrt()), 134);
        let no_elastic = ActionInputs {
            elastic_max: 0,
            committed: 0,
            checkpoint_interval_hours: None,
            elastic_region: "home",
            region_note: String::new(),
            ..example()
        };
        let s = slurm(&no_elastic);
        assert!(!s.contains("PartitionName"), "{s}");
        assert!(s.contains("no checkpoint interval"));
    }

    #[test]
    fn slugs_are_names_kubernetes_and_slurm_accept() {
        assert_eq!(slug("NVIDIA A100-SXM4-80GB", "t"), "nvidia-a100-sxm4-80gb");
        assert_eq!(slug("  RTX 4090 (24 GB) ", "t"), "rtx-4090-24-gb");
        assert_eq!(slug("训练卡", "type-1"), "type-1");
        assert_eq!(slug(&"A".repeat(50), "t").len(), 30);
        // Cut at 30, then no trailing '-'.
        assert_eq!(slug(&format!("{} b", "a".repeat(29)), "t"), "a".repeat(29));
        assert_eq!(
            unique_slugs(["A100 40G", "A100-40G", "训练", "L40S"]),
            ["a100-40g", "a100-40g-2", "type-3", "l40s"]
        );
    }

    #[test]
    fn a_hostile_type_name_stays_one_scalar_and_one_comment() {
        for h in HOSTILE {
            let tag = |k: usize| TypeTag {
                name: clean_text(h, MAX_TEXT_CHARS),
                slug: unique_slugs([h, h])[k].clone(),
                default_partition: k == 0,
            };
            let list: Vec<ActionInputs> = (0..2)
                .map(|k| ActionInputs {
                    gpu_type: Some(tag(k)),
                    ..example()
                })
                .collect();
            for y in [volcano_queues(&list), keda_scaled_objects(&list)] {
                let docs: Vec<Value> = yaml_serde::Deserializer::from_str(&y)
                    .map(|d| serde::Deserialize::deserialize(d).unwrap())
                    .collect();
                assert_eq!(docs.len(), 2, "{y}");
                for d in &docs {
                    assert_eq!(
                        d["metadata"]["annotations"]["gpu-rent-planner/gpu-type"].as_str(),
                        Some(clean_text(h, MAX_TEXT_CHARS).as_str())
                    );
                    let name = d["metadata"]["name"].as_str().unwrap();
                    assert!(
                        name.chars()
                            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
                        "{name}"
                    );
                }
            }
            let s = slurm_fleet(&list);
            for line in s.lines() {
                assert!(
                    line.starts_with('#')
                        || line.starts_with("sacctmgr ")
                        || line.starts_with("PartitionName="),
                    "{line:?}"
                );
            }
        }
    }
}
