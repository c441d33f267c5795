#!/usr/bin/env bash
# Tracing overhead benchmark: runs AlicePaysBob RUNS times with tracing on and off in the same run (each case on a
# fresh topology), alternating which mode goes first, and prints each run's on/off throughput ratio, their mean with
# a 95 % confidence interval, and the means by order. Run-to-run noise on one machine (±5–10 %) is larger than the
# overhead, so one run says little: the ratio of many runs does.
#   benchmarks/trace-overhead.sh RUNS [run.sh options...]
#   e.g. benchmarks/trace-overhead.sh 12 --cln-image lnbench-local/cln:v26.06.6-O2 --bitcoind-image lnbench-local/bitcoind:31.99 --no-pull
# Defaults: --concurrency 10 --iterations 60 (pass them to change); results under $LNBENCH_OVERHEAD_RESULTS or a temp folder.
# LNBENCH_OVERHEAD_MODES=on,off,unread adds the nodes-trace-but-nobody-reads mode (splits the nodes' cost from the
# harness's); the order of the modes rotates from run to run. Needs python3 for the statistics.
set -euo pipefail
runs=${1:?usage: benchmarks/trace-overhead.sh RUNS [run.sh options...]}
shift
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
results=${LNBENCH_OVERHEAD_RESULTS:-$(mktemp -d /tmp/lnb-overhead.XXXX)}
mkdir -p "$results"
defaults=()
[[ " $* " == *" --concurrency "* ]] || defaults+=(--concurrency 10)
[[ " $* " == *" --iterations "* ]] || defaults+=(--iterations 60)
# One topology per mode and run: this script replicates over runs (a run with --topologies K judges the modes itself,
# see comparison.md).
[[ " $* " == *" --topologies "* ]] || defaults+=(--topologies 1)
echo "results: $results"
IFS=, read -r -a modes <<<"${LNBENCH_OVERHEAD_MODES:-on,off}"
for run in $(seq 1 "$runs"); do
  order=""
  for i in "${!modes[@]}"; do order+="${order:+,}${modes[$(( (i + run - 1) % ${#modes[@]} ))]}"; done
  printf 'run %d/%d (--traces %s)... ' "$run" "$runs" "$order"
  if ! "$here/../run.sh" AlicePaysBob "${defaults[@]}" "$@" --traces "$order" --no-zip --results "$results" \
      >"$results/run-$run.log" 2>&1; then
    echo "failed: see $results/run-$run.log" >&2
    exit 1
  fi
  python3 -c 'import glob, json, sys; s = json.load(open(sorted(glob.glob(sys.argv[1] + "/*/summary.json"), key=lambda p: p)[-1]))
print("  ".join("%s %.1f/s" % (c["parameters"]["Traces"], c["payments_per_second"]) for c in s["cases"]))' "$results"
done
python3 - "$results" <<'PY'
import glob, json, math, statistics, sys
# Two-sided 95 % quantiles of Student's t by degrees of freedom (normal beyond 30).
T95 = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31, 9: 2.26, 10: 2.23, 11: 2.20, 12: 2.18,
       13: 2.16, 14: 2.14, 15: 2.13, 16: 2.12, 17: 2.11, 18: 2.10, 19: 2.09, 20: 2.09, 25: 2.06, 30: 2.04}
def t95(df):
    return T95.get(df) or next((T95[k] for k in sorted(T95) if k >= df), 1.96)
runs = []
for path in sorted(glob.glob(sys.argv[1] + "/*/summary.json")):
    cases = json.load(open(path))["cases"]
    pps = {c["parameters"]["Traces"]: c["payments_per_second"] for c in cases if c.get("completed")}
    if len(pps) == len(cases) and "off" in pps:
        runs.append((cases[0]["parameters"]["Traces"], pps))
if len(runs) < 2:
    sys.exit("trace-overhead: fewer than two complete runs")
modes = list(runs[0][1])
print(f"runs: {len(runs)}; payments/s mean: " + ", ".join(f"{m} {statistics.mean(p[m] for _, p in runs):.1f}" for m in modes))
pairs = [(m, "off") for m in modes if m != "off"] + ([("on", "unread")] if {"on", "unread"} <= set(modes) else [])
for a, b in pairs:
    ratios = [p[a] / p[b] for _, p in runs]
    mean, sd = statistics.mean(ratios), statistics.stdev(ratios)
    half = t95(len(ratios) - 1) * sd / math.sqrt(len(ratios))
    print(f"{a}/{b} per run: " + " ".join(f"{r:.3f}" for r in ratios))
    print(f"{a}/{b} throughput ratio: mean {mean:.3f} (95 % CI {mean - half:.3f} to {mean + half:.3f}), sd {sd:.3f}, "
          f"median {statistics.median(ratios):.3f}")
    for first in modes:
        values = [p[a] / p[b] for f, p in runs if f == first]
        if values:
            print(f"  {first} first: mean {statistics.mean(values):.3f} over {len(values)} runs")
PY
