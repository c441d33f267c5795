namespace Lightning.Bench.Swarm.Relay;

/// <summary>
/// Wait on the agent's host until the nodes together have used less than <paramref name="BusyShare"/> of a core above
/// <paramref name="IdleNsPerSecond"/> over the last <paramref name="Quiet"/>, reading their cgroups every
/// <paramref name="Poll"/>, or until <paramref name="Limit"/> (<see cref="Waiting.QuietWait"/>): the harness's wait
/// before a timed invocation, where the cgroups are, instead of a round trip per reading.
/// </summary>
internal sealed record QuietRequestMessage(
    int RequestId,
    TimeSpan Quiet,
    double BusyShare,
    TimeSpan Limit,
    TimeSpan Poll,
    long IdleNsPerSecond,
    IReadOnlyList<CostTarget> Targets
)
{
    /// <summary>The longest wait the agent takes on (a longer limit is refused as malformed).</summary>
    public static readonly TimeSpan MaxLimit = TimeSpan.FromMinutes(10);

    public byte[] Encode()
    {
        var writer = new FrameBodyWriter()
            .I32(RequestId)
            .I64(Micros(Quiet))
            .U16((int)Math.Round(Math.Clamp(BusyShare, 0, 1) * 10_000))
            .I64(Micros(Limit))
            .I64(Micros(Poll))
            .I64(IdleNsPerSecond)
            .U16(Targets.Count);
        foreach (var target in Targets)
        {
            writer.String(target.Node).I32(target.Pid);
        }
        return writer.Frame(RelayFrameType.QuietRequest);
    }

    public static QuietRequestMessage Decode(RelayFrame frame)
    {
        var reader = new FrameBodyReader(frame);
        var (id, quiet, share, limit, poll, idle) = (
            reader.I32(),
            reader.I64(),
            reader.U16(),
            reader.I64(),
            reader.I64(),
            reader.I64()
        );
        if (
            quiet < 0
            || limit < 0
            || poll <= 0
            || share > 10_000
            || idle < 0
            || TimeSpan.FromMicroseconds(limit) > MaxLimit
            || poll > limit + 1
        )
        {
            throw new RelayProtocolException(
                RelayProblem.Malformed,
                $"a quiet request with window {quiet} µs, share {share}/10000, limit {limit} µs, poll {poll} µs"
            );
        }
        var targets = new List<CostTarget>();
        for (var count = reader.U16(); count > 0; count--)
        {
            targets.Add(new CostTarget(reader.String(), reader.I32()));
        }
        reader.End();
        return new QuietRequestMessage(
            id,
            TimeSpan.FromMicroseconds(quiet),
            share / 10_000.0,
            TimeSpan.FromMicroseconds(limit),
            TimeSpan.FromMicroseconds(poll),
            idle,
            targets
        );
    }

    private static long Micros(TimeSpan span) => (long)Math.Round(span.TotalMicroseconds);
}
