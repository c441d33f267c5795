using Lightning.Bench.Scenarios;

namespace Lightning.Bench.Results;

/// <summary>The payments of one benchmark case, kept for the columns and the CSV.</summary>
public sealed class CaseResults(string caseKey, int paymentsPerInvocation)
{
    private readonly List<PaymentRecord> records = new();
    private readonly Dictionary<int, TimeSpan> completedInvocations = new();
    private int invocations;

    public string CaseKey { get; } = caseKey;

    public int PaymentsPerInvocation { get; } = paymentsPerInvocation;

    /// <summary>Why the case ended before its iterations did (a node died), or null for a complete case.</summary>
    public string? StoppedBy { get; set; }

    public int StartInvocation() => Interlocked.Increment(ref invocations);

    /// <summary>An invocation whose payments all ended, with its time as the harness measured it (BenchmarkDotNet measures the same span).</summary>
    public void CompleteInvocation(int invocation, TimeSpan elapsed)
    {
        lock (completedInvocations)
        {
            completedInvocations[invocation] = elapsed;
        }
    }

    /// <summary>
    /// Mean time of the measured invocations that completed, in nanoseconds, or null without any: the case's figures
    /// when BenchmarkDotNet has none because the case stopped early.
    /// </summary>
    public double? CompletedMeanNanoseconds
    {
        get
        {
            lock (records)
            {
                var measured = CompletedMeasured().Select(t => t.TotalNanoseconds).ToList();
                return measured.Count == 0 ? null : measured.Average();
            }
        }
    }

    /// <summary>Measured invocations that completed.</summary>
    public int CompletedMeasuredInvocations
    {
        get
        {
            lock (records)
            {
                return CompletedMeasured().Count;
            }
        }
    }

    /// <summary>Times of the completed measured invocations; the caller holds the records lock (it guards <see cref="firstMeasured"/>).</summary>
    private List<TimeSpan> CompletedMeasured()
    {
        lock (completedInvocations)
        {
            return completedInvocations.Where(i => i.Key >= firstMeasured).Select(i => i.Value).ToList();
        }
    }

    private int firstMeasured = int.MaxValue;

    public void Add(PaymentRecord record)
    {
        lock (records)
        {
            records.Add(record);
        }
    }

    /// <summary>
    /// Marks the measured invocations: BenchmarkDotNet runs the warmups first, then the iterations. A complete case's
    /// last <paramref name="iterations"/> invocations were measured; a case that stopped early measured those after the warmups.
    /// </summary>
    public void Complete(int warmups, int iterations)
    {
        lock (records)
        {
            firstMeasured = invocations >= warmups + iterations ? invocations - iterations + 1 : warmups + 1;
            for (var i = 0; i < records.Count; i++)
            {
                records[i] = records[i] with { Measured = records[i].Invocation >= firstMeasured };
            }
        }
    }

    /// <summary>Replaces each record with what <paramref name="update"/> makes of it (used to attach spans).</summary>
    public void Update(Func<PaymentRecord, PaymentRecord> update)
    {
        lock (records)
        {
            for (var i = 0; i < records.Count; i++)
            {
                records[i] = update(records[i]);
            }
        }
    }

    public IReadOnlyList<PaymentRecord> Records
    {
        get
        {
            lock (records)
            {
                return records.ToList();
            }
        }
    }

    public IReadOnlyList<PaymentRecord> Measured => Records.Where(r => r.Measured).ToList();
}
