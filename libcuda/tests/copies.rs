//! 2-D and 3-D copies, unified-address and peer copies, 2-D fills, pointer
//! attributes and the small context queries, called directly. Expected
//! bytes come from loops over the copy geometry the driver API documents
//! ("Start = srcDevice+(srcZ*srcHeight+srcY)*srcPitch+srcXInBytes"), never
//! from the library.

mod common;

use common::*;
use cuda::types::*;
use std::ffi::{c_void, CString};
use std::ptr::{null, null_mut};

/// One side of a copy in the test's own terms: base offset, pitch, slice
/// height and the `x`, `y`, `z` of its first byte.
#[derive(Clone, Copy)]
struct Geo {
    x: usize,
    y: usize,
    z: usize,
    pitch: usize,
    height: usize,
}

/// The documented copy, done byte by byte on host buffers: what the
/// destination must hold afterwards.
fn expected(
    src: &[u8],
    s: Geo,
    dst: &[u8],
    t: Geo,
    width: usize,
    height: usize,
    depth: usize,
) -> Vec<u8> {
    let mut out = dst.to_vec();
    for k in 0..depth {
        for j in 0..height {
            for i in 0..width {
                let from = ((s.z + k) * s.height + s.y + j) * s.pitch + s.x + i;
                let to = ((t.z + k) * t.height + t.y + j) * t.pitch + t.x + i;
                out[to] = src[from];
            }
        }
    }
    out
}

/// `n` bytes of a pattern no two neighbouring copies share.
fn pattern(n: usize, seed: u8) -> Vec<u8> {
    (0..n)
        .map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed) ^ (i >> 8) as u8)
        .collect()
}

fn zero_2d() -> CUDA_MEMCPY2D {
    // SAFETY: every field is an integer or a raw pointer; zero is valid
    unsafe { std::mem::zeroed() }
}

fn zero_3d() -> CUDA_MEMCPY3D {
    // SAFETY: every field is an integer or a raw pointer; zero is valid
    unsafe { std::mem::zeroed() }
}

fn alloc(n: usize) -> CUdeviceptr {
    let mut p = 0;
    unsafe { ok("cuMemAlloc", cuda::cuMemAlloc_v2(&mut p, n)) };
    p
}

fn copy_2d(p: &CUDA_MEMCPY2D) -> CUresult {
    unsafe { cuda::cuMemcpy2D_v2(p) }
}

fn copy_3d(p: &CUDA_MEMCPY3D) -> CUresult {
    unsafe { cuda::cuMemcpy3D_v2(p) }
}

/// A 2-D copy description from host or device sides.
#[allow(clippy::too_many_arguments)]
fn desc_2d(
    src_type: u32,
    src: u64,
    s: Geo,
    dst_type: u32,
    dst: u64,
    t: Geo,
    width: usize,
    height: usize,
) -> CUDA_MEMCPY2D {
    let mut p = zero_2d();
    p.src_memory_type = src_type;
    if src_type == memory_type::HOST {
        p.src_host = src as usize as *const c_void;
    } else {
        p.src_device = src;
    }
    p.src_x_in_bytes = s.x;
    p.src_y = s.y;
    p.src_pitch = s.pitch;
    p.dst_memory_type = dst_type;
    if dst_type == memory_type::HOST {
        p.dst_host = dst as usize as *mut c_void;
    } else {
        p.dst_device = dst;
    }
    p.dst_x_in_bytes = t.x;
    p.dst_y = t.y;
    p.dst_pitch = t.pitch;
    p.width_in_bytes = width;
    p.height = height;
    p
}

#[allow(clippy::too_many_arguments)]
fn desc_3d(
    src_type: u32,
    src: u64,
    s: Geo,
    dst_type: u32,
    dst: u64,
    t: Geo,
    width: usize,
    height: usize,
    depth: usize,
) -> CUDA_MEMCPY3D {
    let mut p = zero_3d();
    p.src_memory_type = src_type;
    if src_type == memory_type::HOST {
        p.src_host = src as usize as *const c_void;
    } else {
        p.src_device = src;
    }
    (p.src_x_in_bytes, p.src_y, p.src_z) = (s.x, s.y, s.z);
    (p.src_pitch, p.src_height) = (s.pitch, s.height);
    p.dst_memory_type = dst_type;
    if dst_type == memory_type::HOST {
        p.dst_host = dst as usize as *mut c_void;
    } else {
        p.dst_device = dst;
    }
    (p.dst_x_in_bytes, p.dst_y, p.dst_z) = (t.x, t.y, t.z);
    (p.dst_pitch, p.dst_height) = (t.pitch, t.height);
    (p.width_in_bytes, p.height, p.depth) = (width, height, depth);
    p
}

fn host_addr(v: &[u8]) -> u64 {
    v.as_ptr() as usize as u64
}

#[test]
fn pitched_2d_region_host_to_device_to_host() {
    let _c = context();
    let (w, h) = (13usize, 5usize);
    // host source: pitch 37, region at (3, 2)
    let s = Geo {
        x: 3,
        y: 2,
        z: 0,
        pitch: 37,
        height: 0,
    };
    let src = pattern(37 * 8, 7);
    // device: pitch 64, region at (5, 1), filled first with a known byte
    let t = Geo {
        x: 5,
        y: 1,
        z: 0,
        pitch: 64,
        height: 0,
    };
    let dev = upload(&vec![0xa5; 64 * 7]);
    let d = desc_2d(
        memory_type::HOST,
        host_addr(&src),
        s,
        memory_type::DEVICE,
        dev,
        t,
        w,
        h,
    );
    ok("cuMemcpy2D H->D", copy_2d(&d));
    let want = expected(&src, s, &vec![0xa5; 64 * 7], t, w, h, 1);
    assert_eq!(download(dev, 64 * 7), want, "device after H->D");

    // back to a host buffer of pitch 20 at (0, 3), through the stream form
    let u = Geo {
        x: 0,
        y: 3,
        z: 0,
        pitch: 20,
        height: 0,
    };
    let mut back = vec![0x11u8; 20 * 9];
    let d = desc_2d(
        memory_type::DEVICE,
        dev,
        t,
        memory_type::HOST,
        back.as_mut_ptr() as usize as u64,
        u,
        w,
        h,
    );
    let mut stream = null_mut();
    unsafe {
        ok("cuStreamCreate", cuda::cuStreamCreate(&mut stream, 0));
        ok("cuMemcpy2DAsync D->H", cuda::cuMemcpy2DAsync_v2(&d, stream));
    }
    let want_back = expected(&want, t, &[0x11; 20 * 9], u, w, h, 1);
    assert_eq!(back, want_back);
    // and every byte the region holds is the source's
    for j in 0..h {
        for i in 0..w {
            assert_eq!(
                back[(u.y + j) * u.pitch + i],
                src[(s.y + j) * s.pitch + s.x + i]
            );
        }
    }

    // cuMemcpy2DUnaligned, device to device into a second allocation
    let other = upload(&[0; 32 * 6]);
    let v = Geo {
        x: 1,
        y: 0,
        z: 0,
        pitch: 32,
        height: 0,
    };
    let d = desc_2d(
        memory_type::DEVICE,
        dev,
        t,
        memory_type::DEVICE,
        other,
        v,
        w,
        h,
    );
    unsafe { ok("cuMemcpy2DUnaligned", cuda::cuMemcpy2DUnaligned_v2(&d)) };
    assert_eq!(
        download(other, 32 * 6),
        expected(&want, t, &[0; 32 * 6], v, w, h, 1)
    );
}

#[test]
fn three_d_copies_with_depth_and_slice_pitch() {
    let _c = context();
    let (w, h, depth) = (6usize, 3usize, 4usize);
    let s = Geo {
        x: 2,
        y: 1,
        z: 1,
        pitch: 11,
        height: 5,
    };
    let src = pattern(11 * 5 * 6, 3);
    let t = Geo {
        x: 4,
        y: 2,
        z: 0,
        pitch: 16,
        height: 7,
    };
    let dev_len = 16 * 7 * 4;
    let dev = upload(&vec![0xee; dev_len]);
    let d = desc_3d(
        memory_type::HOST,
        host_addr(&src),
        s,
        memory_type::DEVICE,
        dev,
        t,
        w,
        h,
        depth,
    );
    ok("cuMemcpy3D H->D", copy_3d(&d));
    let want = expected(&src, s, &vec![0xee; dev_len], t, w, h, depth);
    assert_eq!(download(dev, dev_len), want);

    // device to device (another slice pitch), on a stream
    let u = Geo {
        x: 0,
        y: 0,
        z: 1,
        pitch: 8,
        height: 4,
    };
    let other_len = 8 * 4 * 5;
    let other = upload(&vec![0; other_len]);
    let d = desc_3d(
        memory_type::DEVICE,
        dev,
        t,
        memory_type::DEVICE,
        other,
        u,
        w,
        h,
        depth,
    );
    unsafe { ok("cuMemcpy3DAsync", cuda::cuMemcpy3DAsync_v2(&d, null_mut())) };
    let want_other = expected(&want, t, &vec![0; other_len], u, w, h, depth);
    assert_eq!(download(other, other_len), want_other);

    // device to host
    let mut back = vec![0u8; other_len];
    let d = desc_3d(
        memory_type::DEVICE,
        other,
        u,
        memory_type::HOST,
        back.as_mut_ptr() as usize as u64,
        u,
        w,
        h,
        depth,
    );
    ok("cuMemcpy3D D->H", copy_3d(&d));
    assert_eq!(back, want_other);
    // a 3-D copy of depth 1 may leave the slice heights 0
    let flat = Geo {
        x: 0,
        y: 0,
        z: 0,
        pitch: 8,
        height: 0,
    };
    let mut row = vec![0u8; 8 * 2];
    let d = desc_3d(
        memory_type::DEVICE,
        other,
        flat,
        memory_type::HOST,
        row.as_mut_ptr() as usize as u64,
        flat,
        8,
        2,
        1,
    );
    ok("cuMemcpy3D depth 1", copy_3d(&d));
    assert_eq!(row, want_other[..16]);
}

#[test]
fn peer_copies_between_two_contexts() {
    let a = context();
    let src = upload(&pattern(4 * 9 * 3, 1));
    let b = context();
    let dst = upload(&[0; 256]);
    unsafe {
        ok(
            "cuMemcpyPeer",
            cuda::cuMemcpyPeer(dst + 16, b, src + 4, a, 40),
        );
    }
    let src_bytes = pattern(4 * 9 * 3, 1);
    let mut want = vec![0u8; 256];
    want[16..56].copy_from_slice(&src_bytes[4..44]);
    assert_eq!(download(dst, 256), want);
    unsafe {
        ok(
            "cuMemcpyPeerAsync",
            cuda::cuMemcpyPeerAsync(dst + 100, b, src, a, 8, null_mut()),
        );
        want[100..108].copy_from_slice(&src_bytes[..8]);
        assert_eq!(download(dst, 256), want);
        for bad in [null_mut(), 0x77 as Handle] {
            assert_eq!(
                cuda::cuMemcpyPeer(dst, bad, src, a, 4),
                CUDA_ERROR_INVALID_CONTEXT
            );
            assert_eq!(
                cuda::cuMemcpyPeer(dst, b, src, bad, 4),
                CUDA_ERROR_INVALID_CONTEXT
            );
        }
        assert_eq!(
            cuda::cuMemcpyPeer(dst, b, src, a, 4 * 9 * 3 + 1),
            CUDA_ERROR_INVALID_VALUE,
            "past the source allocation"
        );
    }
    // 3-D between the contexts
    let s = Geo {
        x: 1,
        y: 1,
        z: 0,
        pitch: 9,
        height: 4,
    };
    let t = Geo {
        x: 0,
        y: 0,
        z: 1,
        pitch: 10,
        height: 3,
    };
    let fresh = upload(&[0x5a; 10 * 3 * 4]);
    let mut p = desc_3d(
        memory_type::DEVICE,
        src,
        s,
        memory_type::DEVICE,
        fresh,
        t,
        5,
        2,
        2,
    );
    p.src_context = a;
    p.dst_context = b;
    unsafe { ok("cuMemcpy3DPeer", cuda::cuMemcpy3DPeer(&p)) };
    let want = expected(&src_bytes, s, &[0x5a; 120], t, 5, 2, 2);
    assert_eq!(download(fresh, 120), want);
    unsafe {
        ok(
            "cuMemcpy3DPeerAsync",
            cuda::cuMemcpy3DPeerAsync(&p, null_mut()),
        );
        p.src_context = 0x99 as Handle;
        assert_eq!(cuda::cuMemcpy3DPeer(&p), CUDA_ERROR_INVALID_CONTEXT);
    }
}

#[test]
fn unified_memcpy_in_every_direction() {
    let _c = context();
    let mut unified = 0;
    unsafe {
        ok(
            "cuDeviceGetAttribute",
            cuda::cuDeviceGetAttribute(&mut unified, attr::UNIFIED_ADDRESSING, 0),
        )
    };
    assert_eq!(unified, i32::from(cfg!(target_os = "linux")));
    let data = pattern(300, 9);
    let dev = alloc(300);
    let dev2 = upload(&[0; 300]);
    let mut host = vec![0u8; 300];
    let mut host2 = vec![0u8; 300];
    unsafe {
        ok("H->D", cuda::cuMemcpy(dev, host_addr(&data), 300));
        assert_eq!(download(dev, 300), data);
        ok("D->D", cuda::cuMemcpyAsync(dev2 + 10, dev, 290, null_mut()));
        let mut want = vec![0u8; 300];
        want[10..].copy_from_slice(&data[..290]);
        assert_eq!(download(dev2, 300), want);
        ok(
            "D->H",
            cuda::cuMemcpy(host.as_mut_ptr() as usize as u64, dev2, 300),
        );
        assert_eq!(host, want);
        ok(
            "H->H",
            cuda::cuMemcpy(
                host2.as_mut_ptr() as usize as u64,
                host.as_ptr() as usize as u64,
                300,
            ),
        );
        assert_eq!(host2, want);
        // an interior device pointer is device memory
        ok(
            "D->H interior",
            cuda::cuMemcpy(host.as_mut_ptr() as usize as u64, dev + 100, 8),
        );
        assert_eq!(host[..8], data[100..108]);
        // a range that starts in an allocation and leaves it, a null
        // pointer, a freed allocation
        assert_eq!(
            cuda::cuMemcpy(host.as_mut_ptr() as usize as u64, dev + 200, 101),
            CUDA_ERROR_INVALID_VALUE
        );
        assert_eq!(cuda::cuMemcpy(0, dev, 4), CUDA_ERROR_INVALID_VALUE);
        assert_eq!(cuda::cuMemcpy(dev, 0, 4), CUDA_ERROR_INVALID_VALUE);
        ok("cuMemFree", cuda::cuMemFree_v2(dev2));
        assert_eq!(
            cuda::cuMemcpy(host.as_mut_ptr() as usize as u64, dev2, 4),
            CUDA_ERROR_INVALID_VALUE,
            "a freed allocation is neither device nor host memory"
        );
        ok("0 bytes", cuda::cuMemcpy(0, 0, 0));
    }
    // CU_MEMORYTYPE_UNIFIED in a 2-D copy: a host and a device base
    let g = Geo {
        x: 2,
        y: 1,
        z: 0,
        pitch: 30,
        height: 0,
    };
    let out = upload(&[0; 30 * 8]);
    let mut p = desc_2d(memory_type::DEVICE, 0, g, memory_type::DEVICE, out, g, 7, 6);
    p.src_memory_type = memory_type::UNIFIED;
    p.src_device = host_addr(&data);
    p.dst_memory_type = memory_type::UNIFIED;
    ok("2-D unified H->D", copy_2d(&p));
    let want = expected(&data, g, &[0; 240], g, 7, 6, 1);
    assert_eq!(download(out, 240), want);
    let mut back = vec![0u8; 240];
    p.src_device = out;
    p.dst_device = back.as_mut_ptr() as usize as u64;
    ok("2-D unified D->H", copy_2d(&p));
    assert_eq!(back, expected(&want, g, &[0; 240], g, 7, 6, 1));
}

/// Whether `[p, p + n)` lies in one mapping of this process (held with no
/// access, so no host object can be there).
#[cfg(target_os = "linux")]
fn held(p: u64, n: u64) -> bool {
    let maps = std::fs::read_to_string("/proc/self/maps").unwrap();
    maps.lines().any(|l| {
        let r = l.split_whitespace().next().unwrap();
        let (a, b) = r.split_once('-').unwrap();
        let (a, b) = (
            u64::from_str_radix(a, 16).unwrap(),
            u64::from_str_radix(b, 16).unwrap(),
        );
        a <= p && p + n <= b && l.split_whitespace().nth(1) == Some("---p")
    })
}

#[cfg(target_os = "linux")]
#[test]
fn device_addresses_are_held_away_from_the_host() {
    let _c = context();
    let sizes = [1usize, 4096, 100_000, 3 << 20];
    let ptrs: Vec<u64> = sizes.iter().map(|&n| alloc(n)).collect();
    for (&p, &n) in ptrs.iter().zip(&sizes) {
        assert!(held(p, n as u64), "{p:#x}+{n} not held");
    }
    // freed, still held: a host allocation never takes the address
    unsafe { ok("cuMemFree", cuda::cuMemFree_v2(ptrs[2])) };
    assert!(held(ptrs[2], sizes[2] as u64));
    // a host copy that names device memory as host memory is refused, not
    // a fault
    let mut p = desc_2d(
        memory_type::HOST,
        ptrs[1],
        Geo {
            x: 0,
            y: 0,
            z: 0,
            pitch: 64,
            height: 0,
        },
        memory_type::DEVICE,
        ptrs[1],
        Geo {
            x: 0,
            y: 0,
            z: 0,
            pitch: 64,
            height: 0,
        },
        64,
        2,
    );
    assert_eq!(copy_2d(&p), CUDA_ERROR_INVALID_VALUE);
    p.src_memory_type = memory_type::DEVICE;
    p.src_device = ptrs[1];
    p.dst_memory_type = memory_type::HOST;
    p.dst_host = ptrs[3] as usize as *mut c_void;
    assert_eq!(copy_2d(&p), CUDA_ERROR_INVALID_VALUE);
}

#[test]
fn overlapping_copies_read_the_source_first() {
    let _c = context();
    let before = pattern(16 * 8, 5);
    let dev = upload(&before);
    // rows 0..4 of columns 0..10 onto rows 2..6 shifted by 3: overlapping
    let s = Geo {
        x: 0,
        y: 0,
        z: 0,
        pitch: 16,
        height: 0,
    };
    let t = Geo {
        x: 3,
        y: 2,
        z: 0,
        pitch: 16,
        height: 0,
    };
    let p = desc_2d(
        memory_type::DEVICE,
        dev,
        s,
        memory_type::DEVICE,
        dev,
        t,
        10,
        4,
    );
    ok("overlapping cuMemcpy2D", copy_2d(&p));
    assert_eq!(
        download(dev, 128),
        expected(&before, s, &before, t, 10, 4, 1)
    );
    // and through unified 1-D copies
    unsafe { ok("cuMemcpy", cuda::cuMemcpy(dev + 1, dev, 100)) };
    let mut want = expected(&before, s, &before, t, 10, 4, 1);
    let old = want.clone();
    want[1..101].copy_from_slice(&old[..100]);
    assert_eq!(download(dev, 128), want);
}

#[test]
fn bad_copies_get_the_documented_errors() {
    let _c = context();
    let dev = upload(&[0; 256]);
    let host = vec![0u8; 256];
    let g = |x, y, pitch| Geo {
        x,
        y,
        z: 0,
        pitch,
        height: 0,
    };
    let h2d = |s: Geo, t: Geo, w, h| {
        desc_2d(
            memory_type::HOST,
            host_addr(&host),
            s,
            memory_type::DEVICE,
            dev,
            t,
            w,
            h,
        )
    };
    let bad = CUDA_ERROR_INVALID_VALUE;
    // "srcPitch must be greater than or equal to WidthInBytes + srcXInBytes"
    assert_eq!(copy_2d(&h2d(g(4, 0, 16), g(0, 0, 32), 13, 2)), bad);
    assert_eq!(copy_2d(&h2d(g(0, 0, 32), g(20, 0, 32), 13, 2)), bad);
    // the region past the allocation's end (rows 0..9 of pitch 32 = 269 bytes)
    assert_eq!(copy_2d(&h2d(g(0, 0, 32), g(0, 0, 32), 13, 9)), bad);
    assert_eq!(copy_2d(&h2d(g(0, 0, 32), g(0, 7, 32), 13, 2)), bad);
    ok(
        "just inside",
        copy_2d(&h2d(g(0, 0, 32), g(19, 6, 32), 13, 2)),
    );
    // a device base in no allocation, or freed
    let mut p = h2d(g(0, 0, 32), g(0, 0, 32), 4, 2);
    p.dst_device = dev + 256 + 8;
    assert_eq!(copy_2d(&p), bad);
    p.dst_device = 0;
    assert_eq!(copy_2d(&p), bad);
    // null host pointers, null descriptions
    let mut p = h2d(g(0, 0, 32), g(0, 0, 32), 4, 2);
    p.src_host = null();
    assert_eq!(copy_2d(&p), bad);
    unsafe {
        assert_eq!(cuda::cuMemcpy2D_v2(null()), bad);
        assert_eq!(cuda::cuMemcpy3D_v2(null()), bad);
        assert_eq!(cuda::cuMemcpy3DPeer(null()), bad);
        assert_eq!(cuda::cuMemcpy2DAsync_v2(null(), null_mut()), bad);
    }
    // memory types: an array is not supported; numbers that are none
    let mut p = h2d(g(0, 0, 32), g(0, 0, 32), 4, 2);
    p.src_memory_type = memory_type::ARRAY;
    assert_eq!(copy_2d(&p), CUDA_ERROR_NOT_SUPPORTED);
    for t in [0, 5, 0x7fff_ffff] {
        p.src_memory_type = t;
        assert_eq!(copy_2d(&p), bad, "memory type {t}");
    }
    // 3-D: LOD not 0, slice height below Height + srcY
    let s3 = Geo {
        x: 0,
        y: 1,
        z: 0,
        pitch: 16,
        height: 2,
    };
    let t3 = Geo {
        x: 0,
        y: 0,
        z: 0,
        pitch: 16,
        height: 4,
    };
    let mut q = desc_3d(
        memory_type::HOST,
        host_addr(&host),
        s3,
        memory_type::DEVICE,
        dev,
        t3,
        8,
        2,
        2,
    );
    assert_eq!(copy_3d(&q), bad, "srcHeight < Height + srcY");
    q.src_height = 3;
    ok("srcHeight = Height + srcY", copy_3d(&q));
    q.dst_lod = 1;
    assert_eq!(copy_3d(&q), bad);
    q.dst_lod = 0;
    q.dst_memory_type = memory_type::ARRAY;
    assert_eq!(copy_3d(&q), CUDA_ERROR_NOT_SUPPORTED);
    // a pitch past CU_DEVICE_ATTRIBUTE_MAX_PITCH
    let mut max = 0;
    unsafe {
        ok(
            "MAX_PITCH",
            cuda::cuDeviceGetAttribute(&mut max, attr::MAX_PITCH, 0),
        )
    };
    assert_eq!(
        copy_2d(&h2d(g(0, 0, max as usize + 1), g(0, 0, 32), 4, 1 + 1)),
        bad
    );
    // an extent of 0 copies nothing and succeeds
    ok("empty", copy_2d(&h2d(g(0, 0, 32), g(0, 0, 32), 0, 2)));
    // a stream that is none
    let p = h2d(g(0, 0, 32), g(0, 0, 32), 4, 2);
    unsafe {
        assert_eq!(
            cuda::cuMemcpy2DAsync_v2(&p, 0x4444 as Handle),
            CUDA_ERROR_INVALID_HANDLE
        );
        assert_eq!(
            cuda::cuMemcpyAsync(dev, dev + 8, 4, 0x4444 as Handle),
            CUDA_ERROR_INVALID_HANDLE
        );
    }
}

#[test]
fn two_d_fills() {
    let _c = context();
    let (pitch, w, h) = (40usize, 6usize, 5usize);
    let dev = upload(&vec![0u8; pitch * h]);
    let mut want = vec![0u8; pitch * h];
    unsafe {
        ok(
            "cuMemsetD2D8",
            cuda::cuMemsetD2D8_v2(dev + 1, pitch, 0x3c, w, h),
        );
    }
    for r in 0..h {
        for i in 0..w {
            want[r * pitch + 1 + i] = 0x3c;
        }
    }
    assert_eq!(download(dev, pitch * h), want);
    unsafe {
        ok(
            "cuMemsetD2D16",
            cuda::cuMemsetD2D16_v2(dev + 16, pitch, 0xbeef, 3, h - 1),
        );
        ok(
            "cuMemsetD2D32Async",
            cuda::cuMemsetD2D32Async(dev + 28, pitch, 0x0102_0304, 2, 2, null_mut()),
        );
    }
    for r in 0..h - 1 {
        for i in 0..3 {
            want[r * pitch + 16 + 2 * i..r * pitch + 18 + 2 * i]
                .copy_from_slice(&0xbeefu16.to_le_bytes());
        }
    }
    for r in 0..2 {
        for i in 0..2 {
            want[r * pitch + 28 + 4 * i..r * pitch + 32 + 4 * i]
                .copy_from_slice(&0x0102_0304u32.to_le_bytes());
        }
    }
    assert_eq!(download(dev, pitch * h), want);
    unsafe {
        ok(
            "cuMemsetD2D8Async",
            cuda::cuMemsetD2D8Async(dev, pitch, 9, 1, 1, null_mut()),
        );
        ok(
            "cuMemsetD2D16Async",
            cuda::cuMemsetD2D16Async(dev + 2, pitch, 7, 1, 1, null_mut()),
        );
        ok("cuMemsetD2D32", cuda::cuMemsetD2D32_v2(dev + 4, 0, 5, 1, 1));
    }
    want[0] = 9;
    want[2..4].copy_from_slice(&7u16.to_le_bytes());
    want[4..8].copy_from_slice(&5u32.to_le_bytes());
    assert_eq!(download(dev, pitch * h), want);
    let bad = CUDA_ERROR_INVALID_VALUE;
    unsafe {
        // misaligned address or pitch
        assert_eq!(cuda::cuMemsetD2D16_v2(dev + 1, pitch, 0, 1, 2), bad);
        assert_eq!(cuda::cuMemsetD2D32_v2(dev + 2, pitch, 0, 1, 2), bad);
        assert_eq!(cuda::cuMemsetD2D32_v2(dev, 42, 0, 1, 2), bad);
        // a pitch shorter than a row; rows past the allocation
        assert_eq!(cuda::cuMemsetD2D8_v2(dev, 4, 0, 5, 2), bad);
        assert_eq!(cuda::cuMemsetD2D8_v2(dev, pitch, 0, 1, h + 1), bad);
        assert_eq!(cuda::cuMemsetD2D8_v2(0, pitch, 0, 1, 1), bad);
    }
    assert_eq!(
        download(dev, pitch * h),
        want,
        "refused fills wrote nothing"
    );
}

#[test]
fn pointer_attributes_of_device_and_host_memory() {
    let c = context();
    let dev = alloc(1000);
    let other = alloc(8);
    let get_u64 = |a: u32, p: u64| {
        let mut v = 0u64;
        let r = unsafe { cuda::cuPointerGetAttribute((&mut v as *mut u64).cast(), a, p) };
        (r, v)
    };
    let get_u32 = |a: u32, p: u64| {
        let mut v = 0u32;
        let r = unsafe { cuda::cuPointerGetAttribute((&mut v as *mut u32).cast(), a, p) };
        (r, v)
    };
    use pointer_attr::*;
    let inner = dev + 123;
    assert_eq!(get_u64(CONTEXT, inner), (CUDA_SUCCESS, c as usize as u64));
    assert_eq!(
        get_u32(MEMORY_TYPE, inner),
        (CUDA_SUCCESS, memory_type::DEVICE)
    );
    assert_eq!(get_u64(DEVICE_POINTER, inner), (CUDA_SUCCESS, inner));
    assert_eq!(get_u64(HOST_POINTER, inner).0, CUDA_ERROR_INVALID_VALUE);
    assert_eq!(get_u32(IS_MANAGED, inner), (CUDA_SUCCESS, 0));
    assert_eq!(get_u32(DEVICE_ORDINAL, inner), (CUDA_SUCCESS, 0));
    assert_eq!(get_u64(RANGE_START_ADDR, inner), (CUDA_SUCCESS, dev));
    assert_eq!(get_u64(RANGE_SIZE, inner), (CUDA_SUCCESS, 1000));
    assert_eq!(get_u32(MAPPED, inner), (CUDA_SUCCESS, 1));
    let (r, id) = get_u64(BUFFER_ID, dev);
    ok("BUFFER_ID", r);
    let (r, id2) = get_u64(BUFFER_ID, other);
    ok("BUFFER_ID", r);
    assert_ne!(id, id2);
    // "Subsequent allocations do not reuse IDs from previous freed allocations"
    unsafe { ok("cuMemFree", cuda::cuMemFree_v2(other)) };
    let third = alloc(8);
    let (_, id3) = get_u64(BUFFER_ID, third);
    assert!(id3 != id && id3 != id2);
    // not the library's: past the end, freed, a stack address
    let local = 5u64;
    for p in [dev + 1000, other, &local as *const u64 as usize as u64, 0] {
        assert_eq!(
            get_u32(MEMORY_TYPE, p).0,
            CUDA_ERROR_INVALID_VALUE,
            "{p:#x}"
        );
    }
    // attributes that are none, P2P tokens
    assert_eq!(get_u64(0, dev).0, CUDA_ERROR_INVALID_VALUE);
    assert_eq!(get_u64(99, dev).0, CUDA_ERROR_INVALID_VALUE);
    let mut tokens = [0u8; 16];
    assert_eq!(
        unsafe { cuda::cuPointerGetAttribute(tokens.as_mut_ptr().cast(), P2P_TOKENS, dev) },
        CUDA_ERROR_INVALID_VALUE
    );
    assert_eq!(
        unsafe { cuda::cuPointerGetAttribute(null_mut(), RANGE_SIZE, dev) },
        CUDA_ERROR_INVALID_VALUE
    );

    // page-locked host memory
    let mut h = null_mut();
    unsafe { ok("cuMemAllocHost", cuda::cuMemAllocHost_v2(&mut h, 300)) };
    let hp = h as usize as u64;
    assert_eq!(
        get_u32(MEMORY_TYPE, hp + 5),
        (CUDA_SUCCESS, memory_type::HOST)
    );
    assert_eq!(get_u64(HOST_POINTER, hp + 5), (CUDA_SUCCESS, hp + 5));
    assert_eq!(get_u64(DEVICE_POINTER, hp).0, CUDA_ERROR_INVALID_VALUE);
    assert_eq!(get_u64(RANGE_START_ADDR, hp + 299), (CUDA_SUCCESS, hp));
    assert_eq!(get_u64(RANGE_SIZE, hp), (CUDA_SUCCESS, 300));
    assert_eq!(get_u64(CONTEXT, hp), (CUDA_SUCCESS, c as usize as u64));
    let (_, hid) = get_u64(BUFFER_ID, hp);
    assert!(hid != id && hid != id2 && hid != id3);
    assert_eq!(get_u32(MEMORY_TYPE, hp + 300).0, CUDA_ERROR_INVALID_VALUE);

    // several at once
    let attrs = [
        MEMORY_TYPE,
        RANGE_SIZE,
        HOST_POINTER,
        DEVICE_POINTER,
        IS_MANAGED,
    ];
    let (mut t, mut size, mut host, mut device, mut managed) = (7u32, 7u64, 7u64, 7u64, 7u32);
    let mut data: [*mut c_void; 5] = [
        (&mut t as *mut u32).cast(),
        (&mut size as *mut u64).cast(),
        (&mut host as *mut u64).cast(),
        (&mut device as *mut u64).cast(),
        (&mut managed as *mut u32).cast(),
    ];
    unsafe {
        ok(
            "cuPointerGetAttributes",
            cuda::cuPointerGetAttributes(5, attrs.as_ptr(), data.as_mut_ptr(), dev + 8),
        );
    }
    assert_eq!(
        (t, size, host, device, managed),
        (memory_type::DEVICE, 1000, 0, dev + 8, 0)
    );
    // memory the library does not know: every attribute 0, and success
    let (mut t, mut size, mut host, mut device, mut managed) = (7u32, 7u64, 7u64, 7u64, 7u32);
    let mut data: [*mut c_void; 5] = [
        (&mut t as *mut u32).cast(),
        (&mut size as *mut u64).cast(),
        (&mut host as *mut u64).cast(),
        (&mut device as *mut u64).cast(),
        (&mut managed as *mut u32).cast(),
    ];
    unsafe {
        ok(
            "cuPointerGetAttributes (unregistered)",
            cuda::cuPointerGetAttributes(
                5,
                attrs.as_ptr(),
                data.as_mut_ptr(),
                &local as *const u64 as usize as u64,
            ),
        );
        assert_eq!((t, size, host, device, managed), (0, 0, 0, 0, 0));
        // an attribute outside the list, null arrays
        let bad = [P2P_TOKENS];
        assert_eq!(
            cuda::cuPointerGetAttributes(1, bad.as_ptr(), data.as_mut_ptr(), dev),
            CUDA_ERROR_INVALID_VALUE
        );
        assert_eq!(
            cuda::cuPointerGetAttributes(1, null(), data.as_mut_ptr(), dev),
            CUDA_ERROR_INVALID_VALUE
        );
        assert_eq!(
            cuda::cuPointerGetAttributes(1, attrs.as_ptr(), null_mut(), dev),
            CUDA_ERROR_INVALID_VALUE
        );
        ok("cuMemFreeHost", cuda::cuMemFreeHost(h));
    }
    assert_eq!(
        get_u32(MEMORY_TYPE, hp).0,
        CUDA_ERROR_INVALID_VALUE,
        "freed"
    );
}

#[test]
fn context_limits_and_small_queries() {
    let _c = context();
    let get = |l: u32| {
        let mut v = 0usize;
        let r = unsafe { cuda::cuCtxGetLimit(&mut v, l) };
        (r, v)
    };
    use limit::*;
    assert_eq!(get(STACK_SIZE), (CUDA_SUCCESS, 1024));
    assert_eq!(get(PRINTF_FIFO_SIZE), (CUDA_SUCCESS, 1 << 20));
    assert_eq!(get(MALLOC_HEAP_SIZE), (CUDA_SUCCESS, 8 << 20));
    assert_eq!(get(DEV_RUNTIME_PENDING_LAUNCH_COUNT), (CUDA_SUCCESS, 2048));
    assert_eq!(get(PERSISTING_L2_CACHE_SIZE), (CUDA_SUCCESS, 0));
    assert_eq!(get(CIG_ENABLED), (CUDA_SUCCESS, 0));
    for l in [
        DEV_RUNTIME_SYNC_DEPTH,
        SHMEM_SIZE,
        CIG_SHMEM_FALLBACK_ENABLED,
        10,
        1000,
    ] {
        assert_eq!(get(l).0, CUDA_ERROR_UNSUPPORTED_LIMIT, "limit {l}");
    }
    unsafe {
        ok("set stack", cuda::cuCtxSetLimit(STACK_SIZE, 4096));
        ok("set heap", cuda::cuCtxSetLimit(MALLOC_HEAP_SIZE, 1 << 26));
        ok(
            "set L2 fetch",
            cuda::cuCtxSetLimit(MAX_L2_FETCH_GRANULARITY, 1000),
        );
        for l in [DEV_RUNTIME_SYNC_DEPTH, CIG_ENABLED, SHMEM_SIZE, 77] {
            assert_eq!(
                cuda::cuCtxSetLimit(l, 4),
                CUDA_ERROR_UNSUPPORTED_LIMIT,
                "limit {l}"
            );
        }
        assert_eq!(
            cuda::cuCtxGetLimit(null_mut(), STACK_SIZE),
            CUDA_ERROR_INVALID_VALUE
        );
    }
    assert_eq!(get(STACK_SIZE), (CUDA_SUCCESS, 4096));
    assert_eq!(get(MALLOC_HEAP_SIZE), (CUDA_SUCCESS, 1 << 26));
    assert_eq!(
        get(MAX_L2_FETCH_GRANULARITY),
        (CUDA_SUCCESS, 128),
        "clamped"
    );
    // limits belong to the context: a new one has the defaults
    let _d = context();
    assert_eq!(get(STACK_SIZE), (CUDA_SUCCESS, 1024));
    unsafe {
        let (mut least, mut greatest) = (-5, -5);
        ok(
            "cuCtxGetStreamPriorityRange",
            cuda::cuCtxGetStreamPriorityRange(&mut least, &mut greatest),
        );
        assert_eq!((least, greatest), (0, 0));
        ok(
            "cuCtxGetStreamPriorityRange (nulls)",
            cuda::cuCtxGetStreamPriorityRange(null_mut(), null_mut()),
        );
        let mut config = 9;
        ok(
            "cuCtxGetSharedMemConfig",
            cuda::cuCtxGetSharedMemConfig(&mut config),
        );
        assert_eq!(config, shared_config::FOUR_BYTE_BANK_SIZE);
        ok(
            "cuCtxSetSharedMemConfig",
            cuda::cuCtxSetSharedMemConfig(shared_config::EIGHT_BYTE_BANK_SIZE),
        );
        assert_eq!(cuda::cuCtxSetSharedMemConfig(3), CUDA_ERROR_INVALID_VALUE);
        let mut mode = 0;
        ok(
            "cuModuleGetLoadingMode",
            cuda::cuModuleGetLoadingMode(&mut mode),
        );
        assert_eq!(mode, MODULE_EAGER_LOADING);
        let mut id = [0x7fi8; 32];
        ok(
            "cuDeviceGetPCIBusId",
            cuda::cuDeviceGetPCIBusId(id.as_mut_ptr(), 32, 0),
        );
        let text = std::ffi::CStr::from_ptr(id.as_ptr()).to_str().unwrap();
        // "[domain]:[bus]:[device].[function]", hexadecimal, from the PCI
        // attributes
        let mut pci = [0; 3];
        for (k, a) in [attr::PCI_DOMAIN_ID, attr::PCI_BUS_ID, attr::PCI_DEVICE_ID]
            .into_iter()
            .enumerate()
        {
            ok(
                "PCI attribute",
                cuda::cuDeviceGetAttribute(&mut pci[k], a, 0),
            );
        }
        assert_eq!(
            text,
            format!("{:04x}:{:02x}:{:02x}.0", pci[0], pci[1], pci[2])
        );
        let mut short = [0x7fi8; 5];
        ok(
            "short buffer",
            cuda::cuDeviceGetPCIBusId(short.as_mut_ptr(), 5, 0),
        );
        assert_eq!(short[4], 0);
        assert_eq!(
            cuda::cuDeviceGetPCIBusId(id.as_mut_ptr(), 32, 1),
            CUDA_ERROR_INVALID_DEVICE
        );
        assert_eq!(
            cuda::cuDeviceGetPCIBusId(null_mut(), 32, 0),
            CUDA_ERROR_INVALID_VALUE
        );
    }
}

#[test]
fn get_proc_address_finds_the_copy_entry_points() {
    let find = |name: &str| {
        let s = CString::new(name).unwrap();
        let mut p: *mut c_void = std::ptr::dangling_mut();
        let r = unsafe { cuda::cuGetProcAddress(s.as_ptr(), &mut p, 12080, 0) };
        (r, p)
    };
    let cases: [(&str, *mut c_void); 12] = [
        ("cuMemcpy2D", cuda::cuMemcpy2D_v2 as *mut c_void),
        (
            "cuMemcpy2DUnaligned",
            cuda::cuMemcpy2DUnaligned_v2 as *mut c_void,
        ),
        ("cuMemcpy2DAsync", cuda::cuMemcpy2DAsync_v2 as *mut c_void),
        ("cuMemcpy3D", cuda::cuMemcpy3D_v2 as *mut c_void),
        (
            "cuMemcpy3DAsync_ptsz",
            cuda::cuMemcpy3DAsync_v2 as *mut c_void,
        ),
        ("cuMemcpy3DPeer", cuda::cuMemcpy3DPeer as *mut c_void),
        ("cuMemcpy_ptds", cuda::cuMemcpy as *mut c_void),
        ("cuMemcpyPeerAsync", cuda::cuMemcpyPeerAsync as *mut c_void),
        ("cuMemsetD2D32", cuda::cuMemsetD2D32_v2 as *mut c_void),
        (
            "cuPointerGetAttributes",
            cuda::cuPointerGetAttributes as *mut c_void,
        ),
        ("cuCtxGetLimit", cuda::cuCtxGetLimit as *mut c_void),
        (
            "cuModuleGetLoadingMode",
            cuda::cuModuleGetLoadingMode as *mut c_void,
        ),
    ];
    for (name, f) in cases {
        assert_eq!(find(name), (CUDA_SUCCESS, f), "{name}");
    }
}
