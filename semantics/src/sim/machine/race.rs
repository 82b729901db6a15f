//! Data races between the plain (weak) accesses of different threads.
//!
//! The interpreter runs one interleaving, but the PTX memory model does
//! not promise it: a weak read that no causality order relates to an
//! overlapping write of another thread may see that write or an older one
//! (PTX ISA 8.10.6, Causality: only a write that precedes the read in
//! causality order hides the writes before it), and of two such writes
//! either may be the one left in memory (8.10.1 orders only morally strong
//! writes, 8.7). So where the run meets such a pair, the bits it cannot
//! pin become unspecified: a racing read gets unspecified bits, and a
//! racing write leaves unspecified the bytes where the two values differ.
//!
//! What orders two accesses here is what the interpreter can see, read
//! conservatively (a pair is called a race only when nothing could order
//! it):
//! - the same thread (program order);
//! - a `bar.sync`/`barrier.sync`/`bar.red` that the reader left after the
//!   writer arrived, in the same CTA (9.7.13.1; `bar.warp.sync`, 9.7.13.2,
//!   is counted the same way);
//! - a `barrier.cluster.wait` the reader passed after the write, in the
//!   same cluster (9.7.13.3);
//! - any other synchronising step of the reader after the write: a fence
//!   or `membar`, an atomic, a strong (`.relaxed`, `.acquire`,
//!   `.release`, `.volatile`, `.mmio`) access, an mbarrier or asynchronous
//!   operation or wait. Whether it really synchronises with the writer is
//!   not followed: such a pair is never called a race.
//!
//! The same stamps check that an `mbarrier.init` is ordered before the
//! operations on the object by other threads (9.7.13.15: any other
//! operation on an uninitialized object is undefined), where only program
//! order, barriers, fences, atomics and strong accesses count: an
//! operation on another mbarrier does not publish an initialisation.
//!
//! Strong accesses and atomics are morally strong with each other and not
//! checked; they leave their bytes with no plain writer, and their reads
//! are not recorded.
//!
//! Each byte of global and shared memory keeps [`Cells`]: its last plain
//! writer, the last plain writer that changed its value, and a summary of
//! its plain readers, each with a stamp: a counter that every
//! synchronising step moves on. An access is ordered after a recorded one
//! when its thread's last synchronising step of a kind that reaches the
//! recorded thread has a larger stamp.
//!
//! Racing writes of one value. "In the absence of any constraint, each
//! read operation returns the value committed by some write operation to
//! the same memory location ... The memory consistency model effectively
//! constrains the set of such candidate writes" (8), and "Relations in
//! communication order cannot contradict causality order" (8.10.6): a read
//! that a write precedes in causality order cannot read from a write
//! before that one in coherence order (8.10.1 puts the writes that
//! causality orders in that order). So a read is given the byte's value
//! when it is ordered after the last writer, or after the last write that
//! changed the value: every candidate left is that change or a later
//! write, and all of those wrote the value the byte holds (a later write
//! that raced with an older one has already left the bits they differ in
//! open in the shadow). Racing writes of the value a byte already holds,
//! read by a third thread ordered after one of them, give that value, as
//! the host's initial bytes do; only the candidates' values matter.
//!
//! A read that comes first, then a racing write. The read has already
//! returned a value when the write comes, but it could have returned the
//! write's (8.10.6 forbids it only where the read precedes the write in
//! causality order, and nothing orders the two), so the read's value is
//! unspecified in the bits where the two differ, and so is every value
//! derived from it. The register shadow follows derived values, so the
//! run is done again: the readers of each [`GRANULE`] bytes are summarised
//! (one reader, or several of one CTA, or several anywhere, with the
//! latest read's stamp); a write that no summary orders after the reads
//! makes the run *suspect*. A suspect run is done again
//! in the precise mode: every plain read goes through the lane path, is
//! numbered per thread and logged per byte with the value it read, and
//! each plain write checks the logged reads of its bytes; a read that
//! no causality order puts before the write, by another thread, that read
//! a value other than the one written, is *found* with the bits they
//! differ in (and the written value's unspecified bits). The run is then
//! done once more with those reads *marked*: a marked read gets its found
//! bits unspecified in its destination, the race is reported at the read,
//! and the register shadow carries the open bits into every value, address
//! and branch derived from it (a guard predicate with unspecified bits
//! stops the thread, as everywhere in the simulator). The interleaving up to a marked read is the first run's
//! (the values are the same; only their shadow grows), and the runs go on
//! until every read found is marked ([`ROUNDS`] at most). The first run's
//! outcome is kept when it is not suspect, the marked run's otherwise.
//!
//! Limits: global regions over 64 MiB, or past 112 MiB of tracked bytes
//! in a run, are not tracked (their races are not seen); the precise mode
//! logs at most 2^24 read bytes (later reads are not checked); a launch
//! whose buffers were moved into the run (`run_owned`) is done again only
//! when they total at most 1 GiB (a copy is kept for it); otherwise a
//! suspect run's racing reads are not followed. A write is checked against
//! each byte's last writer only (an older write it races with is not
//! seen), and a read against the last writer and the last change.

use super::exec::Loc;
use super::Machine;
use crate::sim::undefined::Undefined;
use std::collections::{HashMap, HashSet};

/// The read or write of a data race (the value it gets or leaves is
/// unspecified where the racing values could differ).
pub(crate) const RACE: Undefined = Undefined::result(
    "8.10.6",
    "a plain (weak) access overlaps an access of another thread with no causality order between them (a data race: not morally strong, 8.7); the read may see either write, and either write may be the last (8.10.1 orders only morally strong writes), so the bits they could differ in are unspecified",
);

/// Regions larger than this are not tracked (their cells cost up to 18
/// bytes per byte), nor regions past this many bytes in all (about 2 GiB
/// of cells).
const TRACKED_BYTES: usize = 64 << 20;
const TRACKED_TOTAL: usize = 112 << 20;
/// Read bytes the precise mode logs at most.
const LOG_MAX: usize = 1 << 24;
/// Runs in the precise mode at most (see the module's description).
pub(super) const ROUNDS: usize = 4;
/// The most bytes of buffers moved into a run that are copied for a
/// second run.
pub(super) const RERUN_COPY: usize = 1 << 30;

/// A reader summary of several readers, all of one CTA: this bit with the
/// CTA's index in run order.
const MANY_CTA: u32 = 1 << 31;
/// A reader summary of several readers of several CTAs.
const MANY: u32 = u32::MAX;

/// A recorded access: `tid` the thread (0 when none: the host, an atomic,
/// a strong or asynchronous write), `at` its stamp.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Rec {
    pub tid: u32,
    pub at: u32,
}

/// What the bytes of a global region or of a CTA's shared memory keep,
/// an entry per byte in each vector.
#[derive(Clone, Debug, Default)]
pub(crate) struct Cells {
    len: usize,
    /// The last plain write.
    pub w: Vec<Rec>,
    /// The last plain write that changed the byte's value (`w` itself
    /// when it did; tid 0 when the last change was no plain write).
    pub c: Vec<Rec>,
    /// The plain reads of each [`GRANULE`] bytes: `tid` the one reader,
    /// or [`MANY_CTA`] with a CTA, or [`MANY`]; `at` the latest read's
    /// stamp.
    pub r: Vec<Rec>,
}

/// The bytes one reader summary stands for: reads of different bytes of
/// it count as reads of each (a write may then make a run suspect for
/// nothing, and the precise mode, which logs each byte, decides). Four, so
/// that the common accesses check one summary per word rather than four.
pub(crate) const GRANULE: usize = 4;

/// The cells of a range of bytes.
pub(crate) struct Span<'a> {
    pub w: &'a [Rec],
    pub c: &'a [Rec],
    pub r: &'a [Rec],
}

/// The cells of a range of bytes, to change.
pub(crate) struct SpanMut<'a> {
    pub w: &'a mut [Rec],
    pub c: &'a mut [Rec],
    pub r: &'a mut [Rec],
}

impl Cells {
    /// The cells of `len` bytes, each kind made on first use.
    fn new(len: usize) -> Cells {
        Cells {
            len,
            ..Cells::default()
        }
    }

    /// The number of bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// The cells of `[off, off + n)` (each kind empty when not made yet),
    /// if the bytes are in range.
    #[inline(always)]
    pub fn span(&self, off: usize, n: usize) -> Option<Span<'_>> {
        let end = off.checked_add(n).filter(|&e| e <= self.len)?;
        let (w, c): (&[Rec], &[Rec]) = if self.w.is_empty() {
            (&[], &[])
        } else {
            (&self.w[off..end], &self.c[off..end])
        };
        let r: &[Rec] = if self.r.is_empty() {
            &[]
        } else {
            &self.r[off / GRANULE..end.div_ceil(GRANULE)]
        };
        Some(Span { w, c, r })
    }

    /// Whether every byte of `[off, off + n)` has no plain writer but
    /// thread `me` (and, for a `store`, no plain reader but `me`): the
    /// common case, which needs no stamp.
    #[inline(always)]
    pub fn only(&self, off: usize, n: usize, me: u32, store: bool) -> bool {
        let end = off + n;
        let w = self.w.get(off..end).is_none_or(|w| none_or(w, me));
        if !store {
            return w;
        }
        w && self
            .r
            .get(off / GRANULE..end.div_ceil(GRANULE))
            .is_none_or(|r| none_or(r, me))
    }

    /// Notes a plain read of `[off, off + n)` by thread `who` at stamp
    /// `at` in the reader summaries.
    #[inline(always)]
    pub fn note_read(&mut self, off: usize, n: usize, who: u32, at: u32, threads: u32) {
        if self.r.is_empty() {
            self.r = vec![Rec::default(); self.len.div_ceil(GRANULE)];
        }
        if let Some(r) = self.r.get_mut(off / GRANULE..(off + n).div_ceil(GRANULE)) {
            note_reads(r, who, at, threads);
        }
    }

    /// Notes a store of `[off, off + n)` (`n <= 64`) recorded as `rec`
    /// that changed the bytes of `changed` (bit `b` for byte `b`).
    #[inline(always)]
    pub fn note_write(&mut self, off: usize, n: usize, rec: Rec, changed: u64) {
        if self.w.is_empty() {
            self.w = vec![Rec::default(); self.len];
            self.c = vec![Rec::default(); self.len];
        }
        let (Some(w), Some(c)) = (self.w.get_mut(off..off + n), self.c.get_mut(off..off + n))
        else {
            return;
        };
        w.fill(rec);
        let all = if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
        if changed & all == all {
            c.fill(rec);
        } else {
            // the changed bytes only, without a branch per byte
            let mut m = changed & all;
            while m != 0 {
                if let Some(x) = c.get_mut(m.trailing_zeros() as usize) {
                    *x = rec;
                }
                m &= m - 1;
            }
        }
    }

    /// [`Self::span`], to change: the writers made when `write`, the
    /// reader summaries when `read`.
    #[inline(always)]
    pub fn span_mut(
        &mut self,
        off: usize,
        n: usize,
        write: bool,
        read: bool,
    ) -> Option<SpanMut<'_>> {
        let end = off.checked_add(n).filter(|&e| e <= self.len)?;
        if write && self.w.is_empty() {
            self.w = vec![Rec::default(); self.len];
            self.c = vec![Rec::default(); self.len];
        }
        if read && self.r.is_empty() {
            self.r = vec![Rec::default(); self.len.div_ceil(GRANULE)];
        }
        let (w, c): (&mut [Rec], &mut [Rec]) = if self.w.is_empty() {
            (&mut [], &mut [])
        } else {
            (&mut self.w[off..end], &mut self.c[off..end])
        };
        let r: &mut [Rec] = if self.r.is_empty() {
            &mut []
        } else {
            &mut self.r[off / GRANULE..end.div_ceil(GRANULE)]
        };
        Some(SpanMut { w, c, r })
    }
}

/// A read that a later write of another thread races with (precise mode):
/// per byte of the read access, the bits the read could have seen
/// otherwise; and the first such writer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Found {
    pub bits: Vec<u8>,
    pub writer: u32,
}

/// Reads by thread id and number among the thread's plain reads.
pub(crate) type Marks = HashMap<(u32, u32), Found>;

/// A plain read of one byte, logged by the precise mode.
#[derive(Clone, Copy, Debug)]
struct Logged {
    tid: u32,
    at: u32,
    /// The read's number among its thread's plain reads.
    n: u32,
    /// The read access's length, and this byte's place in it.
    len: u8,
    byte: u8,
    value: u8,
}

/// The race state of a run.
#[derive(Debug, Default)]
pub(crate) struct Races {
    /// Off when the stamps ran out (after 2^32 synchronising steps).
    pub off: bool,
    counter: u32,
    threads: u32,
    cluster_size: u32,
    /// Index of the running cluster in run order.
    cluster_seq: u32,
    /// Per thread of the running cluster (`cta * threads + t`): the stamp
    /// of its last synchronising step of each kind.
    strong: Vec<u32>,
    asynch: Vec<u32>,
    bar: Vec<u32>,
    cluster: Vec<u32>,
    /// Instructions whose race has been reported (one report each).
    pub reported: HashSet<u32>,
    /// Each mbarrier object's `mbarrier.init`: who, and when.
    pub mbar_init: HashMap<(usize, usize), Rec>,
    /// Per barrier of each CTA of the running cluster: the stamp of its
    /// last completion.
    pub bar_done: Vec<[u32; 16]>,
    /// Per global region (empty until a thread reads or writes it).
    pub global: Vec<Cells>,
    /// Bytes of global regions tracked so far.
    tracked: usize,
    /// Per CTA of the running cluster.
    pub shared: Vec<Cells>,
    /// A plain write that the reader summaries do not order after an
    /// earlier read of another thread (the run is done again, precisely).
    pub suspect: bool,
    /// The precise mode: reads logged and numbered, `marks` applied.
    pub precise: bool,
    /// Reads to give unspecified bits (found by an earlier run).
    pub marks: Marks,
    /// Reads that a later write races with, found by this run.
    pub found: Marks,
    /// Per thread of the running cluster: plain reads so far.
    reads_done: Vec<u32>,
    log: Vec<Logged>,
    /// Logged reads of each global byte `(region, offset)` and shared byte
    /// `(CTA, offset)` (of the running cluster).
    glog: HashMap<(usize, usize), Vec<u32>>,
    slog: HashMap<(usize, usize), Vec<u32>>,
}

/// Which kind of step a thread synchronised with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SyncKind {
    /// Orders with writers of its CTA.
    Cta,
    /// Orders with writers of its cluster.
    Cluster,
    /// A fence, an atomic or a strong access: may order with any writer.
    Strong,
    /// An mbarrier or asynchronous operation or wait: may order with any
    /// writer's data, but does not publish an mbarrier's initialisation.
    Async,
}

/// The reader summary after a read by `who` (a thread id) of a byte whose
/// summary names `r.tid`.
#[inline(always)]
fn reader(r: Rec, who: u32, threads: u32) -> u32 {
    if r.tid == 0 || r.tid == who {
        return who;
    }
    let cta = |x: u32| match x {
        MANY => None,
        x if x >= MANY_CTA => Some(x & !MANY_CTA),
        x => Some((x - 1) / threads.max(1)),
    };
    match (cta(r.tid), cta(who)) {
        (Some(a), Some(b)) if a == b && a < !MANY_CTA => MANY_CTA | a,
        _ => MANY,
    }
}

/// Whether every record of `v` names no thread or thread `me` (without
/// branches: the common case of the checks).
#[inline(always)]
fn none_or(v: &[Rec], me: u32) -> bool {
    let mut ok = true;
    for x in v {
        ok &= (x.tid == 0) | (x.tid == me);
    }
    ok
}

/// Notes a plain read by thread `who` at stamp `at` in the reader
/// summaries `r`.
#[inline(always)]
pub(super) fn note_reads(r: &mut [Rec], who: u32, at: u32, threads: u32) {
    // an id that does not fit the summary's encoding reads as many
    let who = if who >= MANY_CTA { MANY } else { who };
    let mut same = true;
    for x in r.iter() {
        same &= (x.tid == who) & (x.at == at);
    }
    if same {
        return;
    }
    for x in r {
        *x = Rec {
            tid: reader(*x, who, threads),
            at,
        };
    }
}

impl Races {
    /// Stops the check for the run (`Launch::races` off).
    pub fn disable(&mut self) {
        self.off = true;
    }

    /// A new cluster starts (`seq` in run order).
    pub fn start_cluster(
        &mut self,
        seq: u32,
        ctas: u32,
        threads: u32,
        shared_len: usize,
        regions: usize,
    ) {
        let n = (ctas * threads) as usize;
        self.threads = threads;
        self.cluster_size = ctas;
        self.cluster_seq = seq;
        self.mbar_init.clear();
        for v in [
            &mut self.strong,
            &mut self.asynch,
            &mut self.bar,
            &mut self.cluster,
            &mut self.reads_done,
        ] {
            v.clear();
            v.resize(n, 0);
        }
        self.bar_done.clear();
        self.bar_done.resize(ctas as usize, [0; 16]);
        self.shared.clear();
        self.shared
            .resize_with(ctas as usize, || Cells::new(shared_len));
        self.slog.clear();
        if self.global.len() < regions {
            self.global.resize_with(regions, Cells::default);
        }
    }

    /// A new stamp, later than every write so far.
    pub fn tick(&mut self) -> u32 {
        if self.counter == u32::MAX {
            self.off = true;
        } else {
            self.counter += 1;
        }
        self.counter
    }

    /// The stamp a write gets now.
    #[inline(always)]
    pub fn now(&self) -> u32 {
        self.counter
    }

    /// The number of threads of a CTA.
    #[inline(always)]
    pub fn threads(&self) -> u32 {
        self.threads
    }

    /// Thread `t` of the running cluster synchronised (stamp `at`).
    pub fn synced(&mut self, t: usize, kind: SyncKind, at: u32) {
        let v = match kind {
            SyncKind::Cta => &mut self.bar,
            SyncKind::Cluster => &mut self.cluster,
            SyncKind::Strong => &mut self.strong,
            SyncKind::Async => &mut self.asynch,
        };
        if let Some(x) = v.get_mut(t) {
            *x = at;
        }
    }

    /// The writer id of thread `t` of the running cluster (never 0).
    #[inline(always)]
    pub fn tid(&self, t: usize) -> u32 {
        (self.cluster_seq.wrapping_mul(self.cluster_size))
            .wrapping_mul(self.threads)
            .wrapping_add(t as u32)
            .wrapping_add(1)
            .max(1)
    }

    /// Whether an access recorded as `r` is ordered before an access now
    /// by thread `t` of the running cluster.
    #[inline(always)]
    pub fn ordered(&self, t: usize, r: Rec) -> bool {
        self.asynch[t] > r.at || self.published(t, r)
    }

    /// Whether a step recorded as `r` (an `mbarrier.init`) is ordered
    /// before a step now by thread `t` through what makes an
    /// initialisation visible: program order, a barrier of its CTA, a
    /// cluster barrier, or a fence, atomic or strong access (9.7.13.15.5:
    /// `fence.mbarrier_init` with a cluster barrier, for other CTAs).
    #[inline(always)]
    pub fn published(&self, t: usize, r: Rec) -> bool {
        if r.tid == 0 || self.off || r.tid == self.tid(t) {
            return true;
        }
        if self.strong[t] > r.at {
            return true;
        }
        let writer = r.tid - 1;
        let first = self
            .cluster_seq
            .wrapping_mul(self.cluster_size)
            .wrapping_mul(self.threads);
        let local = writer.wrapping_sub(first);
        let in_cluster = local < self.cluster_size.wrapping_mul(self.threads);
        if in_cluster && self.cluster[t] > r.at {
            return true;
        }
        in_cluster && local / self.threads == t as u32 / self.threads && self.bar[t] > r.at
    }

    /// Whether a plain read now by thread `t` (id `me`) of a byte sees one
    /// value: its last writer, or the last writer that changed its value,
    /// is ordered before the read (see the module's description).
    #[inline(always)]
    pub fn seen(&self, t: usize, me: u32, w: Rec, c: Rec) -> bool {
        w.tid == 0
            || w.tid == me
            || c.tid == 0
            || c.tid == me
            || self.ordered(t, w)
            || self.ordered(t, c)
    }

    /// Whether the plain reads a summary `r` stands for are ordered before
    /// a write now by thread `t` (id `me`).
    #[inline(always)]
    pub fn reads_ordered(&self, t: usize, me: u32, r: Rec) -> bool {
        if r.tid == 0 || r.tid == me || self.off {
            return true;
        }
        if r.tid < MANY_CTA {
            return self.ordered(t, r);
        }
        if self.strong[t] > r.at || self.asynch[t] > r.at {
            return true;
        }
        if r.tid == MANY || self.threads == 0 {
            return false;
        }
        let local =
            (r.tid & !MANY_CTA).wrapping_sub(self.cluster_seq.wrapping_mul(self.cluster_size));
        if local >= self.cluster_size {
            return false;
        }
        self.cluster[t] > r.at || (local == t as u32 / self.threads && self.bar[t] > r.at)
    }

    /// Whether a plain read now by thread `t` of the bytes of `cells` sees
    /// one value in each.
    #[inline(always)]
    pub fn clean_read(&self, t: usize, s: &Span<'_>) -> bool {
        let me = self.tid(t);
        none_or(s.w, me) || s.w.iter().zip(s.c).all(|(&w, &c)| self.seen(t, me, w, c))
    }

    /// Whether a plain write now by thread `t` of the bytes of `cells` is
    /// ordered after their last writers and their plain reads.
    #[inline(always)]
    pub fn clean_write(&self, t: usize, s: &Span<'_>) -> bool {
        let me = self.tid(t);
        (none_or(s.w, me) || s.w.iter().all(|&w| self.ordered(t, w)))
            && (none_or(s.r, me) || s.r.iter().all(|&r| self.reads_ordered(t, me, r)))
    }

    /// The cells of global region `i`, made on first use; `None` when the
    /// region is too large to track.
    #[inline(always)]
    pub fn global_cells(&mut self, i: usize, len: usize) -> Option<&mut Cells> {
        if self.global.get(i).is_some_and(|c| c.len() == len) {
            return Some(&mut self.global[i]);
        }
        self.make_global(i, len)
    }

    fn make_global(&mut self, i: usize, len: usize) -> Option<&mut Cells> {
        if self.global.len() <= i {
            self.global.resize_with(i + 1, Cells::default);
        }
        if self.global[i].len() != len {
            if len > TRACKED_BYTES || self.tracked + len > TRACKED_TOTAL {
                return None;
            }
            self.tracked += len;
            self.global[i] = Cells::new(len);
        }
        Some(&mut self.global[i])
    }

    /// The number of thread `t`'s next plain read.
    fn next_read(&mut self, t: usize) -> u32 {
        match self.reads_done.get_mut(t) {
            Some(n) => {
                *n = n.wrapping_add(1);
                *n - 1
            }
            None => u32::MAX,
        }
    }
}

/// Whether every read of `found` is marked in `marks` with its bits.
pub(super) fn covered(found: &Marks, marks: &Marks) -> bool {
    found.iter().all(|(k, f)| {
        marks.get(k).is_some_and(|m| {
            m.bits.len() == f.bits.len() && m.bits.iter().zip(&f.bits).all(|(a, b)| b & !a == 0)
        })
    })
}

/// Adds the reads of `found` to `marks`.
pub(super) fn merge(marks: &mut Marks, found: Marks) {
    for (k, f) in found {
        let m = marks.entry(k).or_insert_with(|| Found {
            bits: vec![0; f.bits.len()],
            writer: f.writer,
        });
        if m.bits.len() < f.bits.len() {
            m.bits.resize(f.bits.len(), 0);
        }
        for (a, b) in m.bits.iter_mut().zip(&f.bits) {
            *a |= b;
        }
    }
}

/// The bits of a found read's bytes `[start, start + len)` as a mask of a
/// value read from byte `start`.
pub(super) fn found_bits(f: Option<&Found>, start: usize, len: usize) -> u64 {
    let Some(f) = f else { return 0 };
    let mut m = 0u64;
    for b in 0..len.min(8) {
        if let Some(&x) = f.bits.get(start + b) {
            m |= u64::from(x) << (8 * b);
        }
    }
    m
}

impl Machine<'_> {
    /// The index of lane `l` of warp `w` among the running cluster's
    /// threads.
    #[inline(always)]
    pub(crate) fn cluster_thread(&self, w: usize, l: usize) -> usize {
        let wp = &self.warps[w];
        wp.cta * self.shape.threads as usize + wp.first as usize + l
    }

    /// The lanes `mask` of warp `w` took a synchronising step of `kind`.
    pub(crate) fn sync_lanes(&mut self, w: usize, mask: u32, kind: SyncKind) {
        if mask == 0 {
            return;
        }
        let at = self.race.tick();
        for l in super::lanes(mask) {
            let t = self.cluster_thread(w, l);
            self.race.synced(t, kind, at);
        }
    }
}

impl Machine<'_> {
    /// The cells of `[loc, loc + n)`, if the run has made them.
    fn cells(&self, loc: Loc, n: usize) -> Option<Span<'_>> {
        let (all, off) = match loc {
            Loc::Global(i, off) => (self.race.global.get(i)?, off),
            Loc::Shared(c, off) => (self.race.shared.get(c)?, off),
            _ => return None,
        };
        all.span(off, n)
    }

    /// The cells of `[loc, loc + n)`, made on first use, if the location
    /// is tracked.
    fn cells_at(&mut self, loc: Loc, n: usize, write: bool, read: bool) -> Option<SpanMut<'_>> {
        match loc {
            Loc::Global(i, off) => {
                let len = self.global.regions[i].bytes.len();
                self.race
                    .global_cells(i, len)
                    .and_then(|r| r.span_mut(off, n, write, read))
            }
            Loc::Shared(c, off) => self
                .race
                .shared
                .get_mut(c)
                .and_then(|r| r.span_mut(off, n, write, read)),
            _ => None,
        }
    }

    /// The bytes (bit `b` for byte `b`, `n <= 64`) of a plain access by
    /// lane `l` of warp `w` that race with an earlier write (for a read,
    /// the bytes it may see two values of), and the first racing writer.
    pub(super) fn racing_bytes(
        &self,
        w: usize,
        l: usize,
        loc: Loc,
        n: usize,
        read: bool,
    ) -> (u64, u32) {
        if self.race.off {
            return (0, 0);
        }
        let t = self.cluster_thread(w, l);
        let me = self.race.tid(t);
        let Some(cells) = self.cells(loc, n.min(64)) else {
            return (0, 0);
        };
        let mut bytes = 0u64;
        let mut first = 0;
        for (b, (&w, &c)) in cells.w.iter().zip(cells.c).enumerate() {
            let clean = if read {
                self.race.seen(t, me, w, c)
            } else {
                self.race.ordered(t, w)
            };
            if !clean {
                bytes |= 1 << b;
                if first == 0 {
                    first = w.tid;
                }
            }
        }
        (bytes, first)
    }

    /// The bytes and the unspecified bits (a mask per byte) of `[loc, loc
    /// + n)`, for the race check (not a read of the program's).
    pub(super) fn peek(&self, loc: Loc, n: usize) -> (Vec<u8>, Vec<u8>) {
        match loc {
            Loc::Global(i, off) => {
                let r = &self.global.regions[i];
                let sh = if r.shadow.is_empty() {
                    vec![0; n]
                } else {
                    r.shadow[off..off + n].to_vec()
                };
                (r.bytes[off..off + n].to_vec(), sh)
            }
            Loc::Shared(c, off) => {
                let cta = &self.ctas[c];
                (
                    cta.shared[off..off + n].to_vec(),
                    cta.shadow[off..off + n].to_vec(),
                )
            }
            _ => (Vec::new(), Vec::new()),
        }
    }

    /// Lane `l` of warp `w` read `[loc, loc + n)` with a plain load: the
    /// reader summaries, and in the precise mode the log. The read's
    /// marks, if an earlier run found that a later write races with it.
    pub(super) fn record_read(&mut self, w: usize, l: usize, loc: Loc, n: usize) -> Option<Found> {
        if self.race.off || !matches!(loc, Loc::Global(..) | Loc::Shared(..)) {
            return None;
        }
        let t = self.cluster_thread(w, l);
        let me = self.race.tid(t);
        let (at, threads) = (self.race.now(), self.race.threads);
        if let Some(cells) = self.cells_at(loc, n, false, true) {
            note_reads(cells.r, me, at, threads);
        }
        if !self.race.precise {
            return None;
        }
        let k = self.race.next_read(t);
        if self.race.log.len() + n <= LOG_MAX && n <= 64 {
            let (value, _) = self.peek(loc, n);
            for (b, &v) in value.iter().enumerate() {
                let key = match loc {
                    Loc::Global(i, off) => (false, i, off + b),
                    Loc::Shared(c, off) => (true, c, off + b),
                    _ => continue,
                };
                let idx = self.race.log.len() as u32;
                self.race.log.push(Logged {
                    tid: me,
                    at,
                    n: k,
                    len: n as u8,
                    byte: b as u8,
                    value: v,
                });
                let map = if key.0 {
                    &mut self.race.slog
                } else {
                    &mut self.race.glog
                };
                map.entry((key.1, key.2)).or_default().push(idx);
            }
        }
        self.race.marks.get(&(me, k)).cloned()
    }

    /// Lane `l` of warp `w` wrote `[loc, loc + n)` with a plain store; the
    /// bytes held `before` (bytes and unspecified bits, from
    /// [`Self::peek`]; empty when not taken).
    pub(super) fn record_write(
        &mut self,
        w: usize,
        l: usize,
        loc: Loc,
        n: usize,
        before: (&[u8], &[u8]),
    ) {
        if self.race.off {
            return;
        }
        let tid = self.race.tid(self.cluster_thread(w, l));
        let at = self.race.now();
        let (after, after_sh) = if before.0.len() == n {
            self.peek(loc, n)
        } else {
            (Vec::new(), Vec::new())
        };
        if let Some(cells) = self.cells_at(loc, n, true, false) {
            let rec = Rec { tid, at };
            for (b, (w, c)) in cells.w.iter_mut().zip(cells.c.iter_mut()).enumerate() {
                *w = rec;
                // a byte keeps its value when it held these bits, all
                // specified, before and after
                let kept = before.0.get(b).is_some()
                    && before.0.get(b) == after.get(b)
                    && before.1.get(b) == Some(&0)
                    && after_sh.get(b) == Some(&0);
                if !kept {
                    *c = rec;
                }
            }
        }
    }

    /// `[loc, loc + n)` was written by an atomic, a strong store or an
    /// asynchronous operation: no plain writer.
    pub(super) fn clear_writer(&mut self, loc: Loc, n: usize) {
        // cells a run has not made have no writer to clear
        if self.cells(loc, n).is_some() {
            if let Some(cells) = self.cells_at(loc, n, false, false) {
                cells.w.fill(Rec::default());
                cells.c.fill(Rec::default());
            }
        }
    }

    /// After a plain store by lane `l` of warp `w` to `[loc, loc + n)`:
    /// the earlier plain reads of other threads that nothing orders before
    /// it. The reader summaries make the run suspect; the precise mode
    /// finds each such read that could have seen other bits.
    pub(super) fn check_reads(&mut self, w: usize, l: usize, loc: Loc, n: usize) {
        if self.race.off {
            return;
        }
        let t = self.cluster_thread(w, l);
        let me = self.race.tid(t);
        if !self.race.precise {
            if let Some(cells) = self.cells(loc, n) {
                if !cells.r.iter().all(|&r| self.race.reads_ordered(t, me, r)) {
                    self.race.suspect = true;
                }
            }
            return;
        }
        let (now, now_sh) = self.peek(loc, n);
        for (b, (&v, &sh)) in now.iter().zip(&now_sh).enumerate() {
            let (map, key) = match loc {
                Loc::Global(i, off) => (&self.race.glog, (i, off + b)),
                Loc::Shared(c, off) => (&self.race.slog, (c, off + b)),
                _ => return,
            };
            let Some(reads) = map.get(&key) else { continue };
            for &idx in reads {
                let e = self.race.log[idx as usize];
                let bits = (e.value ^ v) | sh;
                if e.tid == me
                    || bits == 0
                    || self.race.ordered(
                        t,
                        Rec {
                            tid: e.tid,
                            at: e.at,
                        },
                    )
                {
                    continue;
                }
                let f = self
                    .race
                    .found
                    .entry((e.tid, e.n))
                    .or_insert_with(|| Found {
                        bits: vec![0; usize::from(e.len)],
                        writer: me,
                    });
                if let Some(x) = f.bits.get_mut(usize::from(e.byte)) {
                    *x |= bits;
                }
            }
        }
    }

    /// Reports a race of lane `l` with writer `tid`.
    /// The first race at each instruction of a run is reported; the
    /// others get their unspecified bits silently.
    pub(super) fn report_race(&mut self, w: usize, l: usize, pc: u32, tid: u32, what: &str) {
        if !self.race.reported.insert(pc) {
            return;
        }
        self.undefined_result(w, l, pc, RACE);
        let who = self.writer_name(tid);
        if let Some(r) = self.undefined_results.last_mut() {
            r.note = format!(
                "{what} a plain write of {who} that nothing orders with it (the first race at this instruction; later ones are not reported)"
            );
        }
    }

    fn writer_name(&self, tid: u32) -> String {
        let r = &self.race;
        if r.threads == 0 || tid == 0 {
            return "another thread".into();
        }
        // the writer id back into coordinates
        let (cta_seq, t) = ((tid - 1) / r.threads, (tid - 1) % r.threads);
        let s = &self.shape;
        let n0 = (s.grid[0] / s.cluster[0]).max(1);
        let n1 = (s.grid[1] / s.cluster[1]).max(1);
        let seq = cta_seq / s.cluster_size.max(1);
        let rank = cta_seq % s.cluster_size.max(1);
        let cl = [seq % n0, (seq / n0) % n1, seq / (n0 * n1)];
        let c = [
            rank % s.cluster[0],
            (rank / s.cluster[0]) % s.cluster[1],
            rank / (s.cluster[0] * s.cluster[1]),
        ];
        let ctaid = [
            cl[0] * s.cluster[0] + c[0],
            cl[1] * s.cluster[1] + c[1],
            cl[2] * s.cluster[2] + c[2],
        ];
        let b = s.block;
        let tid = [t % b[0], (t / b[0]) % b[1], t / (b[0] * b[1])];
        format!("thread ctaid={ctaid:?} tid={tid:?}")
    }
}

impl Machine<'_> {
    /// The bytes `[loc, loc + n)` hold now (global and shared only).
    pub(super) fn bytes_now(&self, loc: super::exec::Loc, n: usize) -> Vec<u8> {
        use super::exec::Loc;
        match loc {
            Loc::Global(i, off) => {
                self.global.note_read(i, off, n);
                self.global.regions[i].bytes[off..off + n].to_vec()
            }
            Loc::Shared(c, off) => self.ctas[c].shared[off..off + n].to_vec(),
            _ => Vec::new(),
        }
    }

    /// After a racing write: the bits of the racing bytes (`racing`, bit
    /// per byte) in which the value changed from `old` become unspecified;
    /// whether any did.
    pub(super) fn settle_race(&mut self, loc: super::exec::Loc, racing: u64, old: &[u8]) -> bool {
        use super::exec::Loc;
        let new = self.bytes_now(loc, old.len());
        let mut any = false;
        for (b, (x, y)) in old.iter().zip(&new).enumerate() {
            if racing >> b & 1 == 0 || x == y {
                continue;
            }
            any = true;
            match loc {
                Loc::Global(i, off) => {
                    self.global.make_indeterminate(i, 0, 0);
                    self.global.note_write(i, off + b, 1);
                    self.global.regions[i].shadow[off + b] |= x ^ y;
                }
                Loc::Shared(c, off) => self.ctas[c].shadow[off + b] |= x ^ y,
                _ => {}
            }
        }
        any
    }
}

/// The bits of the bytes `[start, start + len)` of an access that are in
/// `racing` (bit per byte), as a mask of a value read from byte `start`.
pub(super) fn racing_bits(racing: u64, start: usize, len: usize) -> u64 {
    let mut m = 0u64;
    for b in 0..len.min(8) {
        if start + b < 64 && racing >> (start + b) & 1 != 0 {
            m |= 0xff << (8 * b);
        }
    }
    m
}

/// An mbarrier operation whose object's `mbarrier.init` nothing orders
/// before it.
pub(crate) const MBAR_INIT_UNORDERED: Undefined = Undefined::behaviour(
    "9.7.13.15",
    "Performing any mbarrier operation except mbarrier.init on an uninitialized mbarrier object results in undefined behavior: the object's mbarrier.init by another thread is not ordered before this operation (no barrier, cluster barrier or fence between them; 9.7.13.15.5 asks for fence.mbarrier_init and a cluster barrier across CTAs), so it may still be uninitialized",
);

impl Machine<'_> {
    /// Lane `l` of warp `w` initialised the mbarrier at `key`.
    pub(super) fn record_mbar_init(&mut self, w: usize, l: usize, key: (usize, usize)) {
        let tid = self.race.tid(self.cluster_thread(w, l));
        let at = self.race.now();
        self.race.mbar_init.insert(key, Rec { tid, at });
    }

    /// Whether the initialisation of the mbarrier at `key` (if the run
    /// has seen one) is ordered before an operation on it now by lane `l`
    /// of warp `w`.
    pub(super) fn mbar_init_ordered(&mut self, w: usize, l: usize, key: (usize, usize)) -> bool {
        let t = self.cluster_thread(w, l);
        match self.race.mbar_init.get(&key) {
            Some(r) => self.race.published(t, *r),
            None => true,
        }
    }

    /// [`Self::mbar_init_ordered`], as an undefined behaviour with a note
    /// naming the initialising thread.
    pub(super) fn mbar_init_check(
        &mut self,
        w: usize,
        l: usize,
        key: (usize, usize),
    ) -> Result<(), Undefined> {
        if self.mbar_init_ordered(w, l, key) {
            return Ok(());
        }
        let by = self.race.mbar_init.get(&key).map_or(0, |r| r.tid);
        self.asy.note = format!("the mbarrier was initialised by {}", self.writer_name(by));
        Err(MBAR_INIT_UNORDERED)
    }
}
