namespace Lightning.Bench.Running;

/// <summary>Labels on every Docker resource of a run; cleanup finds resources by them, never by name.</summary>
public static class RunLabels
{
    public const string Run = "lnbench.run";
    public const string OwnerPid = "lnbench.pid";
    public const string ComposeProject = "com.docker.compose.project";

    public static IReadOnlyDictionary<string, string> For(string runId) => new Dictionary<string, string>
    {
        [Run] = runId,
        [OwnerPid] = Environment.ProcessId.ToString(System.Globalization.CultureInfo.InvariantCulture),
    };
}
