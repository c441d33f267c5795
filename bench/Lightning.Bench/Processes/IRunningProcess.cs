namespace Lightning.Bench.Processes;

/// <summary>
/// A process that runs on beside the harness (a perf recording: <see cref="RunningProcess"/> here, or one in a helper
/// container on a swarm's host): whether and how it ended, the end of what it said.
/// </summary>
internal interface IRunningProcess : IAsyncDisposable
{
    bool HasExited { get; }

    int ExitCode { get; }

    /// <summary>Its last non-empty lines of standard error, for one-line messages.</summary>
    string Tail(int lines = 3);

    /// <summary>Waits until it exits; false when it did not within <paramref name="timeout"/>.</summary>
    Task<bool> WaitForExitAsync(TimeSpan timeout, CancellationToken ct = default);
}
