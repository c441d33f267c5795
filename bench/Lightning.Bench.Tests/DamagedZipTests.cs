using Lightning.Bench.Processes;
using Lightning.Bench.Progress;
using Lightning.Bench.Reports;
using Lightning.Bench.Results;

namespace Lightning.Bench.Tests;

/// <summary>
/// A run's zip cut short (a run stopped while zipping before zips were written whole, a copy that did not finish) given
/// to --compare, --replay or --publish: the harness, run as a user runs it, names it as damaged in one line, says to give
/// the run's folder instead, and exits 2; the folder then works.
/// </summary>
[Trait("Category", "Unit")]
public class DamagedZipTests : IDisposable
{
    private readonly string directory = Directory.CreateTempSubdirectory("lnbench-damaged-").FullName;

    [Theory]
    [InlineData(0.5)]
    [InlineData(0.99)]
    [InlineData(0.0)]
    public void Reading_a_zip_cut_anywhere_names_it_as_damaged_and_the_folder_beside_it(double kept)
    {
        var run = WriteRun("run-b");
        var zip = ArtifactZip.Create(run);
        Truncate(zip, kept);

        var error = Assert.Throws<InvalidDataException>(() => RunArchive.ReadText(zip, RunSummary.FileName));

        Assert.StartsWith($"'{zip}' is a damaged zip (", error.Message);
        Assert.EndsWith($"): give the run's folder instead ({run})", error.Message);
        Assert.DoesNotContain('\n', error.Message);
        // What is not a zip at all is still said to be none.
        Assert.Equal(
            $"{Path.Combine(run, "summary.json")} is not a zip: give a run's zip or folder (results/RUN.zip)",
            Assert
                .Throws<InvalidDataException>(() =>
                    RunArchive.ReadText(Path.Combine(run, "summary.json"), RunSummary.FileName)
                )
                .Message
        );
    }

    [Theory]
    [InlineData("--compare")]
    [InlineData("--replay")]
    [InlineData("--publish")]
    public async Task Compare_replay_and_publish_of_a_truncated_zip_say_it_is_damaged_in_one_line_and_exit_2(
        string command
    )
    {
        var a = WriteRun("run-a");
        var b = WriteRun("run-b");
        var zip = ArtifactZip.Create(b);
        Truncate(zip, 0.6);
        var site = Path.Combine(directory, "site");
        string[] arguments = command switch
        {
            "--compare" => ["--compare", a, zip],
            "--replay" => ["--replay", zip],
            _ => ["--publish", site, zip],
        };

        var result = await HarnessProcess.RunAsync([.. arguments, "--results", directory], TimeSpan.FromMinutes(2));

        Assert.Equal(HarnessExit.Usage, result.ExitCode);
        var line = Assert.Single(result.StandardError.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.StartsWith($"lnbench: error: '{zip}' is a damaged zip (", line);
        Assert.EndsWith($"give the run's folder instead ({b})", line.TrimEnd());
        Assert.False(Directory.Exists(Path.Combine(site, HistorySite.RunsFolder, "run-b")));
        Assert.Empty(
            Directory.GetFileSystemEntries(directory, "*" + AtomicFile.Marker + "*", SearchOption.AllDirectories)
        );

        if (command == "--compare")
        {
            // The folder instead: the comparison runs.
            var instead = await HarnessProcess.RunAsync(
                ["--compare", a, b, "--results", directory],
                TimeSpan.FromMinutes(2)
            );
            Assert.True(instead.Succeeded, instead.Tail());
            Assert.Contains(
                "run run-b against run run-a",
                File.ReadAllText(Path.Combine(directory, "compare-run-a-vs-run-b", ReportHtml.FileName))
            );
        }
    }

    /// <summary>A run folder with what --compare, --replay and --publish read: its summary (three topologies of one case) and manifest.</summary>
    private string WriteRun(string id)
    {
        var run = Directory.CreateDirectory(Path.Combine(directory, $"{id}-AlicePaysBob")).FullName;
        static CaseSummary Case(int topology, double[] iterations) =>
            new(
                $"Build=a, Concurrency=1, Topology={topology}, Traces=on",
                new Dictionary<string, string>
                {
                    ["Build"] = "a",
                    ["Concurrency"] = "1",
                    ["Topology"] = $"{topology}",
                    ["Traces"] = "on",
                },
                iterations.Average(),
                1,
                iterations,
                1,
                1000 / iterations.Average(),
                iterations.Min(),
                iterations.Max(),
                10,
                0,
                true
            );
        new RunSummary(
            id,
            "AlicePaysBob",
            "in payment",
            [Case(1, [50, 51]), Case(2, [52, 53]), Case(3, [49, 50])]
        ).Write(run);
        (ArtifactTests.SampleManifest(["AlicePaysBob"]) with { RunId = id }).Write(run);
        // Enough to zip into more than a few blocks, so a cut falls inside the entries.
        File.WriteAllText(
            Path.Combine(run, "console.log"),
            string.Concat(Enumerable.Range(0, 5000).Select(i => $"// lnbench [{i, 7} s] line {i * 7919 % 10007}\n"))
        );
        return run;
    }

    private static void Truncate(string path, double kept)
    {
        var bytes = File.ReadAllBytes(path);
        File.WriteAllBytes(path, bytes[..(int)(bytes.Length * kept)]);
    }

    public void Dispose() => Directory.Delete(directory, recursive: true);
}
