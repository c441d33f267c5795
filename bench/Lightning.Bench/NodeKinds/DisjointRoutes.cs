namespace Lightning.Bench.NodeKinds;

/// <summary>
/// How many routes together carry an amount, for a node whose route query finds one path at a time (LND's QueryRoutes,
/// Core Lightning's getroute before v24.11): one route that carries it all, else k disjoint routes (k from 2 to
/// <see cref="MostParts"/>) that each carry a k-th, each asked with the intermediate nodes of the ones before it
/// avoided; 0 while the node knows no such set (gossip has not arrived about every path a split payment needs).
/// </summary>
internal static class DisjointRoutes
{
    public const int MostParts = 4;

    /// <param name="route">One route for the amount that avoids the nodes given: its intermediate nodes, or null if none.</param>
    public static async Task<int> CountAsync(
        long amountMsat,
        Func<long, IReadOnlyList<string>, Task<IReadOnlyList<string>?>> route
    )
    {
        if (await route(amountMsat, []) is not null)
        {
            return 1;
        }
        for (var parts = 2; parts <= MostParts && amountMsat / parts >= 1_000; parts++)
        {
            var avoided = new List<string>();
            var found = 0;
            while (
                found < parts && await route((amountMsat + parts - 1) / parts, avoided) is { Count: > 0 } intermediates
            )
            {
                avoided.AddRange(intermediates);
                found++;
            }
            if (found == parts)
            {
                return parts;
            }
        }
        return 0;
    }
}
