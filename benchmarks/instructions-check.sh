#!/usr/bin/env bash
# Repeats an instruction comparison (--instructions) of several builds against one baseline and counts, per case,
# metric and candidate, its verdicts; then the true ratio as all runs' topology pairs pooled tell it, how many runs'
# intervals cover it, and the change each run could detect ('detects ≥'). Give the baseline's image twice under
# another name for the A/A false-call rate, and builds with a known added cost for power and coverage.
#   benchmarks/instructions-check.sh RUNS BASE_IMAGE NAME=IMAGE... [-- run.sh options...]
#   e.g. benchmarks/instructions-check.sh 4 lnbench-local/cln:v26.06.6-O2 same=lnbench-local/cln:v26.06.6-O2 \
#          work1=lnbench-local/cln:v26.06.6-O2-work1 work3=lnbench-local/cln:v26.06.6-O2-work3 \
#          -- --bitcoind-image lnbench-local/bitcoind:31.99 --no-pull --concurrency 1
#   benchmarks/instructions-check.sh --analyse DIR     # the tables again, from the run folders under DIR
# Results under $LNBENCH_VERDICT_RESULTS or a temp folder; each run's seed is its number (reproducible order).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [ "${1:-}" = "--analyse" ]; then
  results=${2:?usage: benchmarks/instructions-check.sh --analyse DIR}
else
  runs=${1:?usage: benchmarks/instructions-check.sh RUNS BASE_IMAGE NAME=IMAGE... [-- run.sh options...]}
  base=${2:?base image}
  shift 2
  builds=(--build "base=$base")
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do builds+=(--build "$1"); shift; done
  [ "${1:-}" = "--" ] && shift
  results=${LNBENCH_VERDICT_RESULTS:-$(mktemp -d /tmp/lnb-instructions.XXXX)}
  mkdir -p "$results"
  echo "results: $results"
  source "$here/repeat-runs.sh"
  repeat_runs "$results" "$runs" AlicePaysBob --instructions "${builds[@]}" "$@"
fi
python3 - "$results" <<'PY'
import collections, csv, glob, math, statistics, sys
rows = []
runs = sorted(glob.glob(sys.argv[1] + "/**/comparisons.csv", recursive=True))
for path in runs:
    rows += [r for r in csv.DictReader(open(path)) if r["kind"] == "build"]
if not rows:
    sys.exit("instructions-check: no comparisons found")
by = collections.defaultdict(list)
for r in rows:
    by[(r["case"], r["metric"], r["baseline"], r["candidate"])].append(r)
pairs = collections.defaultdict(list)
for path in sorted(glob.glob(sys.argv[1] + "/**/topologies.csv", recursive=True)):
    cells = collections.defaultdict(dict)
    for r in csv.DictReader(open(path)):
        cells[(r["cell"], r["metric"], r["topology"])][r["build"]] = float(r["mean"])
    for (cell, metric, topology), by_build in cells.items():
        for (case, m, baseline, candidate) in by:
            if case == cell and m == metric and baseline in by_build and candidate in by_build:
                pairs[(case, m, baseline, candidate)].append(math.log(by_build[candidate] / by_build[baseline]))
T975 = [(2, 4.303), (3, 3.182), (4, 2.776), (5, 2.571), (10, 2.228), (20, 2.086), (30, 2.042), (40, 2.021), (60, 2.000), (120, 1.980)]
def t975(df):
    return next((t for n, t in T975 if df <= n), 1.96)
print(f"{len(rows)} comparisons ({len(runs)} runs)")
print("| case | metric | candidate | runs | slower | faster | same | unknown | pooled ratio (95 % interval), pairs | intervals covering it | detects ≥ (median) | pairs' SD % (median) |")
print("|---|---|---|---:|---:|---:|---:|---:|---|---:|---:|---:|")
for key, rs in sorted(by.items(), key=lambda kv: (kv[0][0], kv[0][3], kv[0][1])):
    case, metric, baseline, candidate = key
    verdicts = collections.Counter(r["verdict"].split(":")[0] for r in rs)
    logs = pairs.get(key, [])
    pooled, covered, interval = float("nan"), "-", "-"
    if len(logs) >= 3:
        mean = statistics.fmean(logs)
        half = t975(len(logs) - 1) * statistics.stdev(logs) / math.sqrt(len(logs))
        pooled = math.exp(mean)
        interval = f"{pooled:.4f} ({math.exp(mean - half):.4f}–{math.exp(mean + half):.4f}), {len(logs)}"
        covered = f"{sum(1 for r in rs if r['low'] != '-' and float(r['low']) <= pooled <= float(r['high']))} of {len(rs)}"
    detect = [float(r["detectable_percent"]) for r in rs if r.get("detectable_percent", "-") not in ("-", "")]
    sds = [float(r["pair_sd_percent"]) for r in rs if r.get("pair_sd_percent", "-") not in ("-", "")]
    print(f"| {case} | {metric} | {candidate} | {len(rs)} | {verdicts['slower']} | {verdicts['faster']} | {verdicts['same']} | {verdicts['unknown']} | "
          f"{interval} | {covered} | {statistics.median(detect):.2f} % | {statistics.median(sds):.2f} |" if detect and sds else
          f"| {case} | {metric} | {candidate} | {len(rs)} | {verdicts['slower']} | {verdicts['faster']} | {verdicts['same']} | {verdicts['unknown']} | {interval} | {covered} | - | - |")
PY
