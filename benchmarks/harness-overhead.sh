#!/usr/bin/env bash
# What the harness adds to what it measures: a plain loop over the nodes' RPC sockets (benchmarks/plain_loop.py: the
# same images and node command lines in containers, no harness) and the harness, alternated in one sitting
# (plain, harness, plain, harness…), at Concurrency 1 and 10 with traces off, both paying 1,000,000 msat (the
# harness's default: above the dust limit, so each commitment carries the HTLC and its signatures); prints each one's
# figures and the ratios.
#   benchmarks/harness-overhead.sh CLN_IMAGE BITCOIND_IMAGE [ROUNDS] [-- plain_loop.py options, e.g. --log-stdout]
#   e.g. benchmarks/harness-overhead.sh lnbench-local/cln:v26.06.6-O2 lnbench-local/bitcoind:31.99 2
# The harness runs `--topologies 2 --iterations 20 --traces off` per round (40 payments at C=1, 400 at 10); the plain
# loop 200 payments per concurrency. Results under $LNBENCH_OVERHEAD_RESULTS or a temp folder.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cln=${1:?usage: benchmarks/harness-overhead.sh CLN_IMAGE BITCOIND_IMAGE [ROUNDS] [-- plain_loop.py options]}
btc=${2:?bitcoind image}
rounds=${3:-2}
shift $(( $# < 3 ? $# : 3 ))
[ "${1:-}" = "--" ] && shift
results=${LNBENCH_OVERHEAD_RESULTS:-$(mktemp -d /tmp/lnb-overhead.XXXX)}
mkdir -p "$results"
echo "results: $results"
for round in $(seq 1 "$rounds"); do
  echo "round $round/$rounds: plain loop"
  python3 "$here/plain_loop.py" "$cln" "$btc" --concurrency 1,10 --amount-msat 1000000 --json "$results/plain-$round.json" "$@"
  echo "round $round/$rounds: harness"
  "$here/../run.sh" AlicePaysBob --cln-image "$cln" --bitcoind-image "$btc" --no-pull --concurrency 1,10 --topologies 2 --iterations 20 \
    --amount-msat 1000000 --traces off --no-zip --seed "$round" --results "$results/harness-$round" >"$results/harness-$round.log" 2>&1 \
    || { echo "harness run failed: see $results/harness-$round.log" >&2; exit 1; }
done
python3 - "$results" <<'PY'
import glob, json, statistics, sys
results = sys.argv[1]
plain = {c: [] for c in ("1", "10")}
harness = {c: [] for c in ("1", "10")}
for path in sorted(glob.glob(f"{results}/plain-*.json")):
    for c, figures in json.load(open(path)).items():
        plain.setdefault(c, []).append(figures)
for path in sorted(glob.glob(f"{results}/harness-*/*/summary.json")):
    by = {}
    for case in json.load(open(path))["cases"]:
        c = case["parameters"]["Concurrency"] if isinstance(case.get("parameters"), dict) else case["case"].split("Concurrency=")[1].split(",")[0]
        by.setdefault(str(c), []).append(case)
    for c, cases in by.items():
        harness.setdefault(c, []).append({"mean_ms": statistics.fmean(x["mean_ms"] for x in cases),
                                          "payments_per_second": statistics.fmean(x["payments_per_second"] for x in cases)})
print("| concurrency | figure | plain loop (each round) | harness (each round) | harness / plain |")
print("|---:|---|---|---|---:|")
for c in ("1", "10"):
    for key, name in (("mean_ms", "ms per invocation"), ("payments_per_second", "payments/s")):
        p = [r[key] for r in plain.get(c, [])]
        h = [r[key] for r in harness.get(c, [])]
        if p and h:
            print(f"| {c} | {name} | {', '.join(f'{v:.1f}' for v in p)} | {', '.join(f'{v:.1f}' for v in h)} | {statistics.fmean(h) / statistics.fmean(p):.3f} |")
PY
