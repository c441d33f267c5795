#!/usr/bin/env bash
# What the harness adds to what it measures: the harness and a plain loop over the nodes' RPC sockets
# (benchmarks/plain_loop.py: the same images and node command lines in containers, no harness) taking turns invocation
# by invocation, at Concurrency 1 and 10 with traces off, both paying 1,000,000 msat (the harness's default: above the
# dust limit, so each commitment carries the HTLC and its signatures). The loop's nodes stay up beside the harness's
# topologies and, before each of the harness's invocations (untimed, before its wait for quiet nodes), the loop makes
# one invocation of as many payments at once (LNBENCH_TURN_SOCKET), so each harness invocation has a loop invocation
# of the same moment of the machine, as alternating arms do. Prints, per mode and concurrency, the ratio harness / loop
# with a 95 % t-interval over the harness's topologies (each topology's measured invocations against the loop's turns
# beside them). Modes: settled (the harness's default and the loop's --settle: each invocation waits, untimed, until
# its nodes have fallen quiet) and back-to-back (neither waits).
#   benchmarks/harness-overhead.sh CLN_IMAGE BITCOIND_IMAGE [RUNS] [TOPOLOGIES] [-- plain_loop.py options, e.g. --log-stdout]
#   e.g. benchmarks/harness-overhead.sh lnbench-local/cln:v26.06.6-O2 lnbench-local/bitcoind:31.99 2 4
# Each harness run: `--topologies TOPOLOGIES --iterations 20 --concurrency 1,10 --traces off` (default 2 runs of 4).
# Results under $LNBENCH_OVERHEAD_RESULTS or a temp folder; LNBENCH_OVERHEAD_MODES="settled" measures one mode.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cln=${1:?usage: benchmarks/harness-overhead.sh CLN_IMAGE BITCOIND_IMAGE [RUNS] [TOPOLOGIES] [-- plain_loop.py options]}
btc=${2:?bitcoind image}
runs=${3:-2}
topologies=${4:-4}
shift $(( $# < 4 ? $# : 4 ))
[ "${1:-}" = "--" ] && shift
results=${LNBENCH_OVERHEAD_RESULTS:-$(mktemp -d /tmp/lnb-overhead.XXXX)}
mkdir -p "$results"
echo "results: $results"
loop_pid=
stop_loop() { [ -n "$loop_pid" ] && kill -TERM "$loop_pid" 2>/dev/null && wait "$loop_pid" 2>/dev/null; loop_pid=; }
trap stop_loop EXIT
for mode in ${LNBENCH_OVERHEAD_MODES:-settled back-to-back}; do
  loop_flag=$([ "$mode" = settled ] && echo --settle || true)
  harness_flag=$([ "$mode" = back-to-back ] && echo --back-to-back || true)
  socket="$results/turns-$mode.sock"
  echo "$mode: starting the plain loop's nodes"
  python3 -u "$here/plain_loop.py" "$cln" "$btc" --turns "$socket" --turns-log "$results/turns-$mode.jsonl" $loop_flag "$@" >"$results/loop-$mode.log" 2>&1 &
  loop_pid=$!
  until grep -q '^ready' "$results/loop-$mode.log" 2>/dev/null; do
    kill -0 "$loop_pid" 2>/dev/null || { echo "the plain loop failed: see $results/loop-$mode.log" >&2; exit 1; }
    sleep 1
  done
  for run in $(seq 1 "$runs"); do
    echo "$mode: harness run $run/$runs, taking turns with the loop"
    LNBENCH_TURN_SOCKET="$socket" "$here/../run.sh" AlicePaysBob --cln-image "$cln" --bitcoind-image "$btc" --no-pull --concurrency 1,10 \
      --topologies "$topologies" --iterations 20 --amount-msat 1000000 --traces off --no-zip --seed "$run" $harness_flag \
      --results "$results/harness-$mode-$run" >"$results/harness-$mode-$run.log" 2>&1 \
      || { echo "harness run failed: see $results/harness-$mode-$run.log" >&2; exit 1; }
  done
  stop_loop
done
python3 - "$results" <<'PY'
import collections, glob, json, math, os, statistics, sys
results = sys.argv[1]
T975 = {1: 12.71, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228, 11: 2.201, 12: 2.179, 13: 2.16, 14: 2.145, 15: 2.131}
print("| mode | concurrency | topologies | harness ms per invocation | loop ms per invocation | harness / loop, ms (95 % interval) | harness / loop, payments/s |")
print("|---|---:|---:|---:|---:|---|---|")
for mode in ("settled", "back-to-back"):
    log = f"{results}/turns-{mode}.jsonl"
    if not os.path.exists(log):
        continue
    # Each harness run's turns apart (the loop numbers them by connection: run 1, 2, … in the order the runs ran).
    turns = collections.defaultdict(dict)
    for line in open(log):
        t = json.loads(line)
        turns[(t["run"], t["case"])][t["invocation"]] = t["ms"]
    by_concurrency = collections.defaultdict(list)
    summaries = sorted(glob.glob(f"{results}/harness-{mode}-*/*/summary.json"), key=lambda p: int(p.split(f"harness-{mode}-")[1].split("/")[0]))
    for run, summary in enumerate(summaries, 1):
        for case in json.load(open(summary))["cases"]:
            harness = case["iterations_ms"]
            mine = turns[(run, case["case"])]
            loop = [mine[k] for k in sorted(mine)][-len(harness):]
            if len(loop) != len(harness):
                sys.exit(f"{case['case']}: {len(harness)} measured invocations but {len(loop)} turns of the loop")
            concurrency = int(case["parameters"]["Concurrency"])
            by_concurrency[concurrency].append((statistics.fmean(harness), statistics.fmean(loop)))
    for c, pairs in sorted(by_concurrency.items()):
        logs = [math.log(h / l) for h, l in pairs]
        mean = statistics.fmean(logs)
        half = T975.get(len(logs) - 1, 2.0) * statistics.stdev(logs) / math.sqrt(len(logs)) if len(logs) > 1 else float("inf")
        h_ms, l_ms = statistics.fmean(h for h, _ in pairs), statistics.fmean(l for _, l in pairs)
        print(f"| {mode} | {c} | {len(pairs)} | {h_ms:.1f} | {l_ms:.1f} | {math.exp(mean):.3f} ({math.exp(mean - half):.3f}–{math.exp(mean + half):.3f}) | "
              f"{math.exp(-mean):.3f} ({math.exp(-mean - half):.3f}–{math.exp(-mean + half):.3f}) |")
PY
