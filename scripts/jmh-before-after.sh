#!/usr/bin/env bash
# JMH before and after in one sitting: runs the same benchmarks from two benchmark jars, alternating
# (before, after, before, after), so that a noisy machine weighs on both alike, and prints each
# benchmark's score per jar and the ratio after/before.
#
#   bash scripts/jmh-before-after.sh BEFORE.jar AFTER.jar ROUNDS 'regex' [jmh options...]
#   e.g. bash scripts/jmh-before-after.sh /tmp/before.jar bench/target/benchmarks.jar 2 \
#            'ReorderBenchmark|LoaderStateBenchmark' -wi 2 -w 1 -i 3 -r 1
# The jars come from `./mvnw -pl bench -am package -DskipTests` at each commit.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/scripts/find-jdk.sh"
java="$(find_jdk)/bin/java"
before=$1 after=$2 rounds=$3 regex=$4
shift 4
out=$(mktemp -d)
for round in $(seq 1 "$rounds"); do
  for side in before after; do
    jar=$before; [ "$side" = after ] && jar=$after
    echo "jmh: round $round, $side ($jar)" >&2
    "$java" -jar "$jar" "$regex" -f 1 "$@" -rf json -rff "$out/$side-$round.json" >"$out/$side-$round.log" 2>&1 \
      || { echo "jmh: $side round $round failed; its log: $out/$side-$round.log" >&2; exit 1; }
  done
done
python3 - "$out" "$rounds" <<'PY'
import json, sys, statistics, glob, os
out, rounds = sys.argv[1], int(sys.argv[2])
scores = {}
for side in ("before", "after"):
    for r in range(1, rounds + 1):
        for b in json.load(open(os.path.join(out, f"{side}-{r}.json"))):
            params = ",".join(f"{k}={v}" for k, v in sorted((b.get("params") or {}).items()))
            key = (b["benchmark"].rsplit(".", 2)[-2] + "." + b["benchmark"].rsplit(".", 1)[-1], params, b["primaryMetric"]["scoreUnit"], b["mode"])
            scores.setdefault(key, {"before": [], "after": []})[side].append(b["primaryMetric"]["score"])
print(f"| benchmark | params | unit | before (median of {rounds}) | after | after/before |")
print("|---|---|---|---|---|---|")
for (name, params, unit, mode), s in sorted(scores.items()):
    if not s["before"] or not s["after"]:
        continue
    b, a = statistics.median(s["before"]), statistics.median(s["after"])
    print(f"| {name} | {params} | {unit} | {b:,.3f} | {a:,.3f} | {a / b:.2f} |")
PY
echo "jmh: raw results in $out" >&2
