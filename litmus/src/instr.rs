//! One cell of the thread table: a label or an instruction. The mnemonic's
//! qualifiers decide the instruction; operands are names, registers and
//! integers separated by commas. Errors carry the byte offset in the cell.

use crate::ast::*;
use crate::parser::{ident_len, parse_int};

type Res<T> = Result<T, (usize, String)>;

/// Parses the trimmed text of a cell.
pub(crate) fn parse_instr(text: &str) -> Res<Instr> {
    let mnemonic_len = text.find(char::is_whitespace).unwrap_or(text.len());
    let mnemonic = &text[..mnemonic_len];
    if let Some(label) = mnemonic.strip_suffix(':') {
        if ident_len(label) == label.len() && label.len() == mnemonic.len() - 1 {
            if text.len() > mnemonic_len {
                return Err((
                    mnemonic_len,
                    "nothing may follow a label in its cell".into(),
                ));
            }
            return Ok(Instr::Label(label.to_string()));
        }
    }
    let ops = Operands::split(text, mnemonic_len)?;
    let parts: Vec<&str> = mnemonic.split('.').collect();
    let bad = |msg: &str| Err((0, format!("`{mnemonic}`: {msg}")));
    match parts[0] {
        "ld" if parts.len() == 1 => {
            ops.count(2)?;
            Ok(Instr::Local {
                op: None,
                dst: ops.reg(0)?,
                a: ops.operand(1)?,
                b: None,
            })
        }
        "ld" | "tld" | "suld" | "cold" => {
            let kind = match parts[0] {
                "ld" => LoadKind::Ld,
                "tld" => LoadKind::Tld,
                "suld" => LoadKind::Suld,
                _ => LoadKind::Cold,
            };
            let (sem, scope) = sem_scope(
                mnemonic,
                &parts[1..],
                &[Sem::Weak, Sem::Relaxed, Sem::Acquire],
            )?;
            ops.count(2)?;
            Ok(Instr::Load {
                kind,
                sem,
                scope,
                dst: ops.reg(0)?,
                loc: ops.name(1)?,
            })
        }
        "st" if parts.get(1) == Some(&"async") => st_async(mnemonic, &parts[2..], &ops),
        "st" | "sust" => {
            let kind = if parts[0] == "st" {
                WriteKind::Generic
            } else {
                WriteKind::Surface
            };
            let (sem, scope) = sem_scope(
                mnemonic,
                &parts[1..],
                &[Sem::Weak, Sem::Relaxed, Sem::Release],
            )?;
            ops.count(2)?;
            Ok(Instr::Store {
                kind,
                sem,
                scope,
                loc: ops.name(0)?,
                value: ops.operand(1)?,
            })
        }
        "atom" | "suatom" => {
            let kind = write_kind(parts[0]);
            if parts.len() != 4 {
                return bad("expected `atom.SEM.SCOPE.OP`");
            }
            let (sem, scope) = strong_sem_scope(mnemonic, parts[1], parts[2])?;
            let op = match parts[3] {
                "exch" => {
                    ops.count(3)?;
                    AtomOp::Exch(ops.operand(2)?)
                }
                "cas" => {
                    ops.count(4)?;
                    AtomOp::Cas(ops.operand(2)?, ops.operand(3)?)
                }
                other => {
                    let Some(op) = bin_op(other) else {
                        return bad(
                            "expected an operation: add, sub, mul, div, and, or, xor, exch, cas",
                        );
                    };
                    ops.count(3)?;
                    AtomOp::Bin(op, ops.operand(2)?)
                }
            };
            Ok(Instr::Atom {
                kind,
                sem,
                scope,
                op,
                dst: ops.reg(0)?,
                loc: ops.name(1)?,
            })
        }
        "red" | "sured" => {
            let kind = write_kind(parts[0]);
            if parts.len() != 4 {
                return bad("expected `red.SEM.SCOPE.OP`");
            }
            let (sem, scope) = strong_sem_scope(mnemonic, parts[1], parts[2])?;
            let Some(op) = bin_op(parts[3]) else {
                return bad("expected an operation: add, sub, mul, div, and, or, xor");
            };
            ops.count(2)?;
            Ok(Instr::Red {
                kind,
                sem,
                scope,
                op,
                loc: ops.name(0)?,
                value: ops.operand(1)?,
            })
        }
        "add" | "sub" | "mul" | "div" if parts.len() == 1 => {
            ops.count(3)?;
            Ok(Instr::Local {
                op: bin_op(parts[0]),
                dst: ops.reg(0)?,
                a: ops.operand(1)?,
                b: Some(ops.operand(2)?),
            })
        }
        "fence" => fence(mnemonic, &parts[1..], &ops),
        "bar" => {
            let arrive = match parts[1..] {
                ["cta", "sync"] => false,
                ["cta", "arrive"] => true,
                _ => return bad("expected `bar.cta.sync` or `bar.cta.arrive`"),
            };
            if ops.len() == 0 || ops.len() > 3 {
                return Err((0, format!("`{mnemonic}` takes 1 to 3 operands")));
            }
            Ok(Instr::Barrier {
                arrive,
                instance: ops.imm(0)?,
                id: if ops.len() > 1 {
                    Some(ops.operand(1)?)
                } else {
                    None
                },
                quorum: if ops.len() > 2 {
                    Some(ops.operand(2)?)
                } else {
                    None
                },
            })
        }
        "barrier" => {
            ops.count(0)?;
            match parts[1..] {
                ["cluster", "arrive"] | ["cluster", "arrive", "release"] => {
                    Ok(Instr::ClusterArrive { sem: Sem::Release })
                }
                ["cluster", "arrive", "relaxed"] => Ok(Instr::ClusterArrive { sem: Sem::Relaxed }),
                ["cluster", "wait"] | ["cluster", "wait", "acquire"] => Ok(Instr::ClusterWait),
                _ => bad("expected `barrier.cluster.arrive{.release|.relaxed}` or `barrier.cluster.wait{.acquire}`"),
            }
        }
        "beq" | "bne" | "blt" | "bgt" | "ble" | "bge" if parts.len() == 1 => {
            let cond = match parts[0] {
                "beq" => CmpOp::Eq,
                "bne" => CmpOp::Ne,
                "blt" => CmpOp::Lt,
                "bgt" => CmpOp::Gt,
                "ble" => CmpOp::Le,
                _ => CmpOp::Ge,
            };
            ops.count(3)?;
            Ok(Instr::Branch {
                cond,
                a: ops.operand(0)?,
                b: ops.operand(1)?,
                target: ops.name(2)?,
            })
        }
        "goto" if parts.len() == 1 => {
            ops.count(1)?;
            Ok(Instr::Goto(ops.name(0)?))
        }
        "cp" if parts.get(1) == Some(&"reduce") => cp_reduce(mnemonic, &parts[2..], &ops),
        "tensormap" => tensormap_replace(mnemonic, &parts[1..], &ops),
        "cp" => cp(mnemonic, &parts[1..], &ops),
        "mbarrier" => mbarrier(mnemonic, &parts[1..], &ops),
        _ => bad("unknown instruction"),
    }
}

fn write_kind(head: &str) -> WriteKind {
    if head.starts_with("su") {
        WriteKind::Surface
    } else {
        WriteKind::Generic
    }
}

fn bin_op(s: &str) -> Option<BinOp> {
    Some(match s {
        "add" => BinOp::Add,
        "sub" => BinOp::Sub,
        "mul" => BinOp::Mul,
        "div" => BinOp::Div,
        "and" => BinOp::And,
        "or" => BinOp::Or,
        "xor" => BinOp::Xor,
        "min" => BinOp::Min,
        "max" => BinOp::Max,
        _ => return None,
    })
}

fn sem(s: &str) -> Option<Sem> {
    Some(match s {
        "weak" => Sem::Weak,
        "relaxed" => Sem::Relaxed,
        "acquire" => Sem::Acquire,
        "release" => Sem::Release,
        "acq_rel" => Sem::AcqRel,
        "sc" => Sem::Sc,
        _ => return None,
    })
}

fn scope(s: &str) -> Option<Scope> {
    Some(match s {
        "cta" => Scope::Cta,
        "cluster" => Scope::Cluster,
        "gpu" => Scope::Gpu,
        "sys" => Scope::Sys,
        _ => return None,
    })
}

/// `.sem{.scope}` of a load or store: weak takes no scope, the others need one.
fn sem_scope(mnemonic: &str, quals: &[&str], allowed: &[Sem]) -> Res<(Sem, Option<Scope>)> {
    let err = |m: &str| Err((0, format!("`{mnemonic}`: {m}")));
    let Some(s) = quals.first().and_then(|q| sem(q)) else {
        return err("expected a semantics qualifier such as `.weak`, `.relaxed`");
    };
    if !allowed.contains(&s) {
        return err(&format!("`.{}` is not allowed here", s.as_str()));
    }
    match (s, quals.get(1), quals.len()) {
        (Sem::Weak, None, 1) => Ok((s, None)),
        (Sem::Weak, _, _) => err("a weak access takes no scope"),
        (_, Some(q), 2) => match scope(q) {
            Some(sc) => Ok((s, Some(sc))),
            None => err("expected a scope: cta, cluster, gpu or sys"),
        },
        _ => err("a strong access needs exactly one scope"),
    }
}

/// `.sem.scope` of an atomic or reduction: relaxed, acquire, release or acq_rel.
fn strong_sem_scope(mnemonic: &str, s: &str, sc: &str) -> Res<(Sem, Scope)> {
    let s = match sem(s) {
        Some(s @ (Sem::Relaxed | Sem::Acquire | Sem::Release | Sem::AcqRel)) => s,
        _ => {
            return Err((
                0,
                format!("`{mnemonic}`: expected `.relaxed`, `.acquire`, `.release` or `.acq_rel`"),
            ))
        }
    };
    match scope(sc) {
        Some(sc) => Ok((s, sc)),
        None => Err((
            0,
            format!("`{mnemonic}`: expected a scope: cta, cluster, gpu or sys"),
        )),
    }
}

fn fence(mnemonic: &str, quals: &[&str], ops: &Operands<'_>) -> Res<Instr> {
    let err = |m: &str| Err((0, format!("`{mnemonic}`: {m}")));
    if let ["proxy", "tensormap::generic", s, sc] = quals {
        let Some(scope) = scope(sc) else {
            return err("expected a scope: cta, cluster, gpu or sys");
        };
        return match *s {
            "release" => {
                ops.count(0)?;
                Ok(Instr::TensormapFence {
                    sem: Sem::Release,
                    scope,
                    addr: None,
                })
            }
            "acquire" => {
                ops.count(2)?;
                // "The only supported value for the size operand is 128"
                // (PTX ISA 9.7.13.4).
                if ops.imm(1)? != 128 {
                    return Err((ops.get(1)?.0, "the size must be 128".into()));
                }
                Ok(Instr::TensormapFence {
                    sem: Sem::Acquire,
                    scope,
                    addr: Some(ops.name(0)?),
                })
            }
            _ => err("expected `fence.proxy.tensormap::generic.release.SCOPE` or `fence.proxy.tensormap::generic.acquire.SCOPE addr, 128`"),
        };
    }
    ops.count(0)?;
    if quals == ["mbarrier_init", "release", "cluster"] {
        return Ok(Instr::ProxyFence(ProxyFence::MbarrierInit));
    }
    if quals.first() == Some(&"proxy") {
        let kind = match quals[1..] {
            ["async::generic", "release", "sync_restrict::shared::cta", "cluster"] => {
                ProxyFence::AsyncGeneric {
                    release: true,
                    space: AsyncSpace::SharedCta,
                }
            }
            ["async::generic", "acquire", "sync_restrict::shared::cluster", "cluster"] => {
                ProxyFence::AsyncGeneric {
                    release: false,
                    space: AsyncSpace::SharedCluster,
                }
            }
            ["alias"] => ProxyFence::Alias,
            ["generic"] => ProxyFence::Proxy(AliasProxy::Generic),
            ["texture"] => ProxyFence::Proxy(AliasProxy::Texture),
            ["surface"] => ProxyFence::Proxy(AliasProxy::Surface),
            ["constant"] => ProxyFence::Proxy(AliasProxy::Constant),
            ["async"] => ProxyFence::Async(None),
            ["async", "global"] => ProxyFence::Async(Some(AsyncSpace::Global)),
            ["async", "shared::cta"] => ProxyFence::Async(Some(AsyncSpace::SharedCta)),
            ["async", "shared::cluster"] => ProxyFence::Async(Some(AsyncSpace::SharedCluster)),
            _ => return err("expected a proxy kind: alias, generic, texture, surface, constant, async{.global|.shared::cta|.shared::cluster}, or `async::generic.release.sync_restrict::shared::cta.cluster` / `async::generic.acquire.sync_restrict::shared::cluster.cluster`"),
        };
        return Ok(Instr::ProxyFence(kind));
    }
    match quals {
        [s, sc] => match (sem(s), scope(sc)) {
            (Some(s @ (Sem::AcqRel | Sem::Sc)), Some(sc)) => Ok(Instr::Fence { sem: s, scope: sc }),
            _ => err("expected `fence.acq_rel.SCOPE` or `fence.sc.SCOPE`"),
        },
        _ => err("expected `fence.acq_rel.SCOPE`, `fence.sc.SCOPE`, `fence.proxy.KIND` or `fence.mbarrier_init.release.cluster`"),
    }
}

fn cp(mnemonic: &str, quals: &[&str], ops: &Operands<'_>) -> Res<Instr> {
    let err = |m: &str| Err((0, format!("`{mnemonic}`: {m}")));
    match quals {
        ["async", "commit_group"] => {
            ops.count(0)?;
            Ok(Instr::CpAsyncCommit)
        }
        ["async", "wait_group"] => {
            ops.count(1)?;
            Ok(Instr::CpAsyncWaitGroup(non_negative(ops.imm(0)?)?))
        }
        ["async", "wait_all"] => {
            ops.count(0)?;
            Ok(Instr::CpAsyncWaitAll)
        }
        ["async", cache @ ("ca" | "cg"), dst_space, "global"]
            if *dst_space == "shared" || *dst_space == "shared::cta" =>
        {
            ops.count(3)?;
            let size = ops.imm(2)?;
            let cache_global = *cache == "cg";
            if ![4, 8, 16].contains(&size) || (cache_global && size != 16) {
                return err("cp-size must be 4, 8 or 16 (16 with `.cg`)");
            }
            Ok(Instr::CpAsync {
                cache_global,
                dst: ops.name(0)?,
                src: ops.name(1)?,
                size,
            })
        }
        ["async", "bulk", "commit_group"] => {
            ops.count(0)?;
            Ok(Instr::CpAsyncBulkCommit)
        }
        ["async", "bulk", "wait_group"] | ["async", "bulk", "wait_group", "read"] => {
            ops.count(1)?;
            Ok(Instr::CpAsyncBulkWaitGroup {
                read: quals.len() == 4,
                n: non_negative(ops.imm(0)?)?,
            })
        }
        ["async", "mbarrier", "arrive", rest @ ..] => {
            let noinc = match rest {
                ["noinc", rest @ ..] => {
                    space_b64(mnemonic, rest)?;
                    true
                }
                _ => {
                    space_b64(mnemonic, rest)?;
                    false
                }
            };
            ops.count(1)?;
            Ok(Instr::CpAsyncMbarrierArrive {
                noinc,
                mbar: ops.name(0)?,
            })
        }
        ["async", "bulk", rest @ ..] => {
            let (tensor, rest) = match rest {
                ["tensor", "1d", rest @ ..] => (true, rest),
                _ => (false, rest),
            };
            let [dst_space, src_space, completion @ ..] = rest else {
                return err("expected `cp.async.bulk{.tensor.1d}.DST.SRC.COMPLETION`");
            };
            let (completion, multicast) = match completion {
                ["mbarrier::complete_tx::bytes"] => {
                    ops.count(4)?;
                    (BulkCompletion::Mbarrier(vec![ops.name(3)?]), false)
                }
                ["mbarrier::complete_tx::bytes", "multicast::cluster"] => {
                    ops.count(4)?;
                    (BulkCompletion::Mbarrier(ops.names(3)?), true)
                }
                ["bulk_group"] => {
                    ops.count(3)?;
                    (BulkCompletion::BulkGroup, false)
                }
                _ => return err("expected `.mbarrier::complete_tx::bytes{.multicast::cluster}` or `.bulk_group`"),
            };
            let legal = match (*dst_space, *src_space, &completion) {
                ("shared::cluster", "global", BulkCompletion::Mbarrier(_)) => true,
                ("shared::cta", "global", BulkCompletion::Mbarrier(_)) => !multicast,
                ("shared::cluster", "shared::cta", BulkCompletion::Mbarrier(_)) => {
                    !tensor && !multicast
                }
                ("global", "shared::cta", BulkCompletion::BulkGroup) => true,
                _ => false,
            };
            if !legal {
                return err("this direction and completion mechanism do not go together (PTX ISA 9.7.9.25.4)");
            }
            let size = bulk_size(ops.imm(2)?)?;
            // A tensor copy may name its tensor map: `map[t0+t1]` on the
            // global side (the source of a load, the destination of a store).
            let global_side = usize::from(*dst_space != "global");
            if tensor && ops.get(global_side)?.1.contains('[') {
                let tensor = ops.tensor_ref(global_side)?;
                let shared = if global_side == 0 {
                    vec![ops.name(1)?]
                } else if multicast {
                    ops.names(0)?
                } else {
                    vec![ops.name(0)?]
                };
                if let BulkCompletion::Mbarrier(m) = &completion {
                    if m.len() != shared.len() {
                        return err("`.multicast::cluster` takes one mbarrier per destination (`d0+d1, map[t], 16, bar0+bar1`)");
                    }
                }
                return Ok(Instr::CpAsyncBulkTensor {
                    dst_space: dst_space.to_string(),
                    src_space: src_space.to_string(),
                    completion,
                    tensor,
                    shared,
                    size,
                });
            }
            let dst = if multicast {
                ops.names(0)?
            } else {
                vec![ops.name(0)?]
            };
            if let BulkCompletion::Mbarrier(m) = &completion {
                if m.len() != dst.len() {
                    return err("`.multicast::cluster` takes one mbarrier per destination (`d0+d1, src, 16, bar0+bar1`)");
                }
            }
            Ok(Instr::CpAsyncBulk {
                tensor,
                dst_space: dst_space.to_string(),
                src_space: src_space.to_string(),
                completion,
                dst,
                src: ops.name(1)?,
                size,
            })
        }
        _ => err("unknown `cp` form"),
    }
}

/// `cp.reduce.async.bulk.DST.SRC.COMPLETION.OP.TYPE dst, src, size{, mbar}`.
fn cp_reduce(mnemonic: &str, quals: &[&str], ops: &Operands<'_>) -> Res<Instr> {
    let err = |m: &str| Err((0, format!("`{mnemonic}`: {m}")));
    let ["async", "bulk", dst_space, src_space, completion, op, ty] = quals else {
        return err("expected `cp.reduce.async.bulk.DST.SRC.COMPLETION.OP.TYPE`");
    };
    let completion = match (*dst_space, *src_space, *completion) {
        ("shared::cluster", "shared::cta", "mbarrier::complete_tx::bytes") => {
            ops.count(4)?;
            BulkCompletion::Mbarrier(vec![ops.name(3)?])
        }
        ("global", "shared::cta", "bulk_group") => {
            ops.count(3)?;
            BulkCompletion::BulkGroup
        }
        _ => {
            return err("expected `.shared::cluster.shared::cta.mbarrier::complete_tx::bytes` or `.global.shared::cta.bulk_group`")
        }
    };
    let op = match *op {
        "add" => BinOp::Add,
        "min" => BinOp::Min,
        "max" => BinOp::Max,
        "and" => BinOp::And,
        "or" => BinOp::Or,
        "xor" => BinOp::Xor,
        _ => return err("expected a reduction: add, min, max, and, or, xor"),
    };
    if !matches!(*ty, "u32" | "s32" | "u64" | "s64" | "b32" | "b64") {
        return err("expected an integer type: u32, s32, u64, s64, b32, b64");
    }
    Ok(Instr::CpReduceAsyncBulk {
        dst_space: dst_space.to_string(),
        src_space: src_space.to_string(),
        completion,
        op,
        dst: ops.name(0)?,
        src: ops.name(1)?,
        size: bulk_size(ops.imm(2)?)?,
    })
}

/// `tensormap.replace.tile.FIELD{.global|.shared::cta}.b1024.TYPE map, {ord,} value`
/// (PTX ISA 9.7.9.26).
fn tensormap_replace(mnemonic: &str, quals: &[&str], ops: &Operands<'_>) -> Res<Instr> {
    let err = |m: &str| Err((0, format!("`{mnemonic}`: {m}")));
    let (field, space, ty) = match quals {
        ["replace", "tile", field, "b1024", ty] => (*field, None, *ty),
        ["replace", "tile", field, space @ ("global" | "shared::cta"), "b1024", ty] => {
            (*field, Some(space.to_string()), *ty)
        }
        _ => {
            return err("expected `tensormap.replace.tile.FIELD{.global|.shared::cta}.b1024.TYPE`")
        }
    };
    let Some(with_ord) = replace_field_takes_ord(field) else {
        return err("expected a field: global_address, rank, box_dim, global_dim, global_stride, element_stride, elemtype, interleave_layout, swizzle_mode, swizzle_atomicity, fill_mode");
    };
    // "When `.field` is specified as `.global_address` or `.global_stride`,
    // `.type` must be `.b64`. Otherwise, `.type` must be `.b32`."
    if ty != replace_type(field) {
        return err(&format!("`.{field}` takes `.{}`", replace_type(field)));
    }
    let (ord, value) = if with_ord {
        ops.count(3)?;
        (Some(ops.imm(1)?), ops.operand(2)?)
    } else {
        ops.count(2)?;
        (None, ops.operand(1)?)
    };
    Ok(Instr::TensormapReplace {
        field: field.to_string(),
        space,
        ord,
        map: ops.name(0)?,
        value,
    })
}

/// Whether a `tensormap.replace` field takes the `ord` operand (`.field2`);
/// `None` for an unknown field.
fn replace_field_takes_ord(field: &str) -> Option<bool> {
    match field {
        "box_dim" | "global_dim" | "global_stride" | "element_stride" => Some(true),
        "global_address" | "rank" | "elemtype" | "interleave_layout" | "swizzle_mode"
        | "swizzle_atomicity" | "fill_mode" => Some(false),
        _ => None,
    }
}

/// The `.type` of a `tensormap.replace` field (PTX ISA 9.7.9.26).
pub(crate) fn replace_type(field: &str) -> &'static str {
    if matches!(field, "global_address" | "global_stride") {
        "b64"
    } else {
        "b32"
    }
}

fn bulk_size(size: i64) -> Res<i64> {
    if size <= 0 || size % 16 != 0 {
        return Err((0, "the size must be a positive multiple of 16 bytes".into()));
    }
    Ok(size)
}

/// The optional `.shared{::cta}` and `.b64` of an mbarrier operand.
fn space_b64(mnemonic: &str, quals: &[&str]) -> Res<()> {
    match quals {
        [] | ["b64"] | ["shared" | "shared::cta", "b64"] | ["shared" | "shared::cta"] => Ok(()),
        _ => Err((
            0,
            format!("`{mnemonic}`: expected `.shared::cta.b64` after the operation"),
        )),
    }
}

fn st_async(mnemonic: &str, quals: &[&str], ops: &Operands<'_>) -> Res<Instr> {
    for q in quals {
        let ok = matches!(
            *q,
            "weak"
                | "shared::cluster"
                | "mbarrier::complete_tx::bytes"
                | "b32"
                | "b64"
                | "u32"
                | "u64"
                | "s32"
                | "s64"
        );
        if !ok {
            return Err((
                0,
                format!("`{mnemonic}`: `.{q}` is not supported on st.async here"),
            ));
        }
    }
    ops.count(3)?;
    Ok(Instr::StAsync {
        dst: ops.name(0)?,
        value: ops.operand(1)?,
        mbar: ops.name(2)?,
    })
}

fn mbarrier(mnemonic: &str, quals: &[&str], ops: &Operands<'_>) -> Res<Instr> {
    let err = |m: &str| Err((0, format!("`{mnemonic}`: {m}")));
    let Some((&op, rest)) = quals.split_first() else {
        return err("expected `mbarrier.arrive` or `mbarrier.try_wait`");
    };
    if op == "init" {
        space_b64(mnemonic, rest)?;
        ops.count(2)?;
        let count = ops.imm(1)?;
        if count <= 0 {
            return err("the expected arrival count must be positive");
        }
        return Ok(Instr::MbarrierInit {
            mbar: ops.name(0)?,
            count,
        });
    }
    let mut expect_tx = false;
    let mut parity = false;
    let mut sem_q = None;
    let mut scope_q = None;
    for q in rest {
        match *q {
            "expect_tx" if op == "arrive" && !expect_tx => expect_tx = true,
            "parity" if op != "arrive" && !parity => parity = true,
            "shared" | "shared::cta" | "shared::cluster" | "b64" => {}
            _ => match (sem(q), scope(q)) {
                (Some(s), _) if sem_q.is_none() => sem_q = Some(s),
                (_, Some(s @ (Scope::Cta | Scope::Cluster))) if scope_q.is_none() => {
                    scope_q = Some(s)
                }
                _ => return err(&format!("unexpected qualifier `.{q}`")),
            },
        }
    }
    let scope = scope_q.unwrap_or(Scope::Cta);
    match op {
        "arrive" => {
            let sem = sem_q.unwrap_or(Sem::Release);
            if !matches!(sem, Sem::Release | Sem::Relaxed) {
                return err("an arrive is `.release` or `.relaxed`");
            }
            let tx = if expect_tx {
                ops.count(2)?;
                let tx = ops.imm(1)?;
                if tx <= 0 {
                    return err("the transaction count must be positive");
                }
                Some(tx)
            } else {
                ops.count(1)?;
                None
            };
            Ok(Instr::MbarrierArrive {
                sem,
                scope,
                mbar: ops.name(0)?,
                expect_tx: tx,
            })
        }
        "try_wait" | "test_wait" => {
            let sem = sem_q.unwrap_or(Sem::Acquire);
            if !matches!(sem, Sem::Acquire | Sem::Relaxed) {
                return err("a wait is `.acquire` or `.relaxed`");
            }
            let parity = if parity {
                ops.count(3)?;
                let p = ops.imm(2)?;
                if !(0..=1).contains(&p) {
                    return err("the phase parity is 0 or 1");
                }
                Some(p)
            } else {
                ops.count(2)?;
                None
            };
            Ok(Instr::MbarrierTestWait {
                try_wait: op == "try_wait",
                sem,
                scope,
                dst: ops.reg(0)?,
                mbar: ops.name(1)?,
                parity,
            })
        }
        _ => err("expected `mbarrier.init`, `mbarrier.arrive`, `mbarrier.try_wait` or `mbarrier.test_wait`"),
    }
}

fn non_negative(v: i64) -> Res<i64> {
    if v < 0 {
        Err((0, "a group count cannot be negative".into()))
    } else {
        Ok(v)
    }
}

/// The comma-separated operands of a cell, with their offsets.
struct Operands<'a> {
    items: Vec<(usize, &'a str)>,
    end: usize,
}

impl<'a> Operands<'a> {
    fn split(text: &'a str, from: usize) -> Res<Self> {
        let rest = &text[from..];
        let mut items = Vec::new();
        if !rest.trim().is_empty() {
            let mut offset = from;
            for piece in rest.split(',') {
                let lead = piece.len() - piece.trim_start().len();
                let item = piece.trim();
                if item.is_empty() {
                    return Err((offset + lead, "empty operand".into()));
                }
                items.push((offset + lead, item));
                offset += piece.len() + 1;
            }
        }
        Ok(Operands {
            items,
            end: text.len(),
        })
    }

    fn len(&self) -> usize {
        self.items.len()
    }

    fn count(&self, n: usize) -> Res<()> {
        if self.items.len() == n {
            Ok(())
        } else {
            let at = self.items.get(n).map_or(self.end, |(o, _)| *o);
            Err((
                at,
                format!("expected {n} operand(s), found {}", self.items.len()),
            ))
        }
    }

    fn get(&self, i: usize) -> Res<(usize, &'a str)> {
        self.items
            .get(i)
            .copied()
            .ok_or((self.end, format!("missing operand {}", i + 1)))
    }

    fn name(&self, i: usize) -> Res<String> {
        let (at, s) = self.get(i)?;
        if ident_len(s) == s.len() {
            Ok(s.to_string())
        } else {
            Err((at, format!("expected a name, found `{s}`")))
        }
    }

    /// Names joined by `+`: `d0+d1`.
    fn names(&self, i: usize) -> Res<Vec<String>> {
        let (at, s) = self.get(i)?;
        s.split('+')
            .map(|n| {
                let n = n.trim();
                if !n.is_empty() && ident_len(n) == n.len() {
                    Ok(n.to_string())
                } else {
                    Err((at, format!("expected names joined by `+`, found `{s}`")))
                }
            })
            .collect()
    }

    /// A tensor operand `map[t0+t1]`.
    fn tensor_ref(&self, i: usize) -> Res<TensorRef> {
        let (at, s) = self.get(i)?;
        let bad = || {
            (
                at,
                format!("expected `map[tensor]` or `map[t0+t1]`, found `{s}`"),
            )
        };
        let (map, rest) = s.split_once('[').ok_or_else(bad)?;
        let inner = rest.strip_suffix(']').ok_or_else(bad)?;
        let map = map.trim();
        if map.is_empty() || ident_len(map) != map.len() {
            return Err(bad());
        }
        let tensors = inner
            .split('+')
            .map(|n| {
                let n = n.trim();
                if !n.is_empty() && ident_len(n) == n.len() {
                    Ok(n.to_string())
                } else {
                    Err(bad())
                }
            })
            .collect::<Res<Vec<_>>>()?;
        Ok(TensorRef {
            map: map.to_string(),
            tensors,
        })
    }

    fn reg(&self, i: usize) -> Res<String> {
        self.name(i)
    }

    fn imm(&self, i: usize) -> Res<i64> {
        let (at, s) = self.get(i)?;
        let (neg, body) = match s.strip_prefix('-') {
            Some(b) => (true, b),
            None => (false, s),
        };
        match parse_int(body) {
            Some(v) => Ok(if neg { v.wrapping_neg() } else { v }),
            None => Err((at, format!("expected an integer, found `{s}`"))),
        }
    }

    fn operand(&self, i: usize) -> Res<Operand> {
        let (_, s) = self.get(i)?;
        if ident_len(s) == s.len() {
            Ok(Operand::Reg(s.to_string()))
        } else {
            Ok(Operand::Imm(self.imm(i)?))
        }
    }
}
