namespace Lightning.Bench.Tests.Support;

/// <summary>A clock that moves only when told, for figures computed from elapsed time.</summary>
internal sealed class ManualClock(DateTimeOffset start) : TimeProvider
{
    public DateTimeOffset Now { get; private set; } = start;

    public override DateTimeOffset GetUtcNow() => Now;

    public void Advance(TimeSpan by) => Now += by;
}
