namespace Lightning.Bench.Swarm;

/// <summary>
/// The names a run's swarm resources go by: one overlay network and one work volume per run (on every host), one stack
/// per topology, secrets named by stack and service. Docker limits secret and service names to 64 and 63 characters:
/// with a run id of 20 ("20261124-123456-ab12") and node names of at most 20, the longest stays under 56.
/// </summary>
internal static class SwarmNames
{
    /// <summary>Where the work volume is mounted in every service and agent: node folders at /lnb/STACK/NODE, as on one host they are at /lnb.</summary>
    public const string WorkMount = "/lnb";

    /// <summary>Every node listens for peers on this port of its own address on the overlay.</summary>
    public const int PeerPort = 9735;

    /// <summary>The agent's TCP port on the overlay.</summary>
    public const int AgentPort = 9736;

    /// <summary>The agent stack's one service.</summary>
    public const string AgentService = "agent";

    public const string AgentTokenTarget = "lnbench-agent-token";

    public static string Network(string runId) => $"lnbench-{runId}";

    public static string WorkVolume(string runId) => $"lnbench-{runId}-work";

    public static string AgentStack(string runId) => $"lnbench-{runId}-agents";

    public static string AgentTokenSecret(string runId) => $"lnbench-{runId}-agent-token";

    /// <summary>The run's gate into its overlay (<see cref="Relay.OverlayGate"/>): its container, and its folder under the work root.</summary>
    public static string Gate(string runId) => $"lnbench-{runId}-gate";

    /// <summary>The secret that holds a service's configuration with the run's credentials (bitcoind's rpcauth, a node's bitcoind login).</summary>
    public static string ConfigSecret(string stack, string service) => $"{stack}-{service}-conf";

    /// <summary>A service's name on the overlay (all stacks of a run share it, so names carry the stack).</summary>
    public static string Alias(string stack, string service) => $"{stack}-{service}";

    /// <summary>A service's folder in the work volume, as its containers see it.</summary>
    public static string ContainerDirectory(string stack, string service) => $"{WorkMount}/{stack}/{service}";
}
