using Lightning.Bench.NodeKinds;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Workloads.FailAtPayee;

/// <summary>
/// Payments that fail at the payee: the payee makes an invoice and deletes it before the payer pays, so every attempt
/// travels the whole route and comes back from the payee as incorrect_or_unknown_payment_details. What a failed
/// payment costs (its round trip, the CPU of the HTLC added and removed) is what Core Lightning's PR 8222 measured.
/// </summary>
internal sealed class FailAtPayeeKind : IWorkloadKind
{
    public const string WorkloadName = "fail-at-payee";

    public string Name => WorkloadName;

    public string Noun => "attempt";

    public string Description =>
        "the payee deletes its invoice before the payer pays it: every attempt fails at the payee (incorrect_or_unknown_payment_details), an expected outcome";

    /// <summary>The payee's failure every attempt should end with.</summary>
    public const string ExpectedReason = "incorrect_or_unknown_payment_details";

    public string MethodOf(PaymentCalls calls) => $"{calls.Pay} (deleted invoice)";

    public string? Refusal(TopologySpec topology) => null;

    public IWorkload Create(WorkloadSetup setup) => new FailAtPayeeWorkload(setup);
}
