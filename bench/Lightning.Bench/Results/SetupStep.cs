namespace Lightning.Bench.Results;

/// <summary>One step of a topology's setup (containers, chain, nodes, fund, channels, routes) and its seconds.</summary>
internal sealed record SetupStep(string Name, double Seconds)
{
    /// <summary>The steps of a node's restart begin so ("restart rpc", "restart pay"): together, the restart metric.</summary>
    public const string RestartPrefix = "restart";
}
