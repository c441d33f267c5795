#!/usr/bin/env python3
"""Is a pair's spread the topology or the moment? Two live topologies of one image, measured in alternating blocks.

    benchmarks/spread-live.py CLN_IMAGE BITCOIND_IMAGE [--sets 6] [--rounds 16] [--block 10] [--concurrency 1,10]
                              [--seed 1] [--settle] [--idle-cost] [--json FILE]

Per set, two fresh AlicePaysBob topologies X and Y (benchmarks/plain_loop.py's: bitcoind, alice and bob in
containers, a funded channel, a route) are up at once. Per concurrency C, after 5 warmup invocations on each, every
round measures one block of `--block` invocations (C payments each) on X and one on Y, in a seeded random order per
round, back to back (or each invocation after the nodes fall quiet: --settle). Then both are removed and the next set
starts. On the log scale of block means (so figures read as % of the mean):

  same window, two topologies   X's block against Y's block of the same round (about one block apart in time):
                                what fresh topologies differ by when the machine's moment is shared.
  one topology, two windows     a topology's block against its own block Δt later, by Δt: what the moment adds
                                when the topology is shared; a pair of the harness starts its arms about one
                                topology (5-7 s at Concurrency=1) apart.
  blocks                        what iteration noise leaves in a block mean ((SD/mean)^2/n, from the invocations).
  topology                      the topology's own part: (mean over sets of the squared set difference of X and Y
                                − its share of block noise)/2, from --sets differences (few degrees of freedom).

A pair of a comparison whose arms are fresh topologies started one after the other varies by
2 (topology + blocks + moment at its gap); one whose arms are live at once and alternate, by 2 (topology + blocks);
the printout gives both, so the pairing that pays is read off.

--idle-cost adds, per set and concurrency, what the live idle topology costs the measured one: rounds of one block on X
while Y is up (idle) and one while Y's containers are paused (frozen: no timers, no polling), in a seeded order per
round; the ratio of X's block means (Y up / Y paused) with a 95 % t-interval over all rounds. Needs python3 and docker.
"""
import argparse, json, math, os, random, statistics, subprocess, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plain_loop import Topology  # noqa: E402

GAPS = [(0, 2), (2, 5), (5, 10), (10, 20), (20, 60), (60, 1e9)]


def sd_pct(variance):
    return 100 * math.sqrt(max(variance, 0))


def chi2_interval(variance, df):
    """Approximate 95 % interval of a variance estimated with df degrees of freedom (Wilson-Hilferty)."""
    if df < 1:
        return float("nan"), float("nan")

    def quantile(z):
        return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3
    return variance * df / quantile(1.96), variance * df / max(quantile(-1.96), 1e-9)


def analyse(blocks, concurrency):
    rows = [b for b in blocks if b["concurrency"] == concurrency]
    sets = sorted({b["set"] for b in rows})
    noise = statistics.fmean((b["sd"] / b["mean"]) ** 2 / b["n"] for b in rows)
    same_window, set_means, within = [], [], []
    for s in sets:
        by_round = {}
        for b in rows:
            if b["set"] == s:
                by_round.setdefault(b["round"], {})[b["topology"]] = math.log(b["mean"])
        d = [r["X"] - r["Y"] for r in by_round.values() if "X" in r and "Y" in r]
        same_window += d
        set_means.append(statistics.fmean(d))
        within.append(statistics.variance(d) if len(d) > 1 else 0)
    rounds = len(same_window) / len(sets)
    # E[mean_s²] = 2 topology + Var(d)/rounds (the set's X and Y are two independent fresh topologies).
    topology = (statistics.fmean(m * m for m in set_means) - statistics.fmean(within) / rounds) / 2
    by_gap = {g: [] for g in GAPS}
    for s in sets:
        for name in ("X", "Y"):
            series = sorted((b["start"], math.log(b["mean"])) for b in rows if b["set"] == s and b["topology"] == name)
            for i in range(len(series)):
                for j in range(i + 1, len(series)):
                    gap = series[j][0] - series[i][0]
                    for g in GAPS:
                        if g[0] <= gap < g[1]:
                            by_gap[g].append(series[j][1] - series[i][1])
    return {"concurrency": concurrency, "sets": len(sets), "rounds": rounds, "blocks_noise": noise,
            "same_window": statistics.fmean(d * d for d in same_window) / 2, "same_window_n": len(same_window),
            "same_window_within_sets": statistics.fmean(within) / 2, "topology": topology,
            "one_topology": {f"{g[0]}-{g[1] if g[1] < 1e9 else 'inf'} s": (statistics.fmean(d * d for d in v) / 2, len(v)) for g, v in by_gap.items() if v},
            "set_differences_pct": [100 * m for m in set_means]}


def report(a, block):
    print(f"\nConcurrency={a['concurrency']}: {a['sets']} sets, {a['rounds']:.0f} rounds of {block} invocations per topology")
    print(f"  blocks (iteration noise in a block mean)      SD {sd_pct(a['blocks_noise']):.2f} %")
    low, high = chi2_interval(a["same_window"], a["same_window_n"])
    print(f"  same window, two topologies (γ, per block)   SD {sd_pct(a['same_window']):.2f} % (95 %: {sd_pct(low):.2f}–{sd_pct(high):.2f}), "
          f"of which inside a set (the moment's and blocks' share) {sd_pct(a['same_window_within_sets']):.2f} %")
    low, high = chi2_interval(max(a["topology"], 0), a["sets"])
    print(f"  topology itself                              SD {sd_pct(a['topology']):.2f} % (95 %: {sd_pct(low):.2f}–{sd_pct(high):.2f}; "
          f"set differences X−Y: {', '.join(f'{d:+.1f}' for d in a['set_differences_pct'])} %)")
    for gap, (gamma, n) in a["one_topology"].items():
        print(f"  one topology, two windows {gap:>9}          SD {sd_pct(gamma):.2f} % ({n} block pairs)")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("cln_image")
    parser.add_argument("bitcoind_image")
    parser.add_argument("--sets", type=int, default=6)
    parser.add_argument("--rounds", type=int, default=16)
    parser.add_argument("--block", type=int, default=10)
    parser.add_argument("--concurrency", default="1,10")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--settle", action="store_true")
    parser.add_argument("--idle-cost", action="store_true")
    parser.add_argument("--json")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    concurrencies = [int(c) for c in args.concurrency.split(",")]
    blocks, orders, idle_blocks = [], [], []
    t0 = time.time()
    for s in range(1, args.sets + 1):
        live = {}
        try:
            for name in ("X", "Y"):
                live[name] = Topology(args.cln_image, args.bitcoind_image)
            counters = {name: t.cpu_counters() for name, t in live.items()} if args.settle else {"X": [], "Y": []}
            for c in concurrencies:
                for name, t in live.items():
                    for _ in range(5):
                        t.invocation(c, counters[name])
                for r in range(1, args.rounds + 1):
                    order = rng.sample(["X", "Y"], 2)
                    orders.append({"set": s, "concurrency": c, "round": r, "order": "".join(order)})
                    for name in order:
                        start = time.time() - t0
                        times = [live[name].invocation(c, counters[name]) for _ in range(args.block)]
                        blocks.append({"set": s, "concurrency": c, "round": r, "topology": name, "start": start,
                                       "mean": statistics.fmean(times), "sd": statistics.stdev(times), "n": len(times)})
                if args.idle_cost:
                    for r in range(1, args.rounds + 1):
                        for state in rng.sample(["up", "paused"], 2):
                            if state == "paused":
                                subprocess.run(["docker", "pause", *live["Y"].names], check=True, stdout=subprocess.DEVNULL)
                            try:
                                times = [live["X"].invocation(c, counters["X"]) for _ in range(args.block)]
                            finally:
                                if state == "paused":
                                    subprocess.run(["docker", "unpause", *live["Y"].names], check=True, stdout=subprocess.DEVNULL)
                            idle_blocks.append({"set": s, "concurrency": c, "round": r, "partner": state, "mean": statistics.fmean(times)})
                print(f"set {s}/{args.sets}, Concurrency={c}: X {statistics.fmean(b['mean'] for b in blocks if b['set'] == s and b['concurrency'] == c and b['topology'] == 'X'):.1f} ms, "
                      f"Y {statistics.fmean(b['mean'] for b in blocks if b['set'] == s and b['concurrency'] == c and b['topology'] == 'Y'):.1f} ms per invocation "
                      f"({time.time() - t0:.0f} s)", flush=True)
        finally:
            for t in live.values():
                t.remove()
    results = {"arguments": vars(args), "orders": orders, "blocks": blocks, "analysis": [analyse(blocks, c) for c in concurrencies],
               "idle_blocks": idle_blocks}
    for a in results["analysis"]:
        report(a, args.block)
    for c in concurrencies if idle_blocks else []:
        by = {}
        for b in idle_blocks:
            if b["concurrency"] == c:
                by.setdefault((b["set"], b["round"]), {})[b["partner"]] = math.log(b["mean"])
        d = [v["up"] - v["paused"] for v in by.values()]
        mean, se = statistics.fmean(d), statistics.stdev(d) / math.sqrt(len(d))
        t = 1.96 if len(d) > 60 else {10: 2.23, 20: 2.09, 30: 2.04, 40: 2.02, 60: 2.0}[min((10, 20, 30, 40, 60), key=lambda k: abs(k - len(d)))]
        print(f"\nConcurrency={c}: the measured topology with the other up (idle) / with it paused: {math.exp(mean):.3f} "
              f"({math.exp(mean - t * se):.3f}–{math.exp(mean + t * se):.3f}, {len(d)} rounds)")
        results.setdefault("idle_cost", {})[str(c)] = {"ratio": math.exp(mean), "low": math.exp(mean - t * se), "high": math.exp(mean + t * se), "rounds": len(d)}
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
