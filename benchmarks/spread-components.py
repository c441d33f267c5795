#!/usr/bin/env python3
"""Where a timed metric's spread comes from, from one run's topologies (best: one build, many topologies).

    benchmarks/spread-components.py RUN_FOLDER [METRIC...]      (default metrics: "mean time", "payments/s")

Per case (cell) and metric, on the log scale (so figures read as % of the mean):
  iterations  the variance iteration noise leaves in a topology's mean: mean over topologies of (SD/mean)^2 / n.
  γ(h)        half the mean squared difference of two topology means h topologies apart in the cell (a variogram);
              γ(1) is what two topologies started one after the other differ by: iterations + the topology itself
              + the machine's drift over that gap. A paired comparison's pair variance is about 2 γ(pair gap).
  drift       how γ grows with the lag (least squares over lags 1..4), per minute: the machine's drift, which a pair
              started next to each other mostly cancels and distant topologies do not.
  topology    γ extrapolated to lag 0 (γ(1) − one lag of drift) − iterations: a fresh topology's own spread.
  pair        what that predicts for a pair whose arms start one topology apart (the interleaved order):
              √(2 (iterations + topology + drift over one topology's duration)).
Intervals are approximate 95 % chi-square intervals (differences treated as independent), enough to tell the
components apart by an order of magnitude, not to the second digit. Needs only python3.
"""
import collections, csv, datetime, json, math, os, statistics, sys

CHI2 = {  # (df): (chi2 0.025, chi2 0.975)
    1: (0.000982, 5.024), 2: (0.0506, 7.378), 3: (0.216, 9.348), 4: (0.484, 11.14), 5: (0.831, 12.83),
    6: (1.237, 14.45), 7: (1.690, 16.01), 8: (2.180, 17.53), 9: (2.700, 19.02), 10: (3.247, 20.48),
    12: (4.404, 23.34), 15: (6.262, 27.49), 20: (9.591, 34.17), 25: (13.12, 40.65), 30: (16.79, 46.98),
    40: (24.43, 59.34), 60: (40.48, 83.30), 100: (74.22, 129.6), 200: (162.7, 241.1), 400: (346.5, 457.3),
}


def chi2(df):
    key = min(CHI2, key=lambda k: abs(k - df))
    low, high = CHI2[key]
    return low * df / key, high * df / key


def interval(value, df):
    if df < 1:
        return float("nan"), float("nan")
    low, high = chi2(df)
    return value * df / high, value * df / low


def pct(variance):
    return 100 * math.sqrt(variance) if variance >= 0 else -100 * math.sqrt(-variance)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    run = sys.argv[1]
    metrics = sys.argv[2:] or ["mean time", "payments/s"]
    started = {}
    manifest = os.path.join(run, "manifest.json")
    if os.path.exists(manifest):
        for case in json.load(open(manifest)).get("cases", []):
            started[case["case"]] = datetime.datetime.fromisoformat(case["started"])
    series = collections.defaultdict(list)
    for row in csv.DictReader(open(os.path.join(run, "topologies.csv"))):
        if row["metric"] in metrics and row["sd"] not in ("-", ""):
            series[(row["cell"], row["build"], row["metric"])].append(
                (int(row["topology"]), float(row["mean"]), float(row["sd"]), int(row["iterations"]), started.get(row["case"])))
    if not series:
        sys.exit(f"spread-components: no {', '.join(metrics)} rows with iterations in {run}/topologies.csv")
    print("| case | build | metric | topologies | iterations: SD % | topology: SD % | drift: SD % per minute | pair: SD % | γ(1): SD % (95 %) | γ(h), h = 1..4: SD % | s per lag |")
    print("|---|---|---|---:|---:|---:|---:|---:|---|---|---:|")
    for (cell, build, metric), rows in sorted(series.items()):
        rows.sort()
        k = len(rows)
        logs = [math.log(m) for _, m, _, _, _ in rows]
        iterations = statistics.fmean((sd / m) ** 2 / n for _, m, sd, n, _ in rows)
        lags = list(range(1, min(5, k - 1)))
        gamma = {h: statistics.fmean((logs[i] - logs[i + h]) ** 2 / 2 for i in range(k - h)) for h in lags}
        if not gamma:
            continue
        g1_low, g1_high = interval(gamma[1], k - 1)
        slope = float("nan")
        if len(lags) >= 2:
            mean_h = statistics.fmean(lags)
            mean_g = statistics.fmean(gamma[h] for h in lags)
            slope = sum((h - mean_h) * (gamma[h] - mean_g) for h in lags) / sum((h - mean_h) ** 2 for h in lags)
        times = [t for *_, t in rows if t is not None]
        per_lag = (times[-1] - times[0]).total_seconds() / (k - 1) if len(times) == k and k > 1 else float("nan")
        slope = max(slope, 0.0) if not math.isnan(slope) else 0.0
        topology = gamma[1] - slope - iterations
        drift_per_minute = slope / (per_lag / 60) if per_lag > 0 else float("nan")
        # One topology's duration: the lag's seconds shared by the topologies run between two of this cell.
        one_topology_minutes = per_lag / 60 / max(1, len([key for key in series if key[1] == build and key[2] == metric]))
        pair = 2 * (iterations + max(topology, 0.0) + drift_per_minute * one_topology_minutes)
        print(f"| {cell} | {build} | {metric} | {k} | {pct(iterations):.1f} | {pct(topology):.1f} | {pct(drift_per_minute):.1f} | {pct(pair):.1f} | "
              f"{pct(gamma[1]):.1f} ({pct(g1_low):.1f}–{pct(g1_high):.1f}) | {' '.join(f'{pct(gamma[h]):.1f}' for h in lags)} | {per_lag:.0f} |")
    print()
    print("pair: the SD of a pair whose arms start one topology apart, predicted from the components (compare the run's own pairs' SD in comparison.md).")


if __name__ == "__main__":
    main()
