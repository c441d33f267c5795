using Lightning.Bench.Scenarios;

namespace Lightning.Bench.Swarm;

/// <summary>
/// A pure function: the seeded, balanced order of <see cref="Run.ExecutionPlan"/> and N hosts → which host runs each
/// pair. A pair stays whole (both arms on one host, one after the other, in the seeded order), so the analysis stays
/// paired within a host; different pairs run on different hosts at once. Each pair goes, in the seeded order, to the
/// host with the fewest pairs of its cell, then the fewest of its cell that start with the same arm (so no host sees
/// only AB or only BA), then the fewest pairs, then the first named: every host gets its share of every cell, and a
/// host that is faster or slower moves every arm of its pairs alike.
/// </summary>
internal static class PairPlacement
{
    public static IReadOnlyList<PlacedPair> Place<T>(IReadOnlyList<T> arranged, Func<T, IReadOnlyDictionary<string, string>> parametersOf,
        Func<T, string> keyOf, IReadOnlyList<string> hosts)
    {
        if (hosts.Count == 0)
        {
            throw new ArgumentException("no host to place pairs on", nameof(hosts));
        }
        if (hosts.Distinct().Count() != hosts.Count || hosts.Any(string.IsNullOrWhiteSpace))
        {
            throw new ArgumentException($"hosts must be named once each: {string.Join(", ", hosts)}", nameof(hosts));
        }
        var pairs = new List<(string Cell, int Replicate, string FirstArm, List<string> Cases)>();
        foreach (var item in arranged)
        {
            var parameters = parametersOf(item);
            var (cell, replicate) = (CaseArms.CellOf(parameters), CaseArms.ReplicateOf(parameters));
            if (pairs.Count == 0 || pairs[^1].Cell != cell || pairs[^1].Replicate != replicate)
            {
                var (build, traces) = CaseArms.ArmOf(parameters);
                pairs.Add((cell, replicate, $"{build}/{traces}", []));
            }
            pairs[^1].Cases.Add(keyOf(item));
        }
        var total = new int[hosts.Count];
        var ofCell = new Dictionary<(int Host, string Cell), int>();
        var ofOpening = new Dictionary<(int Host, string Cell, string FirstArm), int>();
        var placed = new List<PlacedPair>();
        foreach (var (pair, index) in pairs.Select((p, i) => (p, i)))
        {
            var host = Enumerable.Range(0, hosts.Count)
                .OrderBy(h => ofCell.GetValueOrDefault((h, pair.Cell)))
                .ThenBy(h => ofOpening.GetValueOrDefault((h, pair.Cell, pair.FirstArm)))
                .ThenBy(h => total[h])
                .ThenBy(h => h)
                .First();
            total[host]++;
            ofCell[(host, pair.Cell)] = ofCell.GetValueOrDefault((host, pair.Cell)) + 1;
            ofOpening[(host, pair.Cell, pair.FirstArm)] = ofOpening.GetValueOrDefault((host, pair.Cell, pair.FirstArm)) + 1;
            placed.Add(new PlacedPair(index, hosts[host], pair.Cell, pair.Replicate, pair.Cases));
        }
        return placed;
    }

    /// <summary>Case key → host, for the manifest and topologies.csv.</summary>
    public static IReadOnlyDictionary<string, string> HostsByCase(IReadOnlyList<PlacedPair> placed) =>
        placed.SelectMany(p => p.Cases.Select(c => (c, p.Host))).ToDictionary(x => x.c, x => x.Host);
}
