namespace Lightning.Bench.NodeKinds;

/// <summary>An invoice a payee created: the encoded request the payer pays, and the payment hash traces may carry.</summary>
internal sealed record NodeInvoice(string Encoded, string PaymentHash);
