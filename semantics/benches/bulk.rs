//! The simulator's throughput for bulk traffic (issue 14): one CTA moves
//! 64 MiB global -> shared -> global through `cp.async.bulk` in 16 KiB tiles
//! (examples/async/bulk_round_trip.ptx: a copy into shared memory that
//! completes on an mbarrier, then a copy out in a bulk group), under the
//! eager and the late schedule. Bytes/s counts the bytes moved from source
//! to destination (64 MiB a run; each byte goes through shared memory, so
//! the model copies it twice). The buffers are moved into the run
//! (`sim::run_owned`); the launch alone is timed too. The output is checked
//! against the input.
//!
//! `cargo bench -p ptx-semantics --bench bulk [-- --mib N]`

use ptx_semantics::ptx::parse;
use ptx_semantics::sim::{self, Arg, Launch, Schedule, WindowProfile};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mib: usize = args
        .iter()
        .position(|a| a == "--mib")
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(64);
    let src = include_str!("../../examples/async/bulk_round_trip.ptx");
    let module = parse(src).expect("the example parses");
    let prog = sim::prepare(&module, "round_trip", &WindowProfile::SM90).expect("it loads");
    let bytes = mib << 20;
    let input: Vec<u8> = (0..bytes).map(|i| (i * 131 + 7) as u8).collect();
    let tiles = (bytes / 16384) as u32;
    // the launch alone: buffers placed and returned, no tile moved
    let mut setup = f64::MAX;
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
                    bytes: vec![0; bytes],
                },
                Arg::u32(0),
            ],
        );
        let t = Instant::now();
        sim::run_owned(&prog, launch).expect("it runs");
        setup = setup.min(t.elapsed().as_secs_f64());
    }
    println!("the launch alone (buffers in and out, no tile): {setup:.3} s");
    for (name, schedule) in [("eager", Schedule::Eager), ("late", Schedule::Late)] {
        let mut best = f64::MAX;
        for _ in 0..3 {
            let mut launch = Launch::new(
                [1, 1, 1],
                [1, 1, 1],
                vec![
                    Arg::Buffer {
                        addr: None,
                        bytes: input.clone(),
                    },
                    // a destination the program owns (its pages touched)
                    Arg::Buffer {
                        addr: None,
                        bytes: vec![0xa5; bytes],
                    },
                    Arg::u32(tiles),
                ],
            );
            launch.schedule = schedule.clone();
            let t = Instant::now();
            let o = sim::run_owned(&prog, launch).expect("it runs");
            let s = t.elapsed().as_secs_f64();
            assert!(o.reports.is_empty(), "{:?}", o.reports);
            assert!(o.buffers[1].bytes == input, "the output differs");
            best = best.min(s);
        }
        println!(
            "bulk round trip, {name:5}: {mib} MiB in {tiles} tiles of 16 KiB: {best:.3} s, {:.2} GB/s of the model",
            bytes as f64 / best / 1e9
        );
    }
}
