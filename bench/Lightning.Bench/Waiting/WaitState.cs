namespace Lightning.Bench.Waiting;

/// <summary>One look at a condition: whether it holds, and what was seen (reported if the wait times out).</summary>
internal readonly record struct WaitState(bool Done, string Observed)
{
    public static WaitState Met(string observed = "") => new(true, observed);

    public static WaitState NotYet(string observed) => new(false, observed);
}
