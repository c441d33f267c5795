namespace Lightning.Bench.Results;

/// <summary>
/// One node's instructions (Valgrind's Ir) in a case's measured window and in its idle window, by process name
/// (lightningd, lightning_channeld, cln-xpay, …; processes of one name summed).
/// </summary>
/// <param name="Window">Instructions per process between the zeroing before the first measured invocation and the dump after the last.</param>
/// <param name="Idle">Instructions per process in the idle window, before the first payment.</param>
internal sealed record NodeInstructions(
    IReadOnlyDictionary<string, double> Window,
    double WindowSeconds,
    IReadOnlyDictionary<string, double> Idle,
    double IdleSeconds
)
{
    /// <summary>
    /// Per process, what the window's retry loops would have added or saved had each run its mean number of times
    /// (the node kind's <see cref="NodeKinds.RetryLoop"/>s; empty for a kind without any).
    /// </summary>
    public IReadOnlyDictionary<string, double> Retries { get; init; } = new Dictionary<string, double>();

    /// <summary>
    /// Per process, the window's instructions less what the process does idle in as long (its timers and chain polls),
    /// with its retry loops counted at their mean.
    /// </summary>
    public IReadOnlyDictionary<string, double> Active() =>
        Window
            .Keys.Union(Idle.Keys)
            .ToDictionary(
                p => p,
                p => Window.GetValueOrDefault(p) - IdleShare * Idle.GetValueOrDefault(p) + Retries.GetValueOrDefault(p)
            );

    /// <summary>The idle window scaled to the measured window's length.</summary>
    public double IdleShare => IdleSeconds > 0 ? WindowSeconds / IdleSeconds : 0;
}
