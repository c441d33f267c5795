using System.Net;

namespace Lightning.Bench.Relay;

/// <summary>
/// How the harness reaches a node on another host: through that host's agent (its endpoint on the run's overlay and
/// the run's token), naming the node by its topology (the stack) and its network folder.
/// </summary>
internal sealed record NodeRelay(EndPoint Agent, byte[] Token, string Topology, string Network = "regtest")
{
    /// <summary>How long opening a pipe may take (the agent is on the overlay: seconds at most).</summary>
    public static readonly TimeSpan OpenTimeout = TimeSpan.FromSeconds(10);

    public override string ToString() => $"NodeRelay {{ Agent = {Agent}, Token = ***, Topology = {Topology}, Network = {Network} }}";
}
