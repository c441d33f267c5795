using Lightning.Bench.Results;

namespace Lightning.Bench.Workloads.Payments;

/// <summary>What became of one payment (see <see cref="PaymentDriver.PayAsync(Topology.PaymentFlow, NodeKinds.PaymentTag, long, Action{PaymentAttempt}, CancellationToken)"/>).</summary>
/// <param name="InvoiceDone">When its invoice was ready (its start, for an invoice made ahead).</param>
/// <param name="PaymentHash">Null when the invoice was never made.</param>
/// <param name="ConnectionLost">A node closed its RPC socket: it may have died.</param>
/// <param name="Cancelled">Cut off by cancellation (the run stopped or a node died), not failed by a node.</param>
internal sealed record PaymentAttempt(
    DateTimeOffset Start,
    DateTimeOffset InvoiceDone,
    DateTimeOffset End,
    string? PaymentHash,
    OperationOutcome Outcome,
    string? Error,
    bool ConnectionLost,
    bool Cancelled
)
{
    /// <summary>Its parts, where the payer reported them.</summary>
    public NodeKinds.PaymentParts? Parts { get; init; }

    /// <summary>The reason recorded for an operation cut off by cancellation.</summary>
    public const string CancelledReason = "cancelled: a node died or the run was stopped";
}
