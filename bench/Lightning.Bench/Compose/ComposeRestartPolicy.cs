namespace Lightning.Bench.Compose;

internal sealed class ComposeRestartPolicy
{
    /// <summary>none, on-failure or any.</summary>
    public string? Condition { get; set; }

    public int? MaxAttempts { get; set; }
}
