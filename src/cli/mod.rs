//! The command-line interface (the contract of `docs/conventions.md` §4): argument parsing with clap and one module per
//! subcommand. The binary `balloc` only calls [`main`]. This is the only part of the library that
//! reads files and prints.

use clap::{Parser, Subcommand};

mod blueprint;
pub(crate) mod capture;
mod catalogue;
pub(crate) mod check;
mod constant;
mod expect;
mod graph;
mod list;
mod multidim;
mod output;
mod pvec;
mod report;
pub(crate) mod root;
pub(crate) mod search;
mod simulate;
mod sweep;
mod watch;

pub use output::{Cell, Format, Table, common_digits, tex_escape, tex_rational};

/// `balloc`: a proof companion for balanced allocations.
#[derive(Debug, Parser)]
#[command(name = "balloc", version, about, long_about = None)]
pub struct Cli {
    /// The subcommand.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Exact one-step (or one-batch) expectation of a potential.
    Expect(expect::Args),
    /// The allocation vector by rank, with C1/C2 constants.
    Pvec(pvec::Args),
    /// List registered processes, potentials or weight laws.
    List(list::Args),
    /// Graphs for graphical allocation: facts and experiments.
    Graph(graph::Args),
    /// Multidimensional md-balls: simulation and the gap-growth experiment.
    Multidim(multidim::Args),
    /// Run theorem files: the main job (exit 1 iff a verdict contradicts its expected status).
    Check(check::Args),
    /// Counterexample search for one claim within a time budget.
    Search(search::Args),
    /// The tightest value of a constant per n and its growth across n.
    Constant(constant::Args),
    /// Monte Carlo runs of a process with a summary (mean, stderr, t-interval).
    Simulate(simulate::Args),
    /// Run a grid of configurations × runs from a TOML file (shardable, resumable), or merge shards.
    Sweep(sweep::Args),
    /// Check the catalogue and write its blueprint: a static site with each paper's dependency
    /// graph and a page per item (statement as MathML, verdict, trust, witness).
    Blueprint(blueprint::Args),
    /// Check the catalogue and print it as a LaTeX section (or document) or Markdown tables.
    Report(report::Args),
}

/// Parses the process's arguments and runs the command; returns the process exit code (0 success,
/// 1 a verdict contradicts its expectation, 2 bad input or failure).
pub fn main() -> i32 {
    execute(std::env::args_os())
}

/// What one in-process run of the command line produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// The exit code `balloc` would return (0 success, 1 a verdict contradicts its expectation,
    /// 2 bad input or failure).
    pub code: i32,
    /// Everything written to standard output.
    pub stdout: String,
    /// Everything written to standard error (the one-line error on failure).
    pub stderr: String,
}

/// Runs the command line in this process on `args` (without the program name) and returns its exit
/// code and output, exactly as the binary `balloc` would print them. Runs are serialised; progress
/// bars stay hidden.
///
/// ```
/// let o = balloc::cli::run_args(["pvec", "--process", "two-choice", "--n", "2", "--format", "json"]);
/// assert_eq!(o.code, 0);
/// let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
/// // Two-Choice at n = 2: p = (1/4, 3/4), heaviest bin first; C2's C = n·max p = 3/2.
/// assert_eq!(v["p"], serde_json::json!([0.25, 0.75]));
/// assert_eq!(v["c2"]["c"], 1.5);
/// let o = balloc::cli::run_args(["pvec", "--process", "two-chioce", "--n", "2"]);
/// assert_eq!(o.code, 2);
/// assert!(o.stderr.contains("did you mean `two-choice`?"));
/// assert_eq!(o.stderr.lines().count(), 1);
/// ```
pub fn run_args<I, T>(args: I) -> Outcome
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString>,
{
    let capture = capture::Capturing::start();
    let argv =
        std::iter::once(std::ffi::OsString::from("balloc")).chain(args.into_iter().map(Into::into));
    let code = execute(argv);
    let (stdout, stderr) = capture.finish();
    Outcome {
        code,
        stdout,
        stderr,
    }
}

/// Parses `argv` (program name first) and runs the command.
fn execute(argv: impl IntoIterator<Item = std::ffi::OsString>) -> i32 {
    let cli = match Cli::try_parse_from(argv) {
        Ok(c) => c,
        Err(e) => {
            if !e.use_stderr() {
                // --help and --version
                crate::outln!("{}", e.render().to_string().trim_end());
                return 0;
            }
            crate::errln!("{} (see `balloc --help`)", clap_error_line(&e));
            return 2;
        }
    };
    let result = match cli.command {
        Command::Expect(a) => expect::run(a),
        Command::Pvec(a) => pvec::run(a),
        Command::List(a) => list::run(a),
        Command::Graph(a) => graph::run(a),
        Command::Multidim(a) => multidim::run(a),
        Command::Check(a) if a.watch => watch::run(&a),
        Command::Check(a) => check::run(a),
        Command::Search(a) => search::run(a),
        Command::Constant(a) => constant::run(a),
        Command::Simulate(a) => simulate::run(a),
        Command::Sweep(a) => sweep::run(a),
        Command::Blueprint(a) => blueprint::run(a),
        Command::Report(a) => report::run(a),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            crate::errln!("error: {}", error_line(&format!("{e:#}")));
            2
        }
    }
}

/// An error message as one short line: line breaks become spaces and every overlong token (a
/// huge number, a pasted file) is shortened to an excerpt.
///
/// ```
/// let line = balloc::cli::error_line(&format!("bad `{}`\nsecond line", "x".repeat(10_000)));
/// assert!(!line.contains('\n') && line.len() < 120 && line.ends_with("second line"));
/// ```
pub fn error_line(msg: &str) -> String {
    crate::error::shorten_tokens(&msg.replace(['\r', '\n'], " ")).into_owned()
}

/// clap's first line ("error: ...") with its suggestion, if any ("tip: a similar value exists:
/// ..."), on the same line, without the usage block.
fn clap_error_line(e: &clap::Error) -> String {
    let text = e.render().to_string();
    let mut lines = text.lines();
    let mut line = lines
        .next()
        .unwrap_or("error: invalid arguments")
        .to_string();
    for l in lines {
        let l = l.trim();
        if l.starts_with("tip: a similar") || l.starts_with("[possible values:") {
            line.push_str("; ");
            line.push_str(l.trim_start_matches("tip: "));
        }
    }
    error_line(&line)
}

/// Whether progress may be drawn: standard error is a terminal and the `CI` environment variable
/// is unset (nothing is drawn when piped, redirected or in CI).
pub(crate) fn interactive() -> bool {
    use std::io::IsTerminal;
    std::io::stderr().is_terminal() && std::env::var_os("CI").is_none()
}

/// A progress bar on standard error with counts and ETA, hidden unless [`interactive`].
pub(crate) fn progress(len: u64, what: &str) -> indicatif::ProgressBar {
    if !interactive() || capture::active() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(len);
    if let Ok(style) = indicatif::ProgressStyle::with_template(&format!(
        "{{elapsed_precise}} [{{bar:40}}] {{pos}}/{{len}} {what} (eta {{eta}}) {{wide_msg}}"
    )) {
        bar.set_style(style);
    }
    bar
}
