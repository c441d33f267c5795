namespace Lightning.Bench.Results;

/// <summary>
/// A `--swarm` run on the swarm: the hosts its topologies ran on, how many topology pairs (a cell's replicate, its
/// arms on one host) it measured, and over how many minutes from the run's start to its end (setup included).
/// </summary>
internal sealed record SwarmRecord(IReadOnlyList<string> Hosts, int Topologies, int Pairs, double Minutes)
{
    public double PairsPerMinute => Minutes > 0 ? Pairs / Minutes : double.NaN;

    public static SwarmRecord Of(IReadOnlyList<CaseResults> cases, DateTimeOffset started, DateTimeOffset ended)
    {
        var placed = cases.Where(c => c.Topology?.Host is not null).ToList();
        return new SwarmRecord(
            placed
                .SelectMany(c => c.Topology!.NodeHosts.Values.Append(c.Topology.Host!))
                .Distinct()
                .Order(StringComparer.Ordinal)
                .ToList(),
            placed.Count,
            placed.Select(c => (c.Id.Cell.Label, c.Id.Topology)).Distinct().Count(),
            (ended - started).TotalMinutes
        );
    }
}
