//! Copies the 1-D entry points of `api` do not cover: 2-D and 3-D copies
//! (`cuMemcpy2D`, `cuMemcpy3D`, `cuMemcpy3DPeer`), copies between unified
//! addresses (`cuMemcpy`), between contexts (`cuMemcpyPeer`), and 2-D fills
//! (`cuMemsetD2D*`). Host and device memory only: CUDA arrays are not
//! modelled (`CUDA_ERROR_NOT_SUPPORTED`).
//!
//! Every copy reads all of its source before it writes its destination, so
//! a copy whose source and destination overlap writes the bytes the source
//! held before the copy. The driver API says nothing of overlap for these
//! calls; the runtime API's `cudaMemcpy2D` says "The memory areas may not
//! overlap" and `cudaMemcpy3D` "If overlapping source and destination
//! objects are specified, undefined behavior will result".

#![allow(clippy::missing_safety_doc)] // the driver API's documentation is theirs

use crate::api::{guard, handle};
use crate::state::{self, Driver};
use crate::types::*;
use std::ffi::c_uint;

/// `CU_DEVICE_ATTRIBUTE_MAX_PITCH` (`device::attribute`): "cuMemcpy2D()
/// returns an error if any pitch is greater than the maximum allowed".
const MAX_PITCH: u64 = i32::MAX as u64;

/// One side of a copy, as `CUDA_MEMCPY3D` gives it.
#[derive(Clone, Copy, Debug)]
pub struct Side {
    pub x: u64,
    pub y: u64,
    pub z: u64,
    pub lod: u64,
    pub memory_type: u32,
    pub host: u64,
    pub device: u64,
    /// The context of its device memory: `CUDA_MEMCPY3D_PEER`'s, or the
    /// stream's.
    pub context: u64,
    pub pitch: u64,
    /// Rows of a 2-D slice (`srcHeight`): "may be 0 if Depth==1".
    pub height: u64,
}

/// A 2-D or 3-D copy: its two sides and its extent.
#[derive(Clone, Copy, Debug)]
pub struct Copy3d {
    pub src: Side,
    pub dst: Side,
    pub width: u64,
    pub height: u64,
    pub depth: u64,
}

/// Where a side's bytes are, once its memory type is resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    Host(u64),
    Device(u64),
}

impl Copy3d {
    /// A `CUDA_MEMCPY2D`: one slice.
    pub fn from_2d(p: &CUDA_MEMCPY2D, context: u64) -> Copy3d {
        let side = |x: usize, y: usize, t: c_uint, host: u64, device: u64, pitch: usize| Side {
            x: x as u64,
            y: y as u64,
            z: 0,
            lod: 0,
            memory_type: t,
            host,
            device,
            context,
            pitch: pitch as u64,
            height: 0,
        };
        Copy3d {
            src: side(
                p.src_x_in_bytes,
                p.src_y,
                p.src_memory_type,
                p.src_host as usize as u64,
                p.src_device,
                p.src_pitch,
            ),
            dst: side(
                p.dst_x_in_bytes,
                p.dst_y,
                p.dst_memory_type,
                p.dst_host as usize as u64,
                p.dst_device,
                p.dst_pitch,
            ),
            width: p.width_in_bytes as u64,
            height: p.height as u64,
            depth: 1,
        }
    }

    /// A `CUDA_MEMCPY3D`, or with `peer` a `CUDA_MEMCPY3D_PEER` (whose
    /// contexts are read; otherwise both sides are in `context`).
    pub fn from_3d(p: &CUDA_MEMCPY3D, context: u64, peer: bool) -> Copy3d {
        let src = Side {
            x: p.src_x_in_bytes as u64,
            y: p.src_y as u64,
            z: p.src_z as u64,
            lod: p.src_lod as u64,
            memory_type: p.src_memory_type,
            host: p.src_host as usize as u64,
            device: p.src_device,
            context: if peer { handle(p.src_context) } else { context },
            pitch: p.src_pitch as u64,
            height: p.src_height as u64,
        };
        let dst = Side {
            x: p.dst_x_in_bytes as u64,
            y: p.dst_y as u64,
            z: p.dst_z as u64,
            lod: p.dst_lod as u64,
            memory_type: p.dst_memory_type,
            host: p.dst_host as usize as u64,
            device: p.dst_device,
            context: if peer { handle(p.dst_context) } else { context },
            pitch: p.dst_pitch as u64,
            height: p.dst_height as u64,
        };
        Copy3d {
            src,
            dst,
            width: p.width_in_bytes as u64,
            height: p.height as u64,
            depth: p.depth as u64,
        }
    }

    /// Checks a side against the rules of `cuMemcpy3D`; its first byte's
    /// offset from its base and the bytes from there to the end of its last
    /// row. "The srcLOD and dstLOD members ... must be set to 0"; "If
    /// specified, srcPitch must be greater than or equal to WidthInBytes +
    /// srcXInBytes"; "If specified, srcHeight must be greater than or equal
    /// to Height + srcY" (a pitch of 0 is taken as not given when one row
    /// at row 0 is copied, a slice height of 0 when one slice at slice 0
    /// is); no pitch past `CU_DEVICE_ATTRIBUTE_MAX_PITCH`.
    fn footprint(&self, s: &Side) -> Result<(u64, u64), CUresult> {
        let bad = CUDA_ERROR_INVALID_VALUE;
        if s.lod != 0 || s.pitch > MAX_PITCH {
            return Err(bad);
        }
        let one_row = self.height <= 1 && self.depth <= 1 && s.y == 0 && s.z == 0;
        let pitch = if s.pitch == 0 && one_row {
            s.x + self.width
        } else {
            s.pitch
        };
        if pitch < s.x.checked_add(self.width).ok_or(bad)? {
            return Err(bad);
        }
        let one_slice = self.depth <= 1 && s.z == 0;
        if !one_slice && s.height < s.y.checked_add(self.height).ok_or(bad)? {
            return Err(bad);
        }
        let row = |z: u64, y: u64| -> Option<u64> {
            z.checked_mul(s.height)?
                .checked_add(y)?
                .checked_mul(pitch)?
                .checked_add(s.x)
        };
        let first = row(s.z, s.y).ok_or(bad)?;
        let last_z = s.z.checked_add(self.depth - 1).ok_or(bad)?;
        let last_y = s.y.checked_add(self.height - 1).ok_or(bad)?;
        let last = row(last_z, last_y).ok_or(bad)?;
        let end = last.checked_add(self.width).ok_or(bad)?;
        Ok((first, end - first))
    }

    /// The offsets of the rows of a side from its first byte, in the order
    /// both sides walk them (slice by slice, row by row).
    fn rows(&self, s: &Side) -> impl Iterator<Item = u64> + '_ {
        let one_row = self.height <= 1 && self.depth <= 1 && s.y == 0 && s.z == 0;
        let pitch = if s.pitch == 0 && one_row {
            s.x + self.width
        } else {
            s.pitch
        };
        let slice = s.height * pitch;
        (0..self.depth).flat_map(move |d| (0..self.height).map(move |r| d * slice + r * pitch))
    }
}

/// Where `len` bytes at the unified address `addr` lie: in a live device
/// allocation, or in a module variable of `context`, or else host memory.
/// A range that starts in an allocation and runs past it, that touches
/// device addresses without starting in device memory, or a null host
/// pointer, is `CUDA_ERROR_INVALID_VALUE` ("Memory regions spanning over
/// allocations that are both registered and not registered with CUDA are
/// not supported and will return CUDA_ERROR_INVALID_VALUE").
pub fn classify(d: &mut Driver, context: u64, addr: u64, len: u64) -> Result<Place, CUresult> {
    let n = len.max(1);
    if d.memory.find(addr, n).is_some() {
        return Ok(Place::Device(addr));
    }
    if d.memory.find(addr, 1).is_some() {
        return Err(CUDA_ERROR_INVALID_VALUE);
    }
    if d.device_bytes(context, addr, n).is_ok() {
        return Ok(Place::Device(addr));
    }
    host(d, addr, len)
}

/// A host range: not null, and clear of device memory (which the host
/// cannot read: its addresses are held with no access).
fn host(d: &Driver, addr: u64, len: u64) -> Result<Place, CUresult> {
    if addr == 0 || d.memory.touches_device(addr, len) || addr.checked_add(len).is_none() {
        return Err(CUDA_ERROR_INVALID_VALUE);
    }
    Ok(Place::Host(addr))
}

/// A side's place, its memory type resolved: "If srcMemoryType is
/// CU_MEMORYTYPE_UNIFIED, srcDevice and srcPitch specify the (unified
/// virtual address space) base address"; an array is
/// `CUDA_ERROR_NOT_SUPPORTED` (the library has none); a device range not
/// inside one live allocation (or module variable) is
/// `CUDA_ERROR_INVALID_VALUE`.
fn resolve(d: &mut Driver, s: &Side, first: u64, span: u64) -> Result<Place, CUresult> {
    let bad = CUDA_ERROR_INVALID_VALUE;
    match s.memory_type {
        memory_type::HOST => host(d, s.host.checked_add(first).ok_or(bad)?, span).and_then(|p| {
            if s.host == 0 {
                Err(bad)
            } else {
                Ok(p)
            }
        }),
        memory_type::DEVICE => {
            let a = s.device.checked_add(first).ok_or(bad)?;
            d.device_bytes(s.context, a, span.max(1))?;
            Ok(Place::Device(a))
        }
        memory_type::UNIFIED => {
            if s.device == 0 {
                return Err(bad);
            }
            classify(d, s.context, s.device.checked_add(first).ok_or(bad)?, span)
        }
        memory_type::ARRAY => Err(CUDA_ERROR_NOT_SUPPORTED),
        _ => Err(bad),
    }
}

/// The `len` bytes at `at`.
unsafe fn read(d: &mut Driver, context: u64, at: Place, len: u64) -> Result<Vec<u8>, CUresult> {
    match at {
        Place::Device(a) => Ok(d.device_bytes(context, a, len)?.to_vec()),
        Place::Host(a) => {
            let n = usize::try_from(len).map_err(|_| CUDA_ERROR_INVALID_VALUE)?;
            let mut v = Vec::new();
            v.try_reserve_exact(n)
                .map_err(|_| CUDA_ERROR_OUT_OF_MEMORY)?;
            v.extend_from_slice(std::slice::from_raw_parts(a as usize as *const u8, n));
            Ok(v)
        }
    }
}

/// Runs `f` on the `len` bytes at `at`.
unsafe fn write(
    d: &mut Driver,
    context: u64,
    at: Place,
    len: u64,
    f: impl FnOnce(&mut [u8]),
) -> Result<(), CUresult> {
    match at {
        Place::Device(a) => f(d.device_bytes(context, a, len)?),
        Place::Host(a) => {
            let n = usize::try_from(len).map_err(|_| CUDA_ERROR_INVALID_VALUE)?;
            f(std::slice::from_raw_parts_mut(a as usize as *mut u8, n))
        }
    }
    Ok(())
}

/// Performs a 2-D or 3-D copy: both sides checked and resolved, then the
/// source's rows read and written to the destination's rows. An extent of
/// 0 copies nothing (only the contexts and memory types are checked).
pub unsafe fn copy_3d(d: &mut Driver, c: &Copy3d) -> Result<(), CUresult> {
    for s in [&c.src, &c.dst] {
        d.check_context(s.context)?;
        if s.memory_type == memory_type::ARRAY {
            return Err(CUDA_ERROR_NOT_SUPPORTED);
        }
    }
    if c.width == 0 || c.height == 0 || c.depth == 0 {
        for s in [&c.src, &c.dst] {
            if !(memory_type::HOST..=memory_type::UNIFIED).contains(&s.memory_type) {
                return Err(CUDA_ERROR_INVALID_VALUE);
            }
        }
        return Ok(());
    }
    let (src_first, src_span) = c.footprint(&c.src)?;
    let (dst_first, dst_span) = c.footprint(&c.dst)?;
    let from = resolve(d, &c.src, src_first, src_span)?;
    let to = resolve(d, &c.dst, dst_first, dst_span)?;
    let source = read(d, c.src.context, from, src_span)?;
    let w = c.width as usize;
    let mut rows = Vec::new();
    rows.try_reserve_exact(w.saturating_mul(c.height.saturating_mul(c.depth) as usize))
        .map_err(|_| CUDA_ERROR_OUT_OF_MEMORY)?;
    for off in c.rows(&c.src) {
        let o = off as usize;
        rows.extend_from_slice(&source[o..o + w]);
    }
    drop(source);
    let offsets: Vec<u64> = c.rows(&c.dst).collect();
    write(d, c.dst.context, to, dst_span, |bytes| {
        for (k, off) in offsets.iter().enumerate() {
            let o = *off as usize;
            bytes[o..o + w].copy_from_slice(&rows[k * w..(k + 1) * w]);
        }
    })
}

/// `cuMemcpy`: `n` bytes between unified addresses, each side's memory
/// told by [`classify`] ("this function infers the type of the transfer
/// (host to host, host to device, device to device, or device to host)
/// from the pointer values").
pub unsafe fn copy_unified(
    d: &mut Driver,
    context: u64,
    dst: u64,
    src: u64,
    n: u64,
) -> Result<(), CUresult> {
    d.check_context(context)?;
    if n == 0 {
        return Ok(());
    }
    let from = classify(d, context, src, n)?;
    let to = classify(d, context, dst, n)?;
    let bytes = read(d, context, from, n)?;
    write(d, context, to, n, |b| b.copy_from_slice(&bytes))
}

/// `cuMemcpyPeer`: `n` bytes of device memory of `src_context` to device
/// memory of `dst_context`; either context not one of this driver's is
/// `CUDA_ERROR_INVALID_CONTEXT`.
pub fn copy_peer(
    d: &mut Driver,
    dst: u64,
    dst_context: u64,
    src: u64,
    src_context: u64,
    n: u64,
) -> Result<(), CUresult> {
    d.check_context(dst_context)?;
    d.check_context(src_context)?;
    if n == 0 {
        return Ok(());
    }
    let bytes = d.device_bytes(src_context, src, n)?.to_vec();
    d.device_bytes(dst_context, dst, n)?.copy_from_slice(&bytes);
    Ok(())
}

/// A 2-D fill (`cuMemsetD2D8/16/32`): `height` rows of `width` elements of
/// `size` bytes, `pitch` bytes apart, each `value`'s low bytes.
#[derive(Clone, Copy, Debug)]
pub struct Fill {
    pub dst: u64,
    pub pitch: u64,
    pub value: u32,
    pub size: u64,
    pub width: u64,
    pub height: u64,
}

/// Performs a [`Fill`]. "The dstDevice pointer and dstPitch offset must be
/// two byte aligned" (four for 32 bits); the pitch is "Unused if Height is
/// 1", and otherwise must hold a row; the rows must lie in one allocation.
pub fn memset_2d(d: &mut Driver, context: u64, f: &Fill) -> Result<(), CUresult> {
    let bad = CUDA_ERROR_INVALID_VALUE;
    d.check_context(context)?;
    let row = f.width.checked_mul(f.size).ok_or(bad)?;
    if !f.dst.is_multiple_of(f.size)
        || (f.height > 1 && (!f.pitch.is_multiple_of(f.size) || f.pitch < row))
    {
        return Err(bad);
    }
    if f.width == 0 || f.height == 0 {
        return Ok(());
    }
    let span = (f.height - 1)
        .checked_mul(f.pitch)
        .and_then(|s| s.checked_add(row))
        .ok_or(bad)?;
    let bytes = d.device_bytes(context, f.dst, span)?;
    let pattern = f.value.to_le_bytes();
    let n = f.size as usize;
    for r in 0..f.height {
        let start = (r * f.pitch) as usize;
        for chunk in bytes[start..start + row as usize].chunks_exact_mut(n) {
            chunk.copy_from_slice(&pattern[..n]);
        }
    }
    Ok(())
}

/// The context a stream's work runs in, failing with its sticky error.
fn stream_context(d: &Driver, stream: Handle) -> Result<u64, CUresult> {
    let c = d.stream_context(handle(stream))?;
    d.check_context(c)?;
    Ok(c)
}

unsafe fn memcpy_2d(p: *const CUDA_MEMCPY2D, stream: Handle) -> Result<(), CUresult> {
    state::with(|d| {
        let c = stream_context(d, stream)?;
        if p.is_null() {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        copy_3d(d, &Copy3d::from_2d(&p.read_unaligned(), c))
    })
}

unsafe fn memcpy_3d(p: *const CUDA_MEMCPY3D, stream: Handle, peer: bool) -> Result<(), CUresult> {
    state::with(|d| {
        let c = stream_context(d, stream)?;
        if p.is_null() {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        let copy = Copy3d::from_3d(&p.read_unaligned(), c, peer);
        if peer {
            for x in [copy.src.context, copy.dst.context] {
                if !d.contexts.contains_key(&x) {
                    return Err(CUDA_ERROR_INVALID_CONTEXT);
                }
            }
        }
        copy_3d(d, &copy)
    })
}

/// `cuMemcpy2D`: host, device and unified memory; arrays
/// `CUDA_ERROR_NOT_SUPPORTED`.
#[no_mangle]
pub unsafe extern "C" fn cuMemcpy2D_v2(p: *const CUDA_MEMCPY2D) -> CUresult {
    guard(|| memcpy_2d(p, std::ptr::null_mut()))
}

/// `cuMemcpy2DUnaligned`: as `cuMemcpy2D` (no pitch here needs to come
/// from `cuMemAllocPitch`).
#[no_mangle]
pub unsafe extern "C" fn cuMemcpy2DUnaligned_v2(p: *const CUDA_MEMCPY2D) -> CUresult {
    guard(|| memcpy_2d(p, std::ptr::null_mut()))
}

#[no_mangle]
pub unsafe extern "C" fn cuMemcpy2DAsync_v2(p: *const CUDA_MEMCPY2D, stream: Handle) -> CUresult {
    guard(|| memcpy_2d(p, stream))
}

/// `cuMemcpy3D`: host, device and unified memory; arrays
/// `CUDA_ERROR_NOT_SUPPORTED`.
#[no_mangle]
pub unsafe extern "C" fn cuMemcpy3D_v2(p: *const CUDA_MEMCPY3D) -> CUresult {
    guard(|| memcpy_3d(p, std::ptr::null_mut(), false))
}

#[no_mangle]
pub unsafe extern "C" fn cuMemcpy3DAsync_v2(p: *const CUDA_MEMCPY3D, stream: Handle) -> CUresult {
    guard(|| memcpy_3d(p, stream, false))
}

/// `cuMemcpy3DPeer`: as `cuMemcpy3D`, each side's device memory that of
/// its context (`srcContext`, `dstContext`), which must be one of this
/// driver's (`CUDA_ERROR_INVALID_CONTEXT`).
#[no_mangle]
pub unsafe extern "C" fn cuMemcpy3DPeer(p: *const CUDA_MEMCPY3D_PEER) -> CUresult {
    guard(|| memcpy_3d(p, std::ptr::null_mut(), true))
}

#[no_mangle]
pub unsafe extern "C" fn cuMemcpy3DPeerAsync(
    p: *const CUDA_MEMCPY3D_PEER,
    stream: Handle,
) -> CUresult {
    guard(|| memcpy_3d(p, stream, true))
}

unsafe fn memcpy(dst: u64, src: u64, n: usize, stream: Handle) -> Result<(), CUresult> {
    state::with(|d| {
        let c = stream_context(d, stream)?;
        copy_unified(d, c, dst, src, n as u64)
    })
}

/// `cuMemcpy`: between unified addresses ([`copy_unified`]).
#[no_mangle]
pub unsafe extern "C" fn cuMemcpy(dst: CUdeviceptr, src: CUdeviceptr, n: usize) -> CUresult {
    guard(|| memcpy(dst, src, n, std::ptr::null_mut()))
}

#[no_mangle]
pub unsafe extern "C" fn cuMemcpyAsync(
    dst: CUdeviceptr,
    src: CUdeviceptr,
    n: usize,
    stream: Handle,
) -> CUresult {
    guard(|| memcpy(dst, src, n, stream))
}

fn memcpy_peer(
    dst: u64,
    dst_context: Handle,
    src: u64,
    src_context: Handle,
    n: usize,
    stream: Handle,
) -> Result<(), CUresult> {
    state::with(|d| {
        stream_context(d, stream)?;
        copy_peer(
            d,
            dst,
            handle(dst_context),
            src,
            handle(src_context),
            n as u64,
        )
    })
}

/// `cuMemcpyPeer`: one device, so between two of its contexts ([`copy_peer`]).
#[no_mangle]
pub unsafe extern "C" fn cuMemcpyPeer(
    dst: CUdeviceptr,
    dst_context: Handle,
    src: CUdeviceptr,
    src_context: Handle,
    n: usize,
) -> CUresult {
    guard(|| memcpy_peer(dst, dst_context, src, src_context, n, std::ptr::null_mut()))
}

#[no_mangle]
pub unsafe extern "C" fn cuMemcpyPeerAsync(
    dst: CUdeviceptr,
    dst_context: Handle,
    src: CUdeviceptr,
    src_context: Handle,
    n: usize,
    stream: Handle,
) -> CUresult {
    guard(|| memcpy_peer(dst, dst_context, src, src_context, n, stream))
}

fn memset_d2d(
    dst: u64,
    pitch: usize,
    value: u32,
    size: u64,
    width: usize,
    height: usize,
    stream: Handle,
) -> Result<(), CUresult> {
    state::with(|d| {
        let c = stream_context(d, stream)?;
        let fill = Fill {
            dst,
            pitch: pitch as u64,
            value,
            size,
            width: width as u64,
            height: height as u64,
        };
        memset_2d(d, c, &fill)
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuMemsetD2D8_v2(
    dst: CUdeviceptr,
    pitch: usize,
    value: u8,
    width: usize,
    height: usize,
) -> CUresult {
    guard(|| {
        memset_d2d(
            dst,
            pitch,
            u32::from(value),
            1,
            width,
            height,
            std::ptr::null_mut(),
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuMemsetD2D16_v2(
    dst: CUdeviceptr,
    pitch: usize,
    value: u16,
    width: usize,
    height: usize,
) -> CUresult {
    guard(|| {
        memset_d2d(
            dst,
            pitch,
            u32::from(value),
            2,
            width,
            height,
            std::ptr::null_mut(),
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuMemsetD2D32_v2(
    dst: CUdeviceptr,
    pitch: usize,
    value: u32,
    width: usize,
    height: usize,
) -> CUresult {
    guard(|| memset_d2d(dst, pitch, value, 4, width, height, std::ptr::null_mut()))
}

#[no_mangle]
pub unsafe extern "C" fn cuMemsetD2D8Async(
    dst: CUdeviceptr,
    pitch: usize,
    value: u8,
    width: usize,
    height: usize,
    stream: Handle,
) -> CUresult {
    guard(|| memset_d2d(dst, pitch, u32::from(value), 1, width, height, stream))
}

#[no_mangle]
pub unsafe extern "C" fn cuMemsetD2D16Async(
    dst: CUdeviceptr,
    pitch: usize,
    value: u16,
    width: usize,
    height: usize,
    stream: Handle,
) -> CUresult {
    guard(|| memset_d2d(dst, pitch, u32::from(value), 2, width, height, stream))
}

#[no_mangle]
pub unsafe extern "C" fn cuMemsetD2D32Async(
    dst: CUdeviceptr,
    pitch: usize,
    value: u32,
    width: usize,
    height: usize,
    stream: Handle,
) -> CUresult {
    guard(|| memset_d2d(dst, pitch, value, 4, width, height, stream))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn side(x: u64, y: u64, z: u64, pitch: u64, height: u64) -> Side {
        Side {
            x,
            y,
            z,
            lod: 0,
            memory_type: memory_type::HOST,
            host: 0x1000,
            device: 0,
            context: 0,
            pitch,
            height,
        }
    }

    fn copy(src: Side, w: u64, h: u64, depth: u64) -> Copy3d {
        Copy3d {
            src,
            dst: src,
            width: w,
            height: h,
            depth,
        }
    }

    #[test]
    fn footprints_follow_the_documented_start_address() {
        // "Start = srcDevice+(srcZ*srcHeight+srcY)*srcPitch+srcXInBytes"
        let c = copy(side(3, 2, 1, 16, 8), 5, 4, 2);
        let (first, span) = c.footprint(&c.src).unwrap();
        assert_eq!(first, (8 + 2) * 16 + 3);
        // last row: slice 2, row 5
        assert_eq!(first + span, (2 * 8 + 5) * 16 + 3 + 5);
        let rows: Vec<u64> = c.rows(&c.src).collect();
        assert_eq!(rows, [0, 16, 32, 48, 128, 144, 160, 176]);
    }

    #[test]
    fn bad_pitches_and_heights_are_refused() {
        let bad = Err(CUDA_ERROR_INVALID_VALUE);
        let c = copy(side(4, 0, 0, 8, 0), 5, 2, 1);
        assert_eq!(c.footprint(&c.src), bad, "pitch < x + width");
        let c = copy(side(0, 1, 0, 8, 2), 4, 2, 2);
        assert_eq!(c.footprint(&c.src), bad, "height < y + Height");
        let c = copy(side(0, 0, 0, MAX_PITCH + 1, 0), 4, 2, 1);
        assert_eq!(c.footprint(&c.src), bad, "pitch past the maximum");
        let mut s = side(0, 0, 0, 8, 0);
        s.lod = 1;
        let c = copy(s, 4, 2, 1);
        assert_eq!(c.footprint(&c.src), bad, "LOD not 0");
        // one row at row 0: the pitch is not needed
        let c = copy(side(0, 0, 0, 0, 0), 4, 1, 1);
        assert_eq!(c.footprint(&c.src), Ok((0, 4)));
        let c = copy(side(0, u64::MAX / 2, 0, 8, 0), 4, 2, 1);
        assert_eq!(c.footprint(&c.src), bad, "overflow");
    }
}
