//! `balloc sweep FILE.toml [--shard i/k]` and `balloc sweep merge FILE.toml --shards k`.

use crate::sim::sweep::{Shard, Sweep};
use anyhow::{Result, bail};
use std::path::Path;

/// Arguments of `balloc sweep`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// `FILE.toml` to run a sweep, or `merge FILE.toml` to merge shard outputs.
    #[arg(required = true, num_args = 1..=2)]
    args: Vec<String>,
    /// Run only shard i of k (0-based i), e.g. `--shard 3/16`.
    #[arg(long)]
    shard: Option<String>,
    /// With `merge`: the number of shards k.
    #[arg(long)]
    shards: Option<u64>,
}

/// Runs `balloc sweep`.
pub fn run(a: Args) -> Result<i32> {
    let (merge, file) = match a.args.as_slice() {
        [f] => (false, f),
        [m, f] if m == "merge" => (true, f),
        other => bail!("invalid arguments: expected FILE.toml or `merge FILE.toml`, got {other:?}"),
    };
    let sweep = Sweep::load(Path::new(file))?;
    // A missing output folder is named as such (not as an unreadable input).
    if let Some(dir) = sweep.output.parent().filter(|d| !d.as_os_str().is_empty())
        && !dir.is_dir()
    {
        bail!(
            "invalid output of `{file}`: cannot write `{}.csv`: the output folder `{}` does not exist (create it, e.g. `mkdir -p {}`, or change `output`)",
            sweep.output.display(),
            dir.display(),
            dir.display()
        );
    }
    let written = if merge {
        if a.shard.is_some() {
            bail!("invalid --shard: merge takes --shards k");
        }
        let k = a
            .shards
            .ok_or_else(|| anyhow::anyhow!("invalid merge: --shards k is required"))?;
        sweep.merge(k)?
    } else {
        if a.shards.is_some() {
            bail!("invalid --shards: only `sweep merge` takes it; use --shard i/k");
        }
        let shard = a.shard.as_deref().map(Shard::parse).transpose()?;
        let total = match shard {
            Some(s) => (0..sweep.entries.len() as u64 * sweep.runs)
                .filter(|i| i % s.count == s.index)
                .count() as u64,
            None => sweep.entries.len() as u64 * sweep.runs,
        };
        let bar = super::progress(total, "runs");
        let w = sweep.run(shard, &|k| bar.inc(k))?;
        bar.finish_and_clear();
        w
    };
    for p in written {
        crate::outln!("wrote {}", p.display());
    }
    Ok(0)
}
