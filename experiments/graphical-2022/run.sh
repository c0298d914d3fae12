#!/usr/bin/env bash
# Regenerates the figures and JSON of this folder (deterministic: fixed seeds, any thread count).
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release
B=target/release/balloc
OUT=experiments/graphical-2022
$B graph experiment --graph cycle --n 10,20,40,80,160,320,640,1000 --factor 2 --power 2.5 --runs 8 --out $OUT
$B graph experiment --graph torus --n 16,64,256,1024 --factor 4 --power 2 --runs 8 --out $OUT
$B graph experiment --graph hypercube --n 16,64,256,1024 --factor 4 --power 2 --runs 8 --out $OUT
