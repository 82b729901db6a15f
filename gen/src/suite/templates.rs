//! The Tera templates, one per instruction family, built into the binary.

use std::sync::OnceLock;

const TEMPLATES: &[(&str, &str)] = &[
    ("header.ptx", include_str!("../../templates/header.ptx")),
    ("prologue.ptx", include_str!("../../templates/prologue.ptx")),
    ("cvt.ptx", include_str!("../../templates/cvt.ptx.tera")),
    (
        "cvt_exhaustive.ptx",
        include_str!("../../templates/cvt_exhaustive.ptx.tera"),
    ),
    ("prmt.ptx", include_str!("../../templates/prmt.ptx.tera")),
    ("mov.ptx", include_str!("../../templates/mov.ptx.tera")),
    (
        "mov_plain.ptx",
        include_str!("../../templates/mov_plain.ptx.tera"),
    ),
    (
        "mov_vec.ptx",
        include_str!("../../templates/mov_vec.ptx.tera"),
    ),
    (
        "mov_sreg.ptx",
        include_str!("../../templates/mov_sreg.ptx.tera"),
    ),
    ("shfl.ptx", include_str!("../../templates/shfl.ptx.tera")),
    ("module.ptx", include_str!("../../templates/module.ptx")),
    ("ld.ptx", include_str!("../../templates/ld.ptx.tera")),
    (
        "ld_param.ptx",
        include_str!("../../templates/ld_param.ptx.tera"),
    ),
    ("st.ptx", include_str!("../../templates/st.ptx.tera")),
    (
        "isspacep.ptx",
        include_str!("../../templates/isspacep.ptx.tera"),
    ),
    ("cvta.ptx", include_str!("../../templates/cvta.ptx.tera")),
    (
        "cp_async.ptx",
        include_str!("../../templates/cp_async.ptx.tera"),
    ),
    (
        "cluster.ptx",
        include_str!("../../templates/cluster.ptx.tera"),
    ),
    (
        "boundary.ptx",
        include_str!("../../templates/boundary.ptx.tera"),
    ),
    (
        "bulk_cta.ptx",
        include_str!("../../templates/bulk_cta.ptx.tera"),
    ),
    (
        "bulk_cluster.ptx",
        include_str!("../../templates/bulk_cluster.ptx.tera"),
    ),
    (
        "bulk_reduce.ptx",
        include_str!("../../templates/bulk_reduce.ptx.tera"),
    ),
    (
        "st_async.ptx",
        include_str!("../../templates/st_async.ptx.tera"),
    ),
    (
        "st_bulk.ptx",
        include_str!("../../templates/st_bulk.ptx.tera"),
    ),
    (
        "mbarrier.ptx",
        include_str!("../../templates/mbarrier.ptx.tera"),
    ),
    (
        "tensor.ptx",
        include_str!("../../templates/tensor.ptx.tera"),
    ),
    (
        "tensormap_replace.ptx",
        include_str!("../../templates/tensormap_replace.ptx.tera"),
    ),
];

fn tera() -> &'static tera::Tera {
    static T: OnceLock<tera::Tera> = OnceLock::new();
    T.get_or_init(|| {
        let mut t = tera::Tera::default();
        t.autoescape_on(Vec::<&str>::new());
        t.add_raw_templates(TEMPLATES.iter().copied())
            .expect("the built-in templates parse");
        t
    })
}

/// Renders template `name` with `ctx` (a serializable struct).
pub fn render(name: &str, ctx: &impl serde::Serialize) -> String {
    let ctx = tera::Context::from_serialize(ctx).expect("a template context is a map");
    tera()
        .render(name, &ctx)
        .unwrap_or_else(|e| panic!("template {name}: {e:?}"))
}

/// What every kernel's header and prologue read.
#[derive(serde::Serialize)]
pub struct Common<'a> {
    pub id: &'a str,
    pub form: &'a str,
    pub section: &'a str,
    pub version: &'a str,
    pub target: &'a str,
    pub entry: &'a str,
    pub cases: u64,
    pub in_row: u32,
    pub out_row: u32,
    pub generator: String,
    pub seed: u64,
}

/// The head of a kernel written with `module.ptx`: the common fields, a
/// few comment lines on what its rows hold, module-scope declarations
/// (initialised `.const` data, `.global` variables) and entry directives
/// (a cluster shape).
#[derive(serde::Serialize)]
pub struct Module<'a> {
    #[serde(flatten)]
    pub common: Common<'a>,
    pub about: Vec<String>,
    pub decls: Vec<String>,
    pub directives: Vec<String>,
}
