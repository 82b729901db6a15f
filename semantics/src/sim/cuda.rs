//! The CUDA C++ address space conversion functions (CUDA C++ Programming
//! Guide 10.16, `__cvta_*`) over the window model: each is the `cvta` of
//! its space (nvcc emits `cvta`/`cvta.to` for them, see
//! `corpus/simulator/nvcc/cvta_funcs.ptx`).

use super::space::Space;
use super::undefined::Undefined;
use super::window::{cvta_from_generic, cvta_to_generic, isspacep, Place, WindowProfile};

/// A CUDA C++ address space: the spaces of the `__cvta_*` functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CudaSpace {
    Shared,
    Global,
    Local,
    Constant,
    GridConstant,
}

impl CudaSpace {
    pub const ALL: [CudaSpace; 5] = [
        CudaSpace::Shared,
        CudaSpace::Global,
        CudaSpace::Local,
        CudaSpace::Constant,
        CudaSpace::GridConstant,
    ];

    fn ptx(self) -> Space {
        match self {
            CudaSpace::Shared => Space::SharedCta,
            CudaSpace::Global => Space::Global,
            CudaSpace::Local => Space::Local,
            CudaSpace::Constant => Space::Const,
            CudaSpace::GridConstant => Space::ParamEntry,
        }
    }

    /// The name in `__cvta_generic_to_<name>`.
    pub fn name(self) -> &'static str {
        match self {
            CudaSpace::Shared => "shared",
            CudaSpace::Global => "global",
            CudaSpace::Local => "local",
            CudaSpace::Constant => "constant",
            CudaSpace::GridConstant => "grid_constant",
        }
    }
}

/// `size_t __cvta_generic_to_<space>(const void* p)`.
pub fn cvta_generic_to(
    profile: &WindowProfile,
    space: CudaSpace,
    p: u64,
    at: &Place,
) -> Result<u64, Undefined> {
    cvta_from_generic(profile, space.ptx(), p, true, at)
}

/// `void* __cvta_<space>_to_generic(size_t rawbits)`.
pub fn cvta_to_generic_ptr(
    profile: &WindowProfile,
    space: CudaSpace,
    rawbits: u64,
    at: &Place,
) -> Result<u64, Undefined> {
    cvta_to_generic(profile, space.ptx(), rawbits, true, at)
}

/// `__isShared(p)`, `__isGlobal(p)`, `__isLocal(p)`, `__isConstant(p)`,
/// `__isGridConstant(p)`: `isspacep` of the space.
pub fn is_space(profile: &WindowProfile, space: CudaSpace, p: u64, at: &Place) -> bool {
    isspacep(profile, space.ptx(), p, at)
}

/// The round trip CUDA C++ 10.16 guarantees for the shared, local and
/// const spaces: "A roundtrip from an input generic space pointer to its
/// 32-bit integer representation and back to an output generic space
/// pointer is guaranteed to return an output pointer that is equivalent to
/// the input pointer". Returns the output pointer (truncate with a cast to
/// `uint32_t`, zero-extend, convert back).
pub fn round_trip_32(
    profile: &WindowProfile,
    space: CudaSpace,
    p: u64,
    at: &Place,
) -> Result<u64, Undefined> {
    let narrow = cvta_generic_to(profile, space, p, at)? & 0xffff_ffff;
    cvta_to_generic_ptr(profile, space, narrow, at)
}

#[cfg(test)]
mod tests {
    use super::*;

    const AT: Place = Place {
        rank: 3,
        cluster_size: 4,
        param_bytes: 24,
        const_bytes: 64,
    };

    /// The guarantee holds for every address of the three spaces' windows
    /// the profile allows (sampled at each window's edges).
    #[test]
    fn round_trip_guarantee() {
        let p = WindowProfile::SM90;
        let (lo, hi) = p.cta_part(AT.rank);
        let cases = [
            (CudaSpace::Shared, p.shared_base + lo),
            (CudaSpace::Shared, p.shared_base + hi - 1),
            (CudaSpace::Local, p.local_base),
            (CudaSpace::Local, p.local_base + p.local_size - 1),
            (CudaSpace::Constant, p.const_base),
            (CudaSpace::Constant, p.const_base + 63),
        ];
        for (space, ptr) in cases {
            assert!(is_space(&p, space, ptr, &AT));
            assert_eq!(
                round_trip_32(&p, space, ptr, &AT),
                Ok(ptr),
                "{}",
                space.name()
            );
        }
    }

    /// The CUDA example: `__cvta_generic_to_shared` of a shared pointer is
    /// an address an `ld.shared` takes, and converting back gives `p`.
    #[test]
    fn shared_example() {
        let p = WindowProfile::SM90;
        let ptr = p.shared_base + p.cta_part(AT.rank).0 + 0x400;
        let sp = cvta_generic_to(&p, CudaSpace::Shared, ptr, &AT).unwrap();
        assert!(sp <= u64::from(u32::MAX));
        assert_eq!(cvta_to_generic_ptr(&p, CudaSpace::Shared, sp, &AT), Ok(ptr));
        // a global pointer is not shared
        assert!(cvta_generic_to(&p, CudaSpace::Shared, p.global_heap, &AT).is_err());
    }
}
