//! The `balloc` binary: a thin wrapper around [`balloc::cli::main`].

fn main() {
    std::process::exit(balloc::cli::main());
}
