using Lightning.Bench.Results;

namespace Lightning.Bench.Cases;

/// <summary>
/// The order cases run in: for each topology index, each cell's arms (builds × trace modes) next to each other, in a
/// balanced, shuffled order (per cell, each group of as many topologies as there are arms uses every rotation of a
/// random order once: AB BA, BA AB…), so drift over the run cannot pass for a difference between arms. Seeded; the
/// seed and the order go into manifest.json.
/// </summary>
internal sealed class ExecutionPlan(int seed)
{
    private readonly Random random = new(seed);
    private readonly Dictionary<string, Queue<int[]>> pending = [];
    private readonly List<string> order = [];
    private (string[] Keys, System.Collections.IList Arranged)? last;
    private readonly Dictionary<
        string,
        IReadOnlyList<(string Key, IReadOnlyDictionary<string, string> Parameters)>
    > groups = [];

    public int Seed { get; } = seed;

    /// <summary>Case keys in the order they ran (set when BenchmarkDotNet asks for the order; a budgeted run's rounds one after another).</summary>
    public IReadOnlyList<string> Order => order;

    /// <summary>
    /// The arms of a case's cell and topology index in the order they run (the case among them), or null for a case
    /// the plan has not arranged: with --pairing alternate they are live at once and alternate their invocations.
    /// </summary>
    public IReadOnlyList<(string Key, IReadOnlyDictionary<string, string> Parameters)>? GroupOf(string key) =>
        groups.TryGetValue(key, out var group) ? group : null;

    /// <summary>
    /// The order of <paramref name="declared"/>. A budgeted run asks once per round, with that round's topologies: the
    /// rotations of each cell carry over from round to round, so its pairs stay balanced; asked again for the same cases,
    /// the plan gives the same order.
    /// </summary>
    /// <param name="parametersOf">A case's parameters as text (Build, Traces, Topology and the cell's).</param>
    public IReadOnlyList<T> Arrange<T>(
        IReadOnlyList<T> declared,
        Func<T, IReadOnlyDictionary<string, string>> parametersOf,
        Func<T, string> keyOf
    )
    {
        var keys = declared.Select(keyOf).Order(StringComparer.Ordinal).ToArray();
        if (last is { } previous && previous.Keys.SequenceEqual(keys) && previous.Arranged is List<T> same)
        {
            return same;
        }
        var items = declared
            .Select(c =>
            {
                var id = CaseId.Of(parametersOf(c));
                return (Case: c, Cell: id.Cell.Label, Replicate: id.Topology);
            })
            .ToList();
        var cells = items.Select(i => i.Cell).Distinct().ToList();
        var replicates = items.Select(i => i.Replicate).Distinct().Order().ToList();
        var arranged = new List<T>();
        foreach (var cell in cells)
        {
            pending.TryAdd(cell, new Queue<int[]>());
        }
        foreach (var replicate in replicates)
        {
            foreach (var cell in cells)
            {
                var block = items.Where(i => i.Replicate == replicate && i.Cell == cell).ToList();
                if (block.Count == 0)
                {
                    continue;
                }
                var queue = pending[cell];
                if (queue.Count == 0)
                {
                    // The next group of topologies: every rotation of a random order of the arms once, in random order.
                    var rotation = Enumerable.Range(0, block.Count).OrderBy(_ => random.Next()).ToArray();
                    foreach (var shift in Enumerable.Range(0, block.Count).OrderBy(_ => random.Next()))
                    {
                        queue.Enqueue(
                            Enumerable.Range(0, block.Count).Select(k => rotation[(k + shift) % block.Count]).ToArray()
                        );
                    }
                }
                var ordered = queue.Dequeue().Select(k => block[k].Case).ToList();
                arranged.AddRange(ordered);
                var group = ordered.Select(c => (keyOf(c), parametersOf(c))).ToList();
                foreach (var (key, _) in group)
                {
                    groups[key] = group;
                }
            }
        }
        order.AddRange(arranged.Select(keyOf));
        last = (keys, arranged);
        return arranged;
    }
}
