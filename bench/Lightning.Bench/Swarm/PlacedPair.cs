namespace Lightning.Bench.Swarm;

/// <summary>One pair (a cell's arms on one topology index, in their seeded order) and the host that runs it.</summary>
/// <param name="Index">Its place in the seeded order of pairs.</param>
/// <param name="Cases">The case keys of its arms, in the order they run on <paramref name="Host"/>.</param>
internal sealed record PlacedPair(int Index, string Host, string Cell, int Replicate, IReadOnlyList<string> Cases);
