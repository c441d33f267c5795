namespace Lightning.Bench.NodeKinds;

/// <summary>Why a payment failed, in the harness's terms, where the node kind can tell (workloads judge outcomes by it).</summary>
internal enum PaymentFailure
{
    /// <summary>The kind did not say, or the failure is none of those below.</summary>
    Other,

    /// <summary>The payee does not know the payment (BOLT 4's incorrect_or_unknown_payment_details): no such invoice, or the wrong amount.</summary>
    UnknownPaymentDetails,
}
