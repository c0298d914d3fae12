//! The `balloc` binary: a thin wrapper around [`balloc::cli::main`].

/// The allocator of the binary: faster than the system one on the many small vectors a search
/// allocates and frees per evaluated state (`BENCHMARKS.md`). The library does not set one.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    std::process::exit(balloc::cli::main());
}
