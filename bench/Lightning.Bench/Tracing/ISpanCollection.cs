namespace Lightning.Bench.Tracing;

/// <summary>
/// A topology's spans as they are collected: on one host from the nodes' sockets (<see cref="TraceRecorder"/>), on a
/// swarm through the agent on their host (<c>RelayedTraceRecorder</c>); both write the same spans.jsonl
/// and count the same <see cref="TraceNodeStats"/>.
/// </summary>
internal interface ISpanCollection : IAsyncDisposable
{
    /// <summary>spans.jsonl, complete once <see cref="FinishAsync"/> returns.</summary>
    string SpansFile { get; }

    /// <summary>When collection stopped (µs since the epoch), once finished; null before.</summary>
    long? StoppedUnixMicros { get; }

    /// <summary>Waits until no more spans arrive (the last payments' late ones), stops, writes spans.jsonl and counts.</summary>
    Task<IReadOnlyList<TraceNodeStats>> FinishAsync(CancellationToken ct = default);

    /// <summary>Waits until <paramref name="count"/> stays the same over <paramref name="quiet"/> (the last payments' late spans are in), at most 10 s.</summary>
    static async Task UntilQuietAsync(Func<long> count, TimeSpan quiet, CancellationToken ct)
    {
        var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(10);
        var last = -1L;
        while (count() != last && DateTime.UtcNow < deadline)
        {
            last = count();
            await Task.Delay(quiet, ct);
        }
    }
}
