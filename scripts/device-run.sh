#!/usr/bin/env bash
# Runs on the GPU machine, from the repository root, with .device/ carried there by
# scripts/device-bundle.sh: the cuda module's tests (the GPU ones included), then the device
# benchmarks. Logs go to $OUT when it is set.
set -uo pipefail
out=${OUT:-/tmp/stoker-device}; mkdir -p "$out"
tar xzf .device/jre.tgz -C /tmp
J=/tmp/jre/bin/java
nvidia-smi --query-gpu=name,driver_version,memory.total,pcie.link.gen.current,pcie.link.width.current --format=csv | tee "$out/gpu.txt"
cp=$(ls .device/lib/*.jar | grep -v junit-console | tr '\n' ':').device/cuda-tests
$J --enable-native-access=ALL-UNNAMED -jar .device/lib/junit-console.jar execute --disable-banner --disable-ansi-colors \
  --class-path "$cp" --select-package dev.stoker.cuda --details=tree 2>&1 | tee "$out/cuda-tests.txt"
if [ "${1:-}" != "--tests-only" ]; then
  $J --enable-native-access=ALL-UNNAMED -cp "$cp" dev.stoker.cuda.measure.DeviceBench ${BENCH_ARGS:-} 2>&1 | tee "$out/device-bench.txt"
  # The W3-style loop end to end: JPEG decode by the workers into pinned batches, overlapped copies,
  # a fixed GPU step (makes W3's images in the cache folder first when there are none: about a minute).
  $J --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector -jar .device/stoker.jar \
    cuda --loop ${LOOP_ARGS:-} 2>&1 | tee "$out/device-loop.txt"
fi
