//! The driver's state: contexts, modules, functions, streams, events and
//! device memory, behind one lock; and each host thread's stack of current
//! contexts. Every operation is a safe method that returns the driver API's
//! result code; the entry points (`api`) only move values across the C
//! boundary.

use crate::config::Config;
use crate::memory::Memory;
use crate::module::{Function, Module};
use crate::types::*;
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::sync::{Mutex, MutexGuard};
use std::time::Instant;

/// A context.
#[derive(Debug, Default)]
pub struct Context {
    /// The device's primary context (`cuDevicePrimaryCtxRetain`).
    pub primary: bool,
    /// An error of an earlier launch that stopped a thread: the driver API
    /// reports errors of asynchronous work from later calls, and "the
    /// context cannot be used" after it (`CUDA_ERROR_ILLEGAL_ADDRESS`:
    /// "This leaves the process in an inconsistent state and any further
    /// CUDA work will return the same error").
    pub sticky: Option<CUresult>,
    pub flags: u32,
    /// Limits `cuCtxSetLimit` set (`CUlimit` to value); the others have
    /// their defaults (`device::limit_default`).
    pub limits: HashMap<u32, u64>,
    /// The `CUfunc_cache` preference of `cuCtxSetCacheConfig`.
    pub cache_config: u32,
}

/// Page-locked host memory (`cuMemAllocHost`), for pointer attributes.
#[derive(Debug)]
pub struct HostAllocation {
    pub size: u64,
    /// The context current when it was made.
    pub context: u64,
    /// `CU_POINTER_ATTRIBUTE_BUFFER_ID`.
    pub id: u64,
}

/// A stream: work on it runs when it is issued, so it is always idle.
#[derive(Debug)]
pub struct Stream {
    pub context: u64,
    /// `CU_STREAM_DEFAULT` (0) or `CU_STREAM_NON_BLOCKING` (1), as created.
    pub flags: u32,
}

/// An event.
#[derive(Debug)]
pub struct Event {
    pub context: u64,
    pub flags: u32,
    /// When it was last recorded.
    pub recorded: Option<Instant>,
}

/// Everything the driver holds.
#[derive(Debug)]
pub struct Driver {
    pub config: Config,
    next_handle: u64,
    pub contexts: HashMap<u64, Context>,
    /// The primary context and how many retains it has.
    pub primary: Option<(u64, u32)>,
    pub modules: HashMap<u64, Module>,
    /// Libraries (`cuLibraryLoadData`): each the module it loaded.
    pub libraries: HashMap<u64, u64>,
    pub functions: HashMap<u64, Function>,
    pub streams: HashMap<u64, Stream>,
    pub events: HashMap<u64, Event>,
    pub memory: Memory,
    /// Live page-locked host allocations, by address.
    pub host_allocations: BTreeMap<u64, HostAllocation>,
}

/// The driver, once `cuInit` has made it.
static DRIVER: Mutex<Option<Driver>> = Mutex::new(None);

thread_local! {
    /// This thread's context stack, the current context last.
    static STACK: RefCell<Vec<u64>> = const { RefCell::new(Vec::new()) };
}

/// The driver, locked (a panic while it was held leaves it usable).
pub fn lock() -> MutexGuard<'static, Option<Driver>> {
    DRIVER.lock().unwrap_or_else(|e| e.into_inner())
}

/// Runs `f` on the driver; `CUDA_ERROR_NOT_INITIALIZED` before `cuInit`.
pub fn with<R>(f: impl FnOnce(&mut Driver) -> Result<R, CUresult>) -> Result<R, CUresult> {
    let mut g = lock();
    let d = g.as_mut().ok_or(CUDA_ERROR_NOT_INITIALIZED)?;
    f(d)
}

/// `cuInit`: makes the driver, once, with the settings `config` gives.
pub fn init(config: impl FnOnce() -> Config) {
    let mut g = lock();
    if g.is_none() {
        *g = Some(Driver::new(config()));
    }
}

/// This thread's current context, if any (not checked for life).
pub fn current_handle() -> Option<u64> {
    STACK.with(|s| s.borrow().last().copied())
}

/// Changes this thread's context stack.
pub fn stack<R>(f: impl FnOnce(&mut Vec<u64>) -> R) -> R {
    STACK.with(|s| f(&mut s.borrow_mut()))
}

/// The first handle; handles step by 16 so that they look like pointers.
const FIRST_HANDLE: u64 = 0x5000_0000;

impl Driver {
    pub fn new(config: Config) -> Driver {
        Driver {
            memory: Memory::new(config.total_memory),
            config,
            next_handle: FIRST_HANDLE,
            contexts: HashMap::new(),
            primary: None,
            modules: HashMap::new(),
            libraries: HashMap::new(),
            functions: HashMap::new(),
            streams: HashMap::new(),
            events: HashMap::new(),
            host_allocations: BTreeMap::new(),
        }
    }

    /// A handle no object has had.
    pub fn handle(&mut self) -> u64 {
        self.next_handle += 16;
        self.next_handle
    }

    /// This thread's current context, alive; `CUDA_ERROR_INVALID_CONTEXT`
    /// when there is none or it was destroyed.
    pub fn current(&self) -> Result<u64, CUresult> {
        current_handle()
            .filter(|c| self.contexts.contains_key(c))
            .ok_or(CUDA_ERROR_INVALID_CONTEXT)
    }

    /// The current context, failing with its sticky error if it has one.
    pub fn usable(&self) -> Result<u64, CUresult> {
        let c = self.current()?;
        self.check_context(c)?;
        Ok(c)
    }

    /// `Err` with the context's sticky error, if it has one.
    pub fn check_context(&self, c: u64) -> Result<(), CUresult> {
        match self.contexts.get(&c) {
            None => Err(CUDA_ERROR_INVALID_CONTEXT),
            Some(Context {
                sticky: Some(e), ..
            }) => Err(*e),
            Some(_) => Ok(()),
        }
    }

    /// A new context (`cuCtxCreate`), pushed on this thread's stack.
    pub fn create_context(&mut self, flags: u32) -> u64 {
        let h = self.handle();
        self.contexts.insert(
            h,
            Context {
                flags,
                ..Default::default()
            },
        );
        stack(|s| s.push(h));
        h
    }

    /// Destroys a context and everything made in it.
    pub fn destroy_context(&mut self, c: u64) -> Result<(), CUresult> {
        if self.contexts.remove(&c).is_none() {
            return Err(CUDA_ERROR_INVALID_CONTEXT);
        }
        if self.primary.is_some_and(|(p, _)| p == c) {
            self.primary = None;
        }
        self.memory.free_context(c);
        let modules: Vec<u64> = self
            .modules
            .iter()
            .filter(|(_, m)| m.context == c)
            .map(|(&h, _)| h)
            .collect();
        for m in modules {
            let _ = self.unload(m);
        }
        self.streams.retain(|_, s| s.context != c);
        self.events.retain(|_, e| e.context != c);
        stack(|s| s.retain(|&x| x != c));
        Ok(())
    }

    /// `cuDevicePrimaryCtxRetain`: the primary context, made on first use.
    pub fn retain_primary(&mut self) -> u64 {
        match &mut self.primary {
            Some((c, n)) => {
                *n += 1;
                *c
            }
            None => {
                let h = self.handle();
                self.contexts.insert(
                    h,
                    Context {
                        primary: true,
                        ..Default::default()
                    },
                );
                self.primary = Some((h, 1));
                h
            }
        }
    }

    /// `cuDevicePrimaryCtxRelease`: the primary context goes when its last
    /// retain is released. `CUDA_ERROR_INVALID_CONTEXT` when it has none.
    pub fn release_primary(&mut self) -> Result<(), CUresult> {
        let Some((c, n)) = self.primary else {
            return Err(CUDA_ERROR_INVALID_CONTEXT);
        };
        if n > 1 {
            self.primary = Some((c, n - 1));
            Ok(())
        } else {
            self.destroy_context(c)
        }
    }

    /// Unloads a module and its functions.
    pub fn unload(&mut self, m: u64) -> Result<(), CUresult> {
        let module = self.modules.remove(&m).ok_or(CUDA_ERROR_INVALID_HANDLE)?;
        for f in module.functions.values() {
            self.functions.remove(f);
        }
        Ok(())
    }

    /// The context a stream belongs to; the null stream and the
    /// `CU_STREAM_LEGACY` (1) and `CU_STREAM_PER_THREAD` (2) handles are
    /// the current context's.
    pub fn stream_context(&self, s: u64) -> Result<u64, CUresult> {
        if s <= 2 {
            return self.current();
        }
        let st = self.streams.get(&s).ok_or(CUDA_ERROR_INVALID_HANDLE)?;
        if self.contexts.contains_key(&st.context) {
            Ok(st.context)
        } else {
            Err(CUDA_ERROR_INVALID_CONTEXT)
        }
    }

    /// The bytes `[addr, addr + len)` of device memory the current context
    /// reaches: one allocation, or one `.global` variable of a module of the
    /// context (the most recently loaded first, where modules overlap).
    pub fn device_bytes(
        &mut self,
        context: u64,
        addr: u64,
        len: u64,
    ) -> Result<&mut [u8], CUresult> {
        if self.memory.find(addr, len).is_some() {
            return self
                .memory
                .slice_mut(addr, len)
                .ok_or(CUDA_ERROR_INVALID_VALUE);
        }
        let mut best: Option<(u64, usize)> = None;
        for (&h, m) in &self.modules {
            if m.context != context {
                continue;
            }
            for (k, v) in m.variables.iter().enumerate() {
                let end = v.addr + v.bytes.len() as u64;
                let inside = addr >= v.addr && addr.checked_add(len).is_some_and(|e| e <= end);
                let newer = match best {
                    None => true,
                    Some((b, _)) => h > b,
                };
                if inside && newer {
                    best = Some((h, k));
                }
            }
        }
        if best.is_none() {
            // a `.const` variable: its bytes in the module's bank
            let hit = self
                .modules
                .iter()
                .filter(|(_, m)| m.context == context)
                .filter_map(|(&h, m)| {
                    m.constants.iter().find_map(|c| {
                        let start = crate::module::Module::constant_address(c.1);
                        let end = start + c.2 as u64;
                        (addr >= start && addr.checked_add(len).is_some_and(|e| e <= end))
                            .then_some((h, (c.1 + (addr - start)) as usize))
                    })
                })
                .max_by_key(|&(h, _)| h);
            if let Some((h, off)) = hit {
                return self
                    .modules
                    .get_mut(&h)
                    .and_then(|m| m.const_bank.get_mut(off..off + len as usize))
                    .ok_or(CUDA_ERROR_INVALID_VALUE);
            }
        }
        let (h, k) = best.ok_or(CUDA_ERROR_INVALID_VALUE)?;
        let v = self
            .modules
            .get_mut(&h)
            .and_then(|m| m.variables.get_mut(k))
            .ok_or(CUDA_ERROR_INVALID_VALUE)?;
        let off = (addr - v.addr) as usize;
        v.bytes
            .get_mut(off..off + len as usize)
            .ok_or(CUDA_ERROR_INVALID_VALUE)
    }
}
