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
use crate::precond::{self, table, Concrete, Env, Precondition};

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
/// window and with `0` otherwise." The meaning is the precondition
/// language's [`Cond::InSpace`](crate::precond::Cond::InSpace) (see
/// [`crate::precond::in_space`]), so the solver reads the same windows.
pub fn isspacep(profile: &WindowProfile, space: Space, g: u64, at: &Place) -> bool {
    let env = Env {
        a: g,
        ..Env::at(at)
    };
    precond::in_space(&Concrete(&env), profile, space, &g)
}

/// Checks the preconditions in order: the first broken one is the result.
fn require(
    profile: &WindowProfile,
    pres: &[&'static Precondition],
    env: &Env,
) -> Result<(), Undefined> {
    pres.iter()
        .try_for_each(|p| precond::check(profile, p, env))
}

/// `cvta.space.size p, a` (PTX ISA 9.7.9.20): the generic address of
/// state-space address `a`. A `.u32` size keeps the low 32 bits ("The
/// source and destination addresses must be the same size"). The
/// preconditions are [`table::cvta`]'s.
pub fn cvta_to_generic(
    profile: &WindowProfile,
    space: Space,
    a: u64,
    wide: bool,
    at: &Place,
) -> Result<u64, Undefined> {
    let env = Env { a, ..Env::at(at) };
    require(profile, table::cvta(space, false).as_slice(), &env)?;
    let base = match space {
        Space::SharedCta | Space::SharedCluster => profile.shared_base,
        Space::Local => profile.local_base,
        Space::Const => profile.const_base,
        Space::ParamEntry => profile.param_base,
        _ => 0,
    };
    let g = base.wrapping_add(a);
    Ok(if wide { g } else { g & 0xffff_ffff })
}

/// `cvta.to.space.size p, a` (PTX ISA 9.7.9.20): the state-space address
/// of generic address `a`; undefined where `a` is outside the space's
/// window (a result for most spaces, the behaviour for `.shared` and
/// `.param`): [`table::cvta`]'s preconditions.
pub fn cvta_from_generic(
    profile: &WindowProfile,
    space: Space,
    g: u64,
    wide: bool,
    at: &Place,
) -> Result<u64, Undefined> {
    let env = Env {
        a: g,
        ..Env::at(at)
    };
    require(profile, table::cvta(space, true).as_slice(), &env)?;
    let base = match space {
        Space::SharedCta | Space::SharedCluster => profile.shared_base,
        Space::Local => profile.local_base,
        Space::Const => profile.const_base,
        Space::ParamEntry => profile.param_base,
        _ => 0,
    };
    let a = g.wrapping_sub(base);
    Ok(if wide { a } else { a & 0xffff_ffff })
}

/// `mapa{.shared::cluster}.type d, a, b` (PTX ISA 9.7.9.23): "Get address
/// in the CTA specified by operand `b` which corresponds to the address
/// specified by operand `a`." `generic` is the form without `.space`
/// ("both `a` and `d` are registers containing generic addresses pointing
/// to shared memory"). Preconditions: [`table::mapa`].
pub fn mapa(
    profile: &WindowProfile,
    generic: bool,
    a: u64,
    rank: u32,
    wide: bool,
    at: &Place,
) -> Result<u64, Undefined> {
    let env = Env {
        a,
        b: u64::from(rank),
        ..Env::at(at)
    };
    require(profile, &table::mapa(generic), &env)?;
    let s = if generic {
        a.wrapping_sub(profile.shared_base)
    } else {
        a
    };
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
/// address specified in operand `a`." Precondition: [`table::getctarank`].
pub fn getctarank(
    profile: &WindowProfile,
    generic: bool,
    a: u64,
    at: &Place,
) -> Result<u32, Undefined> {
    let env = Env { a, ..Env::at(at) };
    precond::check(profile, table::getctarank(generic), &env)?;
    let s = if generic {
        a.wrapping_sub(profile.shared_base)
    } else {
        a
    };
    Ok((s >> profile.rank_shift) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    const CVTA_TO_WINDOW: Undefined = table::CVTA_TO_LOCAL.undefined();
    const CVTA_SHARED: Undefined = table::CVTA_TO_SHARED_CTA.undefined();
    const CVTA_PARAM: Undefined = table::CVTA_TO_PARAM.undefined();
    const MAPA_RANK: Undefined = table::MAPA_RANK.undefined();
    const GETCTARANK_ADDRESS: Undefined = table::GETCTARANK_GENERIC_ADDRESS.undefined();

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
