//! The command-line interface (DESIGN §4): argument parsing with clap and one module per
//! subcommand. The binary `balloc` only calls [`main`]. This is the only part of the library that
//! reads files and prints.

use clap::{Parser, Subcommand};

mod check;
mod constant;
mod expect;
mod graph;
mod list;
mod multidim;
mod output;
mod pvec;
mod search;
mod simulate;
mod sweep;

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
}

/// Parses the arguments and runs the command; returns the process exit code (0 success,
/// 1 a verdict contradicts its expectation, 2 bad input or failure).
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            if !e.use_stderr() {
                // --help and --version
                let _ = e.print();
                return 0;
            }
            // One line: clap's first line ("error: ..."), without the usage block and tips.
            let text = e.render().to_string();
            let first = text.lines().next().unwrap_or("error: invalid arguments");
            eprintln!("{first} (see `balloc --help`)");
            return 2;
        }
    };
    let result = match cli.command {
        Command::Expect(a) => expect::run(a),
        Command::Pvec(a) => pvec::run(a),
        Command::List(a) => list::run(a),
        Command::Graph(a) => graph::run(a),
        Command::Multidim(a) => multidim::run(a),
        Command::Check(a) => check::run(a),
        Command::Search(a) => search::run(a),
        Command::Constant(a) => constant::run(a),
        Command::Simulate(a) => simulate::run(a),
        Command::Sweep(a) => sweep::run(a),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            let msg = format!("{e:#}").replace('\n', " ");
            eprintln!("error: {msg}");
            2
        }
    }
}

/// Whether progress may be drawn: standard error is a terminal and the `CI` environment variable
/// is unset (nothing is drawn when piped, redirected or in CI).
pub(crate) fn interactive() -> bool {
    use std::io::IsTerminal;
    std::io::stderr().is_terminal() && std::env::var_os("CI").is_none()
}

/// A progress bar on standard error with counts and ETA, hidden unless [`interactive`].
pub(crate) fn progress(len: u64, what: &str) -> indicatif::ProgressBar {
    if !interactive() {
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
