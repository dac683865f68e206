#!/usr/bin/env bash
# Footprint, Stoker against PyTorch, in one sitting (BENCHMARKS.md, "Footprint"): W3 `nw=2 fill`
# through ./stoker (its launcher's heap flags) under bench/python/tree_memory.py, and PyTorch's W3
# with 2 workers, whose harness samples its own process tree the same way, alternating for ROUNDS.
# One JSON line per run: the tree's peak PSS and RSS in MiB, the samples/s median, the load.
#
#   DATA=/work/bds PEER_DATA=/work/bd ROUNDS=3 bash bench/footprint_sitting.sh > footprint.jsonl
#
# Memory is not disturbed by load as speed is; keep the machine otherwise quiet all the same.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
data=${DATA:-/work/bds}
rounds=${ROUNDS:-3}
PY=${PY:-/usr/bin/python3}
peers=${PEERS:-$(python3 -c 'import sys; sys.path.insert(0, "bench/python"); from peers_folder import default_peers; print(default_peers())')}
load() { cut -d' ' -f1 /proc/loadavg; }
for ((r = 1; r <= rounds; r++)); do
  out=$(python3 bench/python/tree_memory.py -- ./stoker bench -w W3 --data "$data" -c 'nw=2 fill' --reps 3 --json 2>/dev/null)
  python3 -c 'import json,sys
lines=[l for l in sys.argv[1].splitlines() if l.startswith("{")]
run=json.loads(lines[0]) if len(lines) > 1 else {}
mem=json.loads(lines[-1])
print(json.dumps({"side": "stoker", "round": int(sys.argv[2]), "peak_tree_pss_mb": mem["peak_tree_pss_mb"],
  "peak_tree_rss_mb": mem["peak_tree_rss_mb"], "samples_per_s": round(run.get("sps_median", 0), 1), "load": float(sys.argv[3])}))' \
    "$out" "$r" "$(load)"
  out=$(PEER_DATA=${PEER_DATA:-$data} $PY "$peers/bench.py" --workload W3 --workers 2 2>/dev/null | grep '^{' | tail -n 1)
  python3 -c 'import json,sys
o=json.loads(sys.argv[1]) if sys.argv[1] else {}
print(json.dumps({"side": "pytorch", "round": int(sys.argv[2]), "peak_tree_pss_mb": round(o.get("peak_tree_pss_mb", 0), 1),
  "peak_tree_rss_mb": round(o.get("peak_tree_rss_mb", 0), 1), "samples_per_s": round(o.get("sps_median", o.get("samples_per_s", 0)), 1), "load": float(sys.argv[3])}))' \
    "$out" "$r" "$(load)"
done
