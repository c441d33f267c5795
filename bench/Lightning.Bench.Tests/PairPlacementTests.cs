using Lightning.Bench.Run;
using Lightning.Bench.Tests.Support;
using Lightning.Bench.Swarm;

namespace Lightning.Bench.Tests;

[Trait("Category", "Unit")]
public class PairPlacementTests
{
    private static readonly string[] Hosts = ["host-1", "host-2", "host-3", "host-4"];

    [Fact]
    public void Whole_pairs_go_to_hosts_in_the_seeded_order_balanced_by_cell_and_by_which_arm_opens()
    {
        var order = new ExecutionPlan(seed: 42).Arrange(DeclaredCases.Of(8, "A", "B"), p => p, DeclaredCases.Key);

        var placed = PairPlacement.Place(order, p => p, DeclaredCases.Key, Hosts);

        Assert.Equal(16, placed.Count);
        // Every case once, each pair's two arms together, in the seeded order.
        Assert.Equal(order.Select(DeclaredCases.Key), placed.SelectMany(p => p.Cases));
        Assert.All(placed, p => Assert.Equal(["A", "B"], p.Cases.Select(c => c.Split('/')[0]).Order()));
        Assert.All(placed, p => Assert.Single(p.Cases.Select(c => c.Split('/')[2]).Distinct()));
        // Balanced: 4 pairs per host, 2 of each concurrency, one opening with A and one with B.
        foreach (var host in Hosts)
        {
            var mine = placed.Where(p => p.Host == host).ToList();
            Assert.Equal(4, mine.Count);
            foreach (var cell in new[] { "Concurrency=1", "Concurrency=10" })
            {
                var openings = mine.Where(p => p.Cell == cell).Select(p => p.Cases[0].Split('/')[0]).Order().ToList();
                Assert.Equal(["A", "B"], openings);
            }
            // A host runs its pairs in the seeded order.
            Assert.Equal(mine.Select(p => p.Index).Order(), mine.Select(p => p.Index));
        }
        // Consecutive pairs run at once on different hosts.
        Assert.All(placed.Chunk(4), round => Assert.Equal(4, round.Select(p => p.Host).Distinct().Count()));
        // Pure and seeded.
        Assert.Equal(placed, PairPlacement.Place(order, p => p, DeclaredCases.Key, Hosts), new PlacedPairComparer());
        Assert.Equal(32, PairPlacement.HostsByCase(placed).Count);
    }

    [Fact]
    public void One_host_runs_every_pair_in_the_seeded_order_as_a_single_host_run_does()
    {
        var order = new ExecutionPlan(seed: 7).Arrange(DeclaredCases.Of(3, "A", "B", "C"), p => p, DeclaredCases.Key);
        var placed = PairPlacement.Place(order, p => p, DeclaredCases.Key, ["only"]);
        Assert.All(placed, p => Assert.Equal("only", p.Host));
        Assert.All(placed, p => Assert.Equal(3, p.Cases.Count));
        Assert.Equal(order.Select(DeclaredCases.Key), placed.SelectMany(p => p.Cases));
    }

    [Fact]
    public void More_hosts_than_pairs_leave_hosts_idle_and_bad_host_lists_are_refused()
    {
        var order = new ExecutionPlan(seed: 1).Arrange(DeclaredCases.Of(1, "A", "B"), p => p, DeclaredCases.Key);
        var placed = PairPlacement.Place(order, p => p, DeclaredCases.Key, Hosts);
        Assert.Equal(["host-1", "host-2"], placed.Select(p => p.Host));
        Assert.Throws<ArgumentException>(() => PairPlacement.Place(order, p => p, DeclaredCases.Key, []));
        Assert.Contains("named once", Assert.Throws<ArgumentException>(() => PairPlacement.Place(order, p => p, DeclaredCases.Key, ["a", "a"])).Message);
    }

    private sealed class PlacedPairComparer : IEqualityComparer<PlacedPair>
    {
        public bool Equals(PlacedPair? x, PlacedPair? y) => x!.Host == y!.Host && x.Index == y.Index && x.Cases.SequenceEqual(y.Cases);

        public int GetHashCode(PlacedPair obj) => obj.Index;
    }
}
