namespace Lightning.Bench.Reports;

/// <summary>An output written once, by the run's one shutdown (the normal end, a failure or a signal), in the order <see cref="RunOutputs.RunEnd"/> lists.</summary>
internal interface IRunEndOutput : IRunOutput
{
    Task WriteAsync(RunOutputContext context, CancellationToken ct = default);
}
