//! GPU types of a mixed fleet: type names folded to a matching key, one hourly series per
//! type, and the user's merges and renames of types. See the module doc of
//! [`crate::core::ingest`] for the rules.

use std::collections::HashMap;
use std::fmt;
use std::ops::Range;

use super::resample::TypeHours;
use super::{excerpt, MAX_SERIES};
use crate::core::series::UsageSeries;
use crate::core::zone::Zone;

/// At most this many GPU types are read per type (the fleet planner's limit). More: the
/// history is read as one series and [`super::ParseReport::too_many_types`] says why.
pub const MAX_TYPES: usize = 8;
/// Type labels named in a [`TooManyTypes`] message.
pub const MAX_LISTED_TYPES: usize = 5;
/// Longest matching key, in characters (keys come from untrusted text).
const MAX_KEY_CHARS: usize = 40;
/// Characters of a label looked at to build its key.
const MAX_LABEL_SCAN: usize = 120;

/// One GPU type's hourly history. Every type of a [`super::Parsed`] shares the same hours
/// (`series.timestamps`), and their sum hour by hour is `Parsed::series`.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TypedSeries {
    /// Matching key ([`normalize_type`]): `a100`, `4090`, `a100-40g`.
    pub key: String,
    /// The type as first written in the input (at most 40 characters).
    pub label: String,
    pub series: UsageSeries,
    /// Hours in `series` (the same for every type).
    pub hours: usize,
    /// Largest hourly value (GPUs busy).
    pub peak: f64,
    /// Hours from the first to the last hour of the history without data of this type:
    /// those in `series` read as 0 (listed in `no_data`), plus, with
    /// [`super::GapPolicy::Exclude`], the hours no type has (left out of every series).
    pub gap_hours: usize,
    /// Index ranges of `series.values` without data of this type (read as 0).
    pub no_data: Vec<Range<usize>>,
}

/// What carried the GPU types in the input.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum TypeSource {
    /// A column of type names (long table, job log, nvidia-smi `name`).
    Column(super::ValueColumn),
    /// A wide table: each value column's header names a type.
    Headers,
    /// A label of each Prometheus series (`modelName`, …).
    Label(String),
}

/// More distinct GPU types than [`MAX_TYPES`]: the history was read as one series.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TooManyTypes {
    /// Distinct type keys found.
    pub found: usize,
    /// The first [`MAX_LISTED_TYPES`] labels as written (each at most 40 characters).
    pub labels: Vec<String>,
}

impl fmt::Display for TooManyTypes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} GPU types found ({}{}); at most {MAX_TYPES} are planned per type, so the \
             history was read as one series (all types summed)",
            self.found,
            self.labels.join(", "),
            if self.found > self.labels.len() {
                ", …"
            } else {
                ""
            }
        )
    }
}

/// Why a merge or rename of types was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TypeEditError {
    /// No type has this key.
    UnknownType { key: String },
    /// A type cannot be merged into itself.
    SameType,
    /// The two types are not on the same hours (not from one parse).
    DifferentTimelines,
    /// A label must not be empty.
    EmptyLabel,
}

impl fmt::Display for TypeEditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TypeEditError::UnknownType { key } => write!(f, "no GPU type {key:?}"),
            TypeEditError::SameType => write!(f, "a GPU type cannot be merged into itself"),
            TypeEditError::DifferentTimelines => {
                write!(f, "the two GPU types do not cover the same hours")
            }
            TypeEditError::EmptyLabel => write!(f, "the GPU type name is empty"),
        }
    }
}

impl std::error::Error for TypeEditError {}

/// Merge type `from_key` into `into_key` (the user says `A100-40G` is `A100`): values summed
/// hour by hour, peak, hours and gaps recomputed (an hour is a gap of the merged type when
/// neither had data). `into` keeps its key, label and place; `from` is removed.
pub fn merge_types(
    types: &mut Vec<TypedSeries>,
    from_key: &str,
    into_key: &str,
) -> Result<(), TypeEditError> {
    if from_key == into_key {
        return Err(TypeEditError::SameType);
    }
    let find = |types: &[TypedSeries], key: &str| {
        types
            .iter()
            .position(|t| t.key == key)
            .ok_or_else(|| TypeEditError::UnknownType { key: excerpt(key) })
    };
    let f = find(types, from_key)?;
    let i = find(types, into_key)?;
    if types[f].series.values.len() != types[i].series.values.len()
        || types[f].series.timestamps != types[i].series.timestamps
    {
        return Err(TypeEditError::DifferentTimelines);
    }
    let from = types.remove(f);
    let i = if f < i { i - 1 } else { i };
    let into = &mut types[i];
    // Hours every type lacks (left out of the series): the same for both.
    let outside = into.gap_hours.saturating_sub(range_len(&into.no_data));
    for (a, b) in into.series.values.iter_mut().zip(&from.series.values) {
        *a += b;
    }
    into.no_data = intersect(&into.no_data, &from.no_data);
    into.hours = into.series.values.len();
    into.peak = peak(&into.series.values);
    into.gap_hours = outside + range_len(&into.no_data);
    Ok(())
}

/// Rename the type `key` (its label; the key stays, so merges and saved choices still find
/// it). The label is trimmed and cut to 40 characters.
pub fn rename_type(types: &mut [TypedSeries], key: &str, label: &str) -> Result<(), TypeEditError> {
    let label = excerpt(label);
    if label.is_empty() {
        return Err(TypeEditError::EmptyLabel);
    }
    let t = types
        .iter_mut()
        .find(|t| t.key == key)
        .ok_or_else(|| TypeEditError::UnknownType { key: excerpt(key) })?;
    t.label = label;
    Ok(())
}

fn range_len(r: &[Range<usize>]) -> usize {
    r.iter().map(|r| r.len()).sum()
}

/// Index ranges in both lists (each sorted, disjoint).
fn intersect(a: &[Range<usize>], b: &[Range<usize>]) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        let s = a[i].start.max(b[j].start);
        let e = a[i].end.min(b[j].end);
        if s < e {
            out.push(s..e);
        }
        if a[i].end < b[j].end {
            i += 1;
        } else {
            j += 1;
        }
    }
    out
}

pub(crate) fn peak(v: &[f64]) -> f64 {
    v.iter().copied().fold(0.0, f64::max)
}

/// The typed series of one parse, from the resampled hours of each type.
pub(crate) fn typed_series(
    table: &TypeTable,
    order: &[u16],
    hours: Vec<TypeHours>,
    starts: Option<&[i64]>,
    zone: &Zone,
) -> Vec<TypedSeries> {
    order
        .iter()
        .zip(hours)
        .map(|(&t, h)| {
            let t = usize::from(t);
            TypedSeries {
                key: table.keys[t].clone(),
                label: table.labels[t].clone(),
                hours: h.values.len(),
                peak: peak(&h.values),
                gap_hours: h.gap_hours,
                no_data: h.no_data,
                series: UsageSeries {
                    values: h.values,
                    timestamps: starts.map(<[i64]>::to_vec),
                    utc_offset_minutes: zone.base_minutes,
                    offset_changes: zone.changes.clone(),
                },
            }
        })
        .collect()
}

/// Raw forms compared byte by byte before the map is asked.
const LINEAR_FORMS: usize = 16;

/// The types met in one input: each raw cell text is normalised once; later rows compare
/// their raw bytes against the few forms seen so far (no allocation per row).
#[derive(Debug, Default)]
pub(crate) struct TypeTable {
    forms: Vec<(Box<str>, u16)>,
    more_forms: HashMap<Box<str>, u16>,
    pub keys: Vec<String>,
    pub labels: Vec<String>,
    by_key: HashMap<String, u16>,
}

impl TypeTable {
    /// The type of a (non-empty) cell; `None` past [`MAX_SERIES`] distinct types.
    pub fn intern(&mut self, raw: &str) -> Option<u16> {
        for (f, t) in &self.forms {
            if f.as_bytes() == raw.as_bytes() {
                return Some(*t);
            }
        }
        if let Some(&t) = self.more_forms.get(raw) {
            return Some(t);
        }
        let key = normalize_type(raw);
        let t = match self.by_key.get(&key) {
            Some(&t) => t,
            None => {
                if self.keys.len() >= MAX_SERIES {
                    return None;
                }
                let t = self.keys.len() as u16;
                self.by_key.insert(key.clone(), t);
                self.keys.push(key);
                self.labels.push(excerpt(raw));
                t
            }
        };
        if self.forms.len() < LINEAR_FORMS {
            self.forms.push((raw.into(), t));
        } else if self.more_forms.len() < MAX_SERIES {
            self.more_forms.insert(raw.into(), t);
        }
        Some(t)
    }

    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// The types in `present` (table order), or why there are too many.
    pub fn select(&self, present: &[bool]) -> Result<Vec<u16>, TooManyTypes> {
        let order: Vec<u16> = (0..self.len() as u16)
            .filter(|&t| present.get(usize::from(t)).copied().unwrap_or(false))
            .collect();
        if order.len() > MAX_TYPES {
            return Err(TooManyTypes {
                found: order.len(),
                labels: order
                    .iter()
                    .take(MAX_LISTED_TYPES)
                    .map(|&t| self.labels[usize::from(t)].clone())
                    .collect(),
            });
        }
        Ok(order)
    }
}

/// `order` (selected table types) as a map: table type → position (`u8::MAX`: not selected).
pub(crate) fn positions(order: &[u16], n: usize) -> Vec<u8> {
    let mut pos = vec![u8::MAX; n];
    for (k, &t) in order.iter().enumerate() {
        pos[usize::from(t)] = k as u8;
    }
    pos
}

// ---------------------------------------------------------------------------------------
// Type names.

/// Words that name a vendor or a product line: dropped (`NVIDIA`, `GeForce`, `Tesla`, …).
const VENDOR: &[&str] = &[
    "nvidia",
    "geforce",
    "tesla",
    "quadro",
    "amd",
    "radeon",
    "instinct",
    "huawei",
    "ascend",
    "intel",
    "昇腾",
    "华为",
    "华为昇腾",
    "英伟达",
];
/// Vendor words also dropped when glued to the model (`RTX4090`, `Ascend910B`).
const GLUED: &[&str] = &["rtx", "gtx", "ascend", "nvidia", "tesla"];
/// Words that say nothing about the model: dropped (`A100 GPUs` is `A100`).
const NOISE: &[&str] = &[
    "gpu",
    "gpus",
    "card",
    "cards",
    "busy",
    "used",
    "usage",
    "count",
    "num",
    "generation",
    "卡",
    "卡数",
    "台数",
    "数量",
    "显卡",
];
/// Form factors and interconnects: dropped (`-SXM4`, `-PCIE`, ` NVL`).
const FORM: &[&str] = &["pcie", "pci", "nvl", "nvlink", "oam", "hgx", "mxm"];

/// Full-width ASCII (`Ａ１００`) to ASCII.
fn fold_width(c: char) -> char {
    match c {
        '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
        _ => c,
    }
}

/// Lowercase alphanumeric runs; a change between ASCII and other scripts also splits
/// (`昇腾910B` → `昇腾`, `910b`).
fn tokens(label: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut cur_ascii = true;
    for c in label.chars().take(MAX_LABEL_SCAN).map(fold_width) {
        if !is_word_char(c) {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            continue;
        }
        if !cur.is_empty() && c.is_ascii() != cur_ascii {
            out.push(std::mem::take(&mut cur));
        }
        cur_ascii = c.is_ascii();
        cur.push(c.to_ascii_lowercase());
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

fn all_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// `80gb`, `40g`, `24gib` → the size in GB.
fn memory_token(t: &str) -> Option<u32> {
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    let unit = &t[digits..];
    if digits == 0 || digits > 4 || !matches!(unit, "g" | "gb" | "gib") {
        return None;
    }
    t[..digits].parse().ok().filter(|&g| g > 0)
}

/// `hbm3`, `hbm2e`, `gddr6x`: memory technology, dropped.
fn memory_kind(t: &str) -> bool {
    t.starts_with("hbm") || t.starts_with("gddr")
}

/// `sxm`, `sxm4`, `sxm5`.
fn sxm(t: &str) -> bool {
    t.strip_prefix("sxm")
        .is_some_and(|r| r.bytes().all(|b| b.is_ascii_digit()))
}

/// What a glued vendor prefix may leave: a model number (`4090`) or letter + number (`a6000`).
fn model_start(rest: &str) -> bool {
    let b = rest.as_bytes();
    match b {
        [d, ..] if d.is_ascii_digit() => true,
        [l, d, ..] => l.is_ascii_alphabetic() && d.is_ascii_digit(),
        _ => false,
    }
}

struct Parts {
    /// The model, folded: `a100`, `4090`, `6000ada`, `l40s`.
    base: String,
    /// A memory size written in the label (GB).
    memory: Option<u32>,
    /// A vendor or product-line word was dropped.
    vendor: bool,
}

fn parts(label: &str) -> Parts {
    let toks = tokens(label);
    let mut kept: Vec<&str> = Vec::new();
    let mut memory = None;
    let mut vendor = false;
    let n = toks.len();
    let mut i = 0;
    while i < n {
        let mut t = toks[i].as_str();
        i += 1;
        'glued: loop {
            for p in GLUED {
                if let Some(rest) = t.strip_prefix(p) {
                    if model_start(rest) {
                        t = rest;
                        vendor = true;
                        continue 'glued;
                    }
                }
            }
            break;
        }
        if VENDOR.contains(&t) {
            vendor = true;
            continue;
        }
        // `RTX 4090` (dropped), but `TITAN RTX` (the model's last word, kept).
        if matches!(t, "rtx" | "gtx") && i < n {
            vendor = true;
            continue;
        }
        if NOISE.contains(&t) || FORM.contains(&t) || sxm(t) || memory_kind(t) {
            continue;
        }
        if let Some(g) = memory_token(t) {
            memory = Some(g);
            continue;
        }
        if all_digits(t) && !kept.is_empty() {
            // `80 GB`; or `A100 80` after a known model.
            let unit_next = toks
                .get(i)
                .is_some_and(|u| matches!(u.as_str(), "g" | "gb" | "gib"));
            let known = standard_memory(&kept.concat()).is_some();
            if unit_next || known {
                if let Some(g) = t.parse::<u32>().ok().filter(|g| (1..=2048).contains(g)) {
                    memory = Some(g);
                    i += usize::from(unit_next);
                    continue;
                }
            }
        }
        kept.push(t);
    }
    let base = if kept.is_empty() {
        // Only vendor or noise words (`NVIDIA`, `GPUs`): the whole label, folded.
        toks.concat()
    } else {
        kept.concat()
    };
    Parts {
        base,
        memory,
        vendor,
    }
}

/// The usual memory sizes (GB) of a known model: a label naming one of them matches the
/// model without a size (`A100 80GB` = `A100`); another size is a distinct type.
fn standard_memory(base: &str) -> Option<&'static [u32]> {
    Some(match base {
        "a100" | "a800" | "h100" | "h800" => &[80],
        "h200" => &[141],
        "h20" => &[96],
        "b100" => &[192],
        "b200" => &[180, 192],
        "gb200" => &[186, 192],
        "v100" | "v100s" => &[32],
        "t4" | "a2" | "p100" => &[16],
        "l4" | "a10" | "a10g" | "a30" | "p40" | "k80" | "3090" | "3090ti" | "4090" | "4090d" => {
            &[24]
        }
        "l20" | "l40" | "l40s" | "a40" | "a6000" | "6000ada" => &[48],
        "a16" | "mi210" | "910b" => &[64],
        "5090" => &[32],
        "4080" | "4080super" => &[16],
        "mi250" | "mi250x" => &[128],
        "mi300x" => &[192],
        "mi325x" => &[256],
        _ => return None,
    })
}

/// The matching key of a GPU type name: lowercase; spaces, `_`, `-` and other punctuation
/// folded; vendor words (`NVIDIA`, `GeForce`, `RTX`, `Tesla`, `AMD Instinct`, `Ascend`),
/// form factors (`SXM4`, `PCIe`, `NVL`), memory kinds (`HBM3`) and words like `GPUs`
/// dropped. A memory size (`80GB`, `40G`) is dropped when it is the model's usual size,
/// else kept as `-<n>g`: `NVIDIA A100-SXM4-80GB` → `a100`, `A100-40G` → `a100-40g`,
/// `NVIDIA GeForce RTX 4090` → `4090`, `RTX 6000 Ada Generation` → `6000ada`.
pub fn normalize_type(label: &str) -> String {
    let p = parts(label);
    let mut key = p.base;
    if let Some(g) = p.memory {
        if !standard_memory(&key).is_some_and(|s| s.contains(&g)) {
            key.push_str(&format!("-{g}g"));
        }
    }
    if key.chars().count() > MAX_KEY_CHARS {
        key = key.chars().take(MAX_KEY_CHARS).collect();
    }
    key
}

/// `letters`, `number`, `rest` of a folded model: `mi300x` → (`mi`, 300, `x`).
fn split_model(base: &str) -> Option<(&str, u32, &str)> {
    let l = base.bytes().take_while(u8::is_ascii_lowercase).count();
    let d = base[l..].bytes().take_while(u8::is_ascii_digit).count();
    if d == 0 || d > 5 {
        return None;
    }
    let n = base[l..l + d].parse().ok()?;
    Some((&base[..l], n, &base[l + d..]))
}

/// A known model (folded, size dropped).
fn known_model(base: &str) -> bool {
    if matches!(base, "titanrtx" | "titanv" | "titanx" | "titanxp") {
        return true;
    }
    let Some((letters, n, rest)) = split_model(base) else {
        return false;
    };
    let consumer = |n: u32| {
        let (th, h, t, o) = (n / 1000, n / 100 % 10, n / 10 % 10, n % 10);
        (1..=5).contains(&th)
            && n < 10_000
            && o == 0
            && ((h == 0 && (5..=9).contains(&t)) || (th == 1 && h == 6 && (5..=6).contains(&t)))
    };
    match letters {
        "" => {
            (consumer(n) && matches!(rest, "" | "ti" | "d" | "super" | "tisuper"))
                || (matches!(n, 4000 | 4500 | 5000 | 5880 | 6000) && rest == "ada")
                || (matches!(n, 910 | 310)
                    && matches!(
                        rest,
                        "" | "a" | "b" | "c" | "p" | "b1" | "b2" | "b3" | "b4" | "pro"
                    ))
        }
        "a" => {
            matches!(
                n,
                2 | 10 | 16 | 30 | 40 | 100 | 800 | 4000 | 4500 | 5000 | 5500 | 6000
            ) && matches!(rest, "" | "g")
        }
        "h" => matches!(n, 20 | 100 | 200 | 800) && rest.is_empty(),
        "b" => matches!(n, 100 | 200 | 300) && rest.is_empty(),
        "gb" => matches!(n, 200 | 300) && rest.is_empty(),
        "v" => n == 100 && matches!(rest, "" | "s"),
        "p" => matches!(n, 4 | 40 | 100) && rest.is_empty(),
        "t" => n == 4 && rest.is_empty(),
        "k" => n == 80 && rest.is_empty(),
        "m" => matches!(n, 40 | 60) && rest.is_empty(),
        "l" => matches!(n, 4 | 20 | 40) && matches!(rest, "" | "s"),
        "mi" => (50..=399).contains(&n) && matches!(rest, "" | "x" | "a"),
        "mlu" => (100..=999).contains(&n) && rest.is_empty(),
        "gaudi" => (1..=3).contains(&n) && rest.is_empty(),
        _ => false,
    }
}

/// A wide-table header that names a GPU type: a known model (`A100`, `H20`, `L40S`, `T4`,
/// `4090`, `RTX 6000 Ada`, `MI300X`, `910B`, …, in any of the forms [`normalize_type`]
/// folds), or a vendor word with a model number (`NVIDIA Foo9`, `RTX 8000`). Not `gpus`,
/// `value`, `busy`, `team-a`, `cluster1`, `p95`.
pub fn looks_like_gpu_type(header: &str) -> bool {
    let p = parts(header);
    if known_model(&p.base) {
        return true;
    }
    let b = p.base.as_bytes();
    let digits = b.iter().filter(|c| c.is_ascii_digit()).count();
    let letters = b.iter().filter(|c| c.is_ascii_alphabetic()).count();
    p.vendor
        && b.len() <= 12
        && b.iter().all(u8::is_ascii_alphanumeric)
        && (digits >= 3 || (digits >= 1 && letters >= 1))
        && !p.base.starts_with("gpu")
}

/// Folded header text: lowercase without spaces, `_`, `-`, `.`.
fn fold_header(h: &str) -> String {
    h.chars()
        .filter(|c| !matches!(c, ' ' | '_' | '-' | '.' | '\t'))
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// A letter or digit of a type name: ASCII letters and digits, and any other character but
/// CJK punctuation (`、`, `。`, `（` …; full-width ASCII was folded before). Not
/// `char::is_alphanumeric` / `to_lowercase`: their Unicode tables cost the page ~12 KB, and
/// type names are Latin letters, digits and Chinese words (`昇腾910B`).
fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric()
        || (!c.is_ascii() && !matches!(c, '\u{3000}'..='\u{303F}' | '\u{FF00}'..='\u{FFEF}'))
}

/// Headers that always name a GPU-type column.
const TYPE_HEADERS: &[&str] = &[
    "gputype",
    "gpumodel",
    "gpuname",
    "gpuproduct",
    "modelname",
    "cardtype",
    "accelerator",
    "acceleratortype",
    "卡型",
    "型号",
    "gpu型号",
    "显卡型号",
    "gpu类型",
    "卡类型",
    "显卡类型",
];
/// Headers that name a GPU-type column when its cells look like GPU types (a job log's
/// `type` may be `training` / `inference`).
const GENERIC_TYPE_HEADERS: &[&str] = &["type", "model", "name", "product", "类型"];

/// Whether `header` names a GPU-type column: `Some(true)` always, `Some(false)` when the
/// cells look like GPU types, `None` not.
pub(crate) fn type_header(header: &str) -> Option<bool> {
    let h = fold_header(header);
    if TYPE_HEADERS.contains(&h.as_str()) {
        Some(true)
    } else if GENERIC_TYPE_HEADERS.contains(&h.as_str()) {
        Some(false)
    } else {
        None
    }
}

/// Prometheus labels that name the GPU type of a series, by preference.
pub(crate) const TYPE_LABELS: &[&str] = &[
    "modelName",
    "gpu_model",
    "gpu_type",
    "label_nvidia_com_gpu_product",
    "nvidia_com_gpu_product",
    "gpu_product",
    "model_name",
];
