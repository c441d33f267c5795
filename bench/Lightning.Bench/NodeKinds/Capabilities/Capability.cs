namespace Lightning.Bench.NodeKinds.Capabilities;

/// <summary>
/// Something a node kind may or may not offer, which a workload or an option may need: a node call beyond setup and
/// payments (its <see cref="Interface"/>, which the kind's node implements), or what the kind can be given or run on
/// (a history, a graph, a database, a swarm, Valgrind). Two capabilities are one when their values are.
/// </summary>
/// <param name="Name">Its short name, as a refusal and the docs name it ("keysend").</param>
/// <param name="Means">What it is, in words a refusal can end with ("paying without an invoice").</param>
/// <param name="Interface">The node interface that offers it, for a node call; null for what the kind itself offers.</param>
internal sealed record Capability(string Name, string Means, Type? Interface = null)
{
    public override string ToString() => Name;
}
