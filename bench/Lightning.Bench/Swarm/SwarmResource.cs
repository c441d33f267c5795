namespace Lightning.Bench.Swarm;

/// <summary>
/// A resource the run creates through the manager's API before it deploys a stack that refers to it (as external):
/// its kind (network or secret), name and labels. A secret's value is given at creation and written nowhere else.
/// </summary>
/// <param name="Holds">What the value is, for messages (never the value).</param>
internal sealed record SwarmResource(string Kind, string Name, IReadOnlyDictionary<string, string> Labels, string Holds)
{
    public const string NetworkKind = "network";
    public const string SecretKind = "secret";
}
