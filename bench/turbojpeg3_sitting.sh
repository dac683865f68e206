#!/bin/bash
# W3, W5, W8 and W3-recipe in one sitting: Stoker with the system's libjpeg-turbo (2.1 on Debian),
# Stoker with a libjpeg-turbo 3 (STOKER_TURBOJPEG: decodes only the crop), and the PyTorch peers.
# For a quiet machine; about 10 minutes on 2 cores. Run from the repository root:
#   LIB3=/path/to/libjpeg-turbo-3/lib/libturbojpeg.so.0 bench/turbojpeg3_sitting.sh
# DATA: Stoker's data folder (gen_data.py's, with lmdb/ and shards/); PEER_DATA: the peers' (the
# same files); PEERS: the PyTorch peers' folder (bench.py); PY: the Python with torch/torchvision.
set -u
DATA=${DATA:-/work/bds}
PEER_DATA=${PEER_DATA:-/work/bd}
PEERS=${PEERS:-/work/shared/peers}
PY=${PY:-/usr/bin/python3}
LIB3=${LIB3:-/work/wt/jt3/prefix/lib/libturbojpeg.so.0}
[ -e "$LIB3" ] || { echo "no libjpeg-turbo 3 at $LIB3: set LIB3 (see docs/vision-recipes.md)" >&2; exit 2; }

load() { echo "   load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%H:%M:%S) UTC"; }
stoker() {  # workload, label, extra env
  echo "== Stoker $1 'nw=2 fill', $2"; load
  env $3 ./stoker bench -w "$1" --data "$DATA" -c 'nw=2 fill' --reps 3 2>&1 \
    | grep -E "decoder:|samples/s \(median"
}
for w in W3 W5 W8; do
  stoker $w "libjpeg-turbo of the system" "-u STOKER_TURBOJPEG"
  stoker $w "libjpeg-turbo 3 ($LIB3)" "STOKER_TURBOJPEG=$LIB3"
  echo "== PyTorch $w --workers 2"; load
  PEER_DATA=$PEER_DATA $PY "$PEERS/bench.py" --workload $w --workers 2 2>&1 | tail -3
done
stoker W3-recipe "libjpeg-turbo of the system" "-u STOKER_TURBOJPEG"
stoker W3-recipe "libjpeg-turbo 3 ($LIB3)" "STOKER_TURBOJPEG=$LIB3"
echo "== PyTorch W3-recipe --workers 2 --persistent"; load
PEER_DATA=$PEER_DATA $PY bench/python/recipe_peer.py --workers 2 --prefetch 2 --persistent --peers "$PEERS" 2>&1 | tail -3
load
