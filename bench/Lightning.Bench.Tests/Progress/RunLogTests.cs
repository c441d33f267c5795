using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Loggers;
using BenchmarkDotNet.Running;
using Lightning.Bench.Cases;
using Lightning.Bench.Progress;

namespace Lightning.Bench.Tests.Progress;

/// <summary>console.log: every progress line and BenchmarkDotNet's log in the run folder, in both modes; the model fed by a real BenchmarkDotNet run.</summary>
[Trait("Category", "Unit")]
public class RunLogTests
{
    [Fact]
    public void Lines_before_the_run_folder_exists_are_held_and_written_first_when_it_opens()
    {
        var folder = Directory.CreateTempSubdirectory("lnbench-log-");
        try
        {
            var path = Path.Combine(folder.FullName, RunLog.FileName);
            var console = new StringWriter();
            using (var log = new RunLog())
            {
                var progress = new RunProgress(new PlainProgressRenderer(console), log);
                progress.Info("Docker engine 29.0");
                Assert.False(File.Exists(path));
                log.Open(path);
                progress.Info("seeding the chain");
                Assert.Equal(path, log.Path);
            }

            var lines = File.ReadAllLines(path);
            Assert.Equal(2, lines.Length);
            Assert.Matches(@"^// lnbench \[ +\d+\.\d s\] Docker engine 29\.0$", lines[0]);
            Assert.EndsWith("] seeding the chain", lines[1]);
            // Plain lines on the console are what they were: the same lines, in the same order.
            Assert.Equal(lines, console.ToString().Split(Environment.NewLine, StringSplitOptions.RemoveEmptyEntries));
        }
        finally
        {
            folder.Delete(recursive: true);
        }
    }

    [Fact]
    public void BenchmarkDotNets_log_goes_to_the_run_log_and_on_to_the_console_only_without_a_live_display()
    {
        var folder = Directory.CreateTempSubdirectory("lnbench-log-");
        try
        {
            var console = new AccumulationLogger();
            using var plainLog = new RunLog();
            plainLog.Open(Path.Combine(folder.FullName, "plain.log"));
            using var liveLog = new RunLog();
            liveLog.Open(Path.Combine(folder.FullName, "live.log"));
            var plain = new RunLogLogger(plainLog, console);
            var live = new RunLogLogger(liveLog, console: null);

            foreach (var logger in new ILogger[] { plain, live })
            {
                logger.WriteLine(LogKind.Info, "// Found 24 benchmarks:");
                logger.Write(LogKind.Default, "WorkloadActual   1: 1 op, ");
                logger.WriteLine(LogKind.Default, "812400000.00 ns");
            }

            Assert.Equal(
                $"// Found 24 benchmarks:{Environment.NewLine}WorkloadActual   1: 1 op, 812400000.00 ns{Environment.NewLine}",
                console.GetLog()
            );
            plainLog.Dispose();
            liveLog.Dispose();
            Assert.Equal(console.GetLog(), File.ReadAllText(Path.Combine(folder.FullName, "plain.log")));
            Assert.Equal(console.GetLog(), File.ReadAllText(Path.Combine(folder.FullName, "live.log")));
        }
        finally
        {
            folder.Delete(recursive: true);
        }
    }

    [Fact]
    public void A_BenchmarkDotNet_run_feeds_the_model_its_cases_and_pairs_and_keeps_its_whole_log_in_the_folder()
    {
        var folder = Directory.CreateTempSubdirectory("lnbench-log-");
        try
        {
            var model = new ProgressModel();
            using var log = new RunLog();
            log.Open(Path.Combine(folder.FullName, RunLog.FileName));
            var config = ManualConfig
                .CreateEmpty()
                .AddJob(BenchConfig.CaseJob(warmups: 0, iterations: 2))
                .AddLogger(new BenchmarkOutput(new RunLogLogger(log, console: null)))
                .AddEventProcessor(new ProgressEventProcessor(model))
                .WithArtifactsPath(folder.FullName);

            var summary = BenchmarkRunner.Run<ProgressBenchmark>(config);

            Assert.All(summary.Reports, r => Assert.True(r.Success));
            var snapshot = model.Snapshot();
            Assert.Equal((4, 4, 0, 1), (snapshot.CasesTotal, snapshot.CasesDone, snapshot.CasesFailed, snapshot.Round));
            Assert.Equal((2, 2), (snapshot.PairsDone!.Value, snapshot.PairsTotal!.Value));
            Assert.Equal(2, snapshot.Topologies);
            Assert.Equal(TimeSpan.Zero, snapshot.Eta);
            Assert.True(snapshot.LastCaseSucceeded);
            Assert.NotNull(snapshot.LastCaseMean);
            log.Dispose();
            var text = File.ReadAllText(Path.Combine(folder.FullName, RunLog.FileName));
            Assert.Contains("// Found 4 benchmarks:", text);
            Assert.Contains("WorkloadActual", text);
            // BenchmarkDotNet's own log is beside it, whole.
            Assert.True(File.Exists(summary.LogFilePath));
            Assert.Equal(folder.FullName, Path.GetDirectoryName(summary.LogFilePath));
            Assert.Contains("// Found 4 benchmarks:", File.ReadAllText(summary.LogFilePath));
        }
        finally
        {
            folder.Delete(recursive: true);
        }
    }
}
