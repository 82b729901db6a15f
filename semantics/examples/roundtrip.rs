fn main() {
    let path = std::env::args().nth(1).expect("path");
    let src = std::fs::read_to_string(&path).unwrap();
    match ptx_semantics::ptx::parse(&src) {
        Ok(m) => {
            let printed = ptx_semantics::ptx::print(&m);
            println!("{printed}");
            let m2 = ptx_semantics::ptx::parse(&printed).unwrap();
            assert_eq!(m, m2);
            eprintln!("roundtrip ok");
        }
        Err(e) => {
            let (l, c) = ptx_semantics::ptx::line_col(&src, e.at);
            eprintln!("{path}:{l}:{c}: {}", e.message);
        }
    }
}
