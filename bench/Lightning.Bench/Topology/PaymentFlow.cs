namespace Lightning.Bench.Topology;

/// <summary>Who pays whom during the benchmark: invoices are made on the payee, paid by the payer.</summary>
internal sealed record PaymentFlow(string Payer, string Payee);
