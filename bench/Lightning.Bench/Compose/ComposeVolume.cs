namespace Lightning.Bench.Compose;

/// <summary>A named volume of a stack file: its name across stacks and the run's labels, so a sweep by label finds it on every host.</summary>
internal sealed class ComposeVolume
{
    public string? Name { get; set; }

    public Dictionary<string, string>? Labels { get; set; }
}
