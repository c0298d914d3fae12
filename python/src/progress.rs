//! Progress of long computations: an optional Python callback `progress(done, total, message)`
//! and interruption.
//!
//! A long computation (a simulation, a sweep, theorem files, a search, the constant finder) runs
//! on a worker thread without the GIL; the calling thread waits for it, waking every 50 ms to let
//! Python handle signals, so Ctrl-C (or a Jupyter interrupt) raises `KeyboardInterrupt`. An
//! exception in the callback or an interrupt stops the work at the next item boundary (the next
//! run, configuration or file; a single theorem's search runs to its end) and is raised when the
//! worker has stopped.

use pyo3::prelude::*;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

/// Progress counting and reporting, shared by the worker threads.
pub struct Progress {
    callback: Option<Py<PyAny>>,
    total: Option<u64>,
    done: AtomicU64,
    error: Mutex<Option<PyErr>>,
    stop: AtomicBool,
}

impl Progress {
    /// A counter of `total` items (`None` when unknown) reporting to `callback`, if any.
    pub fn new(callback: Option<Py<PyAny>>, total: Option<u64>) -> Progress {
        Progress {
            callback,
            total,
            done: AtomicU64::new(0),
            error: Mutex::new(None),
            stop: AtomicBool::new(false),
        }
    }

    /// Counts `k` finished items and reports the count with `message`.
    pub fn advance(&self, k: u64, message: &str) {
        let done = self.done.fetch_add(k, Ordering::SeqCst) + k;
        self.report(done, message);
    }

    /// Reports `message` without counting (a step inside one item).
    pub fn note(&self, message: &str) {
        self.report(self.done.load(Ordering::SeqCst), message);
    }

    fn report(&self, done: u64, message: &str) {
        if self.stopped() {
            return;
        }
        if let Some(cb) = &self.callback {
            Python::attach(|py| {
                if let Err(e) = cb.call1(py, (done, self.total, message)) {
                    self.fail(e);
                }
            });
        }
    }

    /// Records the first error and asks the workers to stop.
    pub fn fail(&self, e: PyErr) {
        let mut slot = self.error.lock().unwrap_or_else(|p| p.into_inner());
        if slot.is_none() {
            *slot = Some(e);
        }
        self.stop.store(true, Ordering::SeqCst);
    }

    /// Whether the work should stop (an interrupt or an exception in the callback).
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::SeqCst)
    }

    /// The recorded error, if any.
    pub fn take_error(&self) -> Option<PyErr> {
        self.error.lock().unwrap_or_else(|p| p.into_inner()).take()
    }
}

/// Runs `work` on a worker thread without the GIL while this thread handles signals; returns its
/// result, or the interrupt / callback exception recorded in `progress`.
pub fn run<T: Send>(
    py: Python<'_>,
    progress: &Progress,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    let done = (std::sync::Mutex::new(false), std::sync::Condvar::new());
    let out = std::thread::scope(|s| {
        let worker = s.spawn(|| {
            let r = work();
            *done.0.lock().unwrap_or_else(|p| p.into_inner()) = true;
            done.1.notify_all();
            r
        });
        loop {
            let finished = py.detach(|| {
                let guard = done.0.lock().unwrap_or_else(|p| p.into_inner());
                let (guard, _) = done
                    .1
                    .wait_timeout_while(guard, Duration::from_millis(50), |d| !*d)
                    .unwrap_or_else(|p| p.into_inner());
                *guard
            });
            if finished || worker.is_finished() {
                break;
            }
            if let Err(e) = py.check_signals() {
                progress.fail(e);
            }
        }
        py.detach(|| worker.join())
    });
    let out = match out {
        Ok(v) => v,
        Err(panic) => std::panic::resume_unwind(panic),
    };
    match progress.take_error() {
        Some(e) => Err(e),
        None => Ok(out),
    }
}
