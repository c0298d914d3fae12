//! Where the command line's output goes: standard output and standard error, or, for
//! [`super::run_args`], two buffers that the caller gets back.
//!
//! Every line the subcommands print goes through [`out_line`] (the `outln!` macro) or
//! [`err_line`] (`errln!`). While [`super::run_args`] runs, both write into one process-wide
//! capture; in-process runs are serialised by a lock, so that output from rayon workers lands in
//! the capture of the run that started them.

use std::fmt;
use std::io::Write;
use std::sync::{Mutex, MutexGuard};

/// The captured standard output and standard error, while a capture is active.
static CAPTURE: Mutex<Option<(Vec<u8>, Vec<u8>)>> = Mutex::new(None);

/// Serialises in-process runs.
static RUN: Mutex<()> = Mutex::new(());

fn capture() -> MutexGuard<'static, Option<(Vec<u8>, Vec<u8>)>> {
    // A panic while printing leaves the buffers usable.
    CAPTURE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Whether output is being captured (progress bars stay hidden then).
pub(crate) fn active() -> bool {
    capture().is_some()
}

/// Writes one line to standard output (or the capture). Returns false when standard output is
/// closed (e.g. piped into `head`).
#[doc(hidden)]
pub fn out_line(args: fmt::Arguments<'_>) -> bool {
    if let Some((out, _)) = capture().as_mut() {
        let _ = out.write_fmt(args);
        out.push(b'\n');
        return true;
    }
    writeln!(std::io::stdout(), "{args}").is_ok()
}

/// Writes one line to standard error (or the capture); a closed standard error is ignored.
#[doc(hidden)]
pub fn err_line(args: fmt::Arguments<'_>) {
    if let Some((_, err)) = capture().as_mut() {
        let _ = err.write_fmt(args);
        err.push(b'\n');
        return;
    }
    let _ = writeln!(std::io::stderr(), "{args}");
}

/// An active capture; dropping it (also on panic) ends the capture.
pub(crate) struct Capturing {
    _run: MutexGuard<'static, ()>,
}

impl Capturing {
    /// Waits for other in-process runs to finish, then starts capturing.
    pub(crate) fn start() -> Capturing {
        let run = RUN.lock().unwrap_or_else(|e| e.into_inner());
        *capture() = Some((Vec::new(), Vec::new()));
        Capturing { _run: run }
    }

    /// Ends the capture and returns (stdout, stderr) as text (invalid UTF-8 replaced).
    pub(crate) fn finish(self) -> (String, String) {
        let (out, err) = capture().take().unwrap_or_default();
        (
            String::from_utf8_lossy(&out).into_owned(),
            String::from_utf8_lossy(&err).into_owned(),
        )
    }
}

impl Drop for Capturing {
    fn drop(&mut self) {
        // After `finish` this finds None; after a panic it discards the partial output.
        capture().take();
    }
}
