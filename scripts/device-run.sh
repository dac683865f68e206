#!/usr/bin/env bash
# Runs on the GPU machine, from the repository root, with .device/ carried there by
# scripts/device-bundle.sh: the cuda module's tests (the GPU ones included), the device
# benchmarks, and the W3-style image loop with CPU and with GPU (nvJPEG) decoding. Logs go to $OUT
# when it is set. With --tests-only, the tests alone. PARTS picks parts (default: all of
# "tests bench cpu gpu peer"; "variants" and "nsys" on demand); TESTS the test package (default
# dev.stoker.cuda); VARIANTS the GPU decoder's variants to compare under a step.
set -uo pipefail
out=${OUT:-/tmp/stoker-device}; mkdir -p "$out"
tar xzf .device/jre.tgz -C /tmp
J="/tmp/jre/bin/java --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector"
[ -f .device/native/libturbojpeg.so.0 ] && export STOKER_TURBOJPEG=$PWD/.device/native/libturbojpeg.so.0
nvidia-smi --query-gpu=name,driver_version,memory.total,pcie.link.gen.current,pcie.link.width.current --format=csv | tee "$out/gpu.txt"
# what the GPU-decode path can use there: nvJPEG, wherever CUDA or a Python wheel put it
nv=$(find / -xdev -name 'libnvjpeg.so*' 2>/dev/null | grep -v '^/proc' | sort | head -1)
{ echo "nproc: $(nproc)"; echo "nvJPEG: ${nv:-none found}"; find / -xdev -name 'libnvjpeg*.so*' 2>/dev/null | head; } | tee "$out/probe.txt"
[ -n "$nv" ] && [ -z "${STOKER_NVJPEG:-}" ] && export STOKER_NVJPEG=$nv
data=${DATA:-/tmp/bd}
if [ ! -d "$data/jpeg" ] && [ -f .device/gen_data.py ]; then
  (time timeout 300 python3 .device/gen_data.py --root "$data" --only jpeg) 2>&1 | tail -4
fi
cp=$(ls .device/lib/*.jar | grep -v junit-console | tr '\n' ':').device/cuda-tests
parts=${PARTS:-tests bench cpu gpu peer}
[ "${1:-}" = "--tests-only" ] && parts=tests
has() { [[ " $parts " == *" $1 "* ]]; }
has tests && timeout 300 $J -jar .device/lib/junit-console.jar execute --disable-banner --disable-ansi-colors \
  --class-path "$cp" --select-package "${TESTS:-dev.stoker.cuda}" --details=tree 2>&1 | tee "$out/cuda-tests.txt"
has bench && timeout 200 $J -cp "$cp" dev.stoker.cuda.measure.DeviceBench ${BENCH_ARGS:-} 2>&1 | tee "$out/device-bench.txt"
w=$(( $(nproc) - 1 ))
has cpu && timeout 300 $J -cp "$cp" dev.stoker.cuda.measure.JpegLoopBench "$data" --workers $w ${LOOP_ARGS:---step-ms 40,30,20,15,10} 2>&1 | tee "$out/loop-cpu.txt"
has gpu && timeout 300 $J -cp "$cp" dev.stoker.cuda.measure.JpegLoopBench "$data" --workers $w --gpu-only ${LOOP_ARGS:---step-ms 40,20,10,5} 2>&1 | tee "$out/loop-gpu.txt"
# the GPU-decode loop under each decoder variant (scratch memory, engine pipelining), and a CUDA API
# trace of it where Nsight Systems is installed: which call makes the decode wait for the step
has variants && timeout 300 $J -cp "$cp" dev.stoker.cuda.measure.JpegLoopBench "$data" --workers 4 \
  --variants "${VARIANTS:-cuda,cuda+hostrelease}" ${VARIANT_ARGS:---passes 2 --step-ms 40,10} 2>&1 | tee -a "$out/loop-variants.txt"
nsys=$(command -v nsys || ls /usr/local/cuda*/bin/nsys /opt/nvidia/nsight-systems*/*/bin/nsys 2>/dev/null | head -1)
if has nsys; then
  if [ -z "$nsys" ]; then echo "nsys: not installed" | tee "$out/nsys.txt"; else
    for v in ${NSYS_VARIANTS:-cuda pools}; do
      timeout 150 "$nsys" profile -t cuda --sample=none --cpuctxsw=none -f true -o "/tmp/loop-$v" $J -cp "$cp" \
        dev.stoker.cuda.measure.JpegLoopBench "$data" --workers 4 --passes 1 --variants "$v" --step-ms 40 >"$out/nsys-run-$v.txt" 2>&1
      timeout 120 "$nsys" stats -q -r cuda_api_sum "/tmp/loop-$v.nsys-rep" > "$out/nsys-api-sum-$v.txt" 2>&1
      # the calls that took over 5 ms, on which thread: what the decode waited in
      timeout 120 "$nsys" stats -q -r cuda_api_trace -f csv "/tmp/loop-$v.nsys-rep" 2>/dev/null \
        | python3 -c 'import csv,sys,collections
r=list(csv.DictReader(sys.stdin)); k=[c for c in (r[0].keys() if r else []) if "Dur" in c]
print("columns:", list(r[0].keys()) if r else "none")
long=[x for x in r if k and float(x[k[0]] or 0) > 5e6]
print(len(r), "calls,", len(long), "over 5 ms"); print(collections.Counter(x.get("Name") for x in long).most_common(20))
for x in long[:30]: print(x)' > "$out/nsys-long-$v.txt" 2>&1
    done
  fi
fi
# PyTorch's side of the same loop, in the same sitting (the image's python3 has torch and torchvision)
has peer && PYTHONUNBUFFERED=1 timeout 300 python3 bench/python/device_loop_peer.py --data "$data" --workers $w ${PEER_ARGS:-} 2>&1 | tee "$out/loop-peer.txt"
true
