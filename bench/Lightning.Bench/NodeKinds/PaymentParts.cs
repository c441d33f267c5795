namespace Lightning.Bench.NodeKinds;

/// <summary>How a payment went in parts, as its payer reports it: the parts that reached the payee, and the attempts that failed on the way.</summary>
internal sealed record PaymentParts(int Succeeded, int Failed);
