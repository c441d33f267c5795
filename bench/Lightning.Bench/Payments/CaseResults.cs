namespace Lightning.Bench.Payments;

/// <summary>The payments of one benchmark case, kept for the columns and the CSV.</summary>
public sealed class CaseResults(string caseKey, int paymentsPerInvocation)
{
    private readonly List<PaymentRecord> records = new();
    private int invocations;

    public string CaseKey { get; } = caseKey;

    public int PaymentsPerInvocation { get; } = paymentsPerInvocation;

    /// <summary>Why the case ended before its iterations did (a node died), or null for a complete case.</summary>
    public string? StoppedBy { get; set; }

    public int StartInvocation() => Interlocked.Increment(ref invocations);

    public void Add(PaymentRecord record)
    {
        lock (records)
        {
            records.Add(record);
        }
    }

    /// <summary>Marks the last <paramref name="measuredIterations"/> invocations as measured (BenchmarkDotNet runs warmups first).</summary>
    public void Complete(int measuredIterations)
    {
        lock (records)
        {
            var firstMeasured = invocations - measuredIterations + 1;
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
