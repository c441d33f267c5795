using System.Globalization;

namespace Lightning.Bench.Processes;

/// <summary>
/// A container's CPU time (user + system, all its processes) from its cgroup, found through its first process:
/// cgroup v2 (cpu.stat usage_usec) or v1 (cpuacct.usage), whatever the engine's cgroup driver (see <see cref="ProcessCgroups"/>).
/// </summary>
internal static class CgroupCpu
{
    /// <summary>The file holding the CPU time of the cgroup these are the cgroups of, or null with why not.</summary>
    public static (string? File, string Problem) UsageFileOf(ProcessCgroups cgroups)
    {
        if (cgroups.PathOf("cpuacct") is { } path)
        {
            foreach (var mount in new[] { "cpuacct", "cpu,cpuacct", "cpuacct,cpu" })
            {
                var file = Path.Combine(ProcessCgroups.Root, mount, path.TrimStart('/'), "cpuacct.usage");
                if (File.Exists(file))
                {
                    return (file, "");
                }
            }
        }
        if (
            cgroups.Unified is { } unified
            && File.Exists(Path.Combine(ProcessCgroups.Root, unified.TrimStart('/'), "cpu.stat"))
        )
        {
            return (Path.Combine(ProcessCgroups.Root, unified.TrimStart('/'), "cpu.stat"), "");
        }
        return (null, $"no CPU accounting found for process {cgroups.Pid} under {ProcessCgroups.Root}");
    }

    /// <summary>CPU time in nanoseconds from a cpuacct.usage or cpu.stat file.</summary>
    public static long ReadNanoseconds(string file)
    {
        var text = File.ReadAllText(file);
        if (file.EndsWith("cpuacct.usage", StringComparison.Ordinal))
        {
            return long.Parse(text.Trim(), CultureInfo.InvariantCulture);
        }
        foreach (var line in text.Split('\n'))
        {
            if (line.StartsWith("usage_usec ", StringComparison.Ordinal))
            {
                return long.Parse(line["usage_usec ".Length..].Trim(), CultureInfo.InvariantCulture) * 1000;
            }
        }
        throw new InvalidDataException($"{file} has no usage_usec line");
    }
}
