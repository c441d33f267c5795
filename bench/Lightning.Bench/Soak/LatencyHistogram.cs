namespace Lightning.Bench.Soak;

/// <summary>
/// Latencies in log-spaced buckets 1 % wide: percentiles within 1 % over any number of payments in bounded memory
/// (a few thousand buckets at most from 1 µs to hours), so a 48-hour soak does not keep its payments.
/// </summary>
internal sealed class LatencyHistogram
{
    private const double Growth = 1.01;
    private static readonly double LogGrowth = Math.Log(Growth);
    private readonly SortedDictionary<int, long> buckets = new();

    public long Count { get; private set; }

    public void Add(double milliseconds)
    {
        var bucket = (int)Math.Floor(Math.Log(Math.Max(milliseconds, 0.001)) / LogGrowth);
        buckets[bucket] = buckets.GetValueOrDefault(bucket) + 1;
        Count++;
    }

    /// <summary>The latency below which a share <paramref name="p"/> of payments fall (the bucket's geometric middle), NaN when empty.</summary>
    public double Percentile(double p)
    {
        if (Count == 0)
        {
            return double.NaN;
        }
        var rank = Math.Max(1, (long)Math.Ceiling(p * Count));
        long seen = 0;
        foreach (var (bucket, count) in buckets)
        {
            seen += count;
            if (seen >= rank)
            {
                return Math.Pow(Growth, bucket + 0.5);
            }
        }
        return Math.Pow(Growth, buckets.Keys.Last() + 0.5);
    }

    public int Buckets => buckets.Count;
}
