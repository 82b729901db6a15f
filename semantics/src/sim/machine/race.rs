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
//! checked; they leave their bytes with no plain writer. A write followed
//! by a racing read of the other order (read first, then the racing write)
//! is not detected: the read already happened in this interleaving.
//!
//! Global regions over 64 MiB, or past 256 MiB of such records in a run,
//! are not tracked (their races are not seen).
//!
//! Each byte of global and shared memory that a thread has written keeps
//! the writer and a stamp: a counter that every synchronising step moves
//! on. A reader is ordered after the write when its last synchronising step
//! of a kind that reaches the writer has a larger stamp.

use super::Machine;
use crate::sim::undefined::Undefined;

/// The read or write of a data race (the value it gets or leaves is
/// unspecified where the racing values could differ).
pub(crate) const RACE: Undefined = Undefined::result(
    "8.10.6",
    "a plain (weak) access overlaps an access of another thread with no causality order between them (a data race: not morally strong, 8.7); the read may see either write, and either write may be the last (8.10.1 orders only morally strong writes), so the bits they could differ in are unspecified",
);

/// Regions larger than this are not tracked (their records would cost
/// eight bytes per byte), nor regions past this many bytes in all.
const TRACKED_BYTES: usize = 64 << 20;
const TRACKED_TOTAL: usize = 256 << 20;

/// The last plain writer of a byte: `tid` 0 when none (the host, an
/// atomic, a strong or asynchronous write).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Rec {
    pub tid: u32,
    pub at: u32,
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
    pub reported: std::collections::HashSet<u32>,
    /// Each mbarrier object's `mbarrier.init`: who, and when.
    pub mbar_init: std::collections::HashMap<(usize, usize), Rec>,
    /// Per barrier of each CTA of the running cluster: the stamp of its
    /// last completion.
    pub bar_done: Vec<[u32; 16]>,
    /// Per global region (empty until a thread writes it).
    pub global: Vec<Vec<Rec>>,
    /// Bytes of global regions tracked so far.
    tracked: usize,
    /// Per CTA of the running cluster.
    pub shared: Vec<Vec<Rec>>,
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
        ] {
            v.clear();
            v.resize(n, 0);
        }
        self.bar_done.clear();
        self.bar_done.resize(ctas as usize, [0; 16]);
        self.shared.clear();
        self.shared
            .resize_with(ctas as usize, || vec![Rec::default(); shared_len]);
        if self.global.len() < regions {
            self.global.resize_with(regions, Vec::new);
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

    /// Whether a write recorded as `r` is ordered before an access now by
    /// thread `t` of the running cluster.
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

    /// Whether every write recorded in `recs` is ordered before an access
    /// now by thread `t`.
    #[inline(always)]
    pub fn clean(&self, t: usize, recs: &[Rec]) -> bool {
        let me = self.tid(t);
        recs.iter()
            .all(|r| r.tid == 0 || r.tid == me || self.ordered(t, *r))
    }

    /// The records of global region `i`, made on first use; `None` when
    /// the region is too large to track.
    pub fn global_recs(&mut self, i: usize, len: usize) -> Option<&mut [Rec]> {
        if self.global.len() <= i {
            self.global.resize_with(i + 1, Vec::new);
        }
        if self.global[i].len() != len {
            if len > TRACKED_BYTES || self.tracked + len > TRACKED_TOTAL {
                return None;
            }
            self.tracked += len;
            self.global[i].resize(len, Rec::default());
        }
        Some(&mut self.global[i])
    }
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
    /// The records of `[loc, loc + n)`, if the run has made them.
    fn recs(&self, loc: super::exec::Loc, n: usize) -> Option<&[Rec]> {
        use super::exec::Loc;
        let (all, off) = match loc {
            Loc::Global(i, off) => (self.race.global.get(i)?, off),
            Loc::Shared(c, off) => (self.race.shared.get(c)?, off),
            _ => return None,
        };
        all.get(off..off + n)
    }

    /// The records of `[loc, loc + n)`, made on first use, if the location
    /// is tracked.
    fn recs_at(&mut self, loc: super::exec::Loc, n: usize) -> Option<&mut [Rec]> {
        use super::exec::Loc;
        match loc {
            Loc::Global(i, off) => {
                let len = self.global.regions[i].bytes.len();
                self.race.global_recs(i, len).map(|r| &mut r[off..off + n])
            }
            Loc::Shared(c, off) => self.race.shared.get_mut(c).map(|r| &mut r[off..off + n]),
            _ => None,
        }
    }

    /// The bytes (bit `b` for byte `b`, `n <= 64`) of a plain access by
    /// lane `l` of warp `w` that race with an earlier write, and the first
    /// racing writer.
    pub(super) fn racing_bytes(
        &self,
        w: usize,
        l: usize,
        loc: super::exec::Loc,
        n: usize,
    ) -> (u64, u32) {
        if self.race.off {
            return (0, 0);
        }
        let t = self.cluster_thread(w, l);
        let Some(recs) = self.recs(loc, n.min(64)) else {
            return (0, 0);
        };
        let mut bytes = 0u64;
        let mut first = 0;
        for (b, r) in recs.iter().enumerate() {
            if !self.race.ordered(t, *r) {
                bytes |= 1 << b;
                if first == 0 {
                    first = r.tid;
                }
            }
        }
        (bytes, first)
    }

    /// Lane `l` of warp `w` wrote `[loc, loc + n)` with a plain store.
    pub(super) fn record_write(&mut self, w: usize, l: usize, loc: super::exec::Loc, n: usize) {
        if self.race.off {
            return;
        }
        let tid = self.race.tid(self.cluster_thread(w, l));
        let at = self.race.now();
        if let Some(recs) = self.recs_at(loc, n) {
            recs.fill(Rec { tid, at });
        }
    }

    /// `[loc, loc + n)` was written by an atomic, a strong store or an
    /// asynchronous operation: no plain writer.
    pub(super) fn clear_writer(&mut self, loc: super::exec::Loc, n: usize) {
        // records a run has not made have no writer to clear
        if self.recs(loc, n).is_some() {
            if let Some(recs) = self.recs_at(loc, n) {
                recs.fill(Rec::default());
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
