namespace Lightning.Bench.Processes;

/// <summary>
/// The cgroups a process is in, from one read of /proc/PID/cgroup: its path per cgroup v1 controller and its path in
/// the unified (v2) hierarchy. A container's first process stands for the container: CPU time, memory, storage writes
/// and perf's scoping are all found from here.
/// </summary>
internal sealed record ProcessCgroups(
    int Pid,
    IReadOnlyList<(IReadOnlyList<string> Controllers, string Path)> V1,
    string? Unified
)
{
    public const string Root = "/sys/fs/cgroup";

    /// <summary>The cgroups of process <paramref name="pid"/> (a host pid), or null with why not.</summary>
    public static (ProcessCgroups? Cgroups, string Problem) Of(int pid, string procRoot = "/proc")
    {
        var file = $"{procRoot}/{pid}/cgroup";
        if (pid <= 0 || !File.Exists(file))
        {
            return (
                null,
                $"process {pid} is not visible from the harness (a remote engine, or the harness in a container)"
            );
        }
        try
        {
            return (Parse(pid, File.ReadAllLines(file)), "");
        }
        catch (IOException e)
        {
            return (null, $"process {pid} has gone ({e.Message})");
        }
    }

    /// <summary>From the lines of /proc/PID/cgroup ("ID:controllers:path"; the unified hierarchy is "0::path").</summary>
    public static ProcessCgroups Parse(int pid, IEnumerable<string> lines)
    {
        var entries = lines.Select(l => l.Split(':', 3)).Where(p => p.Length == 3).ToList();
        var v1 = entries
            .Where(p => p[1].Length > 0)
            .Select(p => ((IReadOnlyList<string>)p[1].Split(','), p[2]))
            .ToList();
        var unified = entries.FirstOrDefault(p => p[0] == "0" && p[1].Length == 0)?[2];
        return new ProcessCgroups(pid, v1, unified);
    }

    /// <summary>The path in the v1 hierarchy that has <paramref name="controller"/>, or null.</summary>
    public string? PathOf(string controller) => V1.FirstOrDefault(e => e.Controllers.Contains(controller)).Path;
}
