using System.Diagnostics;
using System.Text.Json;
using Lightning.Bench.Results;

namespace Lightning.Bench.Tests;

/// <summary>
/// A whole run on real node images with a CPU hog the test starts beside it (two busy loops, each ending by itself
/// after 5 minutes): the run is called busy in its console's end, summary.json, the manifest, machine-load.csv and its
/// page. That a quiet run is not is decided on a quiet run's recorded samples (<see cref="MachineLoadTests"/>): this
/// machine is shared, so a run here cannot be made quiet.
/// </summary>
[Trait("Category", "E2E")]
[Collection(DockerCollection.Name)]
public class MachineLoadEndToEndTests
{
    [SkippableFact]
    public async Task A_run_beside_a_cpu_hog_says_the_machine_was_busy_wherever_its_figures_are()
    {
        var (cln, bitcoind) = Requirements.NodeImages();
        var hogs = Enumerable
            .Range(0, 2)
            .Select(_ => Process.Start(new ProcessStartInfo("bash", ["-c", "while [ $SECONDS -lt 300 ]; do :; done"]))!)
            .ToList();
        try
        {
            var (runDir, run) = await HarnessProcess.RunToResultsAsync(
                "busy",
                [
                    "AlicePaysBob",
                    "--concurrency",
                    "1",
                    "--iterations",
                    "10",
                    "--topologies",
                    "1",
                    "--cln-image",
                    cln,
                    "--bitcoind-image",
                    bitcoind,
                ]
            );

            Assert.Contains("// lnbench", run.StandardOutput);
            var busyLine = Assert.Single(
                run.StandardOutput.Split('\n'),
                l => l.Contains("the machine was busy: other work took", StringComparison.Ordinal)
            );
            var summary = RunSummary.Read(await File.ReadAllTextAsync(Path.Combine(runDir, RunSummary.FileName)));
            var load = summary.MachineLoad!;
            Assert.True(load.Busy, load.Description);
            Assert.Contains(load.BusyNote!, busyLine);
            Assert.True(load.Samples >= 3, load.Description);
            Assert.True(load.RunCpuPercent > 0, load.Description);
            Assert.Null(load.Problem);
            var manifest = Manifest.Read(await File.ReadAllTextAsync(Path.Combine(runDir, Manifest.FileName)));
            Assert.Equal(load, manifest.MachineLoad);
            var samples = MachineLoadCsv.Parse(
                await File.ReadAllTextAsync(Path.Combine(runDir, MachineLoadCsv.FileName))
            );
            Assert.Equal(load.Samples, samples.Count);
            Assert.Equal(load.OtherCpuPercent, MachineLoad.Of(samples, load.Cpus)!.OtherCpuPercent, 1);
            var page = await File.ReadAllTextAsync(Path.Combine(runDir, "report.html"));
            Assert.Contains("<dt>busy machine</dt><dd>other work took", page);
            using var json = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(runDir, RunSummary.FileName)));
            Assert.True(json.RootElement.GetProperty("machine_load").GetProperty("busy").GetBoolean());
        }
        finally
        {
            foreach (var hog in hogs)
            {
                hog.Kill();
                hog.Dispose();
            }
        }
    }
}
