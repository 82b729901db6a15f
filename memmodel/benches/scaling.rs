//! How the search time grows with threads and memory events per thread, on
//! generated tests: thread i alternates relaxed stores and loads at gpu
//! scope over a ring of locations, and the condition asks for final memory
//! values no execution has, so every candidate execution is visited (the
//! worst case: nothing prunes early). Median of several runs per size.
//!
//!     cargo bench -p ptx-memmodel --bench scaling

use std::time::{Duration, Instant};

fn generate(threads: usize, events: usize) -> String {
    let mut s = String::from("PTX scaling\n{\n");
    for l in 0..threads {
        s.push_str(&format!("x{l} = 0;\n"));
    }
    s.push_str("}\n");
    let mut cols: Vec<Vec<String>> = Vec::new();
    for i in 0..threads {
        let mut col = vec![format!("P{i}@cta {i},gpu 0")];
        for k in 0..events {
            let loc = (i + k / 2 + k % 2) % threads;
            col.push(if k % 2 == 0 {
                format!("st.relaxed.gpu x{loc}, {}", i + 1)
            } else {
                format!("ld.relaxed.gpu r{k}, x{loc}")
            });
        }
        cols.push(col);
    }
    for row in 0..=events {
        let cells: Vec<String> = cols.iter().map(|c| format!(" {:<24}", c[row])).collect();
        s.push_str(&format!("{};\n", cells.join("|")));
    }
    // Some thread writes every location, so no location ends with 0.
    let cond: Vec<String> = (0..threads).map(|l| format!("x{l} == 0")).collect();
    s.push_str(&format!("exists ({})\n", cond.join(" /\\ ")));
    s
}

fn main() {
    println!(
        "{:>7} {:>13} {:>7} {:>12} {:>12}",
        "threads", "events/thread", "events", "candidates", "median"
    );
    for threads in 2..=4 {
        for events in 2..=4 {
            let test =
                ptx_litmus::parse(&generate(threads, events)).expect("generated test parses");
            let mut times: Vec<Duration> = Vec::new();
            let mut candidates = 0;
            let runs = 5;
            for _ in 0..runs {
                let t = Instant::now();
                let v = ptx_memmodel::check(&test, ptx_memmodel::Model::Ptx75).expect("decides");
                times.push(t.elapsed());
                assert!(!v.holds, "the condition is unreachable by construction");
                candidates = v.candidates;
            }
            times.sort();
            println!(
                "{threads:>7} {events:>13} {:>7} {candidates:>12} {:>9.2} ms",
                threads * events,
                times[runs / 2].as_secs_f64() * 1e3
            );
        }
    }
}
