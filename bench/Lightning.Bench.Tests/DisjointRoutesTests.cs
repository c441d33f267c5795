using Lightning.Bench.NodeKinds;

namespace Lightning.Bench.Tests;

/// <summary>Routes that together carry an amount, from a query that finds one path at a time (a graph with known paths).</summary>
[Trait("Category", "Unit")]
public class DisjointRoutesTests
{
    /// <summary>Two paths to the payee, through carol-1 and carol-2, each carrying <paramref name="perPathMsat"/>; null when none is left.</summary>
    private static Func<long, IReadOnlyList<string>, Task<IReadOnlyList<string>?>> TwoPaths(
        long perPathMsat,
        bool secondKnown = true
    ) =>
        (amount, avoided) =>
        {
            var open = new[] { "carol-1", "carol-2" }
                .Take(secondKnown ? 2 : 1)
                .Where(c => !avoided.Contains(c) && amount <= perPathMsat)
                .ToList();
            return Task.FromResult<IReadOnlyList<string>?>(open.Count == 0 ? null : [open[0]]);
        };

    [Fact]
    public async Task One_path_that_carries_it_all_is_one_route_and_an_amount_that_must_split_needs_both_paths_known()
    {
        Assert.Equal(1, await DisjointRoutes.CountAsync(500_000_000, TwoPaths(1_000_000_000)));
        Assert.Equal(2, await DisjointRoutes.CountAsync(1_500_000_000, TwoPaths(1_000_000_000)));
        // Before gossip about the second path arrives, a split payment has nowhere to send its second part: not ready.
        Assert.Equal(0, await DisjointRoutes.CountAsync(1_500_000_000, TwoPaths(1_000_000_000, secondKnown: false)));
        // More than both paths together carry: not ready however long one waits.
        Assert.Equal(0, await DisjointRoutes.CountAsync(2_500_000_000, TwoPaths(1_000_000_000)));
    }
}
