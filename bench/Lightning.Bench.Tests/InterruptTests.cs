using System.IO.Compression;
using System.Text.Json;
using Lightning.Bench.Csv;
using Lightning.Bench.Docker;
using Lightning.Bench.Processes;
using Lightning.Bench.Progress;
using Lightning.Bench.Reports;
using Lightning.Bench.Tests.Support.StandIn;

namespace Lightning.Bench.Tests;

/// <summary>
/// A run stopped by a signal mid-case, by its terminal closing, and while it zips: the harness as a user runs it, with
/// the test-only stand-in node kind on the real engine, so its payments are real HTTP calls into real containers.
/// </summary>
[Trait("Category", "Docker")]
[Collection(DockerCollection.Name)]
public class InterruptTests : IDisposable
{
    private readonly string directory = Directory.CreateTempSubdirectory("lnbench-interrupt-").FullName;
    private readonly string results;
    private readonly string work = Directory.CreateTempSubdirectory("lnb-").FullName;
    private readonly DockerEngine engine = new();

    public InterruptTests() => results = Directory.CreateDirectory(Path.Combine(directory, "results")).FullName;

    private string[] StandInRun(int iterations, params string[] extra) =>
        [
            "AlicePaysBob",
            "--build",
            $"standin={StandInKind.KindName}={FakeNodeImage.StandIn}",
            "--bitcoind-image",
            FakeNodeImage.StandIn,
            "--no-pull",
            "--concurrency",
            "2",
            "--warmups",
            "1",
            "--iterations",
            $"{iterations}",
            "--topologies",
            "1",
            "--traces",
            "off",
            "--results",
            results,
            "--work-dir",
            work,
            "--setup-timeout",
            "180",
            .. extra,
        ];

    /// <summary>
    /// SIGHUP (a terminal closing, as kill sends it), SIGQUIT, and a real terminal closed under the run (its
    /// pseudo-terminal's other end gone: the kernel sends SIGHUP, and every write to the terminal fails after it): each
    /// stops the run as Ctrl+C does. Nothing of the run is left on the engine or in the work folder; the payments so far
    /// are kept; summary.json, the manifest and the page say what stopped it; the zip is whole.
    /// </summary>
    [SkippableTheory]
    [InlineData("HUP")]
    [InlineData("QUIT")]
    [InlineData("terminal")]
    public async Task A_signal_mid_case_tears_everything_down_keeps_the_payments_and_writes_a_summary_that_says_interrupted(
        string how
    )
    {
        Requirements.Docker();
        await FakeNodeImage.EnsureBuiltAsync();
        var fragments = StandInHarness.Fragments(directory);
        var terminal = how == "terminal";
        var signal = terminal ? "SIGHUP" : $"SIG{how}";
        // 400 measured invocations would take minutes: the signal comes long before the case's end.
        using var harness = terminal
            ? HarnessProcess.StartStandInInTerminal(fragments, "", directory, StandInRun(400))
            : HarnessProcess.StartStandIn(fragments, new Dictionary<string, string>(), StandInRun(400));
        await harness.WaitForOutputAsync(": results in ", TimeSpan.FromMinutes(3));
        var runId = harness.RunId!;
        var runDir = Path.Combine(
            results,
            Assert.Single(
                Directory.GetDirectories(results),
                d => Path.GetFileName(d).StartsWith(runId, StringComparison.Ordinal)
            )
        );
        var consoleLog = Path.Combine(runDir, RunLog.FileName);
        // Mid-case: some measured invocations done (BenchmarkDotNet's log has them in console.log in both display modes).
        var measured = await WaitForMeasuredAsync(harness, consoleLog, 3, TimeSpan.FromMinutes(5));
        var pid = (await RunResources.Of(engine, runId).ContainersAsync())
            .Select(c => int.Parse(c.Labels[Cleanup.RunLabels.OwnerPid]))
            .Distinct()
            .Single();

        if (terminal)
        {
            harness.CloseTerminal();
            await WaitForProcessEndAsync(pid, TimeSpan.FromMinutes(2));
        }
        else
        {
            await harness.SignalAsync(how);
            Assert.Equal(HarnessExit.Interrupted, await harness.WaitForExitAsync(TimeSpan.FromMinutes(2)));
        }

        await RunResources.Of(engine, runId).AssertNoneLeftAsync();
        Assert.Empty(Directory.GetFileSystemEntries(work));
        // One line in console.log names the signal.
        var log = await ReadSharedAsync(consoleLog);
        var stopping = Assert.Single(
            log.Split('\n'),
            l => l.Contains(": stopping, tearing the topology down", StringComparison.Ordinal)
        );
        Assert.Contains($"] {signal} (", stopping);
        Assert.Contains($"results: {runDir}", log);

        // The payments so far: every one of the invocations seen; only the invocation in flight at the signal has any
        // that did not succeed, cancelled by the stop.
        var payments = CsvReader.Read(Path.Combine(runDir, PaymentCsv.FileName));
        Assert.True(
            payments.Count >= (1 + measured) * 2,
            $"{payments.Count} payments kept, {measured} measured invocations were seen"
        );
        Assert.True(payments.Count(p => p["phase"] == "measured" && p["outcome"] == "succeeded") >= measured * 2);
        var cancelled = payments.Where(p => p["outcome"] != "succeeded").ToList();
        Assert.All(cancelled, p => Assert.Equal(Workloads.Payments.PaymentAttempt.CancelledReason, p["error"]));
        Assert.True(
            cancelled.Select(p => p["invocation"]).Distinct().Count() <= 1,
            string.Join("; ", cancelled.Select(p => p["invocation"]))
        );

        using var summary = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(runDir, "summary.json")));
        Assert.Equal(signal, summary.RootElement.GetProperty("interrupted").GetString());
        var cut = Assert.Single(summary.RootElement.GetProperty("cases").EnumerateArray().ToList());
        Assert.Equal($"interrupted by {signal}", cut.GetProperty("stopped_by").GetString());
        // Its figures are those of the completed invocations: the cancelled payments are no failures of the nodes.
        Assert.True(cut.GetProperty("succeeded").GetInt32() >= measured * 2);
        Assert.Equal(0, cut.GetProperty("failed").GetInt32());
        Assert.True(cut.GetProperty("mean_ms").GetDouble() > 0);
        using var manifest = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(runDir, "manifest.json")));
        Assert.True(manifest.RootElement.GetProperty("partial").GetBoolean());
        Assert.Equal(signal, manifest.RootElement.GetProperty("interrupted").GetString());
        Assert.Contains(
            $"{signal} stopped the run",
            await File.ReadAllTextAsync(Path.Combine(runDir, ReportHtml.FileName))
        );
        using (var zip = ZipFile.OpenRead(runDir + ".zip"))
        {
            Assert.Contains(zip.Entries, e => e.FullName.EndsWith("/summary.json", StringComparison.Ordinal));
        }
        Assert.Empty(
            Directory.GetFileSystemEntries(results, "*" + AtomicFile.Marker + "*", SearchOption.AllDirectories)
        );
    }

    /// <summary>
    /// What docs/how-it-works.md tells a user whose long run must outlive its terminal: started under nohup, the run
    /// keeps going when the terminal closes mid-case and ends as asked (every invocation measured, nothing interrupted),
    /// its console in nohup.out and console.log.
    /// </summary>
    [SkippableFact]
    public async Task A_run_under_nohup_outlives_its_terminal_and_ends_as_asked()
    {
        Requirements.Docker();
        await FakeNodeImage.EnsureBuiltAsync();
        var fragments = StandInHarness.Fragments(directory);
        using var harness = HarnessProcess.StartStandInInTerminal(fragments, "nohup", directory, StandInRun(60));
        var runDir = await WaitForRunFolderAsync(harness, TimeSpan.FromMinutes(3));
        var consoleLog = Path.Combine(runDir, RunLog.FileName);
        await WaitForMeasuredAsync(harness, consoleLog, 3, TimeSpan.FromMinutes(5));
        var runId = Path.GetFileName(runDir)[..20];
        var pid = (await RunResources.Of(engine, runId).ContainersAsync())
            .Select(c => int.Parse(c.Labels[Cleanup.RunLabels.OwnerPid]))
            .Distinct()
            .Single();

        harness.CloseTerminal();
        await WaitForProcessEndAsync(pid, TimeSpan.FromMinutes(5));

        await RunResources.Of(engine, runId).AssertNoneLeftAsync();
        var log = await ReadSharedAsync(consoleLog);
        Assert.DoesNotContain("SIGHUP", log);
        Assert.Equal(60, log.Split('\n').Count(l => l.StartsWith("WorkloadActual", StringComparison.Ordinal)));
        Assert.Contains($"results: {runDir}", await File.ReadAllTextAsync(Path.Combine(directory, "nohup.out")));
        using var summary = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(runDir, "summary.json")));
        Assert.False(
            summary.RootElement.TryGetProperty("interrupted", out var interrupted)
                && interrupted.ValueKind != JsonValueKind.Null
        );
        Assert.Equal(
            60 * 2,
            Assert
                .Single(summary.RootElement.GetProperty("cases").EnumerateArray().ToList())
                .GetProperty("succeeded")
                .GetInt32()
        );
        using var manifest = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(runDir, "manifest.json")));
        Assert.False(manifest.RootElement.GetProperty("partial").GetBoolean());
        Assert.True(File.Exists(runDir + ".zip"));
    }

    /// <summary>
    /// A signal while the run writes its zip (the zip step held by the test hook, its first entries on disk): "once",
    /// the harness finishes the zip, then exits 130, and the zip is whole; "twice", the second signal ends the process at
    /// once and no file is left under the zip's name or half written beside it. A truncated copy of the whole zip given
    /// to --compare is named as damaged in one line, exit 2.
    /// </summary>
    [SkippableTheory]
    [InlineData("once")]
    [InlineData("twice")]
    public async Task A_signal_while_zipping_leaves_no_file_under_the_zips_name_that_is_not_a_whole_zip(string signals)
    {
        Requirements.Docker();
        await FakeNodeImage.EnsureBuiltAsync();
        var fragments = StandInHarness.Fragments(directory);
        var marker = Path.Combine(directory, "release-zip");
        using var harness = HarnessProcess.StartStandIn(
            fragments,
            new Dictionary<string, string> { [ArtifactZip.TestHoldVariable] = marker },
            StandInRun(2)
        );
        await harness.WaitForOutputAsync("zip: held for a test", TimeSpan.FromMinutes(6));
        var runDir = Assert.Single(Directory.GetDirectories(results));
        var zip = runDir + ".zip";
        // Held with its first entries written: under a temporary name, none under the zip's.
        Assert.False(File.Exists(zip));
        Assert.True(new FileInfo(Assert.Single(Directory.GetFiles(results, "*" + AtomicFile.Marker + "*"))).Length > 0);

        await harness.SignalAsync("HUP");
        await harness.WaitForOutputAsync(
            "SIGHUP (the terminal closed or the session ended): the run is ending, finishing its results",
            TimeSpan.FromMinutes(1)
        );
        if (signals == "once")
        {
            File.WriteAllText(marker, "");
            Assert.Equal(HarnessExit.Interrupted, await harness.WaitForExitAsync(TimeSpan.FromMinutes(2)));
            using (var archive = ZipFile.OpenRead(zip))
            {
                // Every entry reads to its end (its CRC checked).
                foreach (var entry in archive.Entries.Where(e => e.Length > 0))
                {
                    using var stream = entry.Open();
                    stream.CopyTo(Stream.Null);
                }
                Assert.Contains(archive.Entries, e => e.FullName.EndsWith("/summary.json", StringComparison.Ordinal));
            }
            // The run had ended: its summary is the whole run's, not an interrupted one.
            using var summary = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(runDir, "summary.json")));
            Assert.False(
                summary.RootElement.TryGetProperty("interrupted", out var interrupted)
                    && interrupted.ValueKind != JsonValueKind.Null
            );

            var cut = Path.Combine(directory, "cut.zip");
            var bytes = await File.ReadAllBytesAsync(zip);
            await File.WriteAllBytesAsync(cut, bytes[..(bytes.Length * 2 / 3)]);
            var compare = await HarnessProcess.RunAsync(
                ["--compare", zip, cut, "--results", directory],
                TimeSpan.FromMinutes(2)
            );
            Assert.Equal(HarnessExit.Usage, compare.ExitCode);
            var line = Assert.Single(compare.StandardError.Split('\n', StringSplitOptions.RemoveEmptyEntries));
            Assert.StartsWith($"lnbench: error: '{cut}' is a damaged zip (", line);
            Assert.Contains("give the run's folder instead", line);
        }
        else
        {
            await harness.SignalAsync("HUP");
            // Ended by the signal itself, as a process without a handler is: 128 + SIGHUP's 1.
            Assert.Equal(129, await harness.WaitForExitAsync(TimeSpan.FromSeconds(30)));
            Assert.False(File.Exists(zip));
            Assert.Contains(
                "removed",
                Assert.Single(
                    (await ReadSharedAsync(Path.Combine(runDir, RunLog.FileName))).Split('\n'),
                    l => l.Contains("SIGHUP again: exiting now", StringComparison.Ordinal)
                )
            );
        }
        Assert.Empty(
            Directory.GetFileSystemEntries(results, "*" + AtomicFile.Marker + "*", SearchOption.AllDirectories)
        );
        Assert.Empty(Directory.GetFileSystemEntries(work));
    }

    /// <summary>The run's folder, once the harness made it (its output may go to a file, not to the test).</summary>
    private async Task<string> WaitForRunFolderAsync(HarnessProcess harness, TimeSpan timeout)
    {
        var deadline = DateTime.UtcNow + timeout;
        while (
            Directory.GetDirectories(results).SingleOrDefault() is not { } runDir
            || !File.Exists(Path.Combine(runDir, RunLog.FileName))
        )
        {
            Assert.True(
                DateTime.UtcNow < deadline,
                $"no run folder in {results} within {timeout.TotalMinutes} min:\n{harness.Output}"
            );
            await Task.Delay(200);
        }
        return Directory.GetDirectories(results).Single();
    }

    /// <summary>Waits until BenchmarkDotNet's log shows <paramref name="count"/> measured invocations of the case; returns how many it shows then.</summary>
    private static async Task<int> WaitForMeasuredAsync(
        HarnessProcess harness,
        string consoleLog,
        int count,
        TimeSpan timeout
    )
    {
        var deadline = DateTime.UtcNow + timeout;
        while (true)
        {
            var measured = File.Exists(consoleLog)
                ? (await ReadSharedAsync(consoleLog))
                    .Split('\n')
                    .Count(l => l.StartsWith("WorkloadActual", StringComparison.Ordinal))
                : 0;
            if (measured >= count)
            {
                return measured;
            }
            Assert.True(
                DateTime.UtcNow < deadline,
                $"{measured} measured invocations within {timeout.TotalMinutes} min:\n{harness.Output}"
            );
            await Task.Delay(200);
        }
    }

    /// <summary>Waits for a process that is not this one's child (the harness under a terminal whose script was killed) to end.</summary>
    private static async Task WaitForProcessEndAsync(int pid, TimeSpan timeout)
    {
        var deadline = DateTime.UtcNow + timeout;
        while (IsRunning(pid))
        {
            Assert.True(
                DateTime.UtcNow < deadline,
                $"the harness (pid {pid}) did not end within {timeout.TotalMinutes} min of its terminal's closing"
            );
            await Task.Delay(200);
        }
    }

    /// <summary>The process exists and is no zombie waiting to be reaped.</summary>
    private static bool IsRunning(int pid)
    {
        try
        {
            return !File.ReadAllText($"/proc/{pid}/stat").Contains(") Z ", StringComparison.Ordinal);
        }
        catch (Exception e) when (e is FileNotFoundException or DirectoryNotFoundException or IOException)
        {
            return false;
        }
    }

    /// <summary>A file the harness may still be writing.</summary>
    private static async Task<string> ReadSharedAsync(string path)
    {
        await using var file = new FileStream(
            path,
            FileMode.Open,
            FileAccess.Read,
            FileShare.ReadWrite | FileShare.Delete
        );
        using var reader = new StreamReader(file);
        return await reader.ReadToEndAsync();
    }

    public void Dispose()
    {
        engine.Dispose();
        Directory.Delete(directory, recursive: true);
        Directory.Delete(work, recursive: true);
    }
}
