using Lightning.Bench.Processes;

namespace Lightning.Bench.Profiling;

/// <summary>perf as a child process of this one.</summary>
internal sealed class LocalPerfRunner(string perfPath) : IPerfRunner
{
    public Task<IRunningProcess> StartAsync(IReadOnlyList<string> arguments, CancellationToken ct = default) =>
        Task.FromResult<IRunningProcess>(RunningProcess.Start(perfPath, arguments));

    public Task<ProcessResult> RunAsync(
        IReadOnlyList<string> arguments,
        TimeSpan timeout,
        Action<StreamReader> readOutput,
        CancellationToken ct = default
    ) => ProcessRunner.RunAsync(perfPath, arguments, timeout, readOutput, ct: ct);
}
