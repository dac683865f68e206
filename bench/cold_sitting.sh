#!/usr/bin/env bash
# The cold first batch, Stoker against PyTorch, in one sitting (BENCHMARKS.md, "Cold first batch"):
# rounds of one fresh process per measurement, alternating
#   base    BASE_JAR (an earlier build's cli/target/stoker.jar) with ./stoker's JVM flags, no AOT cache
#   new     this checkout's jar, the same way (base and new take turns at going first)
#   aot     this checkout through ./stoker, with its AOT cache (two runs of each workload before the
#           rounds record it and make it)
#   torch   bench/python/first_batch_peer.py (its first iter() to the first batch)
# on W1 (nw=2) and W3 (nw=2 fill). One JSON line per run, with the 1-minute load average.
#
#   BASE_JAR=/tmp/base.jar DATA=/work/bds PEER_DATA=/work/bd ROUNDS=3 bash bench/cold_sitting.sh > sitting.jsonl
#
# Each Stoker run is --quick --epochs 1: the cold figures come from the run's first loader,
# whatever follows it. Keep the machine otherwise quiet; a 2-core VM is noisy run to run, so read
# medians over the rounds.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
. scripts/find-jdk.sh
java="$(find_jdk)/bin/java"
flags="--enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector --add-opens java.base/java.nio=ALL-UNNAMED
  --add-exports java.base/sun.nio.ch=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow -Xmx1g -Xms8m -XX:GCTimeRatio=1
  -XX:TrimNativeHeapInterval=1000 -XX:CompileCommand=quiet
  -XX:CompileCommand=dontinline,dev/stoker/vision/decode/DecodeSession.open"
data=${DATA:-/work/bds}
rounds=${ROUNDS:-3}
configs=("W1|nw=2" "W3|nw=2 fill")

load() { cut -d' ' -f1 /proc/loadavg; }
emit() { # SIDE WORKLOAD JSON-LINE
  python3 -c 'import json,sys; o=json.loads(sys.argv[3]); o={k:v for k,v in o.items() if k.startswith("cold") or k in ("iter_to_first_ms","process_to_first_ms")}; o.update(side=sys.argv[1], workload=sys.argv[2], load=float(sys.argv[4])); print(json.dumps(o))' "$1" "$2" "$3" "$(load)"
}
stoker_json() { head -n 1 | grep '^{' || echo '{}'; }

# The AOT cache: recorded by a first run, made at the second.
for c in "${configs[@]}"; do
  w=${c%%|*} cfg=${c#*|}
  for _ in 1 2; do ./stoker bench -w "$w" --data "$data" -c "$cfg" --quick --epochs 1 --json >/dev/null 2>&1; done
done

for ((r = 1; r <= rounds; r++)); do
  for c in "${configs[@]}"; do
    w=${c%%|*} cfg=${c#*|}
    # base and new take turns at going first: the first run of a round came right after
    # PyTorch's process and measured 10-15 ms better for it
    sides=(base new)
    ((r % 2 == 0)) && sides=(new base)
    for side in "${sides[@]}"; do
      jar=cli/target/stoker.jar
      if [ "$side" = base ]; then
        [ -n "${BASE_JAR:-}" ] || continue
        jar=$BASE_JAR
      fi
      # shellcheck disable=SC2086
      emit "$side" "$w" "$("$java" $flags -jar "$jar" bench -w "$w" --data "$data" -c "$cfg" --quick --epochs 1 --json 2>/dev/null | stoker_json)"
    done
    emit aot "$w" "$(./stoker bench -w "$w" --data "$data" -c "$cfg" --quick --epochs 1 --json 2>/dev/null | stoker_json)"
    emit torch "$w" "$(PEER_DATA=${PEER_DATA:-/work/bd} /usr/bin/python3 bench/python/first_batch_peer.py --workload "$w" --workers 2 2>/dev/null | tail -n 1)"
  done
done
