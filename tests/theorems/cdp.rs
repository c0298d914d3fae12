//! A headless Chromium driven through the DevTools protocol over a pipe
//! (`--remote-debugging-pipe`: commands on the browser's file descriptor 3, replies and events on
//! 4, each a JSON message ended by a NUL byte). Enough of the protocol for the blueprint test:
//! open a page and wait for its load event, evaluate JavaScript, take a screenshot, and collect
//! every console error, uncaught exception and failed load.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::os::fd::AsRawFd;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// How long one command may take.
const TIMEOUT: Duration = Duration::from_secs(60);

/// The browser executable: `BALLOC_CHROMIUM`, else the first of `chromium`,
/// `chromium-browser`, `google-chrome` on the `PATH`.
pub fn find() -> Option<std::path::PathBuf> {
    if let Some(p) = std::env::var_os("BALLOC_CHROMIUM") {
        return Some(p.into());
    }
    let path = std::env::var_os("PATH")?;
    for dir in std::env::split_paths(&path) {
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

/// A running browser with one page.
pub struct Browser {
    child: Child,
    to: std::io::PipeWriter,
    from: Receiver<Value>,
    next_id: u64,
    session: String,
    /// Console errors, exceptions and failed loads seen so far (with the page's URL).
    pub errors: Vec<String>,
    _profile: std::path::PathBuf,
}

/// Moves `fd` to a descriptor of at least 10 (so that placing two descriptors on 3 and 4 cannot
/// overwrite one with the other), keeping it open across exec.
fn high(fd: i32) -> std::io::Result<i32> {
    let h = unsafe { libc::fcntl(fd, libc::F_DUPFD, 10) };
    if h < 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(h)
}

impl Browser {
    /// Starts the browser (headless, no sandbox, no network use of its own, a fresh profile)
    /// with a window of `width` × `height` pixels.
    pub fn start(exe: &std::path::Path, width: u32, height: u32) -> Browser {
        let profile = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("chromium-profile-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&profile);
        let (cmd_read, cmd_write) = std::io::pipe().expect("a pipe");
        let (out_read, out_write) = std::io::pipe().expect("a pipe");
        let (r, w) = (cmd_read.as_raw_fd(), out_write.as_raw_fd());
        let mut cmd = Command::new(exe);
        cmd.args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
            "--hide-scrollbars",
            "--remote-debugging-pipe",
            &format!("--window-size={width},{height}"),
            &format!("--user-data-dir={}", profile.display()),
            "about:blank",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
        // In the child, between fork and exec: the pipe ends on descriptors 3 and 4.
        unsafe {
            cmd.pre_exec(move || {
                let (r2, w2) = (high(r)?, high(w)?);
                if libc::dup2(r2, 3) < 0 || libc::dup2(w2, 4) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = cmd.spawn().expect("chromium starts");
        drop(cmd_read);
        drop(out_write);
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(out_read);
            let mut buf = Vec::new();
            while let Ok(k) = reader.read_until(0, &mut buf) {
                if k == 0 {
                    break;
                }
                if buf.last() == Some(&0) {
                    buf.pop();
                }
                if let Ok(v) = serde_json::from_slice::<Value>(&buf)
                    && tx.send(v).is_err()
                {
                    break;
                }
                buf.clear();
            }
        });
        let mut b = Browser {
            child,
            to: cmd_write,
            from: rx,
            next_id: 0,
            session: String::new(),
            errors: Vec::new(),
            _profile: profile,
        };
        let target = b.call_browser("Target.createTarget", json!({"url": "about:blank"}));
        let id = target["targetId"]
            .as_str()
            .expect("a target id")
            .to_string();
        let attached = b.call_browser(
            "Target.attachToTarget",
            json!({"targetId": id, "flatten": true}),
        );
        b.session = attached["sessionId"]
            .as_str()
            .expect("a session")
            .to_string();
        for m in ["Page.enable", "Runtime.enable", "Log.enable"] {
            b.call(m, json!({}));
        }
        b.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": false}),
        );
        b
    }

    fn send(&mut self, method: &str, params: Value, session: bool) -> u64 {
        self.next_id += 1;
        let mut msg = json!({"id": self.next_id, "method": method, "params": params});
        if session {
            msg["sessionId"] = json!(self.session);
        }
        let mut bytes = serde_json::to_vec(&msg).unwrap();
        bytes.push(0);
        self.to
            .write_all(&bytes)
            .expect("the browser reads commands");
        self.next_id
    }

    /// Records an event if it reports an error.
    fn note(&mut self, v: &Value) {
        let p = &v["params"];
        match v["method"].as_str() {
            Some("Runtime.consoleAPICalled") if p["type"] == "error" || p["type"] == "assert" => {
                self.errors
                    .push(format!("console.{}: {}", p["type"], p["args"]))
            }
            Some("Runtime.exceptionThrown") => self
                .errors
                .push(format!("exception: {}", p["exceptionDetails"])),
            Some("Log.entryAdded") if p["entry"]["level"] == "error" => self.errors.push(format!(
                "log: {} ({})",
                p["entry"]["text"], p["entry"]["url"]
            )),
            _ => {}
        }
    }

    /// Waits for the reply to `id` (or for an event `wait_event` when given, after the reply).
    fn wait(&mut self, id: u64, wait_event: Option<&str>) -> Value {
        let deadline = Instant::now() + TIMEOUT;
        let mut reply = None;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let v = match self.from.recv_timeout(left) {
                Ok(v) => v,
                Err(RecvTimeoutError::Timeout) => panic!("the browser did not answer in time"),
                Err(RecvTimeoutError::Disconnected) => panic!("the browser closed its pipe"),
            };
            self.note(&v);
            if v["id"] == json!(id) {
                if let Some(e) = v.get("error") {
                    panic!("DevTools error: {e}");
                }
                reply = Some(v["result"].clone());
                if wait_event.is_none() {
                    break;
                }
            } else if let (Some(name), Some(_)) = (wait_event, &reply)
                && v["method"] == json!(name)
            {
                break;
            }
        }
        reply.unwrap()
    }

    fn call_browser(&mut self, method: &str, params: Value) -> Value {
        let id = self.send(method, params, false);
        self.wait(id, None)
    }

    /// A command to the page.
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        let id = self.send(method, params, true);
        self.wait(id, None)
    }

    /// Opens `url` and waits for its load event; an error text (a missing file) is returned.
    pub fn open(&mut self, url: &str) -> Result<(), String> {
        let id = self.send("Page.navigate", json!({"url": url}), true);
        // The reply comes first; a failed navigation has no load event of its own.
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let v = self
                .from
                .recv_timeout(left)
                .expect("the browser answers in time");
            self.note(&v);
            if v["id"] == json!(id) {
                if let Some(e) = v["result"]["errorText"].as_str() {
                    return Err(e.to_string());
                }
                break;
            }
        }
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let v = self
                .from
                .recv_timeout(left)
                .expect("the page loads in time");
            self.note(&v);
            if v["method"] == "Page.loadEventFired" {
                return Ok(());
            }
        }
    }

    /// Evaluates a JavaScript expression (awaiting a promise) and returns its value as JSON.
    pub fn eval(&mut self, expr: &str) -> Value {
        let r = self.call(
            "Runtime.evaluate",
            json!({"expression": expr, "returnByValue": true, "awaitPromise": true}),
        );
        if let Some(e) = r.get("exceptionDetails") {
            panic!("script failed: {e}");
        }
        r["result"]["value"].clone()
    }

    /// A PNG screenshot (base64) of the region `(x, y, width, height)` of the page, in CSS
    /// pixels at scale 1, beyond the window if needed.
    pub fn screenshot(&mut self, clip: (f64, f64, f64, f64)) -> String {
        let r = self.call(
            "Page.captureScreenshot",
            json!({"format": "png", "captureBeyondViewport": true,
                   "clip": {"x": clip.0, "y": clip.1, "width": clip.2, "height": clip.3, "scale": 1}}),
        );
        r["data"].as_str().expect("screenshot data").to_string()
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self._profile);
    }
}

/// Standard base64 of bytes (for images passed to the page).
pub fn base64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for c in bytes.chunks(3) {
        let n = (c[0] as u32) << 16
            | (*c.get(1).unwrap_or(&0) as u32) << 8
            | *c.get(2).unwrap_or(&0) as u32;
        out.push(A[(n >> 18) as usize & 63] as char);
        out.push(A[(n >> 12) as usize & 63] as char);
        out.push(if c.len() > 1 {
            A[(n >> 6) as usize & 63] as char
        } else {
            '='
        });
        out.push(if c.len() > 2 {
            A[n as usize & 63] as char
        } else {
            '='
        });
    }
    out
}

/// Bytes of standard base64 text.
pub fn unbase64(text: &str) -> Vec<u8> {
    let val = |c: u8| -> u32 {
        match c {
            b'A'..=b'Z' => (c - b'A') as u32,
            b'a'..=b'z' => (c - b'a' + 26) as u32,
            b'0'..=b'9' => (c - b'0' + 52) as u32,
            b'+' => 62,
            _ => 63,
        }
    };
    let clean: Vec<u8> = text.bytes().filter(|c| !c.is_ascii_whitespace()).collect();
    let mut out = Vec::with_capacity(clean.len() / 4 * 3);
    for q in clean.chunks(4) {
        let pad = q.iter().filter(|&&c| c == b'=').count();
        let n = q
            .iter()
            .map(|&c| if c == b'=' { 0 } else { val(c) })
            .fold(0u32, |a, v| a << 6 | v);
        let b = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&b[..3 - pad]);
    }
    out
}

#[test]
fn base64_round_trip_against_a_hand_value() {
    // RFC 4648 §10: "foobar" is "Zm9vYmFy", "fo" is "Zm8=".
    assert_eq!(base64(b"foobar"), "Zm9vYmFy");
    assert_eq!(base64(b"fo"), "Zm8=");
    assert_eq!(unbase64("Zm8="), b"fo");
    let all: Vec<u8> = (0..=255).collect();
    assert_eq!(unbase64(&base64(&all)), all);
}
