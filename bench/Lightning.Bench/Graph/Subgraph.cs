namespace Lightning.Bench.Graph;

/// <summary>
/// A share of a snapshot's channels taken around one node by a seeded breadth-first search: from the node, each node
/// reached gives its channels (in an order the seed shuffles) until the share is reached; the same snapshot, node,
/// share and seed give the same channels. A channel keeps its index (and so its short channel id) in every share.
/// </summary>
internal static class Subgraph
{
    /// <summary>The indexes (ascending) of <paramref name="percent"/> % of the channels (rounded up), around <paramref name="center"/>.</summary>
    public static int[] Around(GossmapSnapshot snapshot, int center, int percent, int seed)
    {
        if (percent is < 1 or > 100)
        {
            throw new ArgumentOutOfRangeException(nameof(percent), percent, "a share of the channels is 1 to 100 %");
        }
        var total = snapshot.Channels.Count;
        var target = (int)Math.Ceiling(total * percent / 100.0);
        if (target >= total)
        {
            return Enumerable.Range(0, total).ToArray();
        }
        var channelsOf = new List<int>[snapshot.NodeCount];
        for (var i = 0; i < total; i++)
        {
            (channelsOf[snapshot.Channels[i].Node1] ??= []).Add(i);
            (channelsOf[snapshot.Channels[i].Node2] ??= []).Add(i);
        }
        var random = new Random(seed);
        var taken = new bool[total];
        var seen = new bool[snapshot.NodeCount];
        var queue = new Queue<int>();
        var count = 0;
        var next = 0;
        queue.Enqueue(center);
        seen[center] = true;
        while (count < target)
        {
            if (queue.Count == 0)
            {
                // Another component: its largest node not yet reached (indexes run from the most channels down).
                while (seen[next] || channelsOf[next] is null)
                {
                    next++;
                }
                seen[next] = true;
                queue.Enqueue(next);
            }
            var node = queue.Dequeue();
            var channels = channelsOf[node]?.ToArray() ?? [];
            random.Shuffle(channels);
            foreach (var c in channels)
            {
                if (count == target)
                {
                    break;
                }
                if (taken[c])
                {
                    continue;
                }
                taken[c] = true;
                count++;
                var other =
                    snapshot.Channels[c].Node1 == node ? snapshot.Channels[c].Node2 : snapshot.Channels[c].Node1;
                if (!seen[other])
                {
                    seen[other] = true;
                    queue.Enqueue(other);
                }
            }
        }
        return Enumerable.Range(0, total).Where(i => taken[i]).ToArray();
    }
}
