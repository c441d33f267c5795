using System.Globalization;

namespace Lightning.Bench.Network;

/// <summary>
/// A container's CPU time (user + system, all its processes) from its cgroup, found through its first process:
/// cgroup v2 (cpu.stat usage_usec) or v1 (cpuacct.usage), whatever the engine's cgroup driver.
/// </summary>
public static class CgroupCpu
{
    private const string CgroupRoot = "/sys/fs/cgroup";

    /// <summary>The file holding the cgroup's CPU time of the process <paramref name="pid"/> (a host pid), or null with why not.</summary>
    public static (string? File, string Problem) UsageFileOf(int pid)
    {
        var cgroupFile = $"/proc/{pid}/cgroup";
        if (pid <= 0 || !File.Exists(cgroupFile))
        {
            return (null, $"process {pid} is not visible from the harness (a remote engine, or the harness in a container)");
        }
        var lines = File.ReadAllLines(cgroupFile);
        foreach (var line in lines)
        {
            var parts = line.Split(':', 3);
            if (parts.Length == 3 && parts[1].Split(',').Contains("cpuacct"))
            {
                foreach (var mount in new[] { "cpuacct", "cpu,cpuacct", "cpuacct,cpu" })
                {
                    var file = Path.Combine(CgroupRoot, mount, parts[2].TrimStart('/'), "cpuacct.usage");
                    if (File.Exists(file))
                    {
                        return (file, "");
                    }
                }
            }
        }
        var unified = lines.Select(l => l.Split(':', 3)).FirstOrDefault(p => p.Length == 3 && p[0] == "0" && p[1].Length == 0);
        if (unified is not null)
        {
            var file = Path.Combine(CgroupRoot, unified[2].TrimStart('/'), "cpu.stat");
            if (File.Exists(file))
            {
                return (file, "");
            }
        }
        return (null, $"no CPU accounting found for process {pid} under {CgroupRoot}");
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
