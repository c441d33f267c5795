using Lightning.Bench.Cases;

namespace Lightning.Bench.Tests;

[Trait("Category", "Unit")]
public class ExecutionPlanTests
{
    /// <summary>The build that runs first on each topology, per concurrency: "ABBA… BAAB…".</summary>
    private static string FirstBuilds(IReadOnlyList<Dictionary<string, string>> order) =>
        string.Join(
            ' ',
            order.GroupBy(p => p["Concurrency"]).Select(cell => string.Concat(cell.Chunk(2).Select(b => b[0]["Build"])))
        );

    [Fact]
    public void Builds_alternate_in_balanced_shuffled_pairs_topology_by_topology()
    {
        var declared = DeclaredCases.Of(8, "A", "B");
        var plan = new ExecutionPlan(seed: 42);

        var order = plan.Arrange(declared, p => p, DeclaredCases.Key);

        Assert.Equal(declared.Count, order.Distinct().Count());
        Assert.Equal(order.Select(DeclaredCases.Key), plan.Order);
        foreach (var concurrency in new[] { "1", "10" })
        {
            var cell = order.Where(p => p["Concurrency"] == concurrency).ToList();
            // Topology by topology, each block holds both builds next to each other.
            var blocks = cell.Chunk(2).ToList();
            Assert.All(
                blocks.Select((b, i) => (b, i)),
                x => Assert.All(x.b, p => Assert.Equal($"{x.i + 1}", p["Topology"]))
            );
            Assert.All(blocks, b => Assert.Equal(["A", "B"], b.Select(p => p["Build"]).Order()));
            // Balanced: in every two topologies, one AB and one BA, in a shuffled order.
            var firsts = blocks.Select(b => b[0]["Build"]).ToList();
            Assert.All(firsts.Chunk(2), pair => Assert.Equal(["A", "B"], pair.Order()));
        }
        // Seeded: the same seed, the same order. Pinned for seed 42: a run's manifest keeps its seed for --replay, so a change
        // to the shuffle (or to .NET's seeded Random) that would replay an old run in another order fails here.
        Assert.Equal(
            order.Select(DeclaredCases.Key),
            new ExecutionPlan(42).Arrange(declared, p => p, DeclaredCases.Key).Select(DeclaredCases.Key)
        );
        Assert.Equal("BAABABBA BAABBABA", FirstBuilds(order));
    }

    /// <summary>With --pairing alternate, a case's group is its cell's arms of the same topology, in the order they run.</summary>
    [Fact]
    public void A_cases_group_is_its_cells_arms_of_the_same_topology_in_running_order()
    {
        var declared = DeclaredCases.Of(2, "A", "B", "C");
        var plan = new ExecutionPlan(seed: 7);
        var order = plan.Arrange(declared, p => p, DeclaredCases.Key).Select(DeclaredCases.Key).ToList();

        Assert.Null(plan.GroupOf("Build=Z, Concurrency=1, Topology=1"));
        foreach (var key in order)
        {
            var group = plan.GroupOf(key)!;
            Assert.Equal(3, group.Count);
            Assert.Contains(key, group.Select(g => g.Key));
            // Next to each other in the order, as they run; one topology index and one cell.
            var at = order.IndexOf(group[0].Key);
            Assert.Equal(group.Select(g => g.Key), order.Skip(at).Take(3));
            Assert.Single(group.Select(g => (g.Parameters["Topology"], g.Parameters["Concurrency"])).Distinct());
            Assert.Equal(["A", "B", "C"], group.Select(g => g.Parameters["Build"]).Order());
        }
    }

    /// <summary>
    /// A budgeted run asks for the order round by round (topologies 1–4, then 5, then 6…): the rotations carry over, so
    /// its order is exactly the fixed run's order of as many topologies, balanced the same way; asking twice for the
    /// same round does not move the plan on.
    /// </summary>
    [Fact]
    public void Rounds_of_a_budgeted_run_continue_the_fixed_runs_order()
    {
        var plan = new ExecutionPlan(seed: 42);
        var round1 = DeclaredCases.Of(4, "A", "B");
        Assert.Same(plan.Arrange(round1, p => p, DeclaredCases.Key), plan.Arrange(round1, p => p, DeclaredCases.Key));
        for (var topology = 5; topology <= 8; topology++)
        {
            var round = DeclaredCases.Of(topology, "A", "B").Where(p => p["Topology"] == $"{topology}").ToList();
            plan.Arrange(round, p => p, DeclaredCases.Key);
        }

        var fixedRun = new ExecutionPlan(seed: 42);
        fixedRun.Arrange(DeclaredCases.Of(8, "A", "B"), p => p, DeclaredCases.Key);
        // Same cases, same pairs and the same arm first in every pair (the fixed order lists topology by topology and cell
        // by cell; the rounds list a round's cells together, so compare per cell).
        foreach (var concurrency in new[] { "/1/", "/10/" })
        {
            Assert.Equal(
                fixedRun.Order.Where(k => k.Contains(concurrency, StringComparison.Ordinal)),
                plan.Order.Where(k => k.Contains(concurrency, StringComparison.Ordinal))
            );
        }
        Assert.Equal(16 * 2, plan.Order.Count);
    }

    [Fact]
    public void The_seed_decides_the_order_and_each_arm_goes_first_about_as_often()
    {
        var declared = DeclaredCases.Of(8, "A", "B");

        var orders = Enumerable
            .Range(1, 200)
            .Select(seed => FirstBuilds(new ExecutionPlan(seed).Arrange(declared, p => p, DeclaredCases.Key)))
            .ToList();

        // 2 cells × 4 pairs of topologies, each pair AB-BA or BA-AB: 256 orders; a plan that ignored its seed would give one.
        Assert.True(orders.Distinct().Count() > 100, $"{orders.Distinct().Count()} distinct orders from 200 seeds");
        // Which arm opens a pair is random: over 200 seeds × 8 pairs, A opens about half of them.
        var opensWithA = orders.Sum(o => o.Split(' ').Sum(cell => cell.Chunk(2).Count(pair => pair[0] == 'A')));
        Assert.InRange(opensWithA, 700, 900);
    }

    [Fact]
    public void Three_builds_take_every_first_place_once_in_every_three_topologies()
    {
        var order = new ExecutionPlan(seed: 7).Arrange(DeclaredCases.Of(6, "A", "B", "C"), p => p, DeclaredCases.Key);

        var firsts = order.Where(p => p["Concurrency"] == "1").Chunk(3).Select(b => b[0]["Build"]).ToList();
        Assert.All(firsts.Chunk(3), group => Assert.Equal(["A", "B", "C"], group.Order()));
    }
}
