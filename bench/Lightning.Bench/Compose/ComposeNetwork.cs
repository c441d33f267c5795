namespace Lightning.Bench.Compose;

internal sealed class ComposeNetwork
{
    /// <summary>Made by the run, not by the stack (every stack of a run shares one network).</summary>
    public bool? External { get; set; }

    public string? Name { get; set; }

    public Dictionary<string, string>? Labels { get; set; }
}
