//! Tensor copies in the interpreter (PTX ISA 9.7.9.25.5): the map is read
//! from memory in our encoding ([`crate::tensor::TensorMap::from_bytes`]),
//! the bytes come from [`crate::tensor`]'s pure functions, and the copy
//! goes through the same steps as a bulk copy (read, write, complete) under
//! the launch's schedule. The rules on the instruction's operands (the
//! map's place and alignment, the shared address, the im2col offsets, the
//! mbarrier, `tensormap.replace`'s address and value) are the
//! preconditions of [`crate::precond::table`], checked before the map is
//! read; the rules on the map's fields are checked on the map read.

use super::super::super::Machine;
use super::super::{Loc, Stop};
use super::{Kind, MbarOp};
use crate::precond::table::{self, TensorWay};
use crate::precond::{self, Env};
use crate::sim::memory::OUTSIDE;
use crate::sim::program::{TensorDir, TensorInstr};
use crate::sim::reduce::{BulkRedOp, BulkRedType};
use crate::sim::space::Space;
use crate::sim::undefined::Undefined;
use crate::tensor::{self, DataType, OobFill, SharedTile, TensorError, TensorMap};

const MAP_INVALID: Undefined = table::TENSOR_MAP_VALID.undefined();
const MAP_UNSPECIFIED: Undefined = Undefined::behaviour(
    "9.7.9.25.5.2",
    "The operand tensorMap specifies the properties of the tensor copy operation: its bytes are unspecified",
);
pub(super) const MAP_PROXY: Undefined = Undefined::result(
    "9.7.9.25.5.2",
    "The tensorMap is accessed in tensormap proxy: a generic write to it (tensormap.replace included) needs fence.proxy.tensormap::generic before a tensor copy uses it",
);
const DIM: Undefined = table::TENSOR_MAP_DIM.undefined();
const BOX_ALIGN: Undefined = table::TENSOR_BOX_ALIGNED.undefined();
const NEGATIVE: Undefined = table::TENSOR_COORD_NON_NEGATIVE.undefined();
const RED_TYPE: Undefined = table::TENSOR_RED_TYPE.undefined();
const IM2COL: Undefined = table::TENSOR_IM2COL_FILTER.undefined();
const GATHER4: Undefined = Undefined::behaviour(
    "9.7.9.25.5.2",
    "In .tile::gather4 mode, four rows in 2-dimnesional source tensor are combined to form a single 2-dimensional destination tensor: the tensor map's rank must be 2",
);
const NOT_MODELLED: &str =
    "a tensor copy the model does not define yet (an interleaved layout, or a packed sub-byte type)";

/// A store's global writes.
pub(super) type Writes = tensor::tile::StoreRuns;

/// A tensor copy in flight.
#[derive(Clone, Debug)]
pub(super) struct TensorOp {
    pub map: TensorMap,
    pub coords: Vec<i32>,
    pub offsets: Vec<u16>,
    pub im2col: bool,
    /// `.tile::gather4` (loads) or `.tile::scatter4` (stores).
    pub rows4: bool,
    /// `.im2col::w` or `.im2col::w::128`, with `{wHalo, wOffset}`.
    pub im2col_w: Option<tensor::Im2colW>,
    /// The shared address the box starts at (the destination of a load,
    /// the source of a store), in the shared::cta window.
    pub smem_addr: u32,
    /// Shared memory written (loads: one per destination CTA) or read
    /// (stores), `extent` bytes each.
    pub shared: Vec<Loc>,
    pub extent: usize,
    /// Global memory read (loads) or written (stores), as runs.
    pub global: Vec<(Loc, usize)>,
    pub load: bool,
    pub reduce: Option<(BulkRedOp, BulkRedType, bool)>,
    /// Bytes each mbarrier's complete-tx counts.
    pub bytes: u32,
    pub mbars: Vec<(usize, usize)>,
    /// The map was written through the generic proxy with no
    /// `fence.proxy.tensormap::generic` since: what it moves is
    /// unspecified.
    pub stale_map: bool,
    /// Which 16-byte chunks of the extent a load writes.
    pub written: Vec<bool>,
    /// A store's global writes, computed when it read its source at issue
    /// (the eager schedule).
    pub writes: Option<Writes>,
}

/// How a [`TensorError`] stops the thread.
fn stop_of(e: &TensorError) -> Stop {
    match e {
        TensorError::InvalidMap(_) | TensorError::WrongMode => Stop::Undefined(MAP_INVALID),
        TensorError::Coordinates { .. } => Stop::Undefined(DIM),
        TensorError::MisalignedBox { .. } => Stop::Undefined(BOX_ALIGN),
        TensorError::Misaligned { .. } => Stop::Undefined(table::TENSOR_SMEM_ALIGNED.undefined()),
        TensorError::NegativeCoordinate { .. } => Stop::Undefined(NEGATIVE),
        TensorError::Fault { .. } | TensorError::ShortSource { .. } => Stop::Undefined(OUTSIDE),
        TensorError::Gather4(_) => Stop::Undefined(GATHER4),
        TensorError::Unsupported(_) | TensorError::NotModelled(_) => {
            Stop::Indeterminate(NOT_MODELLED)
        }
        // the im2col rules (the note names which)
        #[allow(unreachable_patterns)]
        _ => Stop::Undefined(IM2COL),
    }
}

impl Machine<'_> {
    /// The tensor map at generic address `a` (its place and alignment
    /// checked: [`table::tensor_copy`]): read in our encoding; whether
    /// generic writes changed it with no tensormap proxy fence since.
    fn tensor_map_at(&mut self, w: usize, l: usize, a: u64) -> Result<(TensorMap, bool), Stop> {
        let loc = self
            .resolve(w, l, Space::Generic, a, 128)
            .map_err(Stop::Undefined)?;
        if !matches!(loc, Loc::Global(..) | Loc::Const(_) | Loc::Param(_)) {
            return Err(Stop::Undefined(table::TENSOR_MAP_SPACE.undefined()));
        }
        let b = self.map_bytes(loc)?;
        let map = TensorMap::from_bytes(&b).map_err(|e| {
            self.asy.note = e.to_string();
            Stop::Undefined(MAP_INVALID)
        })?;
        let stale = match loc {
            Loc::Global(i, off) => {
                (off / 16..off / 16 + 8).any(|g| self.asy.tmap_unfenced.contains(&(0, i, g)))
            }
            _ => false,
        };
        Ok((map, stale))
    }

    fn coords_of(
        &self,
        w: usize,
        l: usize,
        srcs: &[crate::sim::program::Src],
    ) -> Result<Vec<i32>, Stop> {
        srcs.iter()
            .map(|&s| self.u32_operand(w, l, s).map(|v| v as i32))
            .collect()
    }

    /// The bytes a load puts at `smem_addr`, reading global memory
    /// through `global`.
    fn tensor_tile(op: &TensorOp, global: &dyn tensor::Global) -> Result<SharedTile, TensorError> {
        if let Some(w) = op.im2col_w {
            return tensor::im2col_w_load(&op.map, &op.coords, w, op.smem_addr, global);
        }
        if op.im2col {
            return tensor::im2col_load(&op.map, &op.coords, &op.offsets, op.smem_addr, global);
        }
        if op.rows4 {
            return tensor::gather4_load(&op.map, &op.coords, op.smem_addr, global);
        }
        tensor::tile_load(&op.map, &op.coords, op.smem_addr, global)
    }

    /// The global writes of a store of `smem` (the extent's bytes).
    fn tensor_writes(op: &TensorOp, smem: &[u8]) -> Result<Writes, TensorError> {
        if op.im2col {
            // `.im2col_no_offs`: the same (address, bytes) runs, laid end
            // to end
            let runs = tensor::im2col_no_offs_store(&op.map, &op.coords, op.smem_addr, smem)?;
            let mut lin = Vec::new();
            let mut out = Vec::with_capacity(runs.len());
            for (a, b) in runs {
                out.push((a, lin.len(), b.len()));
                lin.extend_from_slice(&b);
            }
            return Ok((lin, out));
        }
        if op.rows4 {
            return tensor::scatter4_store_runs(&op.map, &op.coords, op.smem_addr, smem);
        }
        tensor::tile_store_runs(&op.map, &op.coords, op.smem_addr, smem)
    }

    /// `cp.async.bulk.tensor`, `cp.reduce.async.bulk.tensor`,
    /// `cp.async.bulk.prefetch.tensor` for one lane: checks, resolves and
    /// issues.
    pub(super) fn tensor_lane(
        &mut self,
        w: usize,
        l: usize,
        pc: u32,
        ins: &TensorInstr,
    ) -> Result<(), Stop> {
        // the rules on the operands, before the map is read
        let m = self.address(w, l, ins.map)?;
        let mut env = Env {
            map: m,
            ..Env::at(&self.place(w))
        };
        let way = match ins.dir {
            TensorDir::Load { dst, dst_space, .. } => {
                env.addr = self.address(w, l, dst)?;
                TensorWay::Load(dst_space)
            }
            TensorDir::Store { src, .. } => {
                env.addr = self.address(w, l, src)?;
                TensorWay::Store
            }
            TensorDir::Prefetch => TensorWay::Prefetch,
        };
        for p in table::tensor_copy(way) {
            precond::check(&self.profile, p, &env).map_err(Stop::Undefined)?;
        }
        let offsets: Vec<u16> = self
            .coords_of(w, l, &ins.offsets)?
            .into_iter()
            .map(|v| v as u16)
            .collect();
        let im2col_w = match ins.im2col_w {
            Some(w128) => {
                let [w_halo, w_offset] = offsets[..] else {
                    self.asy.note = format!(
                        "{} im2colInfo values, not {{wHalo, wOffset}}",
                        offsets.len()
                    );
                    return Err(Stop::Undefined(IM2COL));
                };
                for (p, v) in table::im2col_w_info(w128)
                    .into_iter()
                    .zip([w_halo, w_offset])
                {
                    let e = Env {
                        a: u64::from(v),
                        ..env
                    };
                    precond::check(&self.profile, p, &e).map_err(Stop::Undefined)?;
                }
                Some(tensor::Im2colW {
                    w128,
                    w_halo,
                    w_offset,
                })
            }
            None => None,
        };
        if let (None, Some(p)) = (im2col_w, table::im2col_offset(ins.dim)) {
            for &o in &offsets {
                let e = Env {
                    a: u64::from(o),
                    ..env
                };
                precond::check(&self.profile, p, &e).map_err(Stop::Undefined)?;
            }
        }
        let mbar_key = match ins.dir {
            TensorDir::Load {
                dst_space,
                mbar,
                cta_pair,
                ..
            } => {
                let key = self.mbar_at(w, l, mbar, dst_space, MbarOp::Bulk, 0)?;
                let e = Env {
                    mbar: self.address(w, l, mbar)?,
                    ..env
                };
                precond::check(&self.profile, table::tensor_mbar(cta_pair), &e)
                    .map_err(Stop::Undefined)?;
                Some(key)
            }
            _ => None,
        };
        let (map, stale_map) = self.tensor_map_at(w, l, m)?;
        let coords = self.coords_of(w, l, &ins.coords)?;
        if map.rank != ins.dim && !ins.rows4 {
            self.asy.note = format!(
                "the map's rank is {}, the instruction's .dim {}",
                map.rank, ins.dim
            );
            return Err(Stop::Undefined(DIM));
        }
        if let Err(e) = map.validate() {
            self.asy.note = e.to_string();
            return Err(Stop::Undefined(MAP_INVALID));
        }
        let (extent, bytes) = if let Some(w) = im2col_w {
            tensor::im2col_bytes(&map)
                .and_then(|_| tensor::im2col_w_shape(&map, w))
                .map(|s| (s.extent, s.bytes))
        } else if ins.im2col {
            tensor::im2col_bytes(&map).and_then(|b| Ok((tensor::im2col_shape(&map)?.extent, b)))
        } else if ins.rows4 {
            tensor::gather4_shape(&map).map(|s| (s.extent, s.bytes))
        } else {
            tensor::box_shape(&map).map(|s| (s.extent, s.bytes))
        }
        .map_err(|e| self.tensor_stop(&e))?;
        let extent = extent as usize;
        let mut op = TensorOp {
            map,
            coords,
            offsets,
            im2col: ins.im2col,
            rows4: ins.rows4,
            im2col_w,
            smem_addr: 0,
            shared: Vec::new(),
            extent,
            global: Vec::new(),
            load: false,
            reduce: None,
            bytes,
            mbars: Vec::new(),
            stale_map,
            written: Vec::new(),
            writes: None,
        };
        match ins.dir {
            TensorDir::Prefetch => {
                // a hint: only the map and the box's own rules apply
                let probe = |_: u64, n: usize| Some(vec![0u8; n]);
                Self::tensor_tile(&op, &probe).map_err(|e| self.tensor_stop(&e))?;
                return Ok(());
            }
            TensorDir::Load {
                dst,
                dst_space,
                cta_mask,
                cta_pair,
                ..
            } => {
                op.load = true;
                let d = self.address(w, l, dst)?;
                let dloc = self
                    .resolve(w, l, dst_space, d, extent as u64)
                    .map_err(Stop::Undefined)?;
                let Loc::Shared(_, off) = dloc else {
                    return Err(Stop::Undefined(OUTSIDE));
                };
                op.smem_addr = off as u32;
                let Some(key) = mbar_key else {
                    return Err(Stop::Undefined(OUTSIDE));
                };
                match cta_mask {
                    Some(mask) => {
                        let m = self.u32_operand(w, l, mask)? & 0xffff;
                        let env = Env {
                            cta_mask: u64::from(m),
                            ..env
                        };
                        precond::check(&self.profile, table::bulk_multicast(), &env)
                            .map_err(Stop::Undefined)?;
                        for r in 0..16usize {
                            if m >> r & 1 == 0 {
                                continue;
                            }
                            if r >= self.ctas.len() {
                                return Err(Stop::Undefined(table::bulk_multicast().undefined()));
                            }
                            if off + extent > self.ctas[r].shared.len() {
                                return Err(Stop::Undefined(OUTSIDE));
                            }
                            op.shared.push(Loc::Shared(r, off));
                            // `.cta_group::2`: "the mbarrier signal is sent either
                            // to the destination CTA or its peer-CTA based on
                            // CTAs %cluster_ctarank parity of shared memory where
                            // the mbarrier object mbar resides"
                            let m = if cta_pair { (r & !1) | (key.0 & 1) } else { r };
                            if m >= self.ctas.len() {
                                return Err(Stop::Undefined(table::TENSOR_MBAR_PAIR.undefined()));
                            }
                            op.mbars.push((m, key.1));
                            self.mbar_init_check(w, l, (m, key.1))
                                .map_err(Stop::Undefined)?;
                        }
                    }
                    None => {
                        op.shared.push(dloc);
                        op.mbars.push(key);
                    }
                }
                // the global runs it reads (each must be in a buffer), and
                // what it reads now
                let probe = Reader {
                    global: &self.global,
                    runs: Some(std::cell::RefCell::new(Vec::new())),
                };
                let tile = Self::tensor_tile(&op, &probe);
                let runs = probe.runs.map(|r| r.into_inner()).unwrap_or_default();
                let tile = tile.map_err(|e| self.tensor_stop(&e))?;
                op.written = tile.written;
                op.global = runs;
                if self.eager() {
                    let (data, shadow, unfenced) = self.tensor_read(&op, false, Some(tile.bytes));
                    self.tensor_reports(w, l, pc, &op, unfenced);
                    self.issue(
                        w,
                        l,
                        pc,
                        Kind::Tensor(Box::new(op)),
                        Some((data, shadow)),
                        None,
                    );
                    return Ok(());
                }
            }
            TensorDir::Store { src, reduce } => {
                let s = self.address(w, l, src)?;
                let sloc = self
                    .resolve(w, l, Space::SharedCta, s, extent as u64)
                    .map_err(Stop::Undefined)?;
                let Loc::Shared(_, off) = sloc else {
                    return Err(Stop::Undefined(OUTSIDE));
                };
                op.smem_addr = off as u32;
                op.shared.push(sloc);
                if let Some(r) = reduce {
                    let (t, noftz) = crate::sim::reduce::tensor_type(r, op.map.data_type)
                        .ok_or(Stop::Undefined(RED_TYPE))?;
                    op.reduce = Some((r, t, noftz));
                }
                // the source as it is now, and the global runs written
                let (data, shadow, unfenced) = self.tensor_read(&op, false, None);
                let writes = Self::tensor_writes(&op, &data).map_err(|e| self.tensor_stop(&e))?;
                for &(a, _, len) in &writes.1 {
                    let (i, o) = self
                        .global
                        .lookup(a, len as u64)
                        .ok_or(Stop::Undefined(OUTSIDE))?;
                    op.global.push((Loc::Global(i, o), len));
                }
                if self.eager() {
                    self.tensor_reports(w, l, pc, &op, unfenced);
                    op.writes = Some(writes);
                    self.issue(
                        w,
                        l,
                        pc,
                        Kind::Tensor(Box::new(op)),
                        Some((data, shadow)),
                        Some(true),
                    );
                    return Ok(());
                }
            }
        }
        self.issue(
            w,
            l,
            pc,
            Kind::Tensor(Box::new(op)),
            None,
            Some(!matches!(ins.dir, TensorDir::Load { .. })),
        );
        Ok(())
    }

    /// The 128 bytes of a tensor map at `loc`; unspecified ones are
    /// undefined behaviour.
    fn map_bytes(&self, loc: Loc) -> Result<[u8; 128], Stop> {
        let mut b = [0u8; 128];
        for k in 0..16 {
            let (v, sv) = self.read_at(loc, 8 * k, 8);
            if sv != 0 {
                return Err(Stop::Undefined(MAP_UNSPECIFIED));
            }
            b[8 * k..8 * k + 8].copy_from_slice(&v.to_le_bytes());
        }
        Ok(b)
    }

    /// `tensormap.replace` for one lane: the map's 128 bytes in global or
    /// shared::cta memory, read in our encoding, the field replaced
    /// ([`tensor::replace_bytes`]), written back as a weak generic write.
    pub(super) fn tensormap_replace(
        &mut self,
        w: usize,
        l: usize,
        pc: u32,
        ins: &crate::sim::program::AsyncInstr,
    ) -> Result<(), Stop> {
        let crate::sim::program::AsyncInstr::TensormapReplace {
            addr,
            space,
            ref field,
            ord,
            value,
        } = *ins
        else {
            return Ok(());
        };
        let a = self.address(w, l, addr)?;
        let mut env = Env {
            addr: a,
            ..Env::at(&self.place(w))
        };
        for p in table::tensormap_replace(space) {
            precond::check(&self.profile, p, &env).map_err(Stop::Undefined)?;
        }
        let loc = self.resolve(w, l, space, a, 128).map_err(Stop::Undefined)?;
        let own = self.ctas[self.warps[w].cta].rank as usize;
        if !matches!(loc, Loc::Global(..) | Loc::Shared(..))
            || matches!(loc, Loc::Shared(c, _) if c != own)
        {
            return Err(Stop::Undefined(table::TENSORMAP_REPLACE_WINDOW.undefined()));
        }
        let (v, sv) = self.val(w, value, l);
        if sv != 0 {
            return Err(Stop::Indeterminate(super::super::OPERAND));
        }
        let f = tensor::Field::from_qualifier(field)
            .ok_or(Stop::Indeterminate("an unknown tensormap.replace field"))?;
        if let Some(p) = table::tensormap_replace_value(f) {
            env.a = v;
            precond::check(&self.profile, p, &env).map_err(Stop::Undefined)?;
        }
        let mut b = self.map_bytes(loc)?;
        tensor::replace_bytes(&mut b, &tensor::Replace::new(f, ord, v)).map_err(|e| {
            self.asy.note = e.to_string();
            Stop::Undefined(Undefined::behaviour("9.7.9.26", e.rule().text))
        })?;
        self.plain_write_check(w, l, pc, loc, 128)
            .map_err(Stop::Undefined)?;
        self.write_slice(loc, &b, &[]);
        Ok(())
    }

    fn eager(&self) -> bool {
        matches!(self.launch.schedule, crate::sim::launch::Schedule::Eager)
    }

    /// The reports of a tensor copy's read: a map not fenced for the
    /// tensormap proxy, a source not fenced for the async proxy.
    fn tensor_reports(&mut self, w: usize, l: usize, pc: u32, op: &TensorOp, unfenced: bool) {
        if op.stale_map {
            self.undefined_result(w, l, pc, MAP_PROXY);
        }
        if unfenced {
            self.undefined_result(w, l, pc, super::PROXY_FENCE);
            if let Some(r) = self.undefined_results.last_mut() {
                r.note = "the copy reads bytes written through the generic proxy with no fence.proxy.async since".into();
            }
        }
    }

    /// One step of the tensor copy at `i` of the operations in flight.
    pub(super) fn step_tensor(&mut self, i: usize) {
        let Kind::Tensor(op) = std::mem::replace(&mut self.asy.pending[i].kind, Kind::Nothing)
        else {
            return;
        };
        let (w, l, pc) = {
            let p = &self.asy.pending[i];
            (p.warp, p.lane, p.pc)
        };
        match self.asy.pending[i].stage {
            super::Stage::Issued => {
                let poisoned = self.asy.pending[i].poisoned;
                let (data, shadow, unfenced) = self.tensor_read(&op, poisoned, None);
                self.tensor_reports(w, l, pc, &op, unfenced);
                let p = &mut self.asy.pending[i];
                p.data = data;
                p.shadow = shadow;
                p.stage = super::Stage::Read;
            }
            super::Stage::Read => {
                let data = std::mem::take(&mut self.asy.pending[i].data);
                let shadow = std::mem::take(&mut self.asy.pending[i].shadow);
                self.tensor_write(&op, &data, &shadow);
                self.asy.pending[i].stage = super::Stage::Written;
            }
            super::Stage::Written => {
                self.asy.pending.remove(i);
                for &key in &op.mbars {
                    let r = self.mbar_apply(key, crate::mbarrier::Op::CompleteTx { tx: op.bytes });
                    if let Err(u) = r {
                        self.undefined_result(w, l, pc, Undefined::result(u.section, u.rule));
                    }
                }
                return;
            }
        }
        self.asy.pending[i].kind = Kind::Tensor(op);
    }

    /// The stop for a tensor error, its text kept as the report's note.
    fn tensor_stop(&mut self, e: &TensorError) -> Stop {
        self.asy.note = e.to_string();
        stop_of(e)
    }

    /// The read step of a tensor copy: the bytes (and unspecified marks)
    /// it will write.
    pub(super) fn tensor_read(
        &self,
        op: &TensorOp,
        poisoned: bool,
        read_now: Option<Vec<u8>>,
    ) -> (Vec<u8>, Vec<u8>, bool) {
        if op.load {
            let g = &self.global;
            let read = Reader {
                global: g,
                runs: None,
            };
            let bytes = match read_now {
                Some(b) => b,
                None => match Self::tensor_tile(op, &read) {
                    Ok(t) => t.bytes,
                    // checked when issued; memory does not move
                    Err(_) => return (vec![0; op.extent], vec![0xff; op.extent], false),
                },
            };
            let unfenced = &self.asy.unfenced;
            let marked = |i: usize, o: usize, n: usize| {
                g.note_read(i, o, n);
                !g.regions[i].shadow.is_empty()
                    && g.regions[i].shadow[o..o + n].iter().any(|&b| b != 0)
                    || (o / 16..(o + n).div_ceil(16)).any(|k| unfenced.contains(&(0, i, k)))
            };
            let any = (!unfenced.is_empty() || g.regions.iter().any(|r| !r.shadow.is_empty()))
                && op
                    .global
                    .iter()
                    .any(|&(loc, n)| matches!(loc, Loc::Global(i, o) if marked(i, o, n)));
            let shadow = if poisoned || op.stale_map {
                vec![0xff; op.extent]
            } else if any {
                // the same box over the marks: which bytes came from
                // unspecified or unfenced ones (whole elements for tf32,
                // which rounds)
                let mut m = op.clone();
                m.map.oob_fill = OobFill::Zero;
                let tf32 = matches!(m.map.data_type, DataType::Tf32 | DataType::Tf32Ftz);
                if tf32 {
                    m.map.data_type = DataType::F32;
                }
                let marks = |a: u64, n: usize| {
                    let (i, o) = g.lookup(a, n as u64)?;
                    g.note_read(i, o, n);
                    let r = &g.regions[i];
                    Some(
                        (0..n)
                            .map(|k| {
                                let sh = r.shadow.get(o + k).copied().unwrap_or(0);
                                if unfenced.contains(&(0, i, (o + k) / 16)) {
                                    0xff
                                } else {
                                    sh
                                }
                            })
                            .collect(),
                    )
                };
                let mut s = Self::tensor_tile(&m, &marks)
                    .map(|t| t.bytes)
                    .unwrap_or_else(|_| vec![0xff; op.extent]);
                if tf32 {
                    for e in s.chunks_mut(4) {
                        if e.iter().any(|&b| b != 0) {
                            e.fill(0xff);
                        }
                    }
                }
                s
            } else {
                Vec::new()
            };
            return (bytes, shadow, any);
        }
        let mut data = vec![0u8; op.extent];
        let mut shadow = Vec::new();
        self.read_slice(op.shared[0], &mut data, &mut shadow);
        if poisoned || op.stale_map {
            shadow = vec![0xff; op.extent];
        }
        // shared bytes written through the generic proxy with no
        // fence.proxy.async since
        let mut unfenced = false;
        if let (Loc::Shared(c, off), false) = (op.shared[0], self.asy.unfenced.is_empty()) {
            for g in off / 16..(off + op.extent).div_ceil(16) {
                if self.asy.unfenced.contains(&(1, c, g)) {
                    unfenced = true;
                    if shadow.is_empty() {
                        shadow = vec![0; op.extent];
                    }
                    let lo = (g * 16).max(off) - off;
                    let hi = ((g + 1) * 16).min(off + op.extent) - off;
                    shadow[lo..hi].fill(0xff);
                }
            }
        }
        (data, shadow, unfenced)
    }

    /// The write step of a tensor copy.
    pub(super) fn tensor_write(&mut self, op: &TensorOp, data: &[u8], shadow: &[u8]) {
        if op.load {
            for &dst in &op.shared {
                let Loc::Shared(c, off) = dst else { continue };
                let cta = &mut self.ctas[c];
                // runs of written chunks, each copied at once
                let mut k = 0;
                while k < op.written.len() {
                    if !op.written[k] {
                        k += 1;
                        continue;
                    }
                    let start = k;
                    while k < op.written.len() && op.written[k] {
                        k += 1;
                    }
                    let r = 16 * start..16 * k;
                    let to = off + r.start..off + r.end;
                    cta.shared[to.clone()].copy_from_slice(&data[r.clone()]);
                    match shadow.get(r) {
                        Some(s) => cta.shadow[to].copy_from_slice(s),
                        None => cta.shadow[to].fill(0),
                    }
                }
            }
            return;
        }
        let computed;
        let writes = match &op.writes {
            Some(w) => w,
            None => match Self::tensor_writes(op, data) {
                Ok(w) => {
                    computed = w;
                    &computed
                }
                Err(_) => return,
            },
        };
        let marks = if shadow.is_empty() {
            None
        } else {
            Self::tensor_writes(op, shadow).ok()
        };
        let (lin, runs) = writes;
        for (&(_, at, len), &(loc, _)) in runs.iter().zip(&op.global) {
            let bytes = &lin[at..at + len];
            let sh: &[u8] = marks.as_ref().map_or(&[], |m| &m.0[at..at + len]);
            match op.reduce {
                None => self.write_slice(loc, bytes, sh),
                Some((r, t, noftz)) => {
                    let e = crate::sim::reduce::element_bytes(t);
                    for j in (0..bytes.len()).step_by(e) {
                        let (old, so) = self.read_at(loc, j, e);
                        let src = super::super::le(&bytes[j..j + e]);
                        let ss = sh.get(j..j + e).is_some_and(|s| s.iter().any(|&b| b != 0));
                        let (v, free) = crate::sim::reduce::reduce_tensor(r, t, noftz, old, src);
                        let unspec = if ss || so != 0 { u64::MAX } else { free };
                        let _ = self.write_at(loc, j, e, v, unspec);
                    }
                }
            }
        }
    }
}

/// Whether a tensor copy reads (`reads`) or writes bytes of `[loc, loc+n)`.
pub(super) fn touches(op: &TensorOp, loc: Loc, n: usize, reads: bool) -> bool {
    let shared_read = !op.load;
    let over = |a: Loc, an: usize| super::overlaps(a, an, loc, n);
    if reads == shared_read {
        op.shared.iter().any(|&s| over(s, op.extent))
    } else {
        op.global.iter().any(|&(g, gn)| over(g, gn))
    }
}

/// The simulator's global memory as a tensor copy reads it, noting the
/// runs read when `runs` is there.
struct Reader<'g> {
    global: &'g crate::sim::memory::Global,
    runs: Option<std::cell::RefCell<Vec<(Loc, usize)>>>,
}

impl tensor::Global for Reader<'_> {
    fn read(&self, addr: u64, out: &mut [u8]) -> bool {
        let n = out.len();
        let Some((i, o)) = self.global.lookup(addr, n as u64) else {
            return false;
        };
        self.global.note_read(i, o, n);
        out.copy_from_slice(&self.global.regions[i].bytes[o..o + n]);
        if let Some(r) = &self.runs {
            r.borrow_mut().push((Loc::Global(i, o), n));
        }
        true
    }
}
