//! [`Cuda`] in a child process, `conform cuda-worker`, that is replaced
//! after a fault or a timeout. Both spoil more than the group that caused
//! them: after a fault in a kernel, driver 580 refuses even a new context
//! in the same process (`cuCtxCreate` returns the fault's error), and a
//! kernel that never ends cannot be stopped from its own process. Both end
//! with the process, so the groups after them run in a new worker.
//! Several workers run at once, each with its own context, so that the
//! driver's JIT, which takes most of a run's time, runs on several cores.
//!
//! The worker reads jobs on standard input and answers on standard output,
//! each message one JSON line followed by the raw bytes it announces: one
//! group, or a batch, which it JIT-compiles first and then runs group by
//! group.

use super::Cuda;
use crate::run::impls::{Detection, Implementation, Job, RunError};
use ptx_gen::suite::manifest::Group;
use ptx_reports::Implementation as Info;
use serde::{Deserialize, Serialize};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

/// How long a worker may take to start (load the driver, make a context,
/// JIT the target probes).
const START: Duration = Duration::from_secs(120);
/// How much longer than the job's timeout the parent waits for an answer
/// before it ends the worker itself (the worker keeps the timeout, and
/// answers, unless the driver hangs in a call).
const GRACE: Duration = Duration::from_secs(10);

/// What the runner asks a worker.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Request {
    /// One group, followed by `ptx_bytes` of PTX text and `input_bytes` of
    /// input.
    One(Box<Item>),
    /// Several groups ([`Cuda::run_batch`]), followed by each item's PTX
    /// text and input in turn. The worker says `Compiled` once their
    /// kernels are JIT-compiled, then answers each group in order.
    Batch {
        items: Vec<Item>,
        per_module: usize,
        jit_threads: usize,
    },
}

/// A group of a request.
#[derive(Serialize, Deserialize)]
struct Item {
    group: Group,
    ptx_path: String,
    timeout_s: f64,
    ptx_bytes: usize,
    input_bytes: usize,
}

impl Item {
    fn of(job: &Job) -> Item {
        Item {
            group: job.group.clone(),
            ptx_path: job.ptx_path.display().to_string(),
            timeout_s: job.timeout.as_secs_f64(),
            ptx_bytes: job.ptx.len(),
            input_bytes: job.input.len(),
        }
    }
}

/// The worker's messages.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Reply {
    /// First, once the driver is open.
    Ready(Info),
    /// The kernels of a batch are JIT-compiled; the groups' answers follow.
    Compiled,
    /// The output buffer, `bytes` long, follows.
    Output { bytes: usize },
    /// The group could not run; with `exiting`, the worker's context is
    /// lost and it ends after this message.
    Error { message: String, exiting: bool },
}

/// How `conform run --impl cuda` spreads the groups.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Worker processes at most, each with a context of its own, running
    /// at once.
    pub workers: usize,
    /// Kernels JIT-compiled as one module; 1: every group alone, as
    /// [`Request::One`].
    pub per_module: usize,
    /// Threads each worker JIT-compiles a batch's modules on.
    pub jit_threads: usize,
}

impl Options {
    /// Groups handed to a worker at once: a module's worth for each JIT
    /// thread.
    fn batch(&self) -> usize {
        if self.per_module <= 1 {
            1
        } else {
            self.per_module * self.jit_threads.max(1)
        }
    }
}

/// Runs groups through [`Cuda`] in `PROGRAM cuda-worker` child processes,
/// up to [`Options::workers`] at once.
pub struct Isolated {
    program: PathBuf,
    libcuda: Option<PathBuf>,
    device: usize,
    options: Options,
    info: Info,
    pool: Mutex<Pool>,
    /// Signalled when a worker is given back.
    back: Condvar,
}

/// The workers.
struct Pool {
    /// Started and waiting for work.
    idle: Vec<Worker>,
    /// Started and not ended: idle, or running a group.
    live: usize,
    /// A worker could not start while others ran: no more are started
    /// while any lives.
    full: bool,
    /// Why no group can run (no worker runs, and a new one could not be
    /// started).
    stopped: Option<String>,
}

/// One child process and the messages read from it.
struct Worker {
    child: Child,
    stdin: ChildStdin,
    replies: Receiver<Result<(Reply, Vec<u8>), String>>,
}

impl Isolated {
    /// Starts `program cuda-worker [--libcuda PATH] --device N` (`program`
    /// is normally this `conform`); its error when the driver cannot be
    /// opened. More workers start as groups come, up to
    /// `options.workers`.
    pub fn start(
        program: &Path,
        libcuda: Option<&Path>,
        device: usize,
        options: Options,
    ) -> Result<Isolated, String> {
        let (worker, mut info) = Worker::start(program, libcuda, device)?;
        let options = Options {
            workers: options.workers.max(1),
            per_module: options.per_module.max(1),
            jit_threads: options.jit_threads.max(1),
        };
        info.details.insert(
            "process".into(),
            format!(
                "groups run in `conform cuda-worker` children ({} at most), each replaced after \
                 a fault or a timeout",
                options.workers
            ),
        );
        info.details.insert(
            "jit".into(),
            if options.per_module > 1 {
                format!(
                    "up to {} groups' kernels a module, {} JIT thread(s) a worker",
                    options.per_module, options.jit_threads
                )
            } else {
                "one module a group".into()
            },
        );
        Ok(Isolated {
            program: program.to_path_buf(),
            libcuda: libcuda.map(Path::to_path_buf),
            device,
            options,
            info,
            pool: Mutex::new(Pool {
                idle: vec![worker],
                live: 1,
                full: false,
                stopped: None,
            }),
            back: Condvar::new(),
        })
    }

    /// An idle worker, a new one, or the next to come back.
    fn take(&self) -> Result<Worker, RunError> {
        let mut p = self.pool.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if let Some(why) = &p.stopped {
                return Err(RunError(why.clone()));
            }
            if let Some(w) = p.idle.pop() {
                return Ok(w);
            }
            if p.live == 0 || (p.live < self.options.workers && !p.full) {
                p.live += 1;
                drop(p);
                let started = Worker::start(&self.program, self.libcuda.as_deref(), self.device);
                p = self.pool.lock().unwrap_or_else(|e| e.into_inner());
                match started {
                    Ok((w, _)) => return Ok(w),
                    Err(e) => {
                        p.live -= 1;
                        if p.live == 0 {
                            p.stopped = Some(format!("not run: no new CUDA worker ({e})"));
                            self.back.notify_all();
                            return Err(RunError(format!(
                                "no new CUDA worker could be started: {e}"
                            )));
                        }
                        p.full = true;
                        continue;
                    }
                }
            }
            p = self.back.wait(p).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Gives a worker back (`None`: it ended).
    fn give(&self, worker: Option<Worker>) {
        let mut p = self.pool.lock().unwrap_or_else(|e| e.into_inner());
        match worker {
            Some(w) => p.idle.push(w),
            None => p.live -= 1,
        }
        self.back.notify_one();
    }
}

impl Implementation for Isolated {
    fn info(&self) -> Info {
        self.info.clone()
    }

    fn run_undefined(&self, job: &Job) -> Result<Detection, RunError> {
        super::detection(self.run(job))
    }

    fn run(&self, job: &Job) -> Result<Vec<u8>, RunError> {
        let worker = self.take()?;
        let (result, keep) = worker.job(job);
        self.give(keep);
        result.map_err(RunError)
    }

    fn batch(&self) -> usize {
        self.options.batch()
    }

    /// The batch in one worker ([`Cuda::run_batch`]); when the worker ends
    /// before every group is answered, the rest run one by one, as
    /// [`Implementation::run`] runs them (a module each).
    fn run_batch(&self, jobs: &[Job]) -> Vec<Result<Vec<u8>, RunError>> {
        let mut out = Vec::with_capacity(jobs.len());
        if jobs.len() > 1 {
            match self.take() {
                Ok(worker) => {
                    let (answers, keep) = worker.batch(jobs, &self.options);
                    self.give(keep);
                    out.extend(answers.into_iter().map(|r| r.map_err(RunError)));
                }
                Err(e) => out.push(Err(e)),
            }
        }
        for job in &jobs[out.len()..] {
            out.push(self.run(job));
        }
        out
    }
}

impl Drop for Isolated {
    fn drop(&mut self) {
        let p = self.pool.get_mut().unwrap_or_else(|e| e.into_inner());
        // all at once: each closes its input, then each is waited for
        let ending: Vec<Child> = p.idle.drain(..).map(Worker::close).collect();
        for child in ending {
            wait_or_kill(child);
        }
    }
}

impl Worker {
    /// Starts a worker and waits for its `Ready`.
    fn start(
        program: &Path,
        libcuda: Option<&Path>,
        device: usize,
    ) -> Result<(Worker, Info), String> {
        let mut cmd = std::process::Command::new(program);
        cmd.arg("cuda-worker")
            .arg("--device")
            .arg(device.to_string());
        if let Some(l) = libcuda {
            cmd.arg("--libcuda").arg(l);
        }
        cmd.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        #[cfg(unix)]
        {
            // its own process group: Ctrl-C stops the runner, which then
            // ends the worker after the group in flight
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("{} cuda-worker: {e}", program.display()))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err("the worker's pipes are missing".into());
        };
        let (send, replies) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut from = BufReader::new(stdout);
            loop {
                let message = read_reply(&mut from);
                let end = message.is_err();
                if send.send(message).is_err() || end {
                    break;
                }
            }
        });
        let worker = Worker {
            child,
            stdin,
            replies,
        };
        match worker.replies.recv_timeout(START) {
            Ok(Ok((Reply::Ready(info), _))) => Ok((worker, info)),
            Ok(Ok((Reply::Error { message, .. }, _))) => {
                worker.end();
                Err(message)
            }
            Ok(Ok(_)) => {
                worker.kill();
                Err("the CUDA worker did not begin with `ready`".into())
            }
            Ok(Err(e)) => {
                let status = worker.kill();
                Err(format!("the CUDA worker ended ({status}): {e}"))
            }
            Err(_) => {
                let status = worker.kill();
                Err(format!(
                    "the CUDA worker did not answer within {} s ({status})",
                    START.as_secs()
                ))
            }
        }
    }

    /// Runs one job; the worker back when it can take the next.
    fn job(mut self, job: &Job) -> (Result<Vec<u8>, String>, Option<Worker>) {
        let request = Request::One(Box::new(Item::of(job)));
        let sent = self.send(&request, std::slice::from_ref(job));
        if let Err(e) = sent {
            let status = self.kill();
            return (
                Err(format!(
                    "the CUDA worker ended ({status}) before the job: {e}"
                )),
                None,
            );
        }
        self.answer(job)
    }

    /// Runs a batch (`Request::Batch`): the answers of the groups answered,
    /// in order (all of them, unless the worker ended first), and the
    /// worker back when it can take the next. A worker that ends before
    /// saying `Compiled` answers none.
    fn batch(
        mut self,
        jobs: &[Job],
        options: &Options,
    ) -> (Vec<Result<Vec<u8>, String>>, Option<Worker>) {
        let request = Request::Batch {
            items: jobs.iter().map(Item::of).collect(),
            per_module: options.per_module,
            jit_threads: options.jit_threads,
        };
        if self.send(&request, jobs).is_err() {
            self.kill();
            return (Vec::new(), None);
        }
        // the JIT of the whole batch, allowed the longest timeout of one
        // group (today's run counts a group's JIT in its timeout)
        let timeout = jobs.iter().map(|j| j.timeout).max().unwrap_or_default();
        match self.replies.recv_timeout(timeout + GRACE) {
            Ok(Ok((Reply::Compiled, _))) => {}
            _ => {
                self.kill();
                return (Vec::new(), None);
            }
        }
        let mut answers = Vec::with_capacity(jobs.len());
        let mut worker = self;
        for job in jobs {
            let (r, keep) = worker.answer(job);
            answers.push(r);
            match keep {
                Some(w) => worker = w,
                None => return (answers, None),
            }
        }
        (answers, Some(worker))
    }

    /// Writes a request and the PTX text and input of its jobs.
    fn send(&mut self, request: &Request, jobs: &[Job]) -> Result<(), String> {
        let line = serde_json::to_string(request).map_err(|e| e.to_string())?;
        let w = &mut self.stdin;
        let mut wrote = w
            .write_all(line.as_bytes())
            .and_then(|_| w.write_all(b"\n"));
        for job in jobs {
            wrote = wrote
                .and_then(|_| w.write_all(job.ptx.as_bytes()))
                .and_then(|_| w.write_all(job.input));
        }
        wrote.and_then(|_| w.flush()).map_err(|e| e.to_string())
    }

    /// Waits for the answer of `job`; the worker back when it can take the
    /// next group.
    fn answer(self, job: &Job) -> (Result<Vec<u8>, String>, Option<Worker>) {
        let expected = job.group.output_bytes();
        match self.replies.recv_timeout(job.timeout + GRACE) {
            Ok(Ok((Reply::Output { .. }, bytes))) if bytes.len() == expected => {
                (Ok(bytes), Some(self))
            }
            Ok(Ok((Reply::Output { bytes }, _))) => (
                Err(format!(
                    "the worker sent {bytes} bytes, expected {expected}"
                )),
                Some(self),
            ),
            Ok(Ok((Reply::Error { message, exiting }, _))) if exiting => {
                self.end();
                (
                    Err(format!(
                        "{message}; its worker process ended, and the next groups run in a new one"
                    )),
                    None,
                )
            }
            Ok(Ok((Reply::Error { message, .. }, _))) => (Err(message), Some(self)),
            Ok(Ok((Reply::Ready(_), _))) => {
                self.kill();
                (Err("the worker sent `ready` again".into()), None)
            }
            Ok(Ok((Reply::Compiled, _))) => {
                self.kill();
                (Err("the worker sent `compiled` out of turn".into()), None)
            }
            Err(RecvTimeoutError::Timeout) => {
                self.kill();
                (
                    Err(format!(
                        "no answer within the timeout ({} s) and {} s more; its worker process \
                         was killed, and the next groups run in a new one",
                        job.timeout.as_secs_f64(),
                        GRACE.as_secs()
                    )),
                    None,
                )
            }
            Ok(Err(e)) => {
                let status = self.kill();
                (Err(format!("the CUDA worker died ({status}): {e}")), None)
            }
            Err(RecvTimeoutError::Disconnected) => {
                let status = self.kill();
                (Err(format!("the CUDA worker died ({status})")), None)
            }
        }
    }

    /// Closes its input, so that it exits; kills it if it has not within
    /// a few seconds.
    fn end(self) {
        wait_or_kill(self.close());
    }

    /// Closes its input, so that it exits; the process to wait for.
    fn close(self) -> Child {
        let Worker { child, stdin, .. } = self;
        drop(stdin);
        child
    }

    /// Kills it; how it ended.
    fn kill(mut self) -> String {
        if let Ok(Some(s)) = self.child.try_wait() {
            return s.to_string();
        }
        let _ = self.child.kill();
        self.child
            .wait()
            .map_or_else(|e| e.to_string(), |s| s.to_string())
    }
}

/// Waits a few seconds for a worker whose input is closed to exit; kills
/// it if it has not.
fn wait_or_kill(mut child: Child) {
    let t = Instant::now();
    while t.elapsed() < Duration::from_secs(5) {
        if let Ok(Some(_)) = child.try_wait() {
            return;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// One message: its JSON line and the bytes it announces.
fn read_reply(from: &mut impl BufRead) -> Result<(Reply, Vec<u8>), String> {
    let mut line = String::new();
    match from.read_line(&mut line) {
        Ok(0) => return Err("it closed its output".into()),
        Ok(_) => {}
        Err(e) => return Err(e.to_string()),
    }
    let reply: Reply =
        serde_json::from_str(&line).map_err(|e| format!("a message that is not JSON ({e})"))?;
    let mut bytes = Vec::new();
    if let Reply::Output { bytes: n } = reply {
        bytes.resize(n, 0);
        from.read_exact(&mut bytes).map_err(|e| e.to_string())?;
    }
    Ok((reply, bytes))
}

/// `conform cuda-worker`: opens the driver, says `Ready`, then runs jobs
/// from standard input until it closes, or until a fault or a timeout
/// spoils the context (then it answers and exits). Exit codes: 0 input
/// closed or context lost, 2 the driver could not be opened.
pub fn serve(libcuda: Option<&Path>, device: usize) -> std::process::ExitCode {
    let mut out = std::io::stdout().lock();
    let cuda = match Cuda::open(libcuda, device) {
        Ok(c) => c,
        Err(message) => {
            let _ = send(
                &mut out,
                &Reply::Error {
                    message,
                    exiting: true,
                },
                &[],
            );
            return std::process::ExitCode::from(2);
        }
    };
    if send(&mut out, &Reply::Ready(cuda.info()), &[]).is_err() {
        return std::process::ExitCode::SUCCESS;
    }
    let mut input = BufReader::new(std::io::stdin().lock());
    // a kernel may still run: leave it to the process's end, which stops
    // it, rather than to the context's destruction, which would wait for it
    let leave = || std::process::exit(0);
    loop {
        let mut line = String::new();
        if !matches!(input.read_line(&mut line), Ok(n) if n > 0) {
            return std::process::ExitCode::SUCCESS;
        }
        let Ok(r) = serde_json::from_str::<Request>(&line) else {
            return std::process::ExitCode::from(2);
        };
        let (items, batch) = match r {
            Request::One(item) => (vec![*item], None),
            Request::Batch {
                items,
                per_module,
                jit_threads,
            } => (items, Some((per_module, jit_threads))),
        };
        let mut texts = Vec::with_capacity(items.len());
        for item in &items {
            let mut ptx = vec![0; item.ptx_bytes];
            let mut data = vec![0; item.input_bytes];
            if input.read_exact(&mut ptx).is_err() || input.read_exact(&mut data).is_err() {
                return std::process::ExitCode::from(2);
            }
            let ptx = String::from_utf8_lossy(&ptx).into_owned();
            texts.push((ptx, PathBuf::from(&item.ptx_path), data));
        }
        let jobs: Vec<Job> = items
            .iter()
            .zip(&texts)
            .map(|(item, (ptx, ptx_path, data))| Job {
                group: &item.group,
                ptx,
                ptx_path,
                input: data,
                timeout: Duration::from_secs_f64(item.timeout_s.max(0.001)),
            })
            .collect();
        let reply = |out: &mut std::io::StdoutLock, result, healthy: bool| {
            let sent = match result {
                Ok(bytes) => {
                    let bytes: Vec<u8> = bytes;
                    send(out, &Reply::Output { bytes: bytes.len() }, &bytes)
                }
                Err(RunError(message)) => send(
                    out,
                    &Reply::Error {
                        message,
                        exiting: !healthy,
                    },
                    &[],
                ),
            };
            if !healthy || sent.is_err() {
                leave();
            }
        };
        match batch {
            None => {
                let result = cuda.run(&jobs[0]);
                reply(&mut out, result, cuda.healthy());
            }
            Some((per_module, jit_threads)) => {
                let out = std::cell::RefCell::new(&mut out);
                cuda.run_batch(
                    &jobs,
                    per_module,
                    jit_threads,
                    &mut || {
                        if send(*out.borrow_mut(), &Reply::Compiled, &[]).is_err() {
                            leave();
                        }
                    },
                    &mut |_, result, healthy| reply(*out.borrow_mut(), result, healthy),
                );
            }
        }
    }
}

/// Writes one message: its JSON line and `bytes`.
fn send(out: &mut impl Write, reply: &Reply, bytes: &[u8]) -> std::io::Result<()> {
    let line = serde_json::to_string(reply).map_err(std::io::Error::other)?;
    out.write_all(line.as_bytes())?;
    out.write_all(b"\n")?;
    out.write_all(bytes)?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_output_message_carries_its_bytes() {
        let mut wire = Vec::new();
        let line = serde_json::to_string(&Reply::Output { bytes: 3 }).unwrap();
        wire.extend_from_slice(line.as_bytes());
        wire.extend_from_slice(b"\n\x00\n\xa5");
        let (reply, bytes) = read_reply(&mut &wire[..]).unwrap();
        assert!(matches!(reply, Reply::Output { bytes: 3 }));
        assert_eq!(bytes, b"\x00\n\xa5");
    }

    #[test]
    fn a_closed_or_garbled_worker_is_an_error() {
        assert!(read_reply(&mut &b""[..]).is_err());
        assert!(read_reply(&mut &b"ptxas fatal\n"[..]).is_err());
        assert!(read_reply(&mut &b"{\"output\":{\"bytes\":4}}\nab"[..]).is_err());
    }
}
