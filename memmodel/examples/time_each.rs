//! Times each test of a litmus CSV (a profiling aid) and prints the slowest:
//! `cargo run --release -p ptx-memmodel --example time_each -- CSV [ptx7.5|ptx6.0]`
use std::time::Instant;
fn main() {
    let mut args = std::env::args().skip(1);
    let csv = args.next().expect("CSV path");
    let model = ptx_memmodel::Model::parse(&args.next().unwrap_or("ptx7.5".into())).expect("model");
    let dir = std::path::Path::new(&csv)
        .parent()
        .expect("dir")
        .to_path_buf();
    let mut times = Vec::new();
    let all = Instant::now();
    for line in std::fs::read_to_string(&csv)
        .expect("csv")
        .lines()
        .filter(|l| !l.is_empty())
    {
        let path = line.rsplit_once(',').expect("row").0;
        let test = ptx_litmus::parse(&std::fs::read_to_string(dir.join(path)).expect("read"))
            .expect("parse");
        let t = Instant::now();
        let v = ptx_memmodel::check(&test, model).expect("check");
        times.push((t.elapsed().as_secs_f64(), path.to_string(), v.candidates));
    }
    times.sort_by(|a, b| b.0.total_cmp(&a.0));
    for (t, p, c) in times.iter().take(15) {
        println!("{t:8.4}s {c:>9} {p}");
    }
    println!("total {:.3}s", all.elapsed().as_secs_f64());
}
