using System.Runtime.InteropServices;
using Lightning.Bench.Processes;

namespace Lightning.Bench.Results;

/// <summary>The machine a run ran on, for the manifest.</summary>
internal sealed record MachineRecord(
    string Os,
    string Kernel,
    string CpuModel,
    int CpuCount,
    long MemoryBytes,
    string DockerEngine,
    string DockerApi,
    string Compose,
    string DotNet,
    string BenchmarkDotNet
)
{
    /// <param name="dockerApi">The Engine API version the harness and the engine agreed on.</param>
    public static MachineRecord Collect(string dockerEngine, string dockerApi, string compose) =>
        new(
            ReadOsRelease() ?? RuntimeInformation.OSDescription,
            Environment.OSVersion.VersionString,
            ProcFields.First("/proc/cpuinfo", "model name") ?? RuntimeInformation.ProcessArchitecture.ToString(),
            Environment.ProcessorCount,
            (long.TryParse(ProcFields.First("/proc/meminfo", "MemTotal")?.Split(' ')[0], out var kb) ? kb : 0) * 1024,
            dockerEngine,
            dockerApi,
            compose,
            RuntimeInformation.FrameworkDescription,
            typeof(BenchmarkDotNet.Running.BenchmarkRunner).Assembly.GetName().Version?.ToString() ?? ""
        );

    private static string? ReadOsRelease() =>
        File.Exists("/etc/os-release")
            ? File.ReadLines("/etc/os-release")
                .FirstOrDefault(l => l.StartsWith("PRETTY_NAME=", StringComparison.Ordinal))
                ?["PRETTY_NAME=".Length..].Trim('"')
            : null;
}
