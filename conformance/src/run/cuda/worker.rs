//! [`Cuda`] in a child process, `conform cuda-worker`, that is replaced
//! after a fault or a timeout. Both spoil more than the group that caused
//! them: after a fault in a kernel, driver 580 refuses even a new context
//! in the same process (`cuCtxCreate` returns the fault's error), and a
//! kernel that never ends cannot be stopped from its own process. Both end
//! with the process, so the groups after them run in a new worker.
//!
//! The worker reads jobs on standard input and answers on standard output,
//! each message one JSON line followed by the raw bytes it announces.

use super::Cuda;
use crate::run::impls::{Detection, Implementation, Job, RunError};
use ptx_gen::suite::manifest::Group;
use ptx_reports::Implementation as Info;
use serde::{Deserialize, Serialize};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How long a worker may take to start (load the driver, make a context,
/// JIT the target probes).
const START: Duration = Duration::from_secs(120);
/// How much longer than the job's timeout the parent waits for an answer
/// before it ends the worker itself (the worker keeps the timeout, and
/// answers, unless the driver hangs in a call).
const GRACE: Duration = Duration::from_secs(10);

/// A job, followed by `ptx_bytes` of PTX text and `input_bytes` of input.
#[derive(Serialize, Deserialize)]
struct Request {
    group: Group,
    ptx_path: String,
    timeout_s: f64,
    ptx_bytes: usize,
    input_bytes: usize,
}

/// The worker's messages.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Reply {
    /// First, once the driver is open.
    Ready(Info),
    /// The output buffer, `bytes` long, follows.
    Output { bytes: usize },
    /// The group could not run; with `exiting`, the worker's context is
    /// lost and it ends after this message.
    Error { message: String, exiting: bool },
}

/// Runs groups through [`Cuda`] in `PROGRAM cuda-worker` child processes.
pub struct Isolated {
    program: PathBuf,
    libcuda: Option<PathBuf>,
    device: usize,
    info: Info,
    state: Mutex<State>,
}

struct State {
    /// The running worker; `None` after one ended, until the next group.
    worker: Option<Worker>,
    /// Why no group can run (a new worker could not be started).
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
    /// opened.
    pub fn start(
        program: &Path,
        libcuda: Option<&Path>,
        device: usize,
    ) -> Result<Isolated, String> {
        let (worker, mut info) = Worker::start(program, libcuda, device)?;
        info.details.insert(
            "process".into(),
            "groups run in a `conform cuda-worker` child, replaced after a fault or a timeout"
                .into(),
        );
        Ok(Isolated {
            program: program.to_path_buf(),
            libcuda: libcuda.map(Path::to_path_buf),
            device,
            info,
            state: Mutex::new(State {
                worker: Some(worker),
                stopped: None,
            }),
        })
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
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(why) = &st.stopped {
            return Err(RunError(why.clone()));
        }
        let worker = match st.worker.take() {
            Some(w) => w,
            None => match Worker::start(&self.program, self.libcuda.as_deref(), self.device) {
                Ok((w, _)) => w,
                Err(e) => {
                    st.stopped = Some(format!("not run: no new CUDA worker ({e})"));
                    return Err(RunError(format!(
                        "no new CUDA worker could be started: {e}"
                    )));
                }
            },
        };
        let (result, keep) = worker.job(job);
        st.worker = keep;
        result.map_err(RunError)
    }
}

impl Drop for Isolated {
    fn drop(&mut self) {
        let st = self.state.get_mut().unwrap_or_else(|e| e.into_inner());
        if let Some(w) = st.worker.take() {
            w.end();
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
        let request = Request {
            group: job.group.clone(),
            ptx_path: job.ptx_path.display().to_string(),
            timeout_s: job.timeout.as_secs_f64(),
            ptx_bytes: job.ptx.len(),
            input_bytes: job.input.len(),
        };
        let sent = serde_json::to_string(&request)
            .map_err(|e| e.to_string())
            .and_then(|line| {
                let w = &mut self.stdin;
                w.write_all(line.as_bytes())
                    .and_then(|_| w.write_all(b"\n"))
                    .and_then(|_| w.write_all(job.ptx.as_bytes()))
                    .and_then(|_| w.write_all(job.input))
                    .and_then(|_| w.flush())
                    .map_err(|e| e.to_string())
            });
        if let Err(e) = sent {
            let status = self.kill();
            return (
                Err(format!(
                    "the CUDA worker ended ({status}) before the job: {e}"
                )),
                None,
            );
        }
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
        let Worker {
            mut child, stdin, ..
        } = self;
        drop(stdin);
        let t = Instant::now();
        while t.elapsed() < Duration::from_secs(5) {
            if let Ok(Some(_)) = child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = child.kill();
        let _ = child.wait();
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
    let mut send = |reply: &Reply, bytes: &[u8]| -> std::io::Result<()> {
        let line = serde_json::to_string(reply).map_err(std::io::Error::other)?;
        out.write_all(line.as_bytes())?;
        out.write_all(b"\n")?;
        out.write_all(bytes)?;
        out.flush()
    };
    let cuda = match Cuda::open(libcuda, device) {
        Ok(c) => c,
        Err(message) => {
            let _ = send(
                &Reply::Error {
                    message,
                    exiting: true,
                },
                &[],
            );
            return std::process::ExitCode::from(2);
        }
    };
    if send(&Reply::Ready(cuda.info()), &[]).is_err() {
        return std::process::ExitCode::SUCCESS;
    }
    let mut input = BufReader::new(std::io::stdin().lock());
    loop {
        let mut line = String::new();
        if !matches!(input.read_line(&mut line), Ok(n) if n > 0) {
            return std::process::ExitCode::SUCCESS;
        }
        let Ok(r) = serde_json::from_str::<Request>(&line) else {
            return std::process::ExitCode::from(2);
        };
        let mut ptx = vec![0; r.ptx_bytes];
        let mut data = vec![0; r.input_bytes];
        if input.read_exact(&mut ptx).is_err() || input.read_exact(&mut data).is_err() {
            return std::process::ExitCode::from(2);
        }
        let ptx = String::from_utf8_lossy(&ptx);
        let ptx_path = PathBuf::from(&r.ptx_path);
        let job = Job {
            group: &r.group,
            ptx: &ptx,
            ptx_path: &ptx_path,
            input: &data,
            timeout: Duration::from_secs_f64(r.timeout_s.max(0.001)),
        };
        let result = cuda.run(&job);
        let exiting = !cuda.healthy();
        let sent = match result {
            Ok(bytes) => send(&Reply::Output { bytes: bytes.len() }, &bytes),
            Err(RunError(message)) => send(&Reply::Error { message, exiting }, &[]),
        };
        if exiting || sent.is_err() {
            // a kernel may still run: leave it to the process's end, which
            // stops it, rather than to the context's destruction, which
            // would wait for it
            std::process::exit(0);
        }
    }
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
