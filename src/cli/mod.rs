//! The command-line interface (DESIGN §4): argument parsing with clap and one module per
//! subcommand. The binary `balloc` only calls [`main`]. This is the only part of the library that
//! reads files and prints.

use clap::{Parser, Subcommand};

mod check;
mod constant;
mod expect;
mod list;
mod output;
mod pvec;
mod search;

pub use output::Format;

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
    /// Run theorem files: the main job (exit 1 iff a verdict contradicts its expected status).
    Check(check::Args),
    /// Counterexample search for one claim within a time budget.
    Search(search::Args),
    /// The tightest value of a constant per n and its growth across n.
    Constant(constant::Args),
}

/// Parses the arguments and runs the command; returns the process exit code (0 success,
/// 1 a verdict contradicts its expectation, 2 bad input or failure).
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    let result = match cli.command {
        Command::Expect(a) => expect::run(a),
        Command::Pvec(a) => pvec::run(a),
        Command::List(a) => list::run(a),
        Command::Check(a) => check::run(a),
        Command::Search(a) => search::run(a),
        Command::Constant(a) => constant::run(a),
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
