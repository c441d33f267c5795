using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Jobs;
using BenchmarkDotNet.Loggers;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;

namespace Lightning.Bench.Tests.Support;

/// <summary>Runs a test benchmark under given jobs (and filter) in a temporary artifacts folder; every case must succeed.</summary>
internal static class BenchmarkDotNetRun
{
    public static Summary Run<T>(Job[] jobs, BenchmarkDotNet.Filters.IFilter? filter = null)
    {
        var artifacts = Directory.CreateTempSubdirectory("lnbench-bdn-");
        try
        {
            var log = new AccumulationLogger();
            var config = ManualConfig.CreateEmpty().AddJob(jobs).AddLogger(log).WithArtifactsPath(artifacts.FullName);
            var summary = BenchmarkRunner.Run<T>(filter is null ? config : config.AddFilter(filter));
            Assert.NotEmpty(summary.Reports);
            Assert.All(summary.Reports, r => Assert.True(r.Success, log.GetLog()));
            return summary;
        }
        finally
        {
            artifacts.Delete(recursive: true);
        }
    }
}
