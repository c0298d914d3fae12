#!/usr/bin/env bash
# Congestion C* = max_e Σ_i |g_i(e)| of the unit Haar flows under every routing (explicit,
# BFS spanning tree, electrical, electrical with multiplicative weights), with the certified cut
# lower bound of `graph::flow::congestion_lower_bound`; prints a markdown table (deterministic).
set -euo pipefail
cd "$(dirname "$0")/../.."
B=${B:-target/release/balloc}
G=experiments/graphical-2022/graphs
row() {
  local label=$1; shift
  local cells="| $label |"
  local lb="" n="" h="" sup=""
  for r in explicit spanning-tree electrical electrical-mw; do
    if out=$($B graph info "$@" --routing $r --format json 2>/dev/null); then
      read -r c l nn hh s < <(python3 -c 'import json,sys; d=json.load(sys.stdin); print(round(d["congestion"],3), round(d["congestion_lower_bound"],3), d["n"], d["tree_height"], d["max_support"])' <<<"$out")
      cells="$cells $c |"; lb=$l; n=$nn; h=$hh; sup="$sup$s/"
    else
      cells="$cells – |"
    fi
  done
  echo "$cells $lb | $n | $h | ${sup%/} |"
}
echo "| graph | explicit | spanning tree | electrical | electrical + MW (12 rounds) | cut lower bound | n | height | max support of p_e (per routing) |"
echo "|---|---|---|---|---|---|---|---|---|"
for n in 16 64 256 1000; do row "cycle C_$n" --graph cycle --n $n; done
for n in 64 256 1024; do row "torus $n" --graph torus --n $n; done
for n in 16 64 256 1024; do row "hypercube Q (n = $n)" --graph hypercube --n $n; done
for n in 64 256 1000; do row "random 3-regular, n = $n (seed 1)" --graph regular --n $n --d 3 --seed 1; done
row "random 4-regular, n = 256 (seed 1)" --graph regular --n 256 --d 4 --seed 1
row "grid 10×10 (edge list)" --graph @$G/grid-10x10.txt
row "two K_8 joined by a path (edge list)" --graph @$G/two-cliques.txt
