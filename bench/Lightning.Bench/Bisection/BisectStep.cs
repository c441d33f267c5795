namespace Lightning.Bench.Bisection;

/// <summary>One step of a bisection: the <paramref name="Number"/>-th commit measured, its place in the range, and what it was.</summary>
/// <param name="Index">Its place in the range: 0 is GOOD, the last is BAD.</param>
internal sealed record BisectStep(
    int Number,
    int Index,
    string Commit,
    StepOutcome Outcome,
    StepMeasurement Measurement
);
