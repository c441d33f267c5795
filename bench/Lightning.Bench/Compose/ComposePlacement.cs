namespace Lightning.Bench.Compose;

internal sealed class ComposePlacement
{
    /// <summary>Swarm constraints such as "node.hostname == host-1" or "node.labels.lnbench.placement == far".</summary>
    public List<string>? Constraints { get; set; }
}
