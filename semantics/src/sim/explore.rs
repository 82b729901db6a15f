//! Every schedule of a launch's asynchronous operations, by running it
//! again with each sequence of choices ([`Schedule::Script`]) in turn,
//! depth first: a run reports the choices it met, and the next run takes
//! the last choice that still has an untried option.

use super::launch::{Launch, LaunchError, Outcome, Schedule};
use super::program::Program;

/// How an exploration ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Explored {
    /// Runs made (one schedule each).
    pub runs: u64,
    /// Whether every schedule was visited (false: the limit stopped it).
    pub complete: bool,
}

/// Runs `launch` once per schedule, at most `limit` times, calling `visit`
/// with each outcome.
pub fn explore(
    prog: &Program,
    launch: &Launch,
    limit: u64,
    mut visit: impl FnMut(&Outcome),
) -> Result<Explored, LaunchError> {
    let mut l = launch.clone();
    let mut prefix: Vec<u16> = Vec::new();
    let mut runs = 0u64;
    loop {
        l.schedule = Schedule::Script(prefix.clone());
        let o = super::run(prog, &l)?;
        runs += 1;
        visit(&o);
        let Some(i) = o.choices.iter().rposition(|&(c, n)| c + 1 < n) else {
            return Ok(Explored {
                runs,
                complete: true,
            });
        };
        if runs >= limit {
            return Ok(Explored {
                runs,
                complete: false,
            });
        }
        prefix = o.choices[..i].iter().map(|c| c.0).collect();
        prefix.push(o.choices[i].0 + 1);
    }
}
