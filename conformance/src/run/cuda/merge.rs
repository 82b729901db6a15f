//! Many groups' kernels in one module, so that the driver's JIT runs once
//! for them rather than once a group. Only a kernel that stands alone is
//! merged: its module holds a header of `.version`, `.target` and
//! `.address_size` and one `.entry`, nothing else (no module-scope
//! variables, which the merged kernels would share, and no `.func`), and
//! the entry's name appears nowhere else in the text. Kernels with the
//! same header share a module; each entry is renamed `NAME_mI` there.
//! Any other kernel gets a module of its own, its text unchanged.

/// The modules a batch of kernels is compiled as.
#[derive(Debug, PartialEq, Eq)]
pub struct Unit {
    /// The kernels in it, as indices into the batch, in batch order.
    pub members: Vec<usize>,
    /// The merged PTX text; `None` for a unit of one kernel, which is
    /// compiled from its own text.
    pub ptx: Option<String>,
    /// The entry of each member in the module, in `members`' order.
    pub entries: Vec<String>,
}

/// A kernel's text split for merging.
struct Split<'a> {
    /// The header's tokens, joined: kernels whose keys are equal may share
    /// a module.
    key: String,
    /// The text up to the first token after the header.
    header: &'a str,
    /// The rest, and where the entry's name lies in it.
    body: &'a str,
    name: std::ops::Range<usize>,
}

/// The batch's kernels (`(PTX text, entry name)`, in order) as modules of
/// at most `per_module` kernels each. Each kernel is in exactly one unit;
/// the units keep the batch's order of their first members.
pub fn plan(kernels: &[(&str, &str)], per_module: usize) -> Vec<Unit> {
    let per_module = per_module.max(1);
    // units being filled, by header key: (key, index into `units`)
    let mut open: Vec<(String, usize)> = Vec::new();
    let mut units: Vec<Unit> = Vec::new();
    let mut splits: Vec<Option<Split>> = Vec::new();
    for (i, &(ptx, entry)) in kernels.iter().enumerate() {
        let split = if per_module > 1 {
            split(ptx, entry)
        } else {
            None
        };
        match &split {
            Some(s) => {
                let slot = open
                    .iter()
                    .position(|(k, u)| *k == s.key && units[*u].members.len() < per_module);
                match slot {
                    Some(o) => units[open[o].1].members.push(i),
                    None => {
                        open.retain(|(k, _)| *k != s.key);
                        open.push((s.key.clone(), units.len()));
                        units.push(Unit {
                            members: vec![i],
                            ptx: None,
                            entries: Vec::new(),
                        });
                    }
                }
            }
            None => units.push(Unit {
                members: vec![i],
                ptx: None,
                entries: vec![entry.to_string()],
            }),
        }
        splits.push(split);
    }
    for u in &mut units {
        if u.members.len() == 1 {
            u.entries = vec![kernels[u.members[0]].1.to_string()];
            continue;
        }
        let mut text = String::new();
        for (n, &m) in u.members.iter().enumerate() {
            let Some(s) = &splits[m] else {
                unreachable!("only split kernels are merged")
            };
            if n == 0 {
                text.push_str(s.header);
                text.push('\n');
            }
            let name = format!("{}_m{n}", kernels[m].1);
            text.push_str(&s.body[..s.name.start]);
            text.push_str(&name);
            text.push_str(&s.body[s.name.end..]);
            text.push('\n');
            u.entries.push(name);
        }
        u.ptx = Some(text);
    }
    units
}

/// One token: an identifier, directive, register or number (letters,
/// digits, `_ $ % .`), or any other single character; comments and white
/// space are skipped, a string literal is one token.
fn tokens(text: &str) -> Vec<(usize, &str)> {
    let b = text.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'%' | b'.');
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i..].starts_with(b"/*") {
            i = text[i + 2..].find("*/").map_or(b.len(), |e| i + 2 + e + 2);
        } else if c == b'"' {
            let e = text[i + 1..].find('"').map_or(b.len(), |e| i + 1 + e + 1);
            out.push((i, &text[i..e]));
            i = e;
        } else if word(c) {
            let s = i;
            while i < b.len() && word(b[i]) {
                i += 1;
            }
            out.push((s, &text[s..i]));
        } else {
            // one character, whole (a multi-byte one included)
            let len = text[i..].chars().next().map_or(1, char::len_utf8);
            out.push((i, &text[i..i + len]));
            i += len;
        }
    }
    out
}

/// The kernel's header and body, when it stands alone (see the module's
/// documentation); `None` otherwise.
fn split<'a>(ptx: &'a str, entry: &str) -> Option<Split<'a>> {
    let t = tokens(ptx);
    // the header: `.version V`, `.target T[, T]...`, `.address_size N`
    let mut i = 0;
    let mut key = String::new();
    while let Some(&(_, d)) = t.get(i) {
        let args = match d {
            ".version" | ".address_size" => 1,
            ".target" => {
                let mut n = 1;
                while t.get(i + 1 + n).map(|x| x.1) == Some(",") {
                    n += 2;
                }
                n
            }
            _ => break,
        };
        for (_, w) in t.get(i..=i + args)? {
            key.push_str(w);
            key.push(' ');
        }
        i += args + 1;
    }
    if !key.contains(".version ") || !key.contains(".target ") {
        return None;
    }
    let rest = &t[i..];
    let start = rest.first()?.0;
    // one entry, no function, the entry's name once, and nothing after the
    // entry's body
    if rest.iter().filter(|x| x.1 == ".entry").count() != 1
        || rest.iter().any(|x| x.1 == ".func")
        || t.iter().filter(|x| x.1 == entry).count() != 1
    {
        return None;
    }
    let at = rest.iter().position(|x| x.1 == ".entry")?;
    match &rest[..at] {
        [] => {}
        [(_, ".visible")] => {}
        _ => return None,
    }
    let &(name_at, name) = rest.get(at + 1)?;
    if name != entry || rest.get(at + 2).map(|x| x.1) != Some("(") {
        return None;
    }
    let open = rest.iter().position(|x| x.1 == "{")?;
    let mut depth = 0usize;
    let mut close = None;
    for (k, &(_, w)) in rest.iter().enumerate().skip(open) {
        match w {
            "{" => depth += 1,
            "}" => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    close = Some(k);
                    break;
                }
            }
            _ => {}
        }
    }
    if close? + 1 != rest.len() {
        return None;
    }
    Some(Split {
        key,
        header: &ptx[..start],
        body: &ptx[start..],
        name: name_at - start..name_at - start + name.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kernel(target: &str, body: &str) -> String {
        format!(
            "// a group\n.version 8.7\n.target {target}\n.address_size 64\n\n\
             .visible .entry k(.param .u64 in, .param .u64 out)\n{{\n\t.reg .b32 %r;\n\
             // the k-th {{ comment }}\n{body}\tret;\n}}\n"
        )
    }

    #[test]
    fn kernels_with_one_header_share_a_module() {
        let a = kernel("sm_90", "\tmov.u32 %r, 1;\n");
        let b = kernel("sm_90", "\tmov.u32 %r, 2;\n");
        let c = kernel("sm_100a", "\tmov.u32 %r, 3;\n");
        let d = kernel("sm_90", "\tmov.u32 %r, 4;\n");
        let units = plan(&[(&a, "k"), (&b, "k"), (&c, "k"), (&d, "k")], 8);
        assert_eq!(units.len(), 2);
        assert_eq!(units[0].members, [0, 1, 3]);
        assert_eq!(units[0].entries, ["k_m0", "k_m1", "k_m2"]);
        assert_eq!(units[1].members, [2]);
        assert_eq!(units[1].ptx, None);
        assert_eq!(units[1].entries, ["k"]);
        let text = units[0].ptx.as_deref().unwrap();
        assert_eq!(text.matches(".version").count(), 1);
        assert_eq!(text.matches(".entry").count(), 3);
        for (n, v) in [(0, 1), (1, 2), (2, 4)] {
            assert!(text.contains(&format!(".entry k_m{n}(")), "{text}");
            assert!(text.contains(&format!("mov.u32 %r, {v};")), "{text}");
        }
        // the merged module is PTX the model reads, with three entries
        let m = ptx_semantics::ptx::parse(text).unwrap();
        let src = ptx_semantics::ptx::print(&m);
        assert_eq!(src.matches(".entry").count(), 3, "{src}");
    }

    #[test]
    fn modules_hold_at_most_per_module_kernels() {
        let k = kernel("sm_90", "");
        let batch: Vec<(&str, &str)> = (0..7).map(|_| (k.as_str(), "k")).collect();
        let units = plan(&batch, 3);
        let sizes: Vec<usize> = units.iter().map(|u| u.members.len()).collect();
        assert_eq!(sizes, [3, 3, 1]);
        assert_eq!(units[2].ptx, None);
        // one a module: every text its own
        let units = plan(&batch, 1);
        assert!(units.iter().all(|u| u.ptx.is_none() && u.entries == ["k"]));
        assert_eq!(units.len(), 7);
    }

    #[test]
    fn kernels_that_do_not_stand_alone_keep_their_own_module() {
        let plain = kernel("sm_90", "");
        let variable = plain.replace(
            ".address_size 64\n",
            ".address_size 64\n.global .align 4 .b32 gv[4];\n",
        );
        let function = format!("{plain}\n.func f()\n{{\n\tret;\n}}\n");
        let named_twice = kernel("sm_90", "\tbra.uni k;\n");
        let two_entries = format!("{plain}\n.visible .entry k2()\n{{\n\tret;\n}}\n");
        let other_name = plain.replace(".entry k(", ".entry j(");
        for odd in [
            &variable,
            &function,
            &named_twice,
            &two_entries,
            &other_name,
        ] {
            let units = plan(&[(&plain, "k"), (odd, "k"), (&plain, "k")], 8);
            assert_eq!(units.len(), 2, "{odd}");
            assert_eq!(units[0].members, [0, 2]);
            assert_eq!(units[1].members, [1]);
            assert_eq!(units[1].ptx, None);
        }
    }

    #[test]
    fn cluster_directives_stay_with_their_entry() {
        let k = kernel("sm_90", "").replace(
            "out)\n{",
            "out)\n.explicitcluster\n.reqnctapercluster 2, 1, 1\n{",
        );
        let units = plan(&[(&k, "k"), (&k, "k")], 2);
        let text = units[0].ptx.as_deref().unwrap();
        assert_eq!(text.matches(".reqnctapercluster 2, 1, 1").count(), 2);
        assert!(ptx_semantics::ptx::parse(text).is_ok());
    }
}
