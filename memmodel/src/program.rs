//! A litmus test resolved for the model: locations with their physical
//! location and generic address (PTX ISA 8.2: aliases share the physical
//! location), mbarriers, thread placement, and labels. Checks what the model
//! cannot take.

use crate::Model;
use ptx_litmus::{AliasProxy, Init, Instr, Litmus, Scope, Space};
use std::collections::HashMap;
use thiserror::Error;

/// Why a test cannot be decided.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum ModelError {
    /// The test uses something the chosen model does not describe, such as a
    /// proxy under the PTX 6.0 model.
    #[error("the {model} model does not describe {what}")]
    Unsupported { model: &'static str, what: String },
    /// A name used as an mbarrier is not declared as one.
    #[error("`{0}` is not declared as an mbarrier (`mbarrier {0} = N;` in the init block)")]
    NotAnMbarrier(String),
    /// A location name is also an mbarrier.
    #[error("`{0}` is an mbarrier, not a memory location")]
    NotALocation(String),
    /// A tensor map, or the address of `fence.proxy.tensormap::generic.acquire`,
    /// is not in global memory (PTX ISA 9.7.9.25.5.2: the map "resides in
    /// `.param` space or `.const` space or `.global` space"; 9.7.13.4: "the
    /// address specified by the operand addr must fall within the .global
    /// state space").
    #[error("`{0}` must be a global location (a tensor map, or the address of fence.proxy.tensormap::generic.acquire)")]
    NotGlobal(String),
    /// A branch names a label its thread does not define.
    #[error("label `{0}` is not defined in the branching thread")]
    UnknownLabel(String),
    /// An execution would exceed the event limit of the relation algebra.
    #[error("an execution of this test has more than {0} events")]
    TooManyEvents(usize),
    /// More candidate executions than the search limit allows.
    #[error("more than {0} candidate executions; the search gave up")]
    SearchLimit(u64),
}

/// A memory location as the model sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    pub name: String,
    /// The location whose physical memory this name maps to (itself unless
    /// it is an alias).
    pub phys: usize,
    /// The generic address through which it is accessed: itself, or for a
    /// non-generic alias the location it aliases.
    pub generic: usize,
    pub space: Space,
    pub init: i64,
    /// For shared memory declared `shared(cta N)`, the CTA that holds it.
    pub owner: Option<u32>,
}

/// A declared mbarrier object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mbarrier {
    pub name: String,
    /// The expected arrival count it starts with; `None` when it starts
    /// uninitialised, for an `mbarrier.init` to set up.
    pub count: Option<i64>,
}

/// A test ready for the search.
#[derive(Clone, Debug)]
pub struct Program<'a> {
    pub test: &'a Litmus,
    pub model: Model,
    pub locs: Vec<Location>,
    pub loc_index: HashMap<String, usize>,
    pub mbars: Vec<Mbarrier>,
    /// Per thread: label name to instruction index.
    pub labels: Vec<HashMap<String, usize>>,
    /// Per thread: (gpu, cluster, cta).
    pub places: Vec<(u32, u32, u32)>,
    /// Per thread: initial register values.
    pub regs: Vec<HashMap<String, i64>>,
    /// Times a loop's body may run on one path (1: once, as the Dat3M tests
    /// read loops; a path that would turn again is dropped).
    pub loop_bound: u32,
}

impl<'a> Program<'a> {
    pub fn new(test: &'a Litmus, model: Model) -> Result<Program<'a>, ModelError> {
        let mut p = Program {
            test,
            model,
            loop_bound: 1,
            locs: Vec::new(),
            loc_index: HashMap::new(),
            mbars: Vec::new(),
            labels: Vec::new(),
            places: Vec::new(),
            regs: vec![HashMap::new(); test.threads.len()],
        };
        for item in &test.init {
            match item {
                Init::Location {
                    name,
                    space,
                    value,
                    owner,
                } => {
                    let l = p.declare(name, *space, *value, None, model)?;
                    p.locs[l].owner = *owner;
                }
                Init::Alias {
                    name,
                    proxy,
                    target,
                } => {
                    if model == Model::Ptx60 {
                        return Err(unsupported(model, "virtual aliases and proxies"));
                    }
                    let t = p.location(target)?;
                    let (space, init) = (p.locs[t].space, p.locs[t].init);
                    let l = p.declare(name, space, init, Some((t, *proxy)), model)?;
                    p.locs[l].owner = p.locs[t].owner;
                }
                Init::Register { thread, reg, value } => {
                    if let Some(regs) = p.regs.get_mut(*thread as usize) {
                        regs.insert(reg.clone(), *value);
                    }
                }
                Init::Mbarrier { name, count } => {
                    if model == Model::Ptx60 {
                        return Err(unsupported(model, "mbarriers"));
                    }
                    p.mbars.push(Mbarrier {
                        name: name.clone(),
                        count: *count,
                    });
                }
            }
        }
        for t in &test.threads {
            if model == Model::Ptx60 && t.cluster.is_some() {
                return Err(unsupported(model, "clusters"));
            }
            // A CTA launched without a cluster is a cluster of one.
            let cluster = t.cluster.unwrap_or(t.cta);
            p.places.push((t.gpu, cluster, t.cta));
            let mut labels = HashMap::new();
            for (pc, instr) in t.code.iter().enumerate() {
                if let Instr::Label(l) = instr {
                    labels.insert(l.clone(), pc);
                }
                p.check_instr(instr)?;
            }
            p.labels.push(labels);
        }
        Ok(p)
    }

    fn declare(
        &mut self,
        name: &str,
        space: Space,
        init: i64,
        alias: Option<(usize, AliasProxy)>,
        model: Model,
    ) -> Result<usize, ModelError> {
        if model == Model::Ptx60 && space == Space::Shared {
            return Err(unsupported(model, "state spaces other than global"));
        }
        let id = self.locs.len();
        let (phys, generic) = match alias {
            None => (id, id),
            Some((t, AliasProxy::Generic)) => (self.locs[t].phys, id),
            Some((t, _)) => (self.locs[t].phys, t),
        };
        self.locs.push(Location {
            name: name.to_string(),
            phys,
            generic,
            space,
            init,
            owner: None,
        });
        self.loc_index.insert(name.to_string(), id);
        Ok(id)
    }

    /// The location of a name; a name never declared is a global location
    /// initialised to 0, as in the Dat3M tests.
    pub fn location(&mut self, name: &str) -> Result<usize, ModelError> {
        if self.mbars.iter().any(|m| m.name == name) {
            return Err(ModelError::NotALocation(name.to_string()));
        }
        if let Some(&i) = self.loc_index.get(name) {
            return Ok(i);
        }
        self.declare(name, Space::Global, 0, None, self.model)
    }

    /// The location of a name that must be in global memory.
    fn global(&mut self, name: &str) -> Result<usize, ModelError> {
        let l = self.location(name)?;
        if self.locs[l].space != Space::Global {
            return Err(ModelError::NotGlobal(name.to_string()));
        }
        Ok(l)
    }

    /// The index of a declared mbarrier.
    pub fn mbarrier(&self, name: &str) -> Result<usize, ModelError> {
        self.mbars
            .iter()
            .position(|m| m.name == name)
            .ok_or_else(|| ModelError::NotAnMbarrier(name.to_string()))
    }

    fn check_instr(&mut self, instr: &Instr) -> Result<(), ModelError> {
        let model = self.model;
        let ptx60 = model == Model::Ptx60;
        let cluster_scope = |s: Option<Scope>| s == Some(Scope::Cluster);
        match instr {
            Instr::Load {
                kind, scope, loc, ..
            } => {
                if ptx60 && *kind != ptx_litmus::LoadKind::Ld {
                    return Err(unsupported(model, "texture, surface and constant loads"));
                }
                if ptx60 && cluster_scope(*scope) {
                    return Err(unsupported(model, "cluster scope"));
                }
                self.location(loc)?;
            }
            Instr::Store {
                kind, scope, loc, ..
            } => {
                if ptx60 && *kind != ptx_litmus::WriteKind::Generic {
                    return Err(unsupported(model, "surface stores"));
                }
                if ptx60 && cluster_scope(*scope) {
                    return Err(unsupported(model, "cluster scope"));
                }
                self.location(loc)?;
            }
            Instr::Atom {
                kind, scope, loc, ..
            }
            | Instr::Red {
                kind, scope, loc, ..
            } => {
                if ptx60 && *kind != ptx_litmus::WriteKind::Generic {
                    return Err(unsupported(model, "surface atomics"));
                }
                if ptx60 && *scope == Scope::Cluster {
                    return Err(unsupported(model, "cluster scope"));
                }
                self.location(loc)?;
            }
            Instr::Fence { scope, .. } if ptx60 && *scope == Scope::Cluster => {
                return Err(unsupported(model, "cluster scope"));
            }
            Instr::ProxyFence(_) if ptx60 => return Err(unsupported(model, "proxy fences")),
            Instr::CpAsync { dst, src, .. } => {
                self.ext(model, "asynchronous copies")?;
                self.location(dst)?;
                self.location(src)?;
            }
            Instr::CpAsyncBulk {
                src, completion, ..
            }
            | Instr::CpReduceAsyncBulk {
                completion, src, ..
            } => {
                self.ext(model, "asynchronous copies")?;
                self.location(src)?;
                let dsts: Vec<String> = match instr {
                    Instr::CpAsyncBulk { dst, .. } => dst.clone(),
                    Instr::CpReduceAsyncBulk { dst, .. } => vec![dst.clone()],
                    _ => Vec::new(),
                };
                for d in &dsts {
                    self.location(d)?;
                }
                if let ptx_litmus::BulkCompletion::Mbarrier(ms) = completion {
                    for m in ms {
                        self.mbarrier(m)?;
                    }
                }
            }
            Instr::CpAsyncBulkTensor {
                completion,
                tensor,
                shared,
                ..
            } => {
                self.ext(model, "tensor copies")?;
                self.global(&tensor.map)?;
                for n in tensor.tensors.iter().chain(shared) {
                    self.location(n)?;
                }
                if let ptx_litmus::BulkCompletion::Mbarrier(ms) = completion {
                    for m in ms {
                        self.mbarrier(m)?;
                    }
                }
            }
            Instr::TensormapReplace { map, .. } => {
                self.ext(model, "tensor maps")?;
                self.location(map)?;
            }
            Instr::TensormapFence { addr, .. } => {
                self.ext(model, "proxy fences")?;
                if let Some(a) = addr {
                    self.global(a)?;
                }
            }
            Instr::StAsync { dst, mbar, .. } => {
                self.ext(model, "asynchronous stores")?;
                self.location(dst)?;
                self.mbarrier(mbar)?;
            }
            Instr::MbarrierArrive { mbar, .. }
            | Instr::MbarrierTestWait { mbar, .. }
            | Instr::MbarrierInit { mbar, .. }
            | Instr::CpAsyncMbarrierArrive { mbar, .. } => {
                self.ext(model, "mbarriers")?;
                self.mbarrier(mbar)?;
            }
            Instr::CpAsyncCommit
            | Instr::CpAsyncWaitGroup(_)
            | Instr::CpAsyncWaitAll
            | Instr::CpAsyncBulkCommit
            | Instr::CpAsyncBulkWaitGroup { .. } => self.ext(model, "asynchronous copies")?,
            Instr::ClusterArrive { .. } | Instr::ClusterWait => {
                self.ext(model, "cluster barriers")?
            }
            _ => {}
        }
        Ok(())
    }

    fn ext(&self, model: Model, what: &str) -> Result<(), ModelError> {
        if model == Model::Ptx60 {
            Err(unsupported(model, what))
        } else {
            Ok(())
        }
    }

    /// Whether a thread is inside the scope instance of another: same GPU
    /// for `gpu`, and also the same cluster or CTA for those scopes (PTX ISA
    /// 8.5).
    pub fn in_scope(&self, t: u32, scope: Scope, other: u32) -> bool {
        let (g1, cl1, c1) = self.places[t as usize];
        let (g2, cl2, c2) = self.places[other as usize];
        match scope {
            Scope::Sys => true,
            Scope::Gpu => g1 == g2,
            Scope::Cluster => g1 == g2 && cl1 == cl2,
            Scope::Cta => g1 == g2 && cl1 == cl2 && c1 == c2,
        }
    }

    /// The CTA `(gpu, cluster, cta)` that holds a shared location declared
    /// with an owner, seen from thread `t`: the owner's cluster is that of a
    /// thread placed in it, else `t`'s.
    pub fn owner_place(&self, loc: usize, t: u32) -> Option<(u32, u32, u32)> {
        let owner = self.locs[loc].owner?;
        let placed = self
            .test
            .threads
            .iter()
            .position(|th| th.cta == owner)
            .map(|i| self.places[i]);
        let (g, cl, _) = self.places[t as usize];
        Some(placed.unwrap_or((g, cl, owner)))
    }

    /// Whether two threads run in the same CTA.
    pub fn same_cta(&self, t: u32, other: u32) -> bool {
        self.in_scope(t, Scope::Cta, other)
    }
}

fn unsupported(model: Model, what: &str) -> ModelError {
    ModelError::Unsupported {
        model: model.name(),
        what: what.to_string(),
    }
}
