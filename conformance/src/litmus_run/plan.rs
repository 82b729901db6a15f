//! A litmus test mapped onto a GPU launch: which threads share a CTA or a
//! cluster, where each location lives, which values come back, and the PTX
//! kernel that runs many instances of the test at once. A test that cannot
//! be mapped gets the reason.

use ptx_litmus::{AtomOp, BinOp, Init, Instr, Litmus, Operand, Scope, Sem, Space, Value};
use std::collections::BTreeMap;
use std::fmt::Write;

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
    pub ptx: String,
}

pub const ENTRY: &str = "litmus";

/// The state-space qualifier and address register of a location access.
struct Access {
    space: &'static str,
    addr: String,
}

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
    let cluster = ctas.iter().map(Vec::len).max().unwrap_or(1) as u32;
    if cluster > 8 {
        return Err(format!(
            "{cluster} CTAs in one cluster: more than the portable 8"
        ));
    }
    let same_warp = test.docs.contains("in one warp");
    // locations
    let mut locs: Vec<Location> = Vec::new();
    for i in &test.init {
        match i {
            Init::Location {
                name,
                space,
                value,
                owner,
            } => {
                let home = match space {
                    Space::Global => Home::Global,
                    Space::Shared => {
                        if *value != 0 {
                            return Err(format!(
                                "`{name}` starts at {value} in shared memory: the harness starts shared locations at 0"
                            ));
                        }
                        let users: Vec<usize> = (0..n)
                            .filter(|&t| test.threads[t].code.iter().any(|ins| uses(ins, name)))
                            .collect();
                        let owner = match owner {
                            Some(o) => *o,
                            None => {
                                let mut c = users.iter().map(|&t| test.threads[t].cta);
                                let first = c.next().unwrap_or(test.threads[0].cta);
                                if c.any(|x| x != first) {
                                    return Err(format!(
                                        "`{name}` is in the shared memory of each accessing thread's own CTA, and several CTAs access it"
                                    ));
                                }
                                first
                            }
                        };
                        // the owner's cluster must hold every thread using it
                        let owner_cluster = (0..n)
                            .find(|&t| test.threads[t].cta == owner)
                            .map(|t| place[t].0);
                        let Some(oc) = owner_cluster else {
                            return Err(format!(
                                "`{name}` is in the shared memory of CTA {owner}, which runs no thread"
                            ));
                        };
                        if users.iter().any(|&t| place[t].0 != oc) {
                            return Err(format!(
                                "`{name}` is in shared memory and used from another cluster"
                            ));
                        }
                        let remote = users.iter().any(|&t| test.threads[t].cta != owner);
                        let cta = (0..n)
                            .find(|&t| test.threads[t].cta == owner)
                            .map_or(0, |t| place[t].1);
                        Home::Shared {
                            cluster: oc,
                            cta,
                            remote,
                        }
                    }
                };
                locs.push(Location {
                    name: name.clone(),
                    home,
                    init: *value,
                });
            }
            Init::Register { .. } => {}
            Init::Alias { .. } => return Err("virtual aliases (`@ ... aliases`)".into()),
            Init::Mbarrier { .. } => return Err("mbarriers are not mapped to the GPU yet".into()),
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
                    });
                }
            }
        }
    }
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
        ptx: String::new(),
    };
    p.ptx = kernel(test, &p, &slots, ptx_version, simulator)?;
    Ok(p)
}

fn uses(i: &Instr, name: &str) -> bool {
    locations_of(i).iter().any(|l| l == name)
}

fn locations_of(i: &Instr) -> Vec<String> {
    match i {
        Instr::Load { loc, .. }
        | Instr::Store { loc, .. }
        | Instr::Atom { loc, .. }
        | Instr::Red { loc, .. } => vec![loc.clone()],
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
    let mut k = String::new();
    let w = &mut k;
    let _ = writeln!(
        w,
        ".version {ptx_version}\n.target sm_90\n.address_size 64\n\n\
         .visible .entry {ENTRY}(.param .u64 p_roles, .param .u64 p_locs, .param .u64 p_mem, \
         .param .u64 p_out, .param .u64 p_scratch, .param .u64 p_cfg)\n{{"
    );
    let _ = writeln!(
        w,
        "\t.reg .pred %p<8>;\n\t.reg .b32 %r<32>;\n\t.reg .b64 %rd<32>;\n\t.reg .b32 %v<{}>;\n\t.reg .b32 %ls<{}>;\n\t.reg .b64 %lg<{}>;",
        64,
        nl.max(1),
        nl.max(1)
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
        // every CTA zeroes its locations' words before any test thread runs
        let _ = writeln!(
            w,
            "\tmov.u32 %r10, %r3;\nZERO:\n\tsetp.ge.u32 %p1, %r10, {SHARED_WORDS};\n\t@%p1 bra ZEROED;\n\
             \tshl.b32 %r11, %r10, 2;\n\tmov.u32 %r12, smem;\n\tadd.u32 %r12, %r12, %r11;\n\
             \tst.shared.u32 [%r12], 0;\n\tadd.u32 %r10, %r10, %r2;\n\tbra ZERO;\nZEROED:\n\tbar.sync 0;"
        );
        if cluster {
            let _ = writeln!(
                w,
                "\tbarrier.cluster.arrive.release;\n\tbarrier.cluster.wait.acquire;"
            );
        }
    }
    let _ = writeln!(
        w,
        "\tmul.wide.u32 %rd7, %r4, 4;\n\tadd.u64 %rd7, %rd1, %rd7;\n\tld.global.u32 %r5, [%rd7];\n\
         \tsetp.eq.u32 %p2, %r5, 0xffffffff;\n\t@%p2 bra STRESS;\n\
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
            Home::Shared { remote, .. } => {
                let _ = writeln!(
                    w,
                    "\tand.b32 %r10, %r9, 16777215;\n\tshl.b32 %r10, %r10, 2;\n\tmov.u32 %r11, smem;\n\tadd.u32 %ls{l}, %r11, %r10;"
                );
                if remote || cluster {
                    let _ = writeln!(
                        w,
                        "\tshr.u32 %r12, %r9, 24;\n\tmapa.shared::cluster.u32 %ls{l}, %ls{l}, %r12;"
                    );
                }
            }
        }
    }
    let access = |l: usize| -> Access {
        match p.locs[l].home {
            Home::Global => Access {
                space: "global",
                addr: format!("%lg{l}"),
            },
            Home::Shared { remote, .. } => Access {
                space: if remote || cluster {
                    "shared::cluster"
                } else {
                    "shared::cta"
                },
                addr: format!("%ls{l}"),
            },
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
    let mut vreg = |t: usize, r: &str| -> Result<String, String> {
        let next = vregs.len();
        let i = *vregs.entry((t, r.to_string())).or_insert(next);
        if i >= 64 {
            return Err("more than 64 registers".into());
        }
        Ok(format!("%v{i}"))
    };
    let loc_index = |name: &str| p.locs.iter().position(|l| l.name == name);
    for (t, thread) in test.threads.iter().enumerate() {
        let _ = writeln!(w, "T{t}:");
        for i in &test.init {
            if let Init::Register {
                thread: id,
                reg,
                value,
            } = i
            {
                if *id == thread.id {
                    let _ = writeln!(w, "\tmov.u32 {}, {value};", vreg(t, reg)?);
                }
            }
        }
        for ins in &thread.code {
            let operand =
                |o: &Operand, vreg: &mut dyn FnMut(usize, &str) -> Result<String, String>| match o {
                    Operand::Imm(v) => Ok(v.to_string()),
                    Operand::Reg(r) => vreg(t, r),
                };
            match ins {
                Instr::Load {
                    kind: ptx_litmus::LoadKind::Ld,
                    sem,
                    scope: sc,
                    dst,
                    loc,
                } => {
                    let l = loc_index(loc).ok_or("unknown location")?;
                    let a = access(l);
                    let o = order(*sem, *sc, "ld")?;
                    let _ = writeln!(
                        w,
                        "\tld{o}.{}.u32 {}, [{}];",
                        a.space,
                        vreg(t, dst)?,
                        a.addr
                    );
                }
                Instr::Store {
                    kind: ptx_litmus::WriteKind::Generic,
                    sem,
                    scope: sc,
                    loc,
                    value,
                } => {
                    let l = loc_index(loc).ok_or("unknown location")?;
                    let a = access(l);
                    let o = order(*sem, *sc, "st")?;
                    let v = operand(value, &mut vreg)?;
                    let _ = writeln!(w, "\tst{o}.{}.u32 [{}], {v};", a.space, a.addr);
                }
                Instr::Atom {
                    kind: ptx_litmus::WriteKind::Generic,
                    sem,
                    scope: sc,
                    op,
                    dst,
                    loc,
                } => {
                    let l = loc_index(loc).ok_or("unknown location")?;
                    let a = access(l);
                    let o = order(*sem, Some(*sc), "atom")?;
                    let o = if o == ".weak" { String::new() } else { o };
                    let d = vreg(t, dst)?;
                    match op {
                        AtomOp::Bin(b, v) => {
                            let v = operand(v, &mut vreg)?;
                            let _ = writeln!(
                                w,
                                "\tatom{o}.{}.{} {d}, [{}], {v};",
                                a.space,
                                binop(*b)?,
                                a.addr
                            );
                        }
                        AtomOp::Exch(v) => {
                            let v = operand(v, &mut vreg)?;
                            let _ = writeln!(
                                w,
                                "\tatom{o}.{}.exch.b32 {d}, [{}], {v};",
                                a.space, a.addr
                            );
                        }
                        AtomOp::Cas(e, n) => {
                            let e = operand(e, &mut vreg)?;
                            let n = operand(n, &mut vreg)?;
                            let _ = writeln!(
                                w,
                                "\tatom{o}.{}.cas.b32 {d}, [{}], {e}, {n};",
                                a.space, a.addr
                            );
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
                    let l = loc_index(loc).ok_or("unknown location")?;
                    let a = access(l);
                    let o = order(*sem, Some(*sc), "red")?;
                    let o = if o == ".weak" { String::new() } else { o };
                    let v = operand(value, &mut vreg)?;
                    let _ = writeln!(w, "\tred{o}.{}.{} [{}], {v};", a.space, binop(*op)?, a.addr);
                }
                Instr::Fence { sem, scope: sc } => {
                    let s = match sem {
                        Sem::Sc => "sc",
                        Sem::AcqRel => "acq_rel",
                        other => return Err(format!("fence with {other:?} semantics")),
                    };
                    let _ = writeln!(w, "\tfence.{s}.{};", scope(*sc));
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
                let v = vreg(t, reg)?;
                let _ = writeln!(
                    w,
                    "\tmad.lo.u32 %r16, %r6, {}, {slot};\n\tmul.wide.u32 %rd11, %r16, 4;\n\tadd.u64 %rd11, %rd4, %rd11;\n\tst.global.u32 [%rd11], {v};",
                    p.reg_slots
                );
            }
        }
        let _ = writeln!(w, "\tbra DONE;");
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
        .filter(|&l| matches!(p.locs[l].home, Home::Shared { .. }))
        .collect();
    if !finals.is_empty() {
        let _ = writeln!(w, "\tbar.sync 0;");
        if cluster {
            let _ = writeln!(
                w,
                "\tbarrier.cluster.arrive.release;\n\tbarrier.cluster.wait.acquire;"
            );
        }
        // test thread 0 of each instance reads the shared final values
        let _ = writeln!(
            w,
            "\tsetp.ne.u32 %p7, %r5, 0xffffffff;\n\tsetp.eq.and.u32 %p7, %r7, 0, %p7;\n\t@!%p7 bra FINISHED;\n\
             \tmul.lo.u32 %r26, %r24, {};",
            p.reg_slots
        );
        for l in finals {
            let a = access(l);
            let _ = writeln!(
                w,
                "\tld.{}.u32 %r27, [{}];\n\tmad.lo.u32 %r28, %r6, {nl}, {l};\n\tadd.u32 %r28, %r28, %r26;\n\
                 \tmul.wide.u32 %rd13, %r28, 4;\n\tadd.u64 %rd13, %rd4, %rd13;\n\tst.global.u32 [%rd13], %r27;",
                a.space, a.addr
            );
        }
        let _ = writeln!(w, "FINISHED:");
        if cluster {
            // no CTA leaves while another may still read its shared memory
            let _ = writeln!(
                w,
                "\tbarrier.cluster.arrive.release;\n\tbarrier.cluster.wait.acquire;"
            );
        }
    }
    let _ = writeln!(w, "\tret;\n}}");
    Ok(k)
}
