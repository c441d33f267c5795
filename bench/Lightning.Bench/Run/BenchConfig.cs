using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Engines;
using BenchmarkDotNet.Jobs;
using BenchmarkDotNet.Loggers;
using BenchmarkDotNet.Order;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Toolchains.InProcess.Emit;
using Perfolizer.Horology;
using Lightning.Bench.Columns;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Options;
using Lightning.Bench.Reports;
using Lightning.Bench.Results;

namespace Lightning.Bench.Run;

/// <summary>The BenchmarkDotNet configuration of a macro-benchmark: in-process (one topology per case stays alive), one invocation per iteration.</summary>
internal static class BenchConfig
{
    /// <summary>A case builds a topology and pays for minutes; BenchmarkDotNet's default in-process timeout (5 minutes) is far too short.</summary>
    public static readonly TimeSpan CaseTimeout = TimeSpan.FromHours(12);

    /// <summary>The job every case runs: in-process, one invocation per iteration, no pilot.</summary>
    public static Job CaseJob(int warmups, int iterations) => Job.Default
        .WithStrategy(RunStrategy.Monitoring)
        .WithLaunchCount(1)
        .WithWarmupCount(warmups)
        .WithIterationCount(iterations)
        .WithInvocationCount(1)
        .WithUnrollFactor(1)
        .WithToolchain(new InProcessEmitToolchain(CaseTimeout, logOutput: true))
        .WithId("lnbench");

    public static IConfig Create(HarnessOptions options, NodeKindCatalog kinds, string artifactsPath, Results.RunResults results, ExecutionPlan plan, ILogger? logger = null)
    {
        return ManualConfig.CreateEmpty()
            .AddJob(CaseJob(options.Warmups, options.Iterations))
            .AddLogger(logger ?? ConsoleLogger.Default)
            // BenchmarkDotNet's default columns, with the Method column named by the node kind (a run has one scenario
            // type, so BenchmarkDotNet's own descriptor columns would be the Method column alone).
            .AddColumn(new PaymentMethodColumn(options, kinds))
            .AddColumnProvider(options.Instructions
                ? [DefaultColumnProviders.Job, DefaultColumnProviders.Params]
                : [DefaultColumnProviders.Job, DefaultColumnProviders.Statistics, DefaultColumnProviders.Params, DefaultColumnProviders.Metrics])
            .AddColumn(HarnessColumns.For(results, options).ToArray())
            .AddEventProcessor(new ResultsEventProcessor(results))
            .AddExporter(RunOutputs.BenchmarkDotNet.ToArray())
            .AddValidator(DefaultConfig.Instance.GetValidators().ToArray())
            .WithSummaryStyle(SummaryStyle.Default.WithTimeUnit(TimeUnit.Millisecond))
            // Cases run interleaved (balanced, shuffled, seeded) and show in the order the command line gave them.
            .WithOrderer(new InterleavedOrderer(plan))
            .WithArtifactsPath(artifactsPath)
            .WithOptions(ConfigOptions.JoinSummary);
    }
}
