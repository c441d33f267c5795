namespace Lightning.Bench.Profiling;

/// <summary>
/// One function of a profile. Self: samples in which it was the leaf (running its own code); total: samples in which
/// it was anywhere on the stack, counted once per sample even when it recurses. Shares are fractions (0..1) of all the
/// profile's samples.
/// </summary>
internal sealed record FunctionShare(
    string Function,
    long SelfSamples,
    long TotalSamples,
    double SelfShare,
    double TotalShare
);
