namespace Lightning.Bench.NodeKinds;

/// <summary>The calls a kind's payment is made of, as the tables and plots name what a benchmark measures.</summary>
/// <param name="Invoice">The call that makes the invoice on the payee.</param>
/// <param name="Pay">The call that pays it on the payer.</param>
internal sealed record PaymentCalls(string Invoice, string Pay)
{
    /// <summary>The call that pays without an invoice (keysend).</summary>
    public string Keysend { get; init; } = "keysend";

    /// <summary>The call that asks a node's accounting of its balances (Core Lightning's bookkeeper).</summary>
    public string Balances { get; init; } = "bkpr-listbalances";

    /// <summary>The benchmark's name in BenchmarkDotNet's Method column ("invoice+xpay").</summary>
    public string Description => $"{Invoice}+{Pay}";

    /// <summary>The plots' words for one payment ("invoice on the payee + xpay on the payer").</summary>
    public string Phrase => $"{Invoice} on the payee + {Pay} on the payer";
}
