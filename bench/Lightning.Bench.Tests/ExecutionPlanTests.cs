using Lightning.Bench.Run;

namespace Lightning.Bench.Tests;

[Trait("Category", "Unit")]
public class ExecutionPlanTests
{
    private static IReadOnlyList<Dictionary<string, string>> Declared(int topologies, params string[] builds) =>
        (from build in builds
         from concurrency in new[] { "1", "10" }
         from topology in Enumerable.Range(1, topologies)
         select new Dictionary<string, string> { ["Build"] = build, ["Concurrency"] = concurrency, ["Topology"] = $"{topology}", ["Traces"] = "on" }).ToList();

    private static string Key(Dictionary<string, string> p) => $"{p["Build"]}/{p["Concurrency"]}/{p["Topology"]}";

    [Fact]
    public void Builds_alternate_in_balanced_shuffled_pairs_topology_by_topology()
    {
        var declared = Declared(8, "A", "B");
        var plan = new ExecutionPlan(seed: 42);

        var order = plan.Arrange(declared, p => p, Key);

        Assert.Equal(declared.Count, order.Distinct().Count());
        Assert.Equal(order.Select(Key), plan.Order);
        foreach (var concurrency in new[] { "1", "10" })
        {
            var cell = order.Where(p => p["Concurrency"] == concurrency).ToList();
            // Topology by topology, each block holds both builds next to each other.
            var blocks = cell.Chunk(2).ToList();
            Assert.All(blocks.Select((b, i) => (b, i)), x => Assert.All(x.b, p => Assert.Equal($"{x.i + 1}", p["Topology"])));
            Assert.All(blocks, b => Assert.Equal(["A", "B"], b.Select(p => p["Build"]).Order()));
            // Balanced: in every two topologies, one AB and one BA, in a shuffled order.
            var firsts = blocks.Select(b => b[0]["Build"]).ToList();
            Assert.All(firsts.Chunk(2), pair => Assert.Equal(["A", "B"], pair.Order()));
        }
        // Seeded: the same seed, the same order; another seed, another.
        Assert.Equal(order.Select(Key), new ExecutionPlan(42).Arrange(declared, p => p, Key).Select(Key));
        Assert.NotEqual(order.Select(Key), Enumerable.Range(1, 20).Select(s => new ExecutionPlan(s).Arrange(declared, p => p, Key).Select(Key)).First(o => !o.SequenceEqual(order.Select(Key))));
    }

    [Fact]
    public void Three_builds_take_every_first_place_once_in_every_three_topologies()
    {
        var order = new ExecutionPlan(seed: 7).Arrange(Declared(6, "A", "B", "C"), p => p, Key);

        var firsts = order.Where(p => p["Concurrency"] == "1").Chunk(3).Select(b => b[0]["Build"]).ToList();
        Assert.All(firsts.Chunk(3), group => Assert.Equal(["A", "B", "C"], group.Order()));
    }
}
