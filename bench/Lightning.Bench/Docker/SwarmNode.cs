namespace Lightning.Bench.Docker;

/// <summary>A node of the swarm as the manager lists it: its hostname (what placement constraints name), role, state,
/// availability and labels.</summary>
internal sealed record SwarmNode(
    string Id,
    string Hostname,
    string Role,
    string State,
    string Availability,
    IReadOnlyDictionary<string, string> Labels
)
{
    /// <summary>Ready and active: the scheduler may place tasks on it.</summary>
    public bool Schedulable => State == "ready" && Availability == "active";
}
