namespace Lightning.Bench.Results;

/// <summary>
/// The one results model of a run: every case in the order it started, each with its payments, iterations, topology
/// and, once it ended, its figures. Every output (tables, CSV, JSON, plots, manifest) is written from it.
/// </summary>
internal sealed class RunResults
{
    private readonly List<CaseResults> cases = new();
    private long nextPaymentId;

    /// <summary>The run's comparisons and spreads, computed once after the last case (null before).</summary>
    public RunComparisons? Comparisons { get; set; }

    /// <summary>A soak's profile windows (--soak with --profile), once it finished.</summary>
    public IReadOnlyList<SoakProfileWindow> SoakProfiles { get; set; } = [];

    /// <summary>What the run's figures count one of (its workloads' word; see <see cref="OperationNoun"/>).</summary>
    public OperationNoun Noun { get; set; } = OperationNoun.Payment;

    /// <summary>Run-unique payment ids (payments.csv's payment_id, and the tag each payment's calls carry).</summary>
    public long NextPaymentId() => Interlocked.Increment(ref nextPaymentId);

    public CaseResults StartCase(
        string caseKey,
        IReadOnlyDictionary<string, string> parameters,
        int paymentsPerInvocation,
        string? noun = null
    )
    {
        var results = new CaseResults(caseKey, paymentsPerInvocation)
        {
            Parameters = parameters,
            Noun = noun ?? OperationNoun.Payment.Singular,
        };
        lock (cases)
        {
            cases.RemoveAll(c => c.CaseKey == caseKey);
            cases.Add(results);
        }
        return results;
    }

    public CaseResults? Find(string caseKey)
    {
        lock (cases)
        {
            return cases.FirstOrDefault(c => c.CaseKey == caseKey);
        }
    }

    public IReadOnlyList<CaseResults> Cases
    {
        get
        {
            lock (cases)
            {
                return cases.ToList();
            }
        }
    }
}
