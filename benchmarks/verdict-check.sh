#!/usr/bin/env bash
# Repeats a build comparison and counts its verdicts: how often each metric says slower / faster / same / unknown,
# the median width of the intervals, and the ratios' spread; then the true ratio as all runs' topology pairs pooled
# tell it, how many runs' intervals cover it, and the change each run could detect ('detects ≥'). Proves the verdict on a known answer: the same image
# twice (A/A: slower/faster must stay at or below 5 %; see aa-check.sh) or a build with a known slowdown (power).
#   benchmarks/verdict-check.sh RUNS BASE_IMAGE CANDIDATE_IMAGE [run.sh options...]
#   e.g. benchmarks/verdict-check.sh 5 lnbench-local/cln:v26.06.6-O2 lnbench-local/cln:v26.06.6-O2-burn3ms \
#          --bitcoind-image lnbench-local/bitcoind:31.99 --no-pull --concurrency 1,10
# Results under $LNBENCH_VERDICT_RESULTS or a temp folder; each run's seed is its number (reproducible order).
set -euo pipefail
runs=${1:?usage: benchmarks/verdict-check.sh RUNS BASE_IMAGE CANDIDATE_IMAGE [run.sh options...]}
base=${2:?base image}
candidate=${3:?candidate image}
shift 3
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
results=${LNBENCH_VERDICT_RESULTS:-$(mktemp -d /tmp/lnb-verdicts.XXXX)}
mkdir -p "$results"
echo "results: $results"
source "$here/repeat-runs.sh"
repeat_runs "$results" "$runs" AlicePaysBob --build "base=$base" --build "candidate=$candidate" "$@"
python3 - "$results" <<'PY'
import collections, csv, glob, statistics, sys
rows = []
for path in sorted(glob.glob(sys.argv[1] + "/*/comparisons.csv")):
    rows += [r for r in csv.DictReader(open(path)) if r["kind"] == "build"]
if not rows:
    sys.exit("verdict-check: no comparisons found")
by = collections.defaultdict(list)
for r in rows:
    by[(r["case"], r["metric"])].append(r)
print(f"{len(rows)} comparisons ({len(glob.glob(sys.argv[1] + '/*/comparisons.csv'))} runs)")
print("| case | metric | n | slower | faster | same | unknown | ratio median (min–max) | interval width median |")
print("|---|---|---:|---:|---:|---:|---:|---|---:|")
for (case, metric), rs in sorted(by.items()):
    verdicts = collections.Counter(r["verdict"].split(":")[0] for r in rs)
    ratios = [float(r["ratio"]) for r in rs if r["ratio"] != "-"]
    widths = [float(r["high"]) - float(r["low"]) for r in rs if r["low"] != "-"]
    print(f"| {case} | {metric} | {len(rs)} | {verdicts['slower']} | {verdicts['faster']} | {verdicts['same']} | {verdicts['unknown']} | "
          f"{statistics.median(ratios):.3f} ({min(ratios):.3f}–{max(ratios):.3f}) | {statistics.median(widths):.3f} |")
decided = sum(1 for r in rows if r["verdict"] in ("slower", "faster"))
print(f"slower or faster in {decided} of {len(rows)} comparisons ({100 * decided / len(rows):.1f} %)")

# The true ratio, as well as these runs can tell it: every topology pair of every run pooled (pairs are independent
# replicates), its geometric mean with a 95 % t interval; then how many runs' intervals cover it, and the smallest
# change each run's interval would detect 80 % of the time ('detects ≥').
import math
pairs = collections.defaultdict(list)
for path in sorted(glob.glob(sys.argv[1] + "/*/topologies.csv")):
    cells = collections.defaultdict(dict)
    for r in csv.DictReader(open(path)):
        if r["traces"] != "on" and r["traces"] != "":
            continue
        cells[(r["cell"], r["metric"], r["topology"])][r["build"]] = float(r["mean"])
    for (cell, metric, topology), by_build in cells.items():
        if "base" in by_build and "candidate" in by_build and by_build["base"] > 0 and by_build["candidate"] > 0:
            pairs[(cell, metric)].append(math.log(by_build["candidate"] / by_build["base"]))
T975 = {n: t for n, t in [(5, 2.571), (10, 2.228), (20, 2.086), (30, 2.042), (40, 2.021), (60, 2.000), (120, 1.980)]}
def t975(df):
    return next((T975[n] for n in sorted(T975) if df <= n), 1.96)
print()
print("| case | metric | pairs | pooled ratio (95 % interval) | runs whose interval covers it | detects ≥ (median of runs) |")
print("|---|---|---:|---|---:|---:|")
for (case, metric), rs in sorted(by.items()):
    logs = pairs.get((case, metric), [])
    if len(logs) < 3:
        continue
    mean = statistics.fmean(logs)
    half = t975(len(logs) - 1) * statistics.stdev(logs) / math.sqrt(len(logs))
    pooled = math.exp(mean)
    covered = sum(1 for r in rs if r["low"] != "-" and float(r["low"]) <= pooled <= float(r["high"]))
    detect = [float(r["detectable_percent"]) for r in rs if r.get("detectable_percent", "-") not in ("-", "")]
    detects = f"{statistics.median(detect):.1f} %" if detect else "-"
    print(f"| {case} | {metric} | {len(logs)} | {pooled:.3f} ({math.exp(mean - half):.3f}–{math.exp(mean + half):.3f}) | "
          f"{covered} of {len(rs)} | {detects} |")
PY
