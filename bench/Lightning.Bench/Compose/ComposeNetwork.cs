namespace Lightning.Bench.Compose;

public sealed class ComposeNetwork
{
    public Dictionary<string, string>? Labels { get; set; }
}
