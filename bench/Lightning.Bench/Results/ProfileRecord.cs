namespace Lightning.Bench.Results;

/// <summary>One node's CPU profile in one case: where its folded stacks are and what they rest on.</summary>
/// <param name="File">The folded stacks, relative to the run's folder (profiles/CASE/NODE.folded).</param>
/// <param name="Samples">Stack samples (each one 1/frequency s of the node's CPU time).</param>
/// <param name="Payments">Payments that succeeded in the sampled invocations (profiles are compared per payment).</param>
/// <param name="SampledSeconds">Time the sampling was on.</param>
/// <param name="RawBytes">Size of perf's raw recording, deleted once folded.</param>
/// <param name="MergedStacks">Rarest stacks merged into "[other stacks]" to bound the file (0: none).</param>
internal sealed record ProfileRecord(
    string Node,
    string File,
    long Samples,
    int Payments,
    double SampledSeconds,
    long RawBytes,
    int Stacks,
    int MergedStacks,
    long MergedSamples
);
