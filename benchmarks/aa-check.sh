#!/usr/bin/env bash
# A/A check of the build verdict: the same image under two build names, RUNS times. If the method is honest,
# slower/faster appear in at most 5 % of the comparisons (cases × metrics × runs); the rest say same or unknown.
#   benchmarks/aa-check.sh RUNS IMAGE [run.sh options...]
#   e.g. benchmarks/aa-check.sh 4 lnbench-local/cln:v26.06.6-O2 --bitcoind-image lnbench-local/bitcoind:31.99 --no-pull --concurrency 1,10
set -euo pipefail
runs=${1:?usage: benchmarks/aa-check.sh RUNS IMAGE [run.sh options...]}
image=${2:?image}
shift 2
exec "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/verdict-check.sh" "$runs" "$image" "$image" "$@"
