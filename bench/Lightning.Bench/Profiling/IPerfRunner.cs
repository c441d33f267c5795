using Lightning.Bench.Processes;

namespace Lightning.Bench.Profiling;

/// <summary>A perf process that runs on (a recording): whether and how it ended, the end of what it said.</summary>
internal interface IPerfProcess : IAsyncDisposable
{
    bool HasExited { get; }

    int ExitCode { get; }

    /// <summary>Its last non-empty lines of standard error, for one-line messages.</summary>
    string Tail(int lines = 3);

    /// <summary>Waits until it exits; false when it did not within <paramref name="timeout"/>.</summary>
    Task<bool> WaitForExitAsync(TimeSpan timeout, CancellationToken ct = default);
}

/// <summary>
/// Where perf runs: as a child process of this one (<see cref="LocalPerfRunner"/>, a single-host run and an agent
/// whose perf sees the host's processes), or in a helper container that shares the host's pid namespace, started by a
/// swarm's agent through its host's engine (<see cref="Relay.ContainerPerfRunner"/>).
/// </summary>
internal interface IPerfRunner
{
    /// <summary>Starts perf with <paramref name="arguments"/> and leaves it running.</summary>
    Task<IPerfProcess> StartAsync(IReadOnlyList<string> arguments, CancellationToken ct = default);

    /// <summary>Runs perf to its end, its standard output handed to <paramref name="readOutput"/> (tens of MB for a `perf script`).</summary>
    Task<ProcessResult> RunAsync(IReadOnlyList<string> arguments, TimeSpan timeout, Action<StreamReader> readOutput, CancellationToken ct = default);
}

/// <summary>perf as a child process of this one.</summary>
internal sealed class LocalPerfRunner(string perfPath) : IPerfRunner
{
    public Task<IPerfProcess> StartAsync(IReadOnlyList<string> arguments, CancellationToken ct = default) =>
        Task.FromResult<IPerfProcess>(RunningProcess.Start(perfPath, arguments));

    public Task<ProcessResult> RunAsync(IReadOnlyList<string> arguments, TimeSpan timeout, Action<StreamReader> readOutput, CancellationToken ct = default) =>
        ProcessRunner.RunAsync(perfPath, arguments, timeout, readOutput, ct: ct);
}
