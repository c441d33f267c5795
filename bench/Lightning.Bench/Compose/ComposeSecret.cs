namespace Lightning.Bench.Compose;

/// <summary>A secret a stack file refers to: always external, by the name the run created it under (with its labels and value).</summary>
internal sealed class ComposeSecret
{
    public bool? External { get; set; }

    public string? Name { get; set; }
}
