using System.Collections.Concurrent;

namespace Lightning.Bench.Results;

/// <summary>All payments of a run, by benchmark case; hands out run-unique payment ids.</summary>
public sealed class PaymentLedger
{
    private readonly ConcurrentDictionary<string, CaseResults> cases = new();
    private long nextPaymentId;

    public long NextPaymentId() => Interlocked.Increment(ref nextPaymentId);

    public CaseResults StartCase(string caseKey, int paymentsPerInvocation) =>
        cases[caseKey] = new CaseResults(caseKey, paymentsPerInvocation);

    public CaseResults? Find(string caseKey) => cases.GetValueOrDefault(caseKey);

    public IReadOnlyList<CaseResults> Cases => cases.Values.ToList();
}
