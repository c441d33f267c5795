using Lightning.Bench.Scenarios;

namespace Lightning.Bench.Run;

/// <summary>
/// The order cases run in: for each topology index, each cell's arms (builds × trace modes) next to each other, in a
/// balanced, shuffled order (per cell, each group of as many topologies as there are arms uses every rotation of a
/// random order once: AB BA, BA AB…), so drift over the run cannot pass for a difference between arms. Seeded; the
/// seed and the order go into manifest.json.
/// </summary>
internal sealed class ExecutionPlan(int seed)
{
    public int Seed { get; } = seed;

    /// <summary>Case keys in the order they ran (set when BenchmarkDotNet asks for the order).</summary>
    public IReadOnlyList<string> Order { get; private set; } = [];

    /// <param name="parametersOf">A case's parameters as text (Build, Traces, Topology and the cell's).</param>
    public IReadOnlyList<T> Arrange<T>(IReadOnlyList<T> declared, Func<T, IReadOnlyDictionary<string, string>> parametersOf, Func<T, string> keyOf)
    {
        var random = new Random(Seed);
        var items = declared.Select(c =>
        {
            var parameters = parametersOf(c);
            return (Case: c, Cell: CaseArms.CellOf(parameters), Replicate: CaseArms.ReplicateOf(parameters));
        }).ToList();
        var cells = items.Select(i => i.Cell).Distinct().ToList();
        var replicates = items.Select(i => i.Replicate).Distinct().Order().ToList();
        var arranged = new List<T>();
        var pending = cells.ToDictionary(c => c, _ => new Queue<int[]>());
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
                    var order = Enumerable.Range(0, block.Count).OrderBy(_ => random.Next()).ToArray();
                    foreach (var shift in Enumerable.Range(0, block.Count).OrderBy(_ => random.Next()))
                    {
                        queue.Enqueue(Enumerable.Range(0, block.Count).Select(k => order[(k + shift) % block.Count]).ToArray());
                    }
                }
                arranged.AddRange(queue.Dequeue().Select(k => block[k].Case));
            }
        }
        Order = arranged.Select(keyOf).ToList();
        return arranged;
    }
}
