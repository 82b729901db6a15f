//! PTX ISA versions, target architectures, and the requirements a form or
//! qualifier places on them ("PTX ISA Notes" and "Target ISA Notes" of each
//! section of PTX ISA 9.7.9).

use std::fmt;

/// A PTX ISA version, as written in `.version 8.7`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PtxVersion {
    pub major: u32,
    pub minor: u32,
}

impl PtxVersion {
    pub const fn new(major: u32, minor: u32) -> Self {
        PtxVersion { major, minor }
    }

    /// Parses `8.7`.
    pub fn parse(text: &str) -> Option<Self> {
        let (a, b) = text.trim().split_once('.')?;
        Some(PtxVersion {
            major: a.parse().ok()?,
            minor: b.parse().ok()?,
        })
    }
}

impl fmt::Display for PtxVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// The suffix of a target name: `sm_90`, `sm_90a` (architecture-specific),
/// `sm_100f` (family-specific).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TargetSuffix {
    Plain,
    Family,
    Arch,
}

/// A target architecture, as written in `.target sm_90a`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Target {
    pub number: u32,
    pub suffix: TargetSuffix,
}

impl Target {
    pub const fn sm(number: u32) -> Self {
        Target {
            number,
            suffix: TargetSuffix::Plain,
        }
    }

    /// Parses `sm_90`, `sm_90a`, `sm_100f`.
    pub fn parse(text: &str) -> Option<Self> {
        let rest = text.trim().strip_prefix("sm_")?;
        let (digits, suffix) = match rest.as_bytes().last()? {
            b'a' => (&rest[..rest.len() - 1], TargetSuffix::Arch),
            b'f' => (&rest[..rest.len() - 1], TargetSuffix::Family),
            _ => (rest, TargetSuffix::Plain),
        };
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        Some(Target {
            number: digits.parse().ok()?,
            suffix,
        })
    }

    /// The family of a target: `sm_100`, `sm_103` are both family 10.
    pub fn family(self) -> u32 {
        self.number / 10
    }

    /// The lowest PTX ISA version that knows this target (PTX ISA 12,
    /// "Release notes"; ptxas rejects `.target` otherwise): the lowest
    /// version ptxas 13.0 accepts for each target
    /// (corpus/legality/target-versions.tsv, tools/legality/target_versions.sh;
    /// a test keeps them equal).
    pub fn min_ptx(self) -> PtxVersion {
        let v = |a, b| PtxVersion::new(a, b);
        let base = match self.number {
            0..=11 => v(1, 0),
            12 | 13 => v(1, 2),
            14..=29 => v(2, 0),
            30 => v(3, 0),
            35 => v(3, 1),
            31..=34 | 50 => v(4, 0),
            36..=49 | 51 | 52 => v(4, 1),
            53..=59 => v(4, 2),
            60..=69 => v(5, 0),
            70 | 71 => v(6, 0),
            72..=74 => v(6, 1),
            75..=79 => v(6, 3),
            80 => v(7, 0),
            86 => v(7, 1),
            87 => v(7, 4),
            89 | 90 => v(7, 8),
            100 | 101 => v(8, 6),
            120 => v(8, 7),
            103 | 121 => v(8, 8),
            110 => v(9, 0),
            _ => v(9, 0),
        };
        match (self.number, self.suffix) {
            (90, TargetSuffix::Arch) => v(8, 0),
            (_, TargetSuffix::Family) => base.max(v(8, 8)),
            _ => base,
        }
    }
}

impl Target {
    /// Whether ptxas compiles a module of `.target self` for `-arch arch`
    /// (corpus/legality/arch-matrix.tsv: ptxas 13.0 on a trivial module
    /// of each of 23 targets for each of 23 architectures, every verdict
    /// as this gives): a plain target for any architecture of the same or a
    /// higher number ("SM version specified by .target is higher than
    /// default SM version assumed" otherwise), an `a` target for itself only
    /// ("cannot be compiled to future architecture"), an `f` target for the
    /// architectures of its family from its number on.
    pub fn compiles_for(self, arch: Target) -> bool {
        match self.suffix {
            TargetSuffix::Plain => arch.number >= self.number,
            TargetSuffix::Arch => arch == self,
            TargetSuffix::Family => arch.number >= self.number && arch.family() == self.family(),
        }
    }

    /// Whether ptxas 13.0 takes `-arch self` at all: sm_75 on, and not
    /// sm_101/sm_101a (renamed sm_110 in PTX ISA 9.0); `Value 'sm_70' is
    /// not defined for option 'gpu-name'` otherwise.
    pub fn is_ptxas_arch(self) -> bool {
        self.number >= 75 && self.number != 101
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self.suffix {
            TargetSuffix::Plain => "",
            TargetSuffix::Family => "f",
            TargetSuffix::Arch => "a",
        };
        write!(f, "sm_{}{}", self.number, s)
    }
}

/// What a form or qualifier needs: a lowest PTX version and a set of
/// targets (any of them).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Requirement {
    pub ptx: Option<PtxVersion>,
    /// Alternatives; empty means any target.
    pub targets: Vec<Target>,
}

impl Requirement {
    /// Parses the catalogue's requirement notation: an optional PTX version
    /// then target alternatives separated by `|` or spaces:
    /// `"7.8 sm_90"`, `"8.6 sm_100a|sm_101a"`, `"sm_89"`, `"3.1"`.
    pub fn parse(text: &str) -> Option<Self> {
        let mut req = Requirement::default();
        for word in text.split(|c: char| c == '|' || c.is_whitespace() || c == ',') {
            if word.is_empty() {
                continue;
            }
            if word.starts_with("sm_") {
                req.targets.push(Target::parse(word)?);
            } else {
                req.ptx = Some(PtxVersion::parse(word)?);
            }
        }
        Some(req)
    }

    /// Whether `target` is one of the targets this requirement allows.
    ///
    /// `sm_90` allows every target from sm_90 up; `sm_90a` only sm_90a;
    /// `sm_100f` the family-specific and architecture-specific targets of
    /// family 10 from sm_100 up.
    pub fn allows_target(&self, target: Target) -> bool {
        self.targets.is_empty() || self.targets.iter().any(|t| target_satisfies(target, *t))
    }

    pub fn allows_ptx(&self, ptx: PtxVersion) -> bool {
        self.ptx.is_none_or(|need| ptx >= need)
    }

    /// The targets written as in the spec: `sm_90`, `sm_100a or sm_101a`.
    pub fn targets_text(&self) -> String {
        let names: Vec<String> = self.targets.iter().map(|t| t.to_string()).collect();
        names.join(" or ")
    }
}

fn target_satisfies(have: Target, need: Target) -> bool {
    match need.suffix {
        TargetSuffix::Plain => have.number >= need.number,
        TargetSuffix::Arch => have == need,
        TargetSuffix::Family => {
            have.suffix != TargetSuffix::Plain
                && have.family() == need.family()
                && have.number >= need.number
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_targets_and_versions() {
        assert_eq!(Target::parse("sm_90a").unwrap().suffix, TargetSuffix::Arch);
        assert_eq!(Target::parse("sm_100f").unwrap().number, 100);
        assert!(Target::parse("sm_").is_none());
        assert!(Target::parse("sm_9x").is_none());
        assert_eq!(PtxVersion::parse("8.7"), Some(PtxVersion::new(8, 7)));
    }

    #[test]
    fn target_rules() {
        let r = Requirement::parse("7.8 sm_90").unwrap();
        assert!(r.allows_target(Target::parse("sm_100a").unwrap()));
        assert!(!r.allows_target(Target::parse("sm_89").unwrap()));
        let a = Requirement::parse("sm_90a").unwrap();
        assert!(!a.allows_target(Target::parse("sm_90").unwrap()));
        assert!(!a.allows_target(Target::parse("sm_100a").unwrap()));
        let f = Requirement::parse("sm_100f").unwrap();
        assert!(f.allows_target(Target::parse("sm_103a").unwrap()));
        assert!(!f.allows_target(Target::parse("sm_100").unwrap()));
        assert!(!f.allows_target(Target::parse("sm_120a").unwrap()));
    }
}
