using Lightning.Bench.Processes;

namespace Lightning.Bench.Profiling;

/// <summary>
/// Where perf runs: as a child process of this one (<see cref="LocalPerfRunner"/>, a single-host run and an agent
/// whose perf sees the host's processes), or in a helper container that shares the host's pid namespace, started by a
/// swarm's agent through its host's engine (<c>ContainerPerfRunner</c>).
/// </summary>
internal interface IPerfRunner
{
    /// <summary>Starts perf with <paramref name="arguments"/> and leaves it running.</summary>
    Task<IRunningProcess> StartAsync(IReadOnlyList<string> arguments, CancellationToken ct = default);

    /// <summary>Runs perf to its end, its standard output handed to <paramref name="readOutput"/> (tens of MB for a `perf script`).</summary>
    Task<ProcessResult> RunAsync(
        IReadOnlyList<string> arguments,
        TimeSpan timeout,
        Action<StreamReader> readOutput,
        CancellationToken ct = default
    );
}
