//! A litmus test mapped onto a GPU launch: which threads share a CTA or a
//! cluster, where each location lives, which values come back, and the PTX
//! kernel that runs many instances of the test at once. A test that cannot
//! be mapped gets the reason.

use ptx_litmus::{
    AtomOp, BinOp, CmpOp, Init, Instr, Litmus, Operand, ProxyFence, Scope, Sem, Space, Value,
};
use std::collections::BTreeMap;
use std::fmt::Write;

/// Backward branches a test thread takes before it gives up (a loop that
/// waits for a value that never comes would otherwise hang the launch).
pub const LOOP_LIMIT: u32 = 1 << 16;

/// The most test threads in one instance (the role word keeps 4 bits).
pub const MAX_THREADS: usize = 16;
/// Threads per CTA of a launch.
pub const BLOCK: u32 = 256;
/// 32-bit words of shared memory each CTA holds for locations.
pub const SHARED_WORDS: u32 = 2048;

/// Where a location lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Home {
    Global,
    /// The shared memory of CTA `cta` of the test's cluster `cluster`
    /// (numbered as in [`Plan::place`]), reached from the cluster's other
    /// CTAs through `mapa` when `remote`.
    Shared {
        cluster: usize,
        cta: usize,
        remote: bool,
    },
}

#[derive(Clone, Debug)]
pub struct Location {
    pub name: String,
    pub home: Home,
    pub init: i64,
    /// For an mbarrier: `Some(count)` (`None` inside when a thread
    /// initialises it); `None` for data.
    pub mbarrier: Option<Option<i64>>,
    /// For shared memory: the first test thread running in the owner's CTA,
    /// which sets the initial value (or initialises the mbarrier) before
    /// the instance starts.
    pub init_thread: Option<usize>,
}

/// Where a value of the outcome comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// Thread `thread` stores it into its instance's row at `slot`.
    Reg { thread: usize, slot: usize },
    /// The final value of location `loc`.
    Loc(usize),
}

/// A test mapped onto the GPU.
#[derive(Clone, Debug)]
pub struct Plan {
    pub threads: usize,
    /// Each test thread's cluster (0-based, dense) and CTA within it.
    pub place: Vec<(usize, usize)>,
    /// CTAs per cluster of the launch (1: no cluster launch).
    pub cluster: u32,
    /// Keep each CTA's test threads in one warp.
    pub same_warp: bool,
    pub locs: Vec<Location>,
    /// The outcome's terms, in `ptx_memmodel::outcomes` order.
    pub sources: Vec<Source>,
    /// Register slots per instance row.
    pub reg_slots: usize,
    /// Words per location: 4 (16 bytes, 16-byte aligned) when a copy or an
    /// mbarrier needs them, else 1.
    pub slot_words: u32,
    pub ptx: String,
}

pub const ENTRY: &str = "litmus";

/// Maps `test` (whose outcome terms are `terms`) onto a launch, or says why
/// it cannot be.
///
/// With `simulator`, the kernel has no synchronised start: the interpreter
/// runs one cluster at a time, so threads of different clusters could never
/// meet.
pub fn plan(
    test: &Litmus,
    terms: &[Value],
    ptx_version: &str,
    simulator: bool,
) -> Result<Plan, String> {
    let n = test.threads.len();
    if n == 0 {
        return Err("the test has no threads".into());
    }
    if n > MAX_THREADS {
        return Err(format!(
            "{n} threads: the harness runs at most {MAX_THREADS} per instance"
        ));
    }
    if test.threads.iter().any(|t| t.gpu != 0) {
        return Err("threads on more than one GPU".into());
    }
    // clusters and CTAs, numbered densely in order of appearance
    let mut clusters: Vec<Option<u32>> = Vec::new();
    let mut ctas: Vec<Vec<u32>> = Vec::new();
    let mut place = Vec::new();
    for t in &test.threads {
        // without a cluster, a CTA is a cluster of its own
        let key = t.cluster.or(Some(u32::MAX - t.cta));
        let c = match clusters.iter().position(|&k| k == key) {
            Some(c) => c,
            None => {
                clusters.push(key);
                ctas.push(Vec::new());
                clusters.len() - 1
            }
        };
        let k = match ctas[c].iter().position(|&x| x == t.cta) {
            Some(k) => k,
            None => {
                ctas[c].push(t.cta);
                ctas[c].len() - 1
            }
        };
        place.push((c, k));
    }
    // a CTA in two clusters cannot be
    for (c, list) in ctas.iter().enumerate() {
        for (d, other) in ctas.iter().enumerate() {
            if c != d && list.iter().any(|x| other.contains(x)) {
                return Err("a CTA is placed in two clusters".into());
            }
        }
    }
    let mut cluster = ctas.iter().map(Vec::len).max().unwrap_or(1) as u32;
    // a weak st.async needs a cluster of more than one CTA (PTX ISA
    // 9.7.9.12: "%cluster_nctarank > 1 ... Otherwise, the behavior is
    // undefined"; an H100 raises an illegal-instruction fault)
    if test
        .threads
        .iter()
        .flat_map(|t| &t.code)
        .any(|i| matches!(i, Instr::StAsync { .. }))
    {
        cluster = cluster.max(2);
    }
    if cluster > 8 {
        return Err(format!(
            "{cluster} CTAs in one cluster: more than the portable 8"
        ));
    }
    let same_warp = test.docs.contains("in one warp");
    // locations
    let users_of = |name: &str| -> Vec<usize> {
        (0..n)
            .filter(|&t| test.threads[t].code.iter().any(|ins| uses(ins, name)))
            .collect()
    };
    // where a shared location or mbarrier of CTA `owner` (whose first
    // thread is `init_thread`) lives
    let finish = |name: &str,
                  owner: u32,
                  init_thread: usize,
                  users: &[usize]|
     -> Result<(Home, usize), String> {
        let oc = place[init_thread].0;
        if users.iter().any(|&t| place[t].0 != oc) {
            return Err(format!(
                "`{name}` is in shared memory and used from another cluster"
            ));
        }
        let remote = users.iter().any(|&t| test.threads[t].cta != owner);
        Ok((
            Home::Shared {
                cluster: oc,
                cta: place[init_thread].1,
                remote,
            },
            init_thread,
        ))
    };
    // the CTA holding a shared location or an mbarrier: the one named, or
    // that of its users (all in one CTA), or for an mbarrier the CTA of the
    // threads that wait on it
    let shared_home = |name: &str,
                       owner: Option<u32>,
                       users: &[usize]|
     -> Result<(Home, usize), String> {
        let owner = match owner {
            Some(o) => o,
            None => {
                let waiters: Vec<usize> = (0..n)
                    .filter(|&t| test.threads[t].code.iter().any(|ins| waits_on(ins, name)))
                    .collect();
                // a copy's or st.async's mbarrier is in the destination's
                // CTA (PTX ISA 9.7.9.25.4.1, 9.7.9.12)
                let dest_owner = (0..n).find_map(|t| {
                    test.threads[t].code.iter().find_map(|ins| {
                        let dst = completes_on(ins, name)?;
                        test.init.iter().find_map(|i| match i {
                            Init::Location {
                                name: l,
                                space: Space::Shared,
                                owner,
                                ..
                            } if *l == dst => Some(owner.unwrap_or(test.threads[t].cta)),
                            _ => None,
                        })
                    })
                });
                if let (Some(o), true) = (dest_owner, waiters.is_empty()) {
                    if let Some(t) = (0..n).find(|&t| test.threads[t].cta == o) {
                        return finish(name, o, t, users);
                    }
                }
                let pick = if waiters.is_empty() {
                    users
                } else {
                    &waiters[..]
                };
                let mut c = pick.iter().map(|&t| test.threads[t].cta);
                let first = c.next().unwrap_or(test.threads[0].cta);
                if c.any(|x| x != first) {
                    return Err(format!(
                        "`{name}` is in the shared memory of each accessing thread's own CTA, and several CTAs access it"
                    ));
                }
                first
            }
        };
        let Some(init_thread) = (0..n).find(|&t| test.threads[t].cta == owner) else {
            return Err(format!(
                "`{name}` is in the shared memory of CTA {owner}, which runs no thread"
            ));
        };
        finish(name, owner, init_thread, users)
    };
    let mut locs: Vec<Location> = Vec::new();
    for i in &test.init {
        match i {
            Init::Location {
                name,
                space,
                value,
                owner,
            } => {
                let (home, init_thread) = match space {
                    Space::Global => (Home::Global, None),
                    Space::Shared => {
                        // an asynchronous write's destination is in its
                        // mbarrier's CTA (PTX ISA 9.7.9.12), where the
                        // mbarrier's waiters are
                        let owner = owner.or_else(|| {
                            let mbar = test.threads.iter().flat_map(|t| &t.code).find_map(|i| {
                                let m = match i {
                                    Instr::StAsync { mbar, .. } => mbar.clone(),
                                    _ => return None,
                                };
                                (completes_on(i, &m).as_deref() == Some(name.as_str())).then_some(m)
                            })?;
                            let mut waiters = test
                                .threads
                                .iter()
                                .filter(|t| t.code.iter().any(|i| waits_on(i, &mbar)))
                                .map(|t| t.cta);
                            let first = waiters.next()?;
                            waiters.all(|c| c == first).then_some(first)
                        });
                        let (h, t) = shared_home(name, owner, &users_of(name))?;
                        (h, Some(t))
                    }
                };
                locs.push(Location {
                    name: name.clone(),
                    home,
                    init: *value,
                    mbarrier: None,
                    init_thread,
                });
            }
            Init::Register { .. } => {}
            Init::Alias { .. } => return Err("virtual aliases (`@ ... aliases`)".into()),
            Init::Mbarrier { name, count } => {
                let (home, t) = shared_home(name, None, &users_of(name))?;
                locs.push(Location {
                    name: name.clone(),
                    home,
                    init: 0,
                    mbarrier: Some(*count),
                    init_thread: Some(t),
                });
            }
        }
    }
    // locations used but not declared start at 0 in global memory
    for t in &test.threads {
        for ins in &t.code {
            for name in locations_of(ins) {
                if !locs.iter().any(|l| l.name == name) {
                    locs.push(Location {
                        name,
                        home: Home::Global,
                        init: 0,
                        mbarrier: None,
                        init_thread: None,
                    });
                }
            }
        }
    }
    let wide = locs.iter().any(|l| l.mbarrier.is_some())
        || test.threads.iter().flat_map(|t| &t.code).any(is_async);
    // outcome values
    let mut slots: Vec<(usize, String)> = Vec::new();
    let mut sources = Vec::new();
    for term in terms {
        match term {
            Value::Reg { thread, reg } => {
                let t = test
                    .threads
                    .iter()
                    .position(|x| x.id == *thread)
                    .ok_or_else(|| format!("the condition names thread P{thread}, not declared"))?;
                let slot = match slots.iter().position(|s| s.0 == t && &s.1 == reg) {
                    Some(s) => s,
                    None => {
                        slots.push((t, reg.clone()));
                        slots.len() - 1
                    }
                };
                sources.push(Source::Reg { thread: t, slot });
            }
            Value::Loc(name) => {
                let l = locs
                    .iter()
                    .position(|l| &l.name == name)
                    .ok_or_else(|| format!("the condition names `{name}`, which no thread uses"))?;
                sources.push(Source::Loc(l));
            }
            Value::Const(_) => {}
        }
    }
    let mut p = Plan {
        threads: n,
        place,
        cluster,
        same_warp,
        locs,
        sources,
        reg_slots: slots.len(),
        slot_words: if wide { 4 } else { 1 },
        ptx: String::new(),
    };
    p.ptx = kernel(test, &p, &slots, ptx_version, simulator)?;
    Ok(p)
}

fn uses(i: &Instr, name: &str) -> bool {
    locations_of(i).iter().any(|l| l == name)
}

/// Whether `i` waits on mbarrier `name` (waits need it in the thread's own
/// CTA).
fn waits_on(i: &Instr, name: &str) -> bool {
    matches!(i, Instr::MbarrierTestWait { mbar, .. } if mbar == name)
}

/// The destination of a copy or `st.async` that completes on mbarrier
/// `name`.
fn completes_on(i: &Instr, name: &str) -> Option<String> {
    match i {
        Instr::CpAsyncBulk {
            dst,
            completion: ptx_litmus::BulkCompletion::Mbarrier(m),
            ..
        } => m
            .iter()
            .position(|b| b == name)
            .and_then(|k| dst.get(k).cloned()),
        Instr::CpReduceAsyncBulk {
            dst,
            completion: ptx_litmus::BulkCompletion::Mbarrier(m),
            ..
        } if m.iter().any(|b| b == name) => Some(dst.clone()),
        Instr::StAsync { dst, mbar, .. } if mbar == name => Some(dst.clone()),
        _ => None,
    }
}

/// Whether a test needs 16-byte locations: asynchronous copies move 16
/// bytes at 16-byte aligned addresses.
fn is_async(i: &Instr) -> bool {
    matches!(
        i,
        Instr::CpAsync { .. }
            | Instr::CpAsyncBulk { .. }
            | Instr::CpReduceAsyncBulk { .. }
            | Instr::StAsync { .. }
    )
}

/// The locations and mbarriers an instruction names.
fn locations_of(i: &Instr) -> Vec<String> {
    match i {
        Instr::Load { loc, .. }
        | Instr::Store { loc, .. }
        | Instr::Atom { loc, .. }
        | Instr::Red { loc, .. } => vec![loc.clone()],
        Instr::CpAsync { dst, src, .. } => vec![dst.clone(), src.clone()],
        Instr::CpAsyncBulk {
            dst,
            src,
            completion,
            ..
        } => {
            let mut v = dst.clone();
            v.push(src.clone());
            if let ptx_litmus::BulkCompletion::Mbarrier(m) = completion {
                v.extend(m.iter().cloned());
            }
            v
        }
        Instr::CpReduceAsyncBulk {
            dst,
            src,
            completion,
            ..
        } => {
            let mut v = vec![dst.clone(), src.clone()];
            if let ptx_litmus::BulkCompletion::Mbarrier(m) = completion {
                v.extend(m.iter().cloned());
            }
            v
        }
        Instr::StAsync { dst, mbar, .. } => vec![dst.clone(), mbar.clone()],
        Instr::MbarrierArrive { mbar, .. }
        | Instr::MbarrierTestWait { mbar, .. }
        | Instr::CpAsyncMbarrierArrive { mbar, .. }
        | Instr::MbarrierInit { mbar, .. } => vec![mbar.clone()],
        _ => Vec::new(),
    }
}

fn scope(s: Scope) -> &'static str {
    match s {
        Scope::Cta => "cta",
        Scope::Cluster => "cluster",
        Scope::Gpu => "gpu",
        Scope::Sys => "sys",
    }
}

/// `.relaxed.gpu`, `.weak`, ... for a memory access.
fn order(sem: Sem, sc: Option<Scope>, what: &str) -> Result<String, String> {
    let s = match sem {
        Sem::Weak => return Ok(".weak".into()),
        Sem::Relaxed => "relaxed",
        Sem::Acquire => "acquire",
        Sem::Release => "release",
        Sem::AcqRel => "acq_rel",
        Sem::Sc => return Err(format!("`{what}` with .sc semantics")),
    };
    // a strong access without a scope is not PTX; Dat3M writes none for
    // `.relaxed` only on weak forms
    let sc = sc.ok_or_else(|| format!("a strong `{what}` without a scope"))?;
    Ok(format!(".{s}.{}", scope(sc)))
}

fn binop(op: BinOp) -> Result<&'static str, String> {
    Ok(match op {
        BinOp::Add => "add.u32",
        BinOp::And => "and.b32",
        BinOp::Or => "or.b32",
        BinOp::Xor => "xor.b32",
        BinOp::Min => "min.u32",
        BinOp::Max => "max.u32",
        other => return Err(format!("atomic `{other:?}` has no PTX form")),
    })
}

/// Builds the kernel. Parameters (all `.u64`): roles (one u32 per GPU
/// thread: `instance << 4 | test thread`, or all ones for a stress
/// thread), locs (one u32 per instance and location: a word index in
/// `mem`, or for shared memory `rank << 24 | word`), mem (locations, then
/// one start counter per instance), out (per instance `reg_slots` words,
/// then per instance one word per location for shared final values),
/// scratch (the stress threads' lines), cfg (u32 words: spin limit, stress
/// iterations, scratch mask, start-counter base, instances).
fn kernel(
    test: &Litmus,
    p: &Plan,
    slots: &[(usize, String)],
    ptx_version: &str,
    simulator: bool,
) -> Result<String, String> {
    let nl = p.locs.len();
    let shared = p.locs.iter().any(|l| matches!(l.home, Home::Shared { .. }));
    let cluster = p.cluster > 1;
    let mbarriers = p.locs.iter().any(|l| l.mbarrier.is_some());
    let asynchronous = mbarriers || test.threads.iter().flat_map(|t| &t.code).any(is_async);
    // st.async, `.relaxed` mbarrier operations and the uni-directional
    // proxy fences came after PTX ISA 8.0
    let version = if asynchronous || uses_newer_fences(test) {
        "8.6"
    } else {
        ptx_version
    };
    // whether thread `t` runs in the CTA holding location `l`
    let local = |l: usize, t: usize| match p.locs[l].home {
        Home::Global => true,
        Home::Shared { cluster, cta, .. } => p.place[t] == (cluster, cta),
    };
    let mut k = String::new();
    let w = &mut k;
    let _ = writeln!(
        w,
        ".version {version}\n.target sm_90\n.address_size 64\n\n\
         .visible .entry {ENTRY}(.param .u64 p_roles, .param .u64 p_locs, .param .u64 p_mem, \
         .param .u64 p_out, .param .u64 p_scratch, .param .u64 p_cfg)\n{{"
    );
    let _ = writeln!(
        w,
        "\t.reg .pred %p<8>;\n\t.reg .b32 %r<32>;\n\t.reg .b64 %rd<32>;\n\t.reg .b32 %v<64>;\n\
         \t.reg .b32 %ls<{n}>;\n\t.reg .b32 %lsl<{n}>;\n\t.reg .b64 %lg<{n}>;\n\t.reg .b64 %st<{n}>;",
        n = nl.max(1)
    );
    if shared {
        let _ = writeln!(w, "\t.shared .align 16 .b32 smem[{SHARED_WORDS}];");
    }
    let _ = writeln!(
        w,
        "\tld.param.u64 %rd1, [p_roles];\n\tcvta.to.global.u64 %rd1, %rd1;\n\
         \tld.param.u64 %rd2, [p_locs];\n\tcvta.to.global.u64 %rd2, %rd2;\n\
         \tld.param.u64 %rd3, [p_mem];\n\tcvta.to.global.u64 %rd3, %rd3;\n\
         \tld.param.u64 %rd4, [p_out];\n\tcvta.to.global.u64 %rd4, %rd4;\n\
         \tld.param.u64 %rd5, [p_scratch];\n\tcvta.to.global.u64 %rd5, %rd5;\n\
         \tld.param.u64 %rd6, [p_cfg];\n\tcvta.to.global.u64 %rd6, %rd6;\n\
         \tld.global.u32 %r20, [%rd6];\n\tld.global.u32 %r21, [%rd6+4];\n\
         \tld.global.u32 %r22, [%rd6+8];\n\tld.global.u32 %r23, [%rd6+12];\n\
         \tld.global.u32 %r24, [%rd6+16];\n\
         \tmov.u32 %r1, %ctaid.x;\n\tmov.u32 %r2, %ntid.x;\n\tmov.u32 %r3, %tid.x;\n\
         \tmad.lo.u32 %r4, %r1, %r2, %r3;"
    );
    if shared {
        // every CTA zeroes its locations' words before any is set up
        let _ = writeln!(
            w,
            "\tmov.u32 %r10, %r3;\nZERO:\n\tsetp.ge.u32 %p1, %r10, {SHARED_WORDS};\n\t@%p1 bra ZEROED;\n\
             \tshl.b32 %r11, %r10, 2;\n\tmov.u32 %r12, smem;\n\tadd.u32 %r12, %r12, %r11;\n\
             \tst.shared.u32 [%r12], 0;\n\tadd.u32 %r10, %r10, %r2;\n\tbra ZERO;\nZEROED:\n\tbar.sync 0;"
        );
    }
    let _ = writeln!(
        w,
        "\tmul.wide.u32 %rd7, %r4, 4;\n\tadd.u64 %rd7, %rd1, %rd7;\n\tld.global.u32 %r5, [%rd7];\n\
         \tsetp.eq.u32 %p2, %r5, 0xffffffff;\n\t@%p2 bra SET_UP;\n\
         \tshr.u32 %r6, %r5, 4;\n\tand.b32 %r7, %r5, 15;"
    );
    // location addresses
    for (l, loc) in p.locs.iter().enumerate() {
        let _ = writeln!(
            w,
            "\tmad.lo.u32 %r8, %r6, {nl}, {l};\n\tmul.wide.u32 %rd8, %r8, 4;\n\tadd.u64 %rd8, %rd2, %rd8;\n\tld.global.u32 %r9, [%rd8];"
        );
        match loc.home {
            Home::Global => {
                let _ = writeln!(
                    w,
                    "\tmul.wide.u32 %rd9, %r9, 4;\n\tadd.u64 %lg{l}, %rd3, %rd9;"
                );
            }
            Home::Shared { .. } => {
                let _ = writeln!(
                    w,
                    "\tand.b32 %r10, %r9, 16777215;\n\tshl.b32 %r10, %r10, 2;\n\tmov.u32 %r11, smem;\n\tadd.u32 %lsl{l}, %r11, %r10;\n\tmov.u32 %ls{l}, %lsl{l};"
                );
                if cluster {
                    let _ = writeln!(
                        w,
                        "\tshr.u32 %r12, %r9, 24;\n\tmapa.shared::cluster.u32 %ls{l}, %lsl{l}, %r12;"
                    );
                }
                // the owner CTA's first test thread sets it up
                if let Some(t) = loc.init_thread {
                    let set_up = match loc.mbarrier {
                        Some(Some(count)) => {
                            format!("mbarrier.init.shared::cta.b64 [%lsl{l}], {count};")
                        }
                        Some(None) => String::new(),
                        None if loc.init != 0 => {
                            format!("st.shared::cta.u32 [%lsl{l}], {};", loc.init)
                        }
                        None => String::new(),
                    };
                    if !set_up.is_empty() {
                        let _ = writeln!(w, "\tsetp.eq.u32 %p5, %r7, {t};\n\t@%p5 {set_up}");
                    }
                }
            }
        }
    }
    let _ = writeln!(w, "SET_UP:");
    if mbarriers && cluster {
        let _ = writeln!(w, "\tfence.mbarrier_init.release.cluster;");
    }
    if shared {
        let _ = writeln!(w, "\tbar.sync 0;");
        if cluster {
            let _ = writeln!(
                w,
                "\tbarrier.cluster.arrive.release;\n\tbarrier.cluster.wait.acquire;"
            );
        }
    }
    let _ = writeln!(w, "\t@%p2 bra STRESS;");
    let access = |l: usize| -> (&'static str, String) {
        match p.locs[l].home {
            Home::Global => ("global", format!("%lg{l}")),
            Home::Shared { remote, .. } => {
                if remote || cluster {
                    ("shared::cluster", format!("%ls{l}"))
                } else {
                    ("shared::cta", format!("%ls{l}"))
                }
            }
        }
    };
    // a synchronised start: each thread counts itself in and waits, for a
    // bounded time, until the instance's threads are all there
    if !simulator {
        let _ = writeln!(
            w,
            "\tadd.u32 %r13, %r23, %r6;\n\tmul.wide.u32 %rd10, %r13, 4;\n\tadd.u64 %rd10, %rd3, %rd10;\n\
             \tred.relaxed.gpu.global.add.u32 [%rd10], 1;\n\tmov.u32 %r14, 0;\nSPIN:\n\
             \tld.relaxed.gpu.global.u32 %r15, [%rd10];\n\tsetp.ge.u32 %p3, %r15, {};\n\
             \tsetp.ge.u32 %p4, %r14, %r20;\n\tor.pred %p3, %p3, %p4;\n\tadd.u32 %r14, %r14, 1;\n\
             \t@!%p3 bra SPIN;",
            p.threads
        );
    }
    for t in 0..p.threads {
        let _ = writeln!(w, "\tsetp.eq.u32 %p5, %r7, {t};\n\t@%p5 bra T{t};");
    }
    let _ = writeln!(w, "\tbra DONE;");
    // registers: each litmus register of each thread gets a %v
    let mut vregs: BTreeMap<(usize, String), usize> = BTreeMap::new();
    let loc_index = |name: &str| {
        p.locs
            .iter()
            .position(|l| l.name == name)
            .ok_or_else(|| format!("`{name}` is not a location"))
    };
    let mbar_index = |name: &str| -> Result<usize, String> {
        let l = loc_index(name)?;
        if p.locs[l].mbarrier.is_none() {
            return Err(format!("`{name}` is not an mbarrier"));
        }
        Ok(l)
    };
    let data_index = |name: &str| -> Result<usize, String> {
        let l = loc_index(name)?;
        if p.locs[l].mbarrier.is_some() {
            return Err(format!("`{name}` is an mbarrier"));
        }
        Ok(l)
    };
    for (t, thread) in test.threads.iter().enumerate() {
        let _ = writeln!(w, "T{t}:");
        // registers start at 0, or at their initial value
        let mut names: Vec<String> = thread.code.iter().flat_map(registers_of).collect();
        names.extend(slots.iter().filter(|s| s.0 == t).map(|s| s.1.clone()));
        names.sort();
        names.dedup();
        for r in &names {
            let next = vregs.len();
            vregs.entry((t, r.clone())).or_insert(next);
        }
        if vregs.len() > 64 {
            return Err("more than 64 registers".into());
        }
        let vreg = |r: &str| -> Result<String, String> {
            vregs
                .get(&(t, r.to_string()))
                .map(|i| format!("%v{i}"))
                .ok_or_else(|| format!("register `{r}`"))
        };
        for r in &names {
            let init = test
                .init
                .iter()
                .find_map(|i| match i {
                    Init::Register {
                        thread: id,
                        reg,
                        value,
                    } if *id == thread.id && reg == r => Some(*value),
                    _ => None,
                })
                .unwrap_or(0);
            let _ = writeln!(w, "\tmov.u32 {}, {init};", vreg(r)?);
        }
        // mbarriers this thread has arrived on (for the state of its waits)
        let mut arrived: Vec<usize> = Vec::new();
        // a branch back to an earlier label is a loop: it may spin on a
        // value that never comes, so each thread gives up after LOOP_LIMIT
        // backward branches (the instance then counts as incomplete)
        let label_at = |l: &str| {
            thread
                .code
                .iter()
                .position(|i| matches!(i, Instr::Label(x) if x == l))
        };
        let loops = thread.code.iter().enumerate().any(|(k, i)| match i {
            Instr::Goto(l) | Instr::Branch { target: l, .. } => label_at(l).is_some_and(|j| j <= k),
            _ => false,
        });
        if loops {
            let _ = writeln!(w, "	mov.u32 %r30, 0;");
        }
        let backward = |k: usize, l: &str| -> String {
            if label_at(l).is_some_and(|j| j <= k) {
                format!(
                    "	add.u32 %r30, %r30, 1;
	setp.gt.u32 %p4, %r30, {LOOP_LIMIT};
	@%p4 bra T{t}_GIVE_UP;
"
                )
            } else {
                String::new()
            }
        };
        for (k, ins) in thread.code.iter().enumerate() {
            let operand = |o: &Operand| match o {
                Operand::Imm(v) => Ok(v.to_string()),
                Operand::Reg(r) => vreg(r),
            };
            match ins {
                Instr::Label(l) => {
                    let _ = writeln!(w, "T{t}_{l}:");
                }
                Instr::Goto(l) => {
                    let _ = writeln!(w, "{}\tbra T{t}_{l};", backward(k, l));
                }
                Instr::Branch {
                    cond,
                    a,
                    b,
                    target,
                } => {
                    let a = operand(a)?;
                    let b = operand(b)?;
                    let c = match cond {
                        CmpOp::Eq => "eq",
                        CmpOp::Ne => "ne",
                        CmpOp::Lt => "lt",
                        CmpOp::Le => "le",
                        CmpOp::Gt => "gt",
                        CmpOp::Ge => "ge",
                    };
                    let _ = writeln!(
                        w,
                        "{}\tmov.b32 %r29, {a};\n\tsetp.{c}.s32 %p6, %r29, {b};\n\t@%p6 bra T{t}_{target};",
                        backward(k, target)
                    );
                }
                Instr::Local { op, dst, a, b } => {
                    let a = operand(a)?;
                    let d = vreg(dst)?;
                    match (op, b) {
                        (None, _) => {
                            let _ = writeln!(w, "\tmov.b32 {d}, {a};");
                        }
                        (Some(op), Some(b)) => {
                            let b = operand(b)?;
                            let o = match op {
                                BinOp::Add => "add.s32",
                                BinOp::Sub => "sub.s32",
                                BinOp::Mul => "mul.lo.s32",
                                BinOp::Div => "div.s32",
                                BinOp::And => "and.b32",
                                BinOp::Or => "or.b32",
                                BinOp::Xor => "xor.b32",
                                BinOp::Min => "min.s32",
                                BinOp::Max => "max.s32",
                            };
                            let _ = writeln!(w, "\tmov.b32 %r29, {a};\n\t{o} {d}, %r29, {b};");
                        }
                        (Some(_), None) => return Err("arithmetic with one operand".into()),
                    }
                }
                Instr::Load {
                    kind: ptx_litmus::LoadKind::Ld,
                    sem,
                    scope: sc,
                    dst,
                    loc,
                } => {
                    let (space, addr) = access(data_index(loc)?);
                    let o = order(*sem, *sc, "ld")?;
                    let _ = writeln!(w, "\tld{o}.{space}.u32 {}, [{addr}];", vreg(dst)?);
                }
                Instr::Store {
                    kind: ptx_litmus::WriteKind::Generic,
                    sem,
                    scope: sc,
                    loc,
                    value,
                } => {
                    let (space, addr) = access(data_index(loc)?);
                    let o = order(*sem, *sc, "st")?;
                    let v = operand(value)?;
                    let _ = writeln!(w, "\tst{o}.{space}.u32 [{addr}], {v};");
                }
                Instr::Atom {
                    kind: ptx_litmus::WriteKind::Generic,
                    sem,
                    scope: sc,
                    op,
                    dst,
                    loc,
                } => {
                    let (space, addr) = access(data_index(loc)?);
                    let o = order(*sem, Some(*sc), "atom")?;
                    let o = if o == ".weak" { String::new() } else { o };
                    let d = vreg(dst)?;
                    match op {
                        AtomOp::Bin(b, v) => {
                            let v = operand(v)?;
                            let _ = writeln!(w, "\tatom{o}.{space}.{} {d}, [{addr}], {v};", binop(*b)?);
                        }
                        AtomOp::Exch(v) => {
                            let v = operand(v)?;
                            let _ = writeln!(w, "\tatom{o}.{space}.exch.b32 {d}, [{addr}], {v};");
                        }
                        AtomOp::Cas(e, n) => {
                            let e = operand(e)?;
                            let n = operand(n)?;
                            let _ = writeln!(w, "\tatom{o}.{space}.cas.b32 {d}, [{addr}], {e}, {n};");
                        }
                    }
                }
                Instr::Red {
                    kind: ptx_litmus::WriteKind::Generic,
                    sem,
                    scope: sc,
                    op,
                    loc,
                    value,
                } => {
                    let (space, addr) = access(data_index(loc)?);
                    let o = order(*sem, Some(*sc), "red")?;
                    let o = if o == ".weak" { String::new() } else { o };
                    let v = operand(value)?;
                    let _ = writeln!(w, "\tred{o}.{space}.{} [{addr}], {v};", binop(*op)?);
                }
                Instr::Fence { sem, scope: sc } => {
                    let s = match sem {
                        Sem::Sc => "sc",
                        Sem::AcqRel => "acq_rel",
                        other => return Err(format!("fence with {other:?} semantics")),
                    };
                    let _ = writeln!(w, "\tfence.{s}.{};", scope(*sc));
                }
                // the litmus text of these is the PTX instruction itself
                Instr::ProxyFence(
                    ProxyFence::Async(_)
                    | ProxyFence::AsyncGeneric { .. }
                    | ProxyFence::MbarrierInit,
                )
                | Instr::CpAsyncCommit
                | Instr::CpAsyncWaitGroup(_)
                | Instr::CpAsyncWaitAll
                | Instr::CpAsyncBulkCommit
                | Instr::CpAsyncBulkWaitGroup { .. } => {
                    let _ = writeln!(w, "\t{};", ptx_litmus::printer::instr(ins));
                }
                Instr::CpAsync {
                    cache_global,
                    dst,
                    src,
                    size,
                } => {
                    let (d, s) = (data_index(dst)?, data_index(src)?);
                    if !matches!(p.locs[d].home, Home::Shared { .. }) || !local(d, t) {
                        return Err("cp.async into memory other than the thread's own shared memory".into());
                    }
                    if p.locs[s].home != Home::Global {
                        return Err("cp.async from memory other than global".into());
                    }
                    let c = if *cache_global { "cg" } else { "ca" };
                    let _ = writeln!(w, "\tcp.async.{c}.shared.global [%lsl{d}], [%lg{s}], {size};");
                }
                Instr::CpAsyncBulk {
                    tensor,
                    dst_space,
                    src_space,
                    completion,
                    dst,
                    src,
                    size,
                } => {
                    if *tensor {
                        return Err("tensor copies are not mapped to the GPU yet".into());
                    }
                    if dst.len() != 1 {
                        return Err(".multicast::cluster copies are not mapped to the GPU yet".into());
                    }
                    let (d, s) = (data_index(&dst[0])?, data_index(src)?);
                    let line = bulk(p, t, "cp.async.bulk", dst_space, src_space, completion, d, s, *size, "", &mbar_index, &local)?;
                    let _ = writeln!(w, "\t{line}");
                }
                Instr::CpReduceAsyncBulk {
                    dst_space,
                    src_space,
                    completion,
                    op,
                    dst,
                    src,
                    size,
                } => {
                    let (d, s) = (data_index(dst)?, data_index(src)?);
                    let o = match op {
                        BinOp::Add => ".add.u32",
                        BinOp::Min => ".min.u32",
                        BinOp::Max => ".max.u32",
                        BinOp::And => ".and.b32",
                        BinOp::Or => ".or.b32",
                        BinOp::Xor => ".xor.b32",
                        other => return Err(format!("cp.reduce.async.bulk `{other:?}`")),
                    };
                    let line = bulk(p, t, "cp.reduce.async.bulk", dst_space, src_space, completion, d, s, *size, o, &mbar_index, &local)?;
                    let _ = writeln!(w, "\t{line}");
                }
                Instr::StAsync { dst, value, mbar } => {
                    let (d, m) = (data_index(dst)?, mbar_index(mbar)?);
                    if !matches!(p.locs[d].home, Home::Shared { .. }) {
                        return Err("st.async to memory other than shared".into());
                    }
                    let v = operand(value)?;
                    let _ = writeln!(
                        w,
                        "\tst.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [%ls{d}], {v}, [%ls{m}];"
                    );
                }
                Instr::MbarrierInit { mbar, count } => {
                    let m = mbar_index(mbar)?;
                    if !local(m, t) {
                        return Err("mbarrier.init of another CTA's mbarrier".into());
                    }
                    let _ = writeln!(w, "\tmbarrier.init.shared::cta.b64 [%lsl{m}], {count};");
                }
                Instr::MbarrierArrive {
                    sem,
                    scope: sc,
                    mbar,
                    expect_tx,
                } => {
                    let m = mbar_index(mbar)?;
                    let s = match sem {
                        Sem::Release => "release",
                        Sem::Relaxed => "relaxed",
                        other => return Err(format!("mbarrier.arrive with {other:?} semantics")),
                    };
                    let (form, tx) = match expect_tx {
                        Some(b) => (".expect_tx", format!(", {b}")),
                        None => ("", String::new()),
                    };
                    if local(m, t) {
                        let _ = writeln!(
                            w,
                            "\tmbarrier.arrive{form}.{s}.{}.shared::cta.b64 %st{m}, [%lsl{m}]{tx};",
                            scope(*sc)
                        );
                        arrived.push(m);
                    } else {
                        let _ = writeln!(
                            w,
                            "\tmbarrier.arrive{form}.{s}.{}.shared::cluster.b64 _, [%ls{m}]{tx};",
                            scope(*sc)
                        );
                    }
                }
                Instr::MbarrierTestWait {
                    try_wait,
                    sem,
                    scope: sc,
                    dst,
                    mbar,
                    parity,
                } => {
                    let m = mbar_index(mbar)?;
                    if !local(m, t) {
                        return Err("a wait on another CTA's mbarrier (PTX waits only on the thread's own CTA's)".into());
                    }
                    let s = match sem {
                        Sem::Acquire => "acquire",
                        Sem::Relaxed => "relaxed",
                        other => return Err(format!("mbarrier wait with {other:?} semantics")),
                    };
                    let op = if *try_wait { "try_wait" } else { "test_wait" };
                    // without .parity: the state of the thread's latest
                    // arrive, or the first phase (parity 0)
                    let (form, arg) = match parity {
                        Some(par) => (".parity", par.to_string()),
                        None if arrived.contains(&m) => ("", format!("%st{m}")),
                        None => (".parity", "0".to_string()),
                    };
                    let d = vreg(dst)?;
                    let _ = writeln!(
                        w,
                        "\tmbarrier.{op}{form}.{s}.{}.shared::cta.b64 %p7, [%lsl{m}], {arg};\n\tselp.u32 {d}, 1, 0, %p7;",
                        scope(*sc)
                    );
                }
                Instr::CpAsyncMbarrierArrive { noinc, mbar } => {
                    let m = mbar_index(mbar)?;
                    if !local(m, t) {
                        return Err("cp.async.mbarrier.arrive on another CTA's mbarrier".into());
                    }
                    let n = if *noinc { ".noinc" } else { "" };
                    let _ = writeln!(w, "\tcp.async.mbarrier.arrive{n}.shared::cta.b64 [%lsl{m}];");
                }
                Instr::Barrier { .. } | Instr::ClusterArrive { .. } | Instr::ClusterWait => {
                    return Err(
                        "CTA and cluster barriers synchronise every thread of a CTA or cluster, which the harness shares between instances: not mapped"
                            .into(),
                    )
                }
                other => {
                    return Err(format!(
                        "`{}` is not mapped to the GPU yet",
                        ptx_litmus::printer::instr(other)
                    ))
                }
            }
        }
        // this thread's outcome registers
        for (slot, (st, reg)) in slots.iter().enumerate() {
            if *st == t {
                let v = vreg(reg)?;
                let _ = writeln!(
                    w,
                    "\tmad.lo.u32 %r16, %r6, {}, {slot};\n\tmul.wide.u32 %rd11, %r16, 4;\n\tadd.u64 %rd11, %rd4, %rd11;\n\tst.global.u32 [%rd11], {v};",
                    p.reg_slots
                );
            }
        }
        let _ = writeln!(w, "\tbra DONE;");
        if loops {
            // gave up: the registers stay unwritten, the instance incomplete
            let _ = writeln!(w, "T{t}_GIVE_UP:\n\tbra DONE;");
        }
    }
    // stress: idle threads read and write scratch lines
    let _ = writeln!(
        w,
        "STRESS:\n\tmov.u32 %r17, 0;\n\tmul.lo.u32 %r18, %r4, 97;\nSTRESS_LOOP:\n\
         \tsetp.ge.u32 %p6, %r17, %r21;\n\t@%p6 bra DONE;\n\
         \tmad.lo.u32 %r19, %r17, 131, %r18;\n\tand.b32 %r19, %r19, %r22;\n\
         \tmul.wide.u32 %rd12, %r19, 4;\n\tadd.u64 %rd12, %rd5, %rd12;\n\
         \tld.volatile.global.u32 %r25, [%rd12];\n\tadd.u32 %r25, %r25, 1;\n\
         \tst.volatile.global.u32 [%rd12+128], %r25;\n\tadd.u32 %r17, %r17, 1;\n\tbra STRESS_LOOP;\nDONE:"
    );
    let finals: Vec<usize> = (0..nl)
        .filter(|&l| matches!(p.locs[l].home, Home::Shared { .. }) && p.locs[l].mbarrier.is_none())
        .collect();
    if shared {
        // no CTA leaves while another may still reach its shared memory,
        // and the final values are read once every thread is done
        let _ = writeln!(w, "\tbar.sync 0;");
        if cluster {
            let _ = writeln!(
                w,
                "\tbarrier.cluster.arrive.release;\n\tbarrier.cluster.wait.acquire;"
            );
        }
    }
    if !finals.is_empty() {
        // a test thread of the CTA that holds each shared location (the one
        // that set it up) reads its final value: a thread of another CTA
        // would read its own CTA's memory at that offset
        let _ = writeln!(
            w,
            "\tsetp.ne.u32 %p7, %r5, 0xffffffff;\n\t@!%p7 bra FINISHED;\n\
             \tmul.lo.u32 %r26, %r24, {};",
            p.reg_slots
        );
        for l in finals {
            let (space, addr) = access(l);
            let reader = p.locs[l].init_thread.unwrap_or(0);
            let _ = writeln!(
                w,
                "\tsetp.eq.u32 %p7, %r7, {reader};\n\t@%p7 ld.{space}.u32 %r27, [{addr}];\n\tmad.lo.u32 %r28, %r6, {nl}, {l};\n\tadd.u32 %r28, %r28, %r26;\n\
                 \tmul.wide.u32 %rd13, %r28, 4;\n\tadd.u64 %rd13, %rd4, %rd13;\n\t@%p7 st.global.u32 [%rd13], %r27;"
            );
        }
        let _ = writeln!(w, "FINISHED:");
        if cluster {
            let _ = writeln!(
                w,
                "\tbarrier.cluster.arrive.release;\n\tbarrier.cluster.wait.acquire;"
            );
        }
    }
    let _ = writeln!(w, "\tret;\n}}");
    Ok(k)
}

/// The registers an instruction writes or reads.
fn registers_of(i: &Instr) -> Vec<String> {
    let reg = |o: &Operand| match o {
        Operand::Reg(r) => vec![r.clone()],
        Operand::Imm(_) => Vec::new(),
    };
    match i {
        Instr::Load { dst, .. } | Instr::MbarrierTestWait { dst, .. } => vec![dst.clone()],
        Instr::Store { value, .. } | Instr::Red { value, .. } | Instr::StAsync { value, .. } => {
            reg(value)
        }
        Instr::Atom { dst, op, .. } => {
            let mut v = vec![dst.clone()];
            match op {
                AtomOp::Bin(_, o) | AtomOp::Exch(o) => v.extend(reg(o)),
                AtomOp::Cas(a, b) => {
                    v.extend(reg(a));
                    v.extend(reg(b));
                }
            }
            v
        }
        Instr::Local { dst, a, b, .. } => {
            let mut v = vec![dst.clone()];
            v.extend(reg(a));
            if let Some(b) = b {
                v.extend(reg(b));
            }
            v
        }
        Instr::Branch { a, b, .. } => {
            let mut v = reg(a);
            v.extend(reg(b));
            v
        }
        _ => Vec::new(),
    }
}

/// Whether a test uses the uni-directional proxy fences (PTX ISA 8.6).
fn uses_newer_fences(test: &Litmus) -> bool {
    test.threads
        .iter()
        .flat_map(|t| &t.code)
        .any(|i| matches!(i, Instr::ProxyFence(ProxyFence::AsyncGeneric { .. })))
}

/// A bulk copy or reduction: the PTX line, or why it cannot be mapped.
#[allow(clippy::too_many_arguments)]
fn bulk(
    p: &Plan,
    t: usize,
    name: &str,
    dst_space: &str,
    src_space: &str,
    completion: &ptx_litmus::BulkCompletion,
    d: usize,
    s: usize,
    size: i64,
    op: &str,
    mbar_index: &dyn Fn(&str) -> Result<usize, String>,
    local: &dyn Fn(usize, usize) -> bool,
) -> Result<String, String> {
    let addr = |l: usize, space: &str| -> Result<String, String> {
        match (space, p.locs[l].home) {
            ("global", Home::Global) => Ok(format!("%lg{l}")),
            ("shared::cluster", Home::Shared { .. }) => Ok(format!("%ls{l}")),
            ("shared::cta", Home::Shared { .. }) if local(l, t) => Ok(format!("%lsl{l}")),
            _ => Err(format!(
                "`{}` is not in the .{space} memory the copy names",
                p.locs[l].name
            )),
        }
    };
    let (da, sa) = (addr(d, dst_space)?, addr(s, src_space)?);
    Ok(match completion {
        ptx_litmus::BulkCompletion::BulkGroup => {
            format!("{name}.{dst_space}.{src_space}.bulk_group{op} [{da}], [{sa}], {size};")
        }
        ptx_litmus::BulkCompletion::Mbarrier(m) => {
            if m.len() != 1 {
                return Err("one mbarrier per copy".into());
            }
            let mb = mbar_index(&m[0])?;
            format!(
                "{name}.{dst_space}.{src_space}.mbarrier::complete_tx::bytes{op} [{da}], [{sa}], {size}, [%ls{mb}];"
            )
        }
    })
}
