//! The suite manifest (`manifest.yaml`), format `ptx-conform-suite/1`
//! (documented in docs/suite-format.md).

use serde::{Deserialize, Serialize};

/// The value of [`Manifest::format`].
pub const FORMAT: &str = "ptx-conform-suite/1";

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Manifest {
    /// Always [`FORMAT`].
    pub format: String,
    /// The program and version that wrote the suite.
    pub generator: String,
    /// The seed of the random vectors.
    pub seed: u64,
    /// The `--filter` patterns the suite was generated with (none: all).
    #[serde(default)]
    pub filter: Vec<String>,
    /// How many cases in all.
    pub cases: u64,
    pub groups: Vec<Group>,
}

/// One kernel launch over `cases` rows: row `i` of the input buffer is the
/// input of case `i`, row `i` of the output buffer its result.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Group {
    /// Unique in the suite: the form and the input set
    /// (`cvt.rn.f16.f32/edge`). Case `i` is `ID#i`.
    pub id: String,
    /// The instruction family (`cvt`, `prmt`, `shfl.sync`...).
    pub family: String,
    /// The instruction form under test (`cvt.rn.f16.f32`).
    pub form: String,
    /// The PTX ISA section that defines it (`9.7.9.21`).
    pub section: String,
    /// The PTX ISA version and target the kernel needs (`.version`,
    /// `.target`).
    pub ptx_version: String,
    pub target: String,
    /// Where the expectations were checked.
    pub provenance: Provenance,
    /// What else a reader should know about the expectations (a divergence
    /// seen on hardware, a rule followed).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
    /// The PTX file, relative to the suite folder, and its entry.
    pub kernel: String,
    pub entry: String,
    /// Launch geometry (x, y, z).
    pub grid: [u32; 3],
    pub block: [u32; 3],
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub cluster: [u32; 3],
    pub cases: u64,
    /// The binary file holding the input rows, then the expected rows, then
    /// (when `masked`) the don't-care rows, each `cases × row bytes`.
    pub data: String,
    pub input: Layout,
    pub output: Layout,
    /// Whether the data file has don't-care rows (1 bits are not compared).
    pub masked: bool,
    /// `undefined`: the spec leaves the behaviour of the group's cases
    /// undefined; an implementation passes them by reporting that
    /// (`conform run --include-undefined`). Absent: `defined`.
    #[serde(default, skip_serializing_if = "Expect::is_defined")]
    pub expect: Expect,
    /// For the groups at a precondition's edge (`conform gen
    /// --ub-boundary`): the precondition and the value on this side.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub boundary: Option<Boundary>,
    /// The tensor maps the kernel takes after `in` and `out`, each a
    /// `.param .align 64 .b8 mapK[128]` parameter, as fields in the text
    /// form of `ptx_semantics::tensor::MapText` (`base=in` or `base=out`
    /// plus an offset): each implementation encodes them its own way (the
    /// simulator in the model's encoding, a GPU through
    /// `cuTensorMapEncodeTiled`/`cuTensorMapEncodeIm2col`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tensor_maps: Vec<String>,
}

/// What a group's cases are expected to do.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Expect {
    /// Produce the expected rows.
    #[default]
    Defined,
    /// Undefined behaviour (or an undefined result): no row is expected.
    Undefined,
}

impl Expect {
    pub fn is_defined(&self) -> bool {
        *self == Expect::Defined
    }
}

/// The precondition a boundary group sits at one side of.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Boundary {
    /// The precondition's id (`cvta.to.shared::cta`), its PTX ISA section
    /// and the spec's sentence.
    pub precondition: String,
    pub section: String,
    pub rule: String,
    /// The operand or state the cases move (`a`, `src-size`), its value on
    /// this side and on the other, under the sm_90 window profile (the
    /// kernel reaches it from its input row, relative to an anchor: see
    /// the kernel's comment).
    pub var: String,
    pub value: u64,
    pub other: u64,
}

fn one() -> [u32; 3] {
    [1, 1, 1]
}

fn is_one(v: &[u32; 3]) -> bool {
    *v == [1, 1, 1]
}

impl Group {
    /// Bytes of the input buffer.
    pub fn input_bytes(&self) -> usize {
        self.cases as usize * self.input.row as usize
    }

    /// Bytes of the output buffer.
    pub fn output_bytes(&self) -> usize {
        self.cases as usize * self.output.row as usize
    }

    /// Bytes of the data file.
    pub fn data_bytes(&self) -> usize {
        self.input_bytes() + self.output_bytes() * (1 + self.masked as usize)
    }

    /// Threads in the launch.
    pub fn threads(&self) -> u64 {
        let n = |v: [u32; 3]| v.iter().map(|&x| x as u64).product::<u64>();
        n(self.grid) * n(self.block)
    }
}

/// Where expectations come from.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Provenance {
    /// The model's values, which agreed with a GPU on this form.
    Hardware,
    /// The model's values from the spec text alone (no GPU at hand runs
    /// the form, or the GPU departs from the spec there: see `note`).
    Spec,
}

impl Provenance {
    pub fn as_str(self) -> &'static str {
        match self {
            Provenance::Hardware => "hardware",
            Provenance::Spec => "spec",
        }
    }
}

/// The fields of one row of a buffer.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Layout {
    /// Bytes per row.
    pub row: u32,
    pub fields: Vec<Field>,
}

/// A field of a row: little-endian, `bytes` long at `offset`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Field {
    pub name: String,
    /// The PTX type the bits are read as (`f32`, `b32`, `e4m3x2`, `u16`).
    #[serde(rename = "type")]
    pub ty: String,
    pub offset: u32,
    pub bytes: u32,
}

impl Layout {
    /// Fields laid out in order, each aligned to its size; the row is
    /// padded to the largest.
    pub fn packed(fields: &[(&str, &str, u32)]) -> Layout {
        let mut offset = 0u32;
        let mut out = Vec::new();
        let mut align = 1;
        for &(name, ty, bytes) in fields {
            offset = offset.div_ceil(bytes) * bytes;
            out.push(Field {
                name: name.to_string(),
                ty: ty.to_string(),
                offset,
                bytes,
            });
            offset += bytes;
            align = align.max(bytes);
        }
        Layout {
            row: offset.div_ceil(align) * align,
            fields: out,
        }
    }

    /// A field's value in a row.
    pub fn read(&self, row: &[u8], f: &Field) -> u128 {
        let mut b = [0u8; 16];
        let s = f.offset as usize;
        b[..f.bytes as usize].copy_from_slice(&row[s..s + f.bytes as usize]);
        u128::from_le_bytes(b)
    }
}

/// Errors reading a manifest.
#[derive(Debug)]
pub struct ManifestError(pub String);

impl std::fmt::Display for ManifestError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ManifestError {}

impl Manifest {
    /// Reads `DIR/manifest.yaml` and checks it: the format, unique ids,
    /// data files of the declared sizes, launches with enough threads.
    pub fn read(dir: &std::path::Path) -> Result<Manifest, ManifestError> {
        let path = dir.join("manifest.yaml");
        let text = std::fs::read_to_string(&path)
            .map_err(|e| ManifestError(format!("{}: {e}", path.display())))?;
        let m: Manifest = serde_yaml_ng::from_str(&text).map_err(|e| {
            let at = e
                .location()
                .map(|l| format!(":{}:{}", l.line(), l.column()))
                .unwrap_or_default();
            ManifestError(format!("{}{at}: {e}", path.display()))
        })?;
        if m.format != FORMAT {
            return Err(ManifestError(format!(
                "{}: format `{}` is not {FORMAT}",
                path.display(),
                m.format
            )));
        }
        let mut ids = std::collections::HashSet::new();
        for g in &m.groups {
            let bad =
                |why: String| ManifestError(format!("{}: group `{}`: {why}", path.display(), g.id));
            if !ids.insert(&g.id) {
                return Err(bad("the id is used twice".into()));
            }
            if g.threads() < g.cases {
                return Err(bad(format!(
                    "{} cases but the launch has {} threads",
                    g.cases,
                    g.threads()
                )));
            }
            for f in g.input.fields.iter().chain(&g.output.fields) {
                if f.offset + f.bytes > g.input.row.max(g.output.row) || f.bytes > 16 {
                    return Err(bad(format!("field `{}` lies outside its row", f.name)));
                }
            }
            let data = dir.join(&g.data);
            let len = std::fs::metadata(&data)
                .map_err(|e| bad(format!("{}: {e}", data.display())))?
                .len();
            if len != g.data_bytes() as u64 {
                return Err(bad(format!(
                    "{} has {len} bytes, the layout says {}",
                    data.display(),
                    g.data_bytes()
                )));
            }
        }
        Ok(m)
    }
}
