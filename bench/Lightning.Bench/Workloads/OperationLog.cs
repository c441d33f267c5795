using Lightning.Bench.Results;

namespace Lightning.Bench.Workloads;

/// <summary>
/// Where a case's workload records its operations: run-unique ids (the tags the nodes carry into their traces) and
/// each operation's record, counted once. A lost RPC connection is remembered so the case can ask whether a node died.
/// </summary>
internal sealed class OperationLog(RunResults run, CaseResults results)
{
    private int connectionLost;

    /// <summary>The case the records belong to.</summary>
    public string CaseKey => results.CaseKey;

    /// <summary>A run-unique operation id (payments.csv's payment_id).</summary>
    public long NextId() => run.NextPaymentId();

    /// <param name="lostConnection">A node closed its RPC socket during the operation: it may have died.</param>
    public void Record(OperationRecord record, bool lostConnection = false)
    {
        if (lostConnection)
        {
            Interlocked.Exchange(ref connectionLost, 1);
        }
        results.Add(record);
    }

    /// <summary>Whether a connection was lost since the last call (and forgets it).</summary>
    public bool TakeConnectionLost() => Interlocked.Exchange(ref connectionLost, 0) == 1;
}
