//! GPU instance types of Amazon EC2: how many GPUs of which model each size has, so a cloud
//! bill's instance hours become GPU-hours (`core::ingest` reads AWS Cost and Usage Reports).
//!
//! **Dated 2026-12-03.** Source: the Amazon EC2 accelerated computing instance pages
//! (<https://docs.aws.amazon.com/ec2/latest/instancetypes/ac.html>, "Accelerated computing
//! instances" of the EC2 User Guide: family, GPU model and up to how many GPUs per family),
//! with the per-size GPU counts cross-checked against public tables that copy them (RAPIDS'
//! AWS page, torchx's `named_resources_aws.py`). Exact sizes only: a size not listed here
//! (a new one, fractional-GPU `g6f`, an accelerator that is not a GPU) is never guessed, the
//! reader names it and leaves its rows out. Pure, natively tested.

/// One instance size with GPUs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GpuInstance {
    /// The instance type as AWS writes it (`p4d.24xlarge`).
    pub instance_type: &'static str,
    /// GPUs per instance.
    pub gpus: u32,
    /// The GPU model, as the type list shows it (`A100 40GB`): its
    /// `core::ingest::normalize_type` key is the planned type (`a100-40g`).
    pub model: &'static str,
}

/// When the table was written.
pub const TABLE_DATE: &str = "2026-12-03";
/// Where it comes from.
pub const TABLE_SOURCE: &str = "https://docs.aws.amazon.com/ec2/latest/instancetypes/ac.html";

const fn gi(instance_type: &'static str, gpus: u32, model: &'static str) -> GpuInstance {
    GpuInstance {
        instance_type,
        gpus,
        model,
    }
}

/// Every EC2 instance size with NVIDIA or AMD GPUs, by family.
pub const GPU_INSTANCES: &[GpuInstance] = &[
    // P2: NVIDIA K80 (each GPU one of a board's two).
    gi("p2.xlarge", 1, "K80"),
    gi("p2.8xlarge", 8, "K80"),
    gi("p2.16xlarge", 16, "K80"),
    // P3: NVIDIA V100 16 GB; P3dn: V100 32 GB.
    gi("p3.2xlarge", 1, "V100 16GB"),
    gi("p3.8xlarge", 4, "V100 16GB"),
    gi("p3.16xlarge", 8, "V100 16GB"),
    gi("p3dn.24xlarge", 8, "V100 32GB"),
    // P4d: A100 40 GB; P4de: A100 80 GB.
    gi("p4d.24xlarge", 8, "A100 40GB"),
    gi("p4de.24xlarge", 8, "A100 80GB"),
    // P5: H100 80 GB; P5e / P5en: H200.
    gi("p5.4xlarge", 1, "H100 80GB"),
    gi("p5.48xlarge", 8, "H100 80GB"),
    gi("p5e.48xlarge", 8, "H200"),
    gi("p5en.48xlarge", 8, "H200"),
    // P6-B200: B200.
    gi("p6-b200.48xlarge", 8, "B200"),
    // G3 / G3s: Tesla M60.
    gi("g3s.xlarge", 1, "M60"),
    gi("g3.4xlarge", 1, "M60"),
    gi("g3.8xlarge", 2, "M60"),
    gi("g3.16xlarge", 4, "M60"),
    // G4dn: T4.
    gi("g4dn.xlarge", 1, "T4"),
    gi("g4dn.2xlarge", 1, "T4"),
    gi("g4dn.4xlarge", 1, "T4"),
    gi("g4dn.8xlarge", 1, "T4"),
    gi("g4dn.16xlarge", 1, "T4"),
    gi("g4dn.12xlarge", 4, "T4"),
    gi("g4dn.metal", 8, "T4"),
    // G4ad: AMD Radeon Pro V520.
    gi("g4ad.xlarge", 1, "Radeon Pro V520"),
    gi("g4ad.2xlarge", 1, "Radeon Pro V520"),
    gi("g4ad.4xlarge", 1, "Radeon Pro V520"),
    gi("g4ad.8xlarge", 2, "Radeon Pro V520"),
    gi("g4ad.16xlarge", 4, "Radeon Pro V520"),
    // G5: A10G.
    gi("g5.xlarge", 1, "A10G"),
    gi("g5.2xlarge", 1, "A10G"),
    gi("g5.4xlarge", 1, "A10G"),
    gi("g5.8xlarge", 1, "A10G"),
    gi("g5.16xlarge", 1, "A10G"),
    gi("g5.12xlarge", 4, "A10G"),
    gi("g5.24xlarge", 4, "A10G"),
    gi("g5.48xlarge", 8, "A10G"),
    // G5g: T4G (Graviton host).
    gi("g5g.xlarge", 1, "T4G"),
    gi("g5g.2xlarge", 1, "T4G"),
    gi("g5g.4xlarge", 1, "T4G"),
    gi("g5g.8xlarge", 1, "T4G"),
    gi("g5g.16xlarge", 2, "T4G"),
    gi("g5g.metal", 2, "T4G"),
    // G6 / Gr6: L4.
    gi("g6.xlarge", 1, "L4"),
    gi("g6.2xlarge", 1, "L4"),
    gi("g6.4xlarge", 1, "L4"),
    gi("g6.8xlarge", 1, "L4"),
    gi("g6.16xlarge", 1, "L4"),
    gi("g6.12xlarge", 4, "L4"),
    gi("g6.24xlarge", 4, "L4"),
    gi("g6.48xlarge", 8, "L4"),
    gi("gr6.4xlarge", 1, "L4"),
    gi("gr6.8xlarge", 1, "L4"),
    // G6e: L40S.
    gi("g6e.xlarge", 1, "L40S"),
    gi("g6e.2xlarge", 1, "L40S"),
    gi("g6e.4xlarge", 1, "L40S"),
    gi("g6e.8xlarge", 1, "L40S"),
    gi("g6e.16xlarge", 1, "L40S"),
    gi("g6e.12xlarge", 4, "L40S"),
    gi("g6e.24xlarge", 4, "L40S"),
    gi("g6e.48xlarge", 8, "L40S"),
];

/// The GPU instance `instance_type` (ASCII case and surrounding spaces ignored), if listed.
pub fn lookup(instance_type: &str) -> Option<&'static GpuInstance> {
    let t = instance_type.trim();
    GPU_INSTANCES
        .iter()
        .find(|g| g.instance_type.eq_ignore_ascii_case(t))
}

/// The family of an instance type: the letters before its first digit (`g4dn.xlarge` → `g`,
/// `p6-b200.48xlarge` → `p`, `m7i.large` → `m`, `trn1.2xlarge` → `trn`).
pub fn family(instance_type: &str) -> &str {
    let t = instance_type.trim();
    let end = t
        .bytes()
        .position(|b| !b.is_ascii_alphabetic())
        .unwrap_or(t.len());
    &t[..end]
}

/// An instance type of a GPU family (`p`, `g`, `gr`) that the table does not list: the
/// reader names it rather than guessing its GPUs. Other families (`m`, `c`, `trn`, `inf`,
/// `dl`, `f`, …) have no GPUs.
pub fn gpu_family(instance_type: &str) -> bool {
    matches!(
        family(instance_type).to_ascii_lowercase().as_str(),
        "p" | "g" | "gr"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::ingest::normalize_type;

    #[test]
    fn the_issue_examples() {
        let p4d = lookup("p4d.24xlarge").unwrap();
        assert_eq!((p4d.gpus, p4d.model), (8, "A100 40GB"));
        assert_eq!(normalize_type(p4d.model), "a100-40g");
        let p4de = lookup("p4de.24xlarge").unwrap();
        assert_eq!(
            (p4de.gpus, normalize_type(p4de.model).as_str()),
            (8, "a100")
        );
        assert_eq!(normalize_type(lookup("p5.48xlarge").unwrap().model), "h100");
        assert_eq!(lookup("g5.48xlarge").unwrap().gpus, 8);
        assert_eq!(lookup("g5.12xlarge").unwrap().gpus, 4);
        assert_eq!(normalize_type(lookup("g5.xlarge").unwrap().model), "a10g");
        assert_eq!(normalize_type(lookup("g6.xlarge").unwrap().model), "l4");
        assert_eq!(normalize_type(lookup("g6e.xlarge").unwrap().model), "l40s");
        assert_eq!(
            normalize_type(lookup("p3.2xlarge").unwrap().model),
            "v100-16g"
        );
        assert_eq!(
            normalize_type(lookup("p3dn.24xlarge").unwrap().model),
            "v100"
        );
        assert_eq!(normalize_type(lookup("g4dn.metal").unwrap().model), "t4");
        assert_eq!(lookup("g4dn.metal").unwrap().gpus, 8);
    }

    #[test]
    fn case_and_spaces_ignored_but_never_guessed() {
        assert_eq!(lookup(" P4D.24XLARGE ").unwrap().gpus, 8);
        assert!(lookup("p4d.12xlarge").is_none());
        assert!(lookup("g6f.large").is_none());
        assert!(lookup("m5.large").is_none());
        assert!(lookup("").is_none());
    }

    #[test]
    fn families() {
        for (t, f) in [
            ("g4dn.xlarge", "g"),
            ("p6-b200.48xlarge", "p"),
            ("trn1.2xlarge", "trn"),
            ("", ""),
        ] {
            assert_eq!(family(t), f);
        }
        for t in ["g6f.large", "p7.48xlarge", "gr6.4xlarge"] {
            assert!(gpu_family(t), "{t}");
        }
        for t in ["m7i.large", "inf2.xlarge", "trn1.32xlarge", "dl1.24xlarge"] {
            assert!(!gpu_family(t), "{t}");
        }
    }

    #[test]
    fn table_is_consistent() {
        for (i, g) in GPU_INSTANCES.iter().enumerate() {
            assert!(g.gpus >= 1 && g.gpus <= 16, "{g:?}");
            assert!(gpu_family(g.instance_type), "{g:?}");
            assert_eq!(g.instance_type, g.instance_type.to_ascii_lowercase());
            assert!(
                GPU_INSTANCES[..i]
                    .iter()
                    .all(|h| h.instance_type != g.instance_type),
                "duplicate {g:?}"
            );
            // Every model is its own planned type (one key per model).
            assert!(!normalize_type(g.model).is_empty());
        }
    }
}
