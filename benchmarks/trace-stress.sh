#!/usr/bin/env bash
# Collector stress benchmark: Core Lightning's own span blaster (common/test/run-trace, built from a Core Lightning
# source tree; not part of this repository) sends spans as fast as it can to CLN_TRACE_SOCKET. Run it once against
# a minimal C receive loop (uds-recv.c) and once against the harness's collector (Lightning.Bench.TraceStress),
# in the same conditions, and print both counts, the ratio and the harness's peak memory.
#   benchmarks/trace-stress.sh /path/to/lightning/common/test/run-trace [ROUNDS]
set -euo pipefail
run_trace=${1:?usage: benchmarks/trace-stress.sh /path/to/common/test/run-trace [ROUNDS]}
rounds=${2:-1}
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work=$(mktemp -d /tmp/lnb-stress.XXXX)
trap 'rm -rf "$work"' EXIT

cc -O2 -o "$work/uds-recv" "$here/uds-recv.c"
dotnet build "$here/../bench/Lightning.Bench.TraceStress" -c Release -nologo -v q >/dev/null
harness="$here/../bench/Lightning.Bench.TraceStress/bin/Release/net10.0/Lightning.Bench.TraceStress.dll"
echo "kernel: net.unix.max_dgram_qlen=$(cat /proc/sys/net/unix/max_dgram_qlen) net.core.rmem_max=$(cat /proc/sys/net/core/rmem_max); $(nproc) cores"

# Starts a receiver, waits for its "ready", runs run-trace against its socket, prints the receiver's last line.
measure() {
  local name=$1; shift
  local sock="$work/$name.sock" out="$work/$name.out"
  "$@" >"$out" 2>&1 &
  local pid=$!
  for _ in $(seq 1 200); do grep -q ready "$out" 2>/dev/null && break; sleep 0.05; done
  local start=$(date +%s.%N)
  CLN_TRACE_SOCKET="$sock" "$run_trace" >/dev/null 2>&1 || true
  local end=$(date +%s.%N)
  wait "$pid"
  printf '%-8s run-trace took %6.2f s; %s\n' "$name" "$(echo "$end - $start" | bc)" "$(tail -1 "$out")"
}

for round in $(seq 1 "$rounds"); do
  echo "round $round"
  measure c "$work/uds-recv" "$work/c.sock" 2000
  measure harness dotnet "$harness" --socket "$work/harness.sock" --idle-ms 2000
  c=$(awk '{print $2}' "$work/c.out" | tail -1)
  h=$(awk '/^received/ {print $2}' "$work/harness.out" | tail -1)
  echo "harness/c = $(echo "scale=4; $h / $c" | bc)"
done
