//! The simulator's throughput for tensor copies (issue 16): one CTA moves a
//! 2-D f32 tensor (64 MiB by default) global -> shared -> global through
//! `cp.async.bulk.tensor` in 32 x 64 boxes with the 128-byte swizzle
//! (examples/async/tensor_round_trip.ptx: a tiled load completing on an
//! mbarrier, then a tiled store of the box in a bulk group), under the
//! eager schedule. Bytes/s counts the bytes moved from source to
//! destination (each byte goes through shared memory). The output is
//! checked against the input.
//!
//! `cargo bench -p ptx-semantics --bench tensor [-- --mib N]`

use ptx_semantics::ptx::parse;
use ptx_semantics::sim::{self, Arg, Launch, WindowProfile};
use ptx_semantics::tensor::{DataType, Swizzle, TensorMap};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mib: usize = args
        .iter()
        .position(|a| a == "--mib")
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(64);
    let src = include_str!("../../examples/async/tensor_round_trip.ptx");
    let module = parse(src).expect("the example parses");
    let prog = sim::prepare(&module, "round_trip", &WindowProfile::SM90).expect("it loads");
    // 1024 f32 columns (4 KiB rows), as many rows as the size asks
    let (cols, row_bytes) = (1024u64, 4096usize);
    let bytes = (mib << 20) / row_bytes * row_bytes;
    let rows = (bytes / row_bytes) as u64;
    let input: Vec<u8> = (0..bytes).map(|i| (i * 131 + 7) as u8).collect();
    let map = TensorMap {
        data_type: DataType::F32,
        rank: 2,
        global_dims: [cols, rows, 1, 1, 1],
        global_strides: [row_bytes as u64, 0, 0, 0],
        box_dims: [32, 64, 1, 1, 1],
        swizzle: Swizzle::B128,
        ..TensorMap::default()
    };
    let mut best = f64::MAX;
    for _ in 0..3 {
        let launch = Launch::new(
            [1, 1, 1],
            [1, 1, 1],
            vec![
                Arg::Buffer {
                    addr: None,
                    bytes: input.clone(),
                },
                Arg::Buffer {
                    addr: None,
                    bytes: vec![0xa5; bytes],
                },
                Arg::TensorMap {
                    map,
                    buffer: Some(0),
                    offset: 0,
                },
                Arg::TensorMap {
                    map,
                    buffer: Some(1),
                    offset: 0,
                },
                Arg::u32((cols / 32) as u32),
                Arg::u32((rows / 64) as u32),
            ],
        );
        let t = Instant::now();
        let o = sim::run_owned(&prog, launch).expect("it runs");
        let s = t.elapsed().as_secs_f64();
        assert!(o.reports.is_empty(), "{:?}", o.reports);
        let moved = (rows / 64 * 64) as usize * row_bytes;
        assert!(
            o.buffers[1].bytes[..moved] == input[..moved],
            "the output differs"
        );
        best = best.min(s);
    }
    let moved = (rows / 64 * 64) as f64 * row_bytes as f64;
    println!(
        "2-D tiled load + store, 128-byte swizzle, {:.0} MiB: best of 3 {best:.3} s, {:.0} MB/s",
        moved / (1 << 20) as f64,
        moved / best / 1e6
    );
}
