namespace Lightning.Bench.Waiting;

internal sealed class WaitTimeoutException(string condition, TimeSpan timeout, string lastObserved)
    : Exception($"timed out after {timeout.TotalSeconds:0} s waiting for {condition}; last seen: {lastObserved}")
{
    public string Condition { get; } = condition;

    public string LastObserved { get; } = lastObserved;
}
