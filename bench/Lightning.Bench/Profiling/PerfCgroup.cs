using Lightning.Bench.Processes;

namespace Lightning.Bench.Profiling;

/// <summary>
/// The cgroup `perf record -G` takes for a container: its path in the perf_event hierarchy (cgroup v1, when that
/// controller is mounted) or in the unified hierarchy (cgroup v2, and hybrid hosts without a v1 perf_event mount).
/// Sampling a cgroup keeps the harness, the other nodes and the rest of the machine out of a node's profile, and
/// follows processes the node starts later (plugins, bitcoin-cli calls).
/// </summary>
internal static class PerfCgroup
{
    private static readonly string V1PerfEventMount = Path.Combine(ProcessCgroups.Root, "perf_event");

    /// <summary>The cgroup of the process <paramref name="pid"/> (a host pid), relative to its hierarchy's root, or null with why not.</summary>
    public static (string? Cgroup, string Problem) Of(int pid, string procRoot = "/proc")
    {
        var (cgroups, problem) = ProcessCgroups.Of(pid, procRoot);
        return cgroups is null
            ? (null, $"{problem}: profiles need perf on the engine's host")
            : Of(cgroups, Directory.Exists(V1PerfEventMount));
    }

    /// <summary>Picks the path perf scopes to from a process's cgroups.</summary>
    public static (string? Cgroup, string Problem) Of(ProcessCgroups cgroups, bool v1PerfEventMounted)
    {
        var path = cgroups.PathOf("perf_event") is { } v1 && v1PerfEventMounted ? v1 : cgroups.Unified;
        if (path is null)
        {
            return (
                null,
                $"process {cgroups.Pid} is in no perf_event or unified cgroup: mount the perf_event controller or cgroup v2"
            );
        }
        var relative = path.Trim('/');
        return relative.Length == 0
            ? (
                null,
                $"process {cgroups.Pid} is in the root cgroup (a container engine without cgroups?): its profile would be the whole machine"
            )
            : (relative, "");
    }
}
