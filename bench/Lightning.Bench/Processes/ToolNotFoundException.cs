namespace Lightning.Bench.Processes;

internal sealed class ToolNotFoundException(string tool, string reason)
    : Exception($"'{tool}' could not be started ({reason})")
{
    public string Tool { get; } = tool;
}
