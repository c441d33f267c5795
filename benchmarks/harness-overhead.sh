#!/usr/bin/env bash
# What the harness adds to what it measures: a plain loop over the nodes' RPC sockets (benchmarks/plain_loop.py: the
# same images and node command lines in containers, no harness) and the harness, alternated in one sitting
# (plain, harness, plain, harness…), at Concurrency 1 and 10 with traces off, both paying 1,000,000 msat (the
# harness's default: above the dust limit, so each commitment carries the HTLC and its signatures); prints each one's
# figures and the ratios with 95 % intervals over the rounds. Each round measures both ways of starting invocations:
# back to back (the loop as it is, the harness with --back-to-back) and settled (the loop with --settle, the harness
# by default: each invocation waits, untimed, until the nodes have fallen quiet).
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
  for mode in back-to-back settled; do
    loop_flag=$([ $mode = settled ] && echo --settle || true)
    harness_flag=$([ $mode = back-to-back ] && echo --back-to-back || true)
    echo "round $round/$rounds, $mode: plain loop"
    python3 "$here/plain_loop.py" "$cln" "$btc" --concurrency 1,10 --amount-msat 1000000 --json "$results/plain-$mode-$round.json" $loop_flag "$@"
    echo "round $round/$rounds, $mode: harness"
    "$here/../run.sh" AlicePaysBob --cln-image "$cln" --bitcoind-image "$btc" --no-pull --concurrency 1,10 --topologies 2 --iterations 20 \
      --amount-msat 1000000 --traces off --no-zip --seed "$round" $harness_flag --results "$results/harness-$mode-$round" >"$results/harness-$mode-$round.log" 2>&1 \
      || { echo "harness run failed: see $results/harness-$mode-$round.log" >&2; exit 1; }
  done
done
python3 - "$results" <<'PY'
import glob, json, math, statistics, sys
results = sys.argv[1]
T975 = {1: 12.71, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228, 11: 2.201, 12: 2.179, 15: 2.131, 20: 2.086}
def harness_figures(path):
    by = {}
    for case in json.load(open(path))["cases"]:
        c = case["case"].split("Concurrency=")[1].split(",")[0]
        by.setdefault(c, []).append(case)
    return {c: {"mean_ms": statistics.fmean(x["mean_ms"] for x in cases),
                "payments_per_second": statistics.fmean(x["payments_per_second"] for x in cases)} for c, cases in by.items()}
print("| mode | concurrency | figure | plain loop (each round) | harness (each round) | harness / plain (95 % interval over rounds) |")
print("|---|---:|---|---|---|---|")
for mode in ("back-to-back", "settled"):
    rounds = []
    for path in sorted(glob.glob(f"{results}/plain-{mode}-*.json")):
        r = path.rsplit("-", 1)[1].split(".")[0]
        summary = glob.glob(f"{results}/harness-{mode}-{r}/*/summary.json")
        if summary:
            rounds.append((json.load(open(path)), harness_figures(summary[0])))
    for c in ("1", "10"):
        for key, name in (("mean_ms", "ms per invocation"), ("payments_per_second", "payments/s")):
            pairs = [(plain[c][key], harness[c][key]) for plain, harness in rounds if c in plain and c in harness]
            if not pairs:
                continue
            logs = [math.log(h / p) for p, h in pairs]
            mean = statistics.fmean(logs)
            if len(logs) > 1:
                half = T975.get(len(logs) - 1, 2.0) * statistics.stdev(logs) / math.sqrt(len(logs))
                ratio = f"{math.exp(mean):.3f} ({math.exp(mean - half):.3f}–{math.exp(mean + half):.3f})"
            else:
                ratio = f"{math.exp(mean):.3f}"
            print(f"| {mode} | {c} | {name} | {', '.join(f'{p:.1f}' for p, _ in pairs)} | {', '.join(f'{h:.1f}' for _, h in pairs)} | {ratio} |")
PY
