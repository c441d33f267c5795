namespace Lightning.Bench.Profiling;

/// <summary>
/// The cgroup `perf record -G` takes for a container: its path in the perf_event hierarchy (cgroup v1, when that
/// controller is mounted) or in the unified hierarchy (cgroup v2, and hybrid hosts without a v1 perf_event mount).
/// Sampling a cgroup keeps the harness, the other nodes and the rest of the machine out of a node's profile, and
/// follows processes the node starts later (plugins, bitcoin-cli calls).
/// </summary>
public static class PerfCgroup
{
    private const string V1PerfEventMount = "/sys/fs/cgroup/perf_event";

    /// <summary>The cgroup of process <paramref name="pid"/> (a host pid), relative to its hierarchy's root, or null with why not.</summary>
    public static (string? Cgroup, string Problem) Of(int pid, string procRoot = "/proc")
    {
        var file = $"{procRoot}/{pid}/cgroup";
        if (pid <= 0 || !File.Exists(file))
        {
            return (null, $"process {pid} is not visible from the harness (a remote engine, or the harness in a container): profiles need perf on the engine's host");
        }
        return Parse(File.ReadAllLines(file), Directory.Exists(V1PerfEventMount), pid);
    }

    /// <summary>Picks the path from the lines of /proc/PID/cgroup.</summary>
    public static (string? Cgroup, string Problem) Parse(IReadOnlyList<string> lines, bool v1PerfEventMounted, int pid = 0)
    {
        var entries = lines.Select(l => l.Split(':', 3)).Where(p => p.Length == 3).ToList();
        var v1 = entries.FirstOrDefault(p => p[1].Split(',').Contains("perf_event"));
        var path = v1 is not null && v1PerfEventMounted ? v1[2] : entries.FirstOrDefault(p => p[0] == "0" && p[1].Length == 0)?[2];
        if (path is null)
        {
            return (null, $"process {pid} is in no perf_event or unified cgroup: mount the perf_event controller or cgroup v2");
        }
        var relative = path.Trim('/');
        return relative.Length == 0
            ? (null, $"process {pid} is in the root cgroup (a container engine without cgroups?): its profile would be the whole machine")
            : (relative, "");
    }
}
