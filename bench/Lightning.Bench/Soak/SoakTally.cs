namespace Lightning.Bench.Soak;

/// <summary>
/// A soak's payments as they end, counted but never kept (memory stays bounded over hours): the current window's
/// latencies, failures and rebalances, handed over at each sample; the totals; the whole soak's latency histogram; and
/// the mean latency of payments that ended inside profile windows and outside them. Every worker records into it.
/// </summary>
internal sealed class SoakTally
{
    private readonly object gate = new();
    private List<double> window = [];
    private long windowFailed;
    private long windowRebalances;
    private long succeeded;
    private long failed;
    private (long Count, double SumMs) sampled;
    private (long Count, double SumMs) unsampled;

    /// <summary>Latency of every successful payment of the soak (read once the payments have stopped).</summary>
    public LatencyHistogram Latency { get; } = new();

    public long Succeeded
    {
        get
        {
            lock (gate)
            {
                return succeeded;
            }
        }
    }

    public long Failed
    {
        get
        {
            lock (gate)
            {
                return failed;
            }
        }
    }

    /// <summary>A successful payment; <paramref name="profiled"/> when it ended while a profile window was sampling.</summary>
    public void Paid(double milliseconds, bool profiled)
    {
        lock (gate)
        {
            window.Add(milliseconds);
            Latency.Add(milliseconds);
            succeeded++;
            if (profiled)
            {
                sampled = (sampled.Count + 1, sampled.SumMs + milliseconds);
            }
            else
            {
                unsampled = (unsampled.Count + 1, unsampled.SumMs + milliseconds);
            }
        }
    }

    public void PaymentFailed()
    {
        lock (gate)
        {
            windowFailed++;
            failed++;
        }
    }

    public void Rebalanced()
    {
        lock (gate)
        {
            windowRebalances++;
        }
    }

    /// <summary>Closes the current window: what it counted, and a new window from zero.</summary>
    public SoakWindow TakeWindow()
    {
        lock (gate)
        {
            var taken = new SoakWindow(window, windowFailed, windowRebalances, succeeded);
            window = [];
            windowFailed = 0;
            windowRebalances = 0;
            return taken;
        }
    }

    /// <summary>How many payments ended inside profile windows and outside them, and their mean latency (NaN without any).</summary>
    public ((long Count, double MeanMs) Sampled, (long Count, double MeanMs) Unsampled) ProfiledLatency()
    {
        static (long, double) Mean((long Count, double SumMs) p) =>
            (p.Count, p.Count > 0 ? p.SumMs / p.Count : double.NaN);
        lock (gate)
        {
            return (Mean(sampled), Mean(unsampled));
        }
    }
}
