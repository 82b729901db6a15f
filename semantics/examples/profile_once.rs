//! Parses and checks one file once on one thread (for profilers).
fn main() {
    let path = std::env::args().nth(1).expect("a PTX file");
    let src = std::fs::read_to_string(path).expect("readable");
    let m = ptx_semantics::ptx::parse(&src).expect("parses");
    let opts = ptx_semantics::check::Options {
        threads: Some(1),
        ..Default::default()
    };
    let d = ptx_semantics::check::check_module(&m, &opts);
    println!("{} findings", d.len());
}
