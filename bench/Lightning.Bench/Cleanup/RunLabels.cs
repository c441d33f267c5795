using System.Globalization;

namespace Lightning.Bench.Cleanup;

/// <summary>Labels on every Docker resource of a run; cleanup finds resources by them, never by name.</summary>
internal static class RunLabels
{
    public const string Run = "lnbench.run";
    public const string OwnerPid = "lnbench.pid";

    /// <summary>The machine of the owning harness: a shared or remote engine holds other machines' runs, whose pids mean nothing here.</summary>
    public const string OwnerHost = "lnbench.host";

    public const string ComposeProject = "com.docker.compose.project";

    public static IReadOnlyDictionary<string, string> For(string runId) =>
        new Dictionary<string, string>
        {
            [Run] = runId,
            [OwnerPid] = OwnerProcess.Current.Pid.ToString(CultureInfo.InvariantCulture),
            [OwnerHost] = OwnerProcess.Current.Host,
        };
}
