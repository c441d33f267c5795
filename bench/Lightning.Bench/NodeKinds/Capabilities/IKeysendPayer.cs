namespace Lightning.Bench.NodeKinds.Capabilities;

/// <summary>A node that pays without an invoice (keysend: the payer makes the preimage).</summary>
internal interface IKeysendPayer : INodeFeature
{
    /// <summary>Pays <paramref name="payee"/> <paramref name="amountMsat"/>; a refusal says why where the kind can tell.</summary>
    Task KeysendAsync(ILightningNode payee, long amountMsat, PaymentTag tag, CancellationToken ct = default);
}
