//! The generic address space and its windows (PTX ISA 5.1, 9.7.9.19
//! `isspacep`, 9.7.9.20 `cvta`, 9.7.9.23 `mapa`, 9.7.9.24 `getctarank`).
//!
//! Where each window lies is not in the spec: it is a property of the GPU,
//! held here as data ([`WindowProfile`]), with a profile measured on an
//! NVIDIA H200 ([`WindowProfile::SM90`]; how it was measured is written
//! beside it). The functions read the profile and the executing thread's
//! place in its cluster ([`Place`]); every case the spec leaves undefined
//! comes back as an [`Undefined`] naming its clause.

use super::space::Space;
use super::undefined::Undefined;

/// Where the generic-address windows lie on one kind of GPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WindowProfile {
    pub name: &'static str,
    /// How the numbers were obtained.
    pub measured: &'static str,
    /// Generic address of shared-space address 0. The `.shared::cluster`
    /// window is `[shared_base, shared_base + shared_size)`; the generic
    /// address of shared-space address `s` is `shared_base + s`.
    pub shared_base: u64,
    pub shared_size: u64,
    /// A shared-space address holds the CTA's rank in the cluster above
    /// this bit: CTA `r` owns `[r << rank_shift, (r + 1) << rank_shift)`,
    /// which is also its `.shared::cta` window.
    pub rank_shift: u32,
    /// Shared-space offset, within a CTA's part, of its first variable
    /// (bytes before it are reserved by the system).
    pub shared_reserved: u64,
    /// The `.local` window: `[local_base, local_base + local_size)`; local
    /// address `l` is at generic `local_base + l`.
    pub local_base: u64,
    pub local_size: u64,
    /// Generic address of `.const` address 0; the `.const` window holds the
    /// module's constant data: `[const_base, const_base + const bytes)`.
    pub const_base: u64,
    /// Generic address of kernel-parameter address 0. The window is
    /// `[param_base, param_base + parameter bytes + param_slack)`.
    pub param_base: u64,
    /// Bytes past the last parameter that `isspacep.param` still counts in
    /// the window (measured: 1).
    pub param_slack: u64,
    /// Where the simulator places global buffers that come with no
    /// address of their own (outside every other window).
    pub global_heap: u64,
}

impl WindowProfile {
    /// Measured on an NVIDIA H200 (sm_90, driver 580.159.04, CUDA 13.0) by
    /// `corpus/simulator/cuda/window_probe.cu`: binary search with
    /// `isspacep` from an address known to be inside each window, in a
    /// cluster of four CTAs; the results are
    /// `corpus/simulator/h200-window-probe.json`, and the `addr_probe`
    /// baseline case checks `isspacep` of every space at each window's
    /// edges (see `corpus/simulator/README.md`). The windows' bases move
    /// from launch to launch (the shared window is 4 GiB aligned, the local
    /// window 16 MiB aligned); their sizes, strides and offsets do not.
    /// The bases here are those of the probe's launch. An H100 (same
    /// driver) gave the same layout (`corpus/simulator/h100-window-probe.json`).
    pub const SM90: WindowProfile = WindowProfile {
        name: "sm_90 (H200, driver 580.159.04)",
        measured: "corpus/simulator/cuda/window_probe.cu and the addr_probe case, 2026-11-22",
        shared_base: 0x7fe0_0000_0000,
        shared_size: 1 << 32,
        rank_shift: 24,
        shared_reserved: 0x400,
        local_base: 0x7fdf_dd00_0000,
        local_size: 1 << 24,
        const_base: 0x7fdf_d280_0000,
        param_base: 0x7fdf_da28_0210,
        param_slack: 1,
        global_heap: 0x7f00_0000_0000,
    };

    fn in_shared_window(&self, g: u64) -> bool {
        g.wrapping_sub(self.shared_base) < self.shared_size
    }

    fn in_local_window(&self, g: u64) -> bool {
        g.wrapping_sub(self.local_base) < self.local_size
    }

    /// The shared-space range of CTA `rank`'s part.
    pub fn cta_part(&self, rank: u32) -> (u64, u64) {
        let lo = u64::from(rank) << self.rank_shift;
        (lo, lo + (1u64 << self.rank_shift))
    }
}

/// The executing thread's place: what the window functions need to know.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place {
    /// `%cluster_ctarank`.
    pub rank: u32,
    /// `%cluster_nctarank`.
    pub cluster_size: u32,
    /// Bytes of the kernel's parameters.
    pub param_bytes: u64,
    /// Bytes of the module's constant data.
    pub const_bytes: u64,
}

/// `isspacep.space p, a` (PTX ISA 9.7.9.19): "Write predicate register `p`
/// with `1` if generic address a falls within the specified state space
/// window and with `0` otherwise." Notes the profile records:
/// `.shared::cta` is the executing CTA's part only, `.shared::cluster` the
/// whole shared window ("`isspacep.shared::cluster` will return 1 for
/// every shared memory address that is accessible to the threads in the
/// cluster"), and "`isspacep.global` returns `1` for Kernel Function
/// Parameters as `.param` window is contained within the `.global`
/// window": the global window is everything outside the shared, local and
/// const windows. (The spec does not say whether the const window is in
/// the global window; on the H200 `isspacep.global` is 0 there, and 1 just
/// outside it: see the `addr_probe` baseline case.)
pub fn isspacep(profile: &WindowProfile, space: Space, g: u64, at: &Place) -> bool {
    match space {
        Space::Global => {
            !profile.in_shared_window(g)
                && !profile.in_local_window(g)
                && g.wrapping_sub(profile.const_base) >= at.const_bytes
        }
        Space::SharedCta => {
            let (lo, hi) = profile.cta_part(at.rank);
            let s = g.wrapping_sub(profile.shared_base);
            profile.in_shared_window(g) && (lo..hi).contains(&s)
        }
        Space::SharedCluster => profile.in_shared_window(g),
        Space::Local => profile.in_local_window(g),
        Space::Const => g.wrapping_sub(profile.const_base) < at.const_bytes,
        Space::ParamEntry => {
            g.wrapping_sub(profile.param_base) < at.param_bytes + profile.param_slack
        }
        Space::ParamFunc | Space::Generic => false,
    }
}

const CVTA_TO_WINDOW: Undefined = Undefined::result(
    "9.7.9.20",
    "When converting a generic address into a const, Kernel Function Parameters (.param), global, local, or shared address, the resulting address is undefined in cases where the generic address does not fall within the address window of the specified state space",
);
const CVTA_SHARED: Undefined = Undefined::behaviour(
    "9.7.9.20",
    "For cvta with .shared state space, the address must belong to the space specified by ::cta or ::cluster sub-qualifier, otherwise the behavior is undefined",
);
const CVTA_PARAM: Undefined = Undefined::behaviour(
    "9.7.9.20",
    "For .param{::entry} state space, operand a must be a kernel parameter address, otherwise behavior is undefined",
);
const CVTA_NOT_OF_SPACE: Undefined = Undefined::result(
    "9.7.9.20",
    "cvta converts a const, global, local or shared address to a generic address; the operand is not an address of the space (it lies outside the space's window)",
);
const CVTA_SPACE: Undefined = Undefined::behaviour(
    "9.7.9.20",
    ".space = { .const, .global, .local, .shared{::cta, ::cluster}, .param{::entry} }",
);

/// `cvta.space.size p, a` (PTX ISA 9.7.9.20): the generic address of
/// state-space address `a`. A `.u32` size keeps the low 32 bits ("The
/// source and destination addresses must be the same size").
pub fn cvta_to_generic(
    profile: &WindowProfile,
    space: Space,
    a: u64,
    wide: bool,
    at: &Place,
) -> Result<u64, Undefined> {
    let g = match space {
        Space::Global => a,
        Space::SharedCta | Space::SharedCluster => {
            let ok = if space == Space::SharedCta {
                let (lo, hi) = profile.cta_part(at.rank);
                (lo..hi).contains(&a)
            } else {
                a < profile.shared_size && (a >> profile.rank_shift) < u64::from(at.cluster_size)
            };
            if !ok {
                return Err(CVTA_SHARED);
            }
            profile.shared_base.wrapping_add(a)
        }
        Space::Local => {
            if a >= profile.local_size {
                return Err(CVTA_NOT_OF_SPACE);
            }
            profile.local_base.wrapping_add(a)
        }
        Space::Const => {
            if a >= at.const_bytes {
                return Err(CVTA_NOT_OF_SPACE);
            }
            profile.const_base.wrapping_add(a)
        }
        Space::ParamEntry => {
            if a >= at.param_bytes {
                return Err(CVTA_PARAM);
            }
            profile.param_base.wrapping_add(a)
        }
        Space::ParamFunc | Space::Generic => return Err(CVTA_SPACE),
    };
    Ok(if wide { g } else { g & 0xffff_ffff })
}

/// `cvta.to.space.size p, a` (PTX ISA 9.7.9.20): the state-space address
/// of generic address `a`; undefined where `a` is outside the space's
/// window (a result for most spaces, the behaviour for `.shared` and
/// `.param`).
pub fn cvta_from_generic(
    profile: &WindowProfile,
    space: Space,
    g: u64,
    wide: bool,
    at: &Place,
) -> Result<u64, Undefined> {
    let a = match space {
        Space::Global => {
            if !isspacep(profile, Space::Global, g, at) {
                return Err(CVTA_TO_WINDOW);
            }
            g
        }
        Space::SharedCta | Space::SharedCluster => {
            let ok = if space == Space::SharedCta {
                isspacep(profile, Space::SharedCta, g, at)
            } else {
                profile.in_shared_window(g)
                    && (g.wrapping_sub(profile.shared_base) >> profile.rank_shift)
                        < u64::from(at.cluster_size)
            };
            if !ok {
                return Err(CVTA_SHARED);
            }
            g.wrapping_sub(profile.shared_base)
        }
        Space::Local => {
            if !isspacep(profile, Space::Local, g, at) {
                return Err(CVTA_TO_WINDOW);
            }
            g.wrapping_sub(profile.local_base)
        }
        Space::Const => {
            if !isspacep(profile, Space::Const, g, at) {
                return Err(CVTA_TO_WINDOW);
            }
            g.wrapping_sub(profile.const_base)
        }
        Space::ParamEntry => {
            let a = g.wrapping_sub(profile.param_base);
            if a >= at.param_bytes {
                return Err(CVTA_PARAM);
            }
            a
        }
        Space::ParamFunc | Space::Generic => return Err(CVTA_SPACE),
    };
    Ok(if wide { a } else { a & 0xffff_ffff })
}

const MAPA_RANK: Undefined = Undefined::behaviour(
    "9.7.9.23",
    "`b` is a 32-bit integer operand representing the rank of the target CTA: a rank outside the cluster names no CTA",
);
const MAPA_ADDRESS: Undefined = Undefined::behaviour(
    "9.7.9.23",
    "source `a` is either a shared memory variable or a register containing a valid shared memory address (generic form: a generic address pointing to shared memory)",
);
const GETCTARANK_ADDRESS: Undefined = Undefined::behaviour(
    "9.7.9.24",
    "source `a` is either a shared memory variable or a register containing a valid shared memory address (generic form: a generic address pointing to shared memory)",
);

/// The shared-space address of `a` (a shared address, or a generic one
/// when `generic`), if it lies in some CTA's part of this cluster.
fn shared_address(profile: &WindowProfile, a: u64, generic: bool, at: &Place) -> Option<u64> {
    let s = if generic {
        if !profile.in_shared_window(a) {
            return None;
        }
        a.wrapping_sub(profile.shared_base)
    } else {
        a
    };
    (s < profile.shared_size && (s >> profile.rank_shift) < u64::from(at.cluster_size)).then_some(s)
}

/// `mapa{.shared::cluster}.type d, a, b` (PTX ISA 9.7.9.23): "Get address
/// in the CTA specified by operand `b` which corresponds to the address
/// specified by operand `a`." `generic` is the form without `.space`
/// ("both `a` and `d` are registers containing generic addresses pointing
/// to shared memory").
pub fn mapa(
    profile: &WindowProfile,
    generic: bool,
    a: u64,
    rank: u32,
    wide: bool,
    at: &Place,
) -> Result<u64, Undefined> {
    if rank >= at.cluster_size {
        return Err(MAPA_RANK);
    }
    let s = shared_address(profile, a, generic, at).ok_or(MAPA_ADDRESS)?;
    let offset = s & ((1u64 << profile.rank_shift) - 1);
    let mapped = (u64::from(rank) << profile.rank_shift) | offset;
    let d = if generic {
        profile.shared_base.wrapping_add(mapped)
    } else {
        mapped
    };
    Ok(if wide { d } else { d & 0xffff_ffff })
}

/// `getctarank{.shared::cluster}.type d, a` (PTX ISA 9.7.9.24): "Write the
/// destination register `d` with the rank of the CTA which contains the
/// address specified in operand `a`."
pub fn getctarank(
    profile: &WindowProfile,
    generic: bool,
    a: u64,
    at: &Place,
) -> Result<u32, Undefined> {
    let s = shared_address(profile, a, generic, at).ok_or(GETCTARANK_ADDRESS)?;
    Ok((s >> profile.rank_shift) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: WindowProfile = WindowProfile::SM90;
    const AT: Place = Place {
        rank: 1,
        cluster_size: 4,
        param_bytes: 16,
        const_bytes: 16,
    };

    #[test]
    fn shared_round_trips_through_32_bits() {
        // CUDA C++ 10.16: "A roundtrip from an input generic space pointer
        // to its 32-bit integer representation and back to an output
        // generic space pointer is guaranteed to return an output pointer
        // that is equivalent to the input pointer" (shared, local, const).
        let (lo, _) = P.cta_part(AT.rank);
        for space in [Space::SharedCta, Space::Local, Space::Const] {
            let a = if space == Space::SharedCta {
                lo + 0x400
            } else {
                8
            };
            let g = cvta_to_generic(&P, space, a, true, &AT).unwrap();
            assert!(isspacep(&P, space, g, &AT), "{space:?}");
            let back = cvta_from_generic(&P, space, g, true, &AT).unwrap();
            let narrow = back & 0xffff_ffff;
            assert_eq!(cvta_to_generic(&P, space, narrow, true, &AT), Ok(g));
        }
    }

    #[test]
    fn undefined_cases_name_their_clause() {
        let g_global = P.global_heap;
        assert_eq!(
            cvta_from_generic(&P, Space::Local, g_global, true, &AT),
            Err(CVTA_TO_WINDOW)
        );
        assert_eq!(
            cvta_from_generic(&P, Space::SharedCta, g_global, true, &AT),
            Err(CVTA_SHARED)
        );
        assert_eq!(
            cvta_from_generic(&P, Space::ParamEntry, g_global, true, &AT),
            Err(CVTA_PARAM)
        );
        assert_eq!(
            cvta_to_generic(&P, Space::ParamEntry, 16, true, &AT),
            Err(CVTA_PARAM)
        );
        assert_eq!(mapa(&P, false, 0x400, 4, false, &AT), Err(MAPA_RANK));
        assert_eq!(getctarank(&P, true, g_global, &AT), Err(GETCTARANK_ADDRESS));
    }

    #[test]
    fn mapa_and_getctarank_agree() {
        let own = P.cta_part(AT.rank).0 + 0x404;
        for rank in 0..4 {
            let s = mapa(&P, false, own, rank, false, &AT).unwrap();
            assert_eq!(getctarank(&P, false, s, &AT), Ok(rank));
            let g = mapa(&P, true, P.shared_base + own, rank, true, &AT).unwrap();
            assert_eq!(getctarank(&P, true, g, &AT), Ok(rank));
            assert_eq!(
                cvta_from_generic(&P, Space::SharedCluster, g, true, &AT),
                Ok(s)
            );
            // "ispacep.shared::cta will return 1 only if the address is of a
            // variable declared in the executing CTA"
            assert_eq!(isspacep(&P, Space::SharedCta, g, &AT), rank == AT.rank);
            assert!(isspacep(&P, Space::SharedCluster, g, &AT));
        }
    }

    #[test]
    fn param_window_is_inside_global() {
        // "isspacep.global returns 1 for Kernel Function Parameters as
        // .param window is contained within the .global window"
        let g = cvta_to_generic(&P, Space::ParamEntry, 8, true, &AT).unwrap();
        assert!(isspacep(&P, Space::ParamEntry, g, &AT));
        assert!(isspacep(&P, Space::Global, g, &AT));
    }
}
