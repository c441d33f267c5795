using Lightning.Bench.Processes;
using Lightning.Bench.Results;

namespace Lightning.Bench.Reports;

/// <summary>machine-load.csv: the machine sampled once a second while the run measured (<see cref="MachineLoadSample"/>).</summary>
internal sealed class MachineLoadFile : IRunEndOutput
{
    public IReadOnlyList<string> Files => [MachineLoadCsv.FileName];

    public Task WriteAsync(RunOutputContext context, CancellationToken ct = default)
    {
        if (context.MachineLoadSamples.Count > 0)
        {
            AtomicFile.WriteAllText(
                Path.Combine(context.ResultsDirectory, MachineLoadCsv.FileName),
                MachineLoadCsv.Format(context.MachineLoadSamples)
            );
        }
        return Task.CompletedTask;
    }
}
