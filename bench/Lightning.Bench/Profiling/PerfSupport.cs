using Lightning.Bench.Options;
using Lightning.Bench.Processes;

namespace Lightning.Bench.Profiling;

/// <summary>
/// Whether this machine can profile the nodes, found out before any container starts by a short system-wide
/// recording with the run's own arguments: perf installed, permitted (kernel.perf_event_paranoid, or root/CAP_PERFMON),
/// the cpu-clock event and the unwinding asked for supported, and a cgroup hierarchy perf can scope to.
/// </summary>
internal static class PerfSupport
{
    private static readonly TimeSpan ProbeTimeout = TimeSpan.FromSeconds(30);

    /// <summary>perf's version when it can profile; otherwise the one line that says what is wrong and what to do.</summary>
    public static async Task<(string? Version, string? Problem)> CheckAsync(
        ProfileSettings settings,
        CancellationToken ct = default
    )
    {
        ProcessResult version;
        try
        {
            version = await ProcessRunner.RunAsync(settings.PerfPath, ["--version"], ProbeTimeout, ct: ct);
        }
        catch (ToolNotFoundException)
        {
            return (
                null,
                $"--profile needs Linux perf, and '{settings.PerfPath}' was not found: install it (Debian: apt-get install linux-perf; Ubuntu: apt-get install linux-tools-$(uname -r)){Otherwise(settings)}"
            );
        }
        if (!version.Succeeded)
        {
            return (
                null,
                $"'{settings.PerfPath} --version' failed ({version.Tail(1)}): install a perf that matches the kernel{Otherwise(settings)}"
            );
        }
        if (
            !File.ReadLines("/proc/mounts")
                .Any(l =>
                    l.Split(' ') is [_, _, "cgroup2", ..]
                    || (l.Split(' ') is [_, _, "cgroup", _, ..] && l.Contains("perf_event", StringComparison.Ordinal))
                )
        )
        {
            return (
                null,
                $"no cgroup hierarchy perf can sample a container by (cgroup v2, or the v1 perf_event controller) is mounted: mount one{Otherwise(settings)}"
            );
        }
        var folder = Directory.CreateTempSubdirectory("lnbench-perf-probe-").FullName;
        try
        {
            var probe = await ProcessRunner.RunAsync(
                settings.PerfPath,
                [
                    "record",
                    .. settings.RecordArguments,
                    "-a",
                    "-N",
                    "-q",
                    "-o",
                    Path.Combine(folder, "probe.data"),
                    "--",
                    "sleep",
                    "0.05",
                ],
                ProbeTimeout,
                ct: ct
            );
            return probe.Succeeded && File.Exists(Path.Combine(folder, "probe.data"))
                ? (version.StandardOutput.Trim(), null)
                : (null, Explain(probe, settings));
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    /// <summary>
    /// For a swarm run: perf's version and its file on this host, which the harness image carries to the agents; the
    /// agents run it privileged in the hosts' pid namespaces, so this host's permissions are not what counts.
    /// </summary>
    public static async Task<(string? Version, string? Path, string? Problem)> CheckForImageAsync(
        ProfileSettings settings,
        CancellationToken ct = default
    )
    {
        var path = Locate(settings.PerfPath);
        if (path is null)
        {
            return (
                null,
                null,
                $"--profile --swarm carries this host's perf to the agents in the harness image, and '{settings.PerfPath}' was not found: install it (Debian: apt-get install linux-perf; Ubuntu: apt-get install linux-tools-$(uname -r)){Otherwise(settings)}"
            );
        }
        var version = await ProcessRunner.RunAsync(path, ["--version"], ProbeTimeout, ct: ct);
        return version.Succeeded
            ? (version.StandardOutput.Trim(), path, null)
            : (
                null,
                null,
                $"'{path} --version' failed ({version.Tail(1)}): install a perf that runs on this host{Otherwise(settings)}"
            );
    }

    /// <summary>A program's file: the path given, or found on PATH.</summary>
    internal static string? Locate(string program) =>
        program.Contains('/', StringComparison.Ordinal)
            ? (File.Exists(program) ? System.IO.Path.GetFullPath(program) : null)
            : (Environment.GetEnvironmentVariable("PATH") ?? "")
                .Split(':', StringSplitOptions.RemoveEmptyEntries)
                .Select(d => System.IO.Path.Combine(d, program))
                .FirstOrDefault(File.Exists);

    /// <summary>perf's refusal in one line with the fix.</summary>
    public static string Explain(ProcessResult probe, ProfileSettings settings)
    {
        var text = probe.StandardError + probe.StandardOutput;
        if (
            text.Contains("perf_event_paranoid", StringComparison.Ordinal)
            || text.Contains("Permission denied", StringComparison.Ordinal)
            || text.Contains("Access to performance monitoring", StringComparison.Ordinal)
        )
        {
            return $"perf may not sample the whole machine (kernel.perf_event_paranoid is {Paranoid()}; sampling containers' cgroups needs -1, or root or CAP_PERFMON): run 'sudo sysctl kernel.perf_event_paranoid=-1' or run as root{Otherwise(settings)}";
        }
        if (text.Contains("dwarf", StringComparison.OrdinalIgnoreCase) && settings.CallGraph == ProfileSettings.Dwarf)
        {
            return $"this perf cannot unwind DWARF stacks ({probe.Tail(1)}): install a perf built with libdw or libunwind, or use --profile-stacks fp for images built with frame pointers{Otherwise(settings)}";
        }
        if (
            text.Contains("not supported", StringComparison.OrdinalIgnoreCase)
            || text.Contains("No such device", StringComparison.Ordinal)
        )
        {
            return $"this kernel does not support sampling the cpu-clock event ({probe.Tail(1)}): use a kernel built with perf events (CONFIG_PERF_EVENTS){Otherwise(settings)}";
        }
        return $"a test recording with perf failed ({probe.CommandLine}: {probe.Tail(2)}){Otherwise(settings)}";
    }

    private static string Paranoid()
    {
        try
        {
            return File.ReadAllText("/proc/sys/kernel/perf_event_paranoid").Trim();
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return "unknown";
        }
    }

    private static string Otherwise(ProfileSettings settings) =>
        settings.Required ? "; or run without --profile (--profile-if-available runs on without profiles)" : "";
}
