//! Prints the value domains and trace counts of one test (a profiling aid).
use std::time::Instant;
fn main() {
    let path = std::env::args().nth(1).expect("litmus file");
    let test = ptx_litmus::parse(&std::fs::read_to_string(path).expect("read")).expect("parse");
    let p = ptx_memmodel::Program::new(&test, ptx_memmodel::Model::Ptx75).expect("program");
    let t = Instant::now();
    let d = ptx_memmodel::search::value_domains(&p).expect("domains");
    println!("domains {:?} in {:?}", d, t.elapsed());
    for th in 0..test.threads.len() {
        let t = Instant::now();
        let tr = ptx_memmodel::thread::traces(&p, th, &d).expect("traces");
        println!("thread {th}: {} traces in {:?}", tr.len(), t.elapsed());
    }
}
