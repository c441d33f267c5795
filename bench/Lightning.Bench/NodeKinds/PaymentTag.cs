namespace Lightning.Bench.NodeKinds;

/// <summary>
/// Names the harness's payment on every call made for it, so a kind can carry it into its own trace correlation.
/// </summary>
/// <param name="PaymentId">Unique in the run (payments.csv's payment_id).</param>
/// <param name="InSetup">An invoice made ahead in setup (--pregenerate-invoices), not while the payment is measured.</param>
internal sealed record PaymentTag(long PaymentId, bool InSetup = false);
