//! What the suite tests share: running a built group on the simulator as
//! `conform run --impl simulator` does.

use ptx_gen::suite::Built;
use ptx_semantics::sim::{prepare, run, Arg, Launch, Schedule, WindowProfile};

/// The output buffer under `schedule` (buffers placed by the simulator,
/// `out` filled with 0xA5 first, as `conform run` does); an error for a
/// stopped thread, an undefined result, or an unspecified byte the
/// group's mask does not free.
pub fn simulate(b: &Built, schedule: Schedule) -> Result<Vec<u8>, String> {
    let g = &b.group;
    let module = ptx_semantics::ptx::parse(&b.ptx).map_err(|e| e.to_string())?;
    let prog = prepare(&module, &g.entry, &WindowProfile::SM90).map_err(|e| e.to_string())?;
    let mut args = vec![
        Arg::Buffer {
            addr: None,
            bytes: b.input.clone(),
        },
        Arg::Buffer {
            addr: None,
            bytes: vec![0xa5; g.output_bytes()],
        },
    ];
    for t in &g.tensor_maps {
        use ptx_semantics::tensor::{Base, MapText};
        let m = MapText::parse(t).map_err(|e| e.to_string())?;
        let buffer = match &m.base {
            Base::Named(n) if n == "in" => 0,
            Base::Named(n) if n == "out" => 1,
            _ => return Err(format!("tensor map `{t}`: base not in or out")),
        };
        args.push(Arg::TensorMap {
            map: m.map,
            buffer: Some(buffer),
            offset: m.offset,
        });
    }
    let mut launch = Launch::new(g.grid, g.block, args);
    launch.cluster = Some(g.cluster);
    launch.schedule = schedule;
    let out = run(&prog, &launch).map_err(|e| e.to_string())?;
    if let Some(r) = out.reports.iter().chain(&out.undefined_results).next() {
        return Err(format!(
            "{} report(s); the first at `{}`: {:?} {}",
            out.reports.len() + out.undefined_results.len(),
            r.instruction,
            r.kind,
            r.note
        ));
    }
    let out = out.buffers.into_iter().nth(1).ok_or("no output buffer")?;
    if let Some(k) = out.unspecified.iter().position(|&u| u != 0) {
        if b.mask.get(k).copied().unwrap_or(0) == 0 {
            return Err(format!("byte {k} of `out` is unspecified"));
        }
    }
    Ok(out.bytes)
}
