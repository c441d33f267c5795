using Lightning.Bench.Results;

namespace Lightning.Bench.Reports;

/// <summary>manifest.json: what ran, where and how (harness, command line, seed and order, images, machine, profiling), partial or not; always written.</summary>
internal sealed class ManifestJson : IRunEndOutput
{
    public IReadOnlyList<string> Files => [Manifest.FileName];

    public Task WriteAsync(RunOutputContext context, CancellationToken ct = default)
    {
        ManifestOf(context).Write(context.ResultsDirectory);
        return Task.CompletedTask;
    }

    private static Manifest ManifestOf(RunOutputContext run)
    {
        var options = run.Options;
        var (version, commit) = Manifest.HarnessBuild();
        return new Manifest
        {
            RunId = run.RunId,
            HarnessVersion = version,
            HarnessCommit = commit,
            Arguments = options.CommandLine,
            CommandLine = string.Join(' ', new[] { "./run.sh" }.Concat(options.CommandLine.Select(Quote))),
            Scenario = run.Scenario.Name,
            Parameters = run.Scenario.Parameters.ToDictionary(p => p.Name, p => p.ValuesFrom(options.Sweeps)),
            Iterations = options.Iterations,
            Warmups = options.Warmups,
            BackToBack = options.BackToBack,
            Topologies = options.Topologies,
            Seed = run.Seed,
            Order = run.Order,
            ThresholdPercent = options.ThresholdPercent,
            AmountMsat = options.AmountMsat,
            Graph = run.Graph is { } graph
                ? GraphOf(
                    graph,
                    run.Scenario.Parameters.FirstOrDefault(p => p.Name == nameof(Scenarios.MainnetGraph.GraphPercent))
                        ?.ValuesFrom(options.Sweeps)
                        ?? []
                )
                : null,
            History = run.History,
            Traces = options.Traces,
            Invoices = run.InvoiceMode,
            Builds = options
                .Builds.Select(b => new BuildRecord(b.Name, b.Image, b.NodeImages)
                {
                    Kind = b.Kind,
                    NodeKinds = b.NodeKinds,
                    NodeOptions = b.NodeOptions,
                    Database = b.Database,
                })
                .ToList(),
            BitcoindImage = options.BitcoindImage,
            Images = run
                .Images.Select(i =>
                    options.Sources.FirstOrDefault(s => s.Image == i.Name) is { } source
                        ? i with
                        {
                            Source = source,
                        }
                        : i
                )
                .ToList(),
            Cases = run.Results.Cases.Where(c => c.Topology is not null).Select(c => c.Topology!).ToList(),
            Machine = run.Machine,
            Started = run.Started,
            Ended = DateTimeOffset.UtcNow,
            Partial = run.Partial,
            Interrupted = run.InterruptedBy,
            ReplayOf = options.ReplayOf,
            Profiling = run.Profiles,
            Budget = run.Results.Comparisons?.Budget,
            Swarm = options.Swarm ? SwarmRecord.Of(run.Results.Cases, run.Started, DateTimeOffset.UtcNow) : null,
            Conditions = run.Conditions,
            MachineLoad = run.MachineLoad,
            Pairing =
                options.BuildList.Count > 1 || options.Traces.Count > 1
                    ? (
                        options.AlternatesArms
                            ? "alternate: fresh topologies, one per arm with the same Topology index, set up together and live at once; in each BenchmarkDotNet "
                                + "iteration of an arm's case every other arm makes one invocation, then the case's own (the arms' cases in a balanced, seeded order, see order), "
                                + "and each arm's figures are the harness's timing of all its measured invocations; "
                            : "sequential: fresh topologies, one per arm with the same Topology index, started one after the other in a balanced, seeded order (see order); "
                    )
                        + "a comparison's unit is the pair's log ratio of topology means"
                        + (
                            options.MaxTime is null
                                ? ""
                                : "; pairs added round by round until decided or out of time (see budget)"
                        )
                    : null,
            Instructions = run.Valgrind is { } valgrind
                ? new InstructionsRecord(
                    valgrind.Version,
                    "callgrind --trace-children=yes --dump-line=no, zeroed and dumped through vgdb around each window",
                    Instructions.CaseInstructions.IdleWindow.TotalSeconds,
                    options.InstructionsThresholdPercent
                )
                : null,
        };
    }

    private static GraphRecord GraphOf(Graph.RunGraph graph, IReadOnlyList<int> percents) =>
        new(
            graph.Path,
            graph.Sha256,
            graph.Snapshot.NodeCount,
            graph.Snapshot.Channels.Count,
            graph.MappedIndex,
            graph.MapPath,
            graph.Seed,
            Graph.GossipStoreForms.Describe(graph.Form),
            percents
                .Select(p =>
                {
                    var channels = graph.Channels(p);
                    var hash = System.Security.Cryptography.SHA256.HashData(
                        channels.SelectMany(BitConverter.GetBytes).ToArray()
                    );
                    return new GraphShareRecord(
                        p,
                        channels.Length,
                        Convert.ToHexStringLower(hash),
                        graph
                            .Queries(p)
                            .Select(q => $"{q.Destination}:{q.AmountSat}:{(q.Top ? "top" : "sample")}")
                            .ToList()
                    );
                })
                .ToList()
        );

    private static string Quote(string argument) =>
        argument.Length > 0 && argument.All(c => char.IsLetterOrDigit(c) || "-_=.,:/@+".Contains(c))
            ? argument
            : $"'{argument.Replace("'", "'\\''", StringComparison.Ordinal)}'";
}
