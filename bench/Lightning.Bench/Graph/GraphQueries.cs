namespace Lightning.Bench.Graph;

/// <summary>One route query into the graph: a destination (its snapshot index) and an amount.</summary>
/// <param name="Top">Whether the destination is one of the graph's top nodes by channel count (else one of the seeded sample).</param>
internal sealed record GraphQuery(int Destination, long AmountSat, bool Top);

/// <summary>
/// The route queries of a graph's cases: its top nodes by channel count and a seeded random sample of the others (in
/// the channels given, the source's own node left out), each at every amount, in an order the seed shuffles. The same
/// graph, share and seed give the same queries, in the same order, to every build.
/// </summary>
internal static class GraphQueries
{
    /// <summary>The amounts asked for, 1,000 sat to 1,000,000 sat.</summary>
    public static readonly IReadOnlyList<long> AmountsSat = [1_000, 10_000, 100_000, 1_000_000];

    public const int TopNodes = 50;

    public const int SampledNodes = 50;

    public static IReadOnlyList<GraphQuery> Make(
        GossmapSnapshot snapshot,
        IReadOnlyList<int> channels,
        int source,
        int seed
    )
    {
        var degree = new int[snapshot.NodeCount];
        foreach (var i in channels)
        {
            degree[snapshot.Channels[i].Node1]++;
            degree[snapshot.Channels[i].Node2]++;
        }
        var nodes = Enumerable.Range(0, snapshot.NodeCount).Where(n => degree[n] > 0 && n != source).ToList();
        var top = nodes.OrderByDescending(n => degree[n]).ThenBy(n => n).Take(TopNodes).ToList();
        var random = new Random(seed);
        var rest = nodes.Except(top).ToArray();
        random.Shuffle(rest);
        var queries = top.Select(n => (n, Top: true))
            .Concat(rest.Take(SampledNodes).Select(n => (n, Top: false)))
            .SelectMany(d => AmountsSat.Select(a => new GraphQuery(d.n, a, d.Top)))
            .ToArray();
        random.Shuffle(queries);
        return queries;
    }
}
