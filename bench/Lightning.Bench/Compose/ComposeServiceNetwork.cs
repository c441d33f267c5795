namespace Lightning.Bench.Compose;

/// <summary>A service's attachment to a network: the names it is reached by there.</summary>
internal sealed class ComposeServiceNetwork
{
    public List<string>? Aliases { get; set; }
}
