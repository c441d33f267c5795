namespace Lightning.Bench.Compose;

internal sealed class ComposeNetwork
{
    public Dictionary<string, string>? Labels { get; set; }
}
