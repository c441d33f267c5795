namespace Lightning.Bench.Processes;

public sealed class ToolNotFoundException(string tool, string reason)
    : Exception($"'{tool}' could not be started ({reason})")
{
    public string Tool { get; } = tool;
}
