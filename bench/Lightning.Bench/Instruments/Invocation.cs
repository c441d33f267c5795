namespace Lightning.Bench.Instruments;

/// <summary>One invocation of a case as its instruments see it.</summary>
/// <param name="number">1-based within the case, warmups first.</param>
/// <param name="measured">After the warmups: BenchmarkDotNet measures it.</param>
internal sealed class Invocation(int number, bool measured)
{
    public int Number { get; } = number;

    public bool Measured { get; } = measured;

    /// <summary>An instrument needs none of this invocation's operations (an instruction run's invocations after its window): it makes none.</summary>
    public bool SkipOperations { get; set; }

    /// <summary>The operations' time, set when they all ended (null: they did not, e.g. a node died).</summary>
    public TimeSpan? Elapsed { get; set; }
}
