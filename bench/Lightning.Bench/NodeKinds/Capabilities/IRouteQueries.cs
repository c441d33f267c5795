namespace Lightning.Bench.NodeKinds.Capabilities;

/// <summary>A node that can be asked for routes through its graph without paying.</summary>
internal interface IRouteQueries : INodeFeature
{
    /// <summary>
    /// Routes from itself to the node <paramref name="destinationId"/> (hex) for <paramref name="amountMsat"/>, paying at
    /// most <paramref name="maxFeeMsat"/> (Core Lightning: askrene's getroutes, as xpay asks it); none found is a
    /// <see cref="NodeCallException"/> with <see cref="NodeCallFailure.Refused"/> and the node's reason.
    /// </summary>
    Task<RouteAnswer> GetRoutesAsync(
        string destinationId,
        long amountMsat,
        long maxFeeMsat,
        PaymentTag tag,
        CancellationToken ct = default
    );
}
