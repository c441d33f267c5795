using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Engines;
using BenchmarkDotNet.Filters;
using BenchmarkDotNet.Jobs;
using BenchmarkDotNet.Loggers;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Toolchains.InProcess.Emit;
using Lightning.Bench.Columns;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Options;
using Lightning.Bench.Reports;
using Lightning.Bench.Scenarios;
using Perfolizer.Horology;

namespace Lightning.Bench.Cases;

/// <summary>The BenchmarkDotNet configuration of a macro-benchmark: in-process (one topology per case stays alive), one invocation per iteration.</summary>
internal static class BenchConfig
{
    /// <summary>A case builds a topology and pays for minutes; BenchmarkDotNet's default in-process timeout (5 minutes) is far too short.</summary>
    public static readonly TimeSpan CaseTimeout = TimeSpan.FromHours(12);

    /// <summary>
    /// The job every case runs: in-process, one invocation per iteration, no pilot, and no forced garbage collection
    /// between iterations. BenchmarkDotNet's default collects twice around every iteration, for micro-benchmarks; here
    /// that put 5–8 ms of the harness's own CPU between payments on a 2-core machine: at Concurrency=1 the harness measured
    /// 5 % more per payment than a plain loop over the same nodes, and at 10 it measured 8 % less, the nodes finishing the
    /// last payments' commitments in the pause instead of inside the next invocation (benchmarks/harness-overhead.sh;
    /// docs/how-it-works.md). The harness's collections inside measured invocations are counted instead (summary.json
    /// <c>harness_gc</c>).
    /// </summary>
    public static Job CaseJob(int warmups, int iterations) =>
        Job
            .Default.WithStrategy(RunStrategy.Monitoring)
            .WithLaunchCount(1)
            .WithWarmupCount(warmups)
            .WithIterationCount(iterations)
            .WithInvocationCount(1)
            .WithUnrollFactor(1)
            .WithGcForce(false)
            .WithToolchain(new InProcessEmitToolchain(CaseTimeout, logOutput: true))
            .WithId("lnbench");

    /// <summary>
    /// One job per iteration count the cases need, and the filter that runs each case under its own: BenchmarkDotNet
    /// runs every case under every job otherwise. With one count, the one job of <see cref="CaseJob"/>.
    /// </summary>
    public static (Job[] Jobs, IFilter? Filter) CaseJobs(
        int warmups,
        int iterations,
        IReadOnlyDictionary<int, int> byConcurrency
    )
    {
        int For(int concurrency) => byConcurrency.TryGetValue(concurrency, out var n) ? n : iterations;
        var counts = byConcurrency.Values.Append(iterations).Distinct().Order().ToList();
        if (counts.Count == 1)
        {
            return ([CaseJob(warmups, counts[0])], null);
        }
        var jobs = counts.Select(n => CaseJob(warmups, n).WithId($"lnbench-{n}")).ToArray();
        return (jobs, new SimpleFilter(c => c.Job.Run.IterationCount == For(ConcurrencyOf(c))));
    }

    /// <summary>
    /// The jobs when <paramref name="alternatingArms"/> arms alternate (--pairing alternate): every BenchmarkDotNet
    /// iteration makes one invocation of each arm and the warmups are made when the group starts (<see cref="ArmGroup"/>),
    /// so a case makes no warmups and as many iterations as give each topology its measured invocations (rounded up).
    /// </summary>
    public static (Job[] Jobs, IFilter? Filter) CaseJobs(
        int warmups,
        int iterations,
        IReadOnlyDictionary<int, int> byConcurrency,
        int alternatingArms
    )
    {
        if (alternatingArms <= 1)
        {
            return CaseJobs(warmups, iterations, byConcurrency);
        }
        return CaseJobs(
            0,
            IterationsPerCase(iterations, alternatingArms),
            byConcurrency.ToDictionary(i => i.Key, i => IterationsPerCase(i.Value, alternatingArms))
        );
    }

    /// <summary>A case's BenchmarkDotNet iterations when each makes one invocation of every one of <paramref name="arms"/> arms: a topology's measured invocations, split and rounded up.</summary>
    public static int IterationsPerCase(int measured, int arms) => (measured + arms - 1) / arms;

    /// <summary>
    /// Only the cases of <paramref name="topologyOf"/>'s cells, each at its topology index (a budgeted run's rounds
    /// after the first: the open cells that get a pair, each its next), besides what <paramref name="filter"/> keeps;
    /// every case when null.
    /// </summary>
    public static IFilter? OnlyCells(IFilter? filter, IReadOnlyDictionary<string, int>? topologyOf) =>
        topologyOf is null
            ? filter
            : new SimpleFilter(c =>
            {
                var id = CaseKey.IdOf(c);
                return (filter is null || filter.Predicate(c))
                    && topologyOf.TryGetValue(id.Cell.Label, out var topology)
                    && id.Topology == topology;
            });

    /// <summary>A case's Concurrency parameter (every scenario has one).</summary>
    private static int ConcurrencyOf(BenchmarkDotNet.Running.BenchmarkCase c) =>
        c.Parameters.Items.FirstOrDefault(p => p.Name == "Concurrency")?.Value is int n ? n : 0;

    /// <param name="progress">Told each case's start and end, for the progress display; null for none.</param>
    public static IConfig Create(
        HarnessOptions options,
        NodeKindCatalog kinds,
        string artifactsPath,
        Results.RunResults results,
        ExecutionPlan plan,
        ILogger? logger = null,
        IReadOnlyDictionary<int, int>? iterationsByConcurrency = null,
        int alternatingArms = 1,
        IReadOnlyDictionary<string, int>? cells = null,
        Progress.ProgressModel? progress = null
    )
    {
        var (jobs, caseFilter) = CaseJobs(
            options.Warmups,
            options.Iterations,
            iterationsByConcurrency ?? new Dictionary<int, int>(),
            alternatingArms
        );
        var filter = OnlyCells(caseFilter, cells);
        var config = ManualConfig
            .CreateEmpty()
            .AddJob(jobs)
            .AddLogger(logger ?? ConsoleLogger.Default)
            // BenchmarkDotNet's default columns, with the Method column named by the node kind (a run has one scenario
            // type, so BenchmarkDotNet's own descriptor columns would be the Method column alone).
            .AddColumn(new PaymentMethodColumn(options, kinds, results))
            .AddColumnProvider(
                options.Instructions
                    ? [DefaultColumnProviders.Job, DefaultColumnProviders.Params]
                    :
                    [
                        DefaultColumnProviders.Job,
                        DefaultColumnProviders.Statistics,
                        DefaultColumnProviders.Params,
                        DefaultColumnProviders.Metrics,
                    ]
            )
            .AddColumn(HarnessColumns.For(results, options, results.Noun).ToArray())
            .AddEventProcessor(new ResultsEventProcessor(results))
            .AddExporter(RunOutputs.BenchmarkDotNet.ToArray())
            .AddValidator(DefaultConfig.Instance.GetValidators().ToArray())
            .WithSummaryStyle(SummaryStyle.Default.WithTimeUnit(TimeUnit.Millisecond))
            // Cases run interleaved (balanced, shuffled, seeded) and show in the order the command line gave them.
            .WithOrderer(new InterleavedOrderer(plan))
            .WithArtifactsPath(artifactsPath)
            .WithOptions(ConfigOptions.JoinSummary);
        if (progress is not null)
        {
            config = config.AddEventProcessor(new ProgressEventProcessor(progress));
        }
        return filter is null ? config : config.AddFilter(filter);
    }
}
