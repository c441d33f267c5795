using Lightning.Bench.Cleanup;
using Lightning.Bench.Network;
using Lightning.Bench.Progress;
using Lightning.Bench.Results;
using Lightning.Bench.Tracing;

namespace Lightning.Bench.Tests;

/// <summary>What a run leaves on the machine and how the next run treats it: the sysctl marker, node folders with secrets.</summary>
[Trait("Category", "Unit")]
public class LeftoverStateTests : IDisposable
{
    private readonly string directory = Directory.CreateTempSubdirectory("lnbench-leftover-").FullName;

    private string Sysctl(string value)
    {
        var path = Path.Combine(directory, "max_dgram_qlen");
        File.WriteAllText(path, value + "\n");
        return path;
    }

    private static OwnerProcess GoneOwner => new(OwnerProcess.Current.Host, 2147483646);

    [Fact]
    public void The_restore_marker_lives_in_a_private_folder_and_a_planted_symlink_is_replaced_not_followed()
    {
        var sysctl = Sysctl("10");
        var state = Path.Combine(directory, "state");
        var victim = Path.Combine(directory, "victim");
        File.WriteAllText(victim, "precious");
        Directory.CreateDirectory(state);
        File.CreateSymbolicLink(Path.Combine(state, DatagramQueueLimit.MarkerName), victim);
        var output = new StringWriter();

        var limit = new DatagramQueueLimit(sysctl, state).Ensure(new RunProgress(output));

        Assert.Equal("1024", File.ReadAllText(sysctl).Trim());
        Assert.Equal("precious", File.ReadAllText(victim));
        var marker = new FileInfo(limit.MarkerPath);
        Assert.Null(marker.LinkTarget);
        Assert.Equal($"10 {OwnerProcess.Current}", File.ReadAllText(marker.FullName));
        Assert.Equal(
            UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute,
            new DirectoryInfo(state).UnixFileMode
        );
        limit.Restore();
        limit.Restore();
        Assert.Equal("10", File.ReadAllText(sysctl).Trim());
        Assert.False(File.Exists(marker.FullName));
    }

    [Fact]
    public void The_default_marker_is_not_in_a_shared_temporary_folder()
    {
        var marker = new DatagramQueueLimit().MarkerPath;
        Assert.False(marker.StartsWith(Path.GetTempPath(), StringComparison.Ordinal), marker);
        Assert.StartsWith(Environment.GetFolderPath(Environment.SpecialFolder.UserProfile), marker);
    }

    [Theory]
    [InlineData("0")]
    [InlineData("-5")]
    [InlineData("999999")]
    [InlineData("1024")]
    [InlineData("abc")]
    public void A_marker_whose_value_is_no_limit_the_harness_replaced_is_never_written_into_the_sysctl(string value)
    {
        var sysctl = Sysctl("1024");
        var state = Directory.CreateDirectory(Path.Combine(directory, "state")).FullName;
        var limit = new DatagramQueueLimit(sysctl, state);
        File.WriteAllText(limit.MarkerPath, $"{value} {GoneOwner}");
        var output = new StringWriter();

        limit.RestoreLeftover(new RunProgress(output));

        Assert.Equal("1024", File.ReadAllText(sysctl).Trim());
        Assert.False(File.Exists(limit.MarkerPath));
        Assert.Contains("does not hold a limit to restore", output.ToString());
    }

    [Fact]
    public void A_valid_marker_of_a_harness_that_is_gone_is_restored_and_one_of_a_live_harness_is_left()
    {
        var sysctl = Sysctl("1024");
        var state = Directory.CreateDirectory(Path.Combine(directory, "state")).FullName;
        var limit = new DatagramQueueLimit(sysctl, state);

        File.WriteAllText(limit.MarkerPath, $"10 {OwnerProcess.Current}");
        limit.RestoreLeftover(new RunProgress(TextWriter.Null));
        Assert.Equal("1024", File.ReadAllText(sysctl).Trim());

        File.WriteAllText(limit.MarkerPath, $"10 {GoneOwner}");
        var output = new StringWriter();
        limit.RestoreLeftover(new RunProgress(output));
        Assert.Equal("10", File.ReadAllText(sysctl).Trim());
        Assert.Contains("restored net.unix.max_dgram_qlen to 10", output.ToString());
    }

    [Fact]
    public void Node_folders_whose_harness_is_gone_are_removed_and_others_are_kept()
    {
        var work = Directory.CreateDirectory(Path.Combine(directory, "work")).FullName;
        string Folder(string name, string? owner)
        {
            var folder = Directory.CreateDirectory(Path.Combine(work, name)).FullName;
            Directory.CreateDirectory(Path.Combine(folder, "alice"));
            File.WriteAllText(Path.Combine(folder, "alice", "config"), "bitcoin-rpcpassword=secret\n");
            if (owner is not null)
            {
                File.WriteAllText(Path.Combine(folder, NodeFolderSweeper.OwnerFile), owner);
            }
            return folder;
        }
        Folder("lnbench-gone-1", GoneOwner.ToString());
        var alive = Folder("lnbench-alive-1", OwnerProcess.Current.ToString());
        var elsewhere = Folder("lnbench-elsewhere-1", "another-machine 2147483646");
        var fresh = Folder("lnbench-unowned-1", null);
        var old = Folder("lnbench-unowned-2", null);
        Directory.SetLastWriteTimeUtc(old, DateTime.UtcNow - TimeSpan.FromHours(2));
        var notOurs = Folder("something-else", GoneOwner.ToString());

        var removed = NodeFolderSweeper.RemoveStale(work);

        Assert.Equal(["lnbench-gone-1", "lnbench-unowned-2"], removed.Order());
        Assert.All(new[] { alive, elsewhere, fresh, notOurs }, f => Assert.True(Directory.Exists(f), f));
    }

    [Fact]
    public void A_case_cut_short_by_a_dead_node_keeps_the_figures_of_its_completed_iterations()
    {
        var results = new CaseResults("Concurrency=4", 4) { StoppedBy = "node bob exited with code 137" };
        var start = DateTimeOffset.UtcNow;
        // 1 warmup, then 3 measured invocations completed and a 4th cut off by the death.
        for (var invocation = 1; invocation <= 5; invocation++)
        {
            results.StartInvocation();
            for (var i = 0; i < 4; i++)
            {
                var cut = invocation == 5 && i > 0;
                results.Add(
                    new OperationRecord(
                        "Concurrency=4",
                        invocation,
                        invocation * 10 + i,
                        "alice",
                        "bob",
                        start,
                        start,
                        start.AddMilliseconds(80),
                        "h",
                        cut ? OperationOutcome.Failed : OperationOutcome.Succeeded,
                        cut ? "cancelled" : null
                    )
                );
            }
            if (invocation < 5)
            {
                results.CompleteInvocation(invocation, TimeSpan.FromMilliseconds(invocation == 1 ? 500 : 100));
            }
        }
        results.Complete(warmups: 1, iterations: 500);

        // BenchmarkDotNet has no statistics for a case that threw: the harness's own times of the completed iterations stand in.
        var figures = results.Finish(null, null, null)!;
        Assert.Equal(100, figures.MeanMs, precision: 3);
        Assert.Equal([100, 100, 100], figures.IterationsMs.Select(ms => Math.Round(ms, 3)));
        Assert.False(figures.FromBenchmarkDotNet);
        Assert.Equal(3, results.CompletedMeasuredInvocations);
        Assert.Equal(13, figures.AsExpected);
        Assert.Equal(3, figures.Errors);
        Assert.True(figures.PaymentsPerSecond > 0);
    }

    [Fact]
    public void Storage_writes_per_payment_count_measured_invocations_only_and_memory_keeps_each_nodes_peak_and_last_reading()
    {
        var results = new CaseResults("Concurrency=2", 2);
        var start = DateTimeOffset.UtcNow;
        static NodeResourceSample Memory(double peakMb, double rssMb) =>
            new(0, 0, (long)(rssMb * 1048576), (long)(peakMb * 1048576), 0, 0, 1, 0);
        // A warmup that writes a lot (it must not count), then two measured invocations of 2 payments each, one failing.
        var written = new[] { 1_000_000L, 40_960, 20_480 };
        for (var invocation = 1; invocation <= 3; invocation++)
        {
            results.StartInvocation();
            for (var i = 0; i < 2; i++)
            {
                var failed = invocation == 3 && i == 1;
                results.Add(
                    new OperationRecord(
                        "Concurrency=2",
                        invocation,
                        invocation * 10 + i,
                        "alice",
                        "bob",
                        start,
                        start,
                        start.AddMilliseconds(80),
                        "h",
                        failed ? OperationOutcome.Failed : OperationOutcome.Succeeded,
                        failed ? "no route" : null
                    )
                );
            }
            results.CompleteInvocation(invocation, TimeSpan.FromMilliseconds(100));
            results.RecordResources(
                invocation,
                new Dictionary<string, (long, NodeResourceSample)>
                {
                    ["alice"] = (written[invocation - 1], Memory(peakMb: 60 + invocation, rssMb: 40 + invocation)),
                    ["bob"] = (written[invocation - 1] / 2, Memory(peakMb: 90 - invocation, rssMb: 30)),
                }
            );
        }
        results.Complete(warmups: 1, iterations: 2);

        var costs = results.NodeCosts()!;
        // Invocation 2: 40 + 20 KB over 2 payments; invocation 3: 20 + 10 KB over its 1 successful payment.
        Assert.Equal([30.0, 30.0], costs.WrittenKbIterations);
        Assert.Equal(60.0 / 3, costs.WrittenKbByNode["alice"], 6); // 60 KB over the 3 successful measured payments
        Assert.Equal(30.0 / 3, costs.WrittenKbByNode["bob"], 6);
        Assert.Equal(30.0, costs.WrittenKb, 6);
        Assert.Equal(63, costs.PeakMbByNode["alice"], 6);
        Assert.Equal(89, costs.PeakMbByNode["bob"], 6); // the high-water mark never goes down, even when a later reading is lower
        Assert.Equal(43, costs.EndRssMbByNode["alice"], 6);
        Assert.Null(new CaseResults("none", 1).NodeCosts());
    }

    [Fact]
    public void A_log_tail_is_the_last_lines_of_the_file_even_when_it_is_large()
    {
        var log = Path.Combine(directory, "lightningd.log");
        File.WriteAllLines(
            log,
            Enumerable.Range(1, 100_000).Select(i => $"2026-11-22T10:00:00.000Z INFO    lightningd: line {i}")
        );

        var tail = LogTail.Read(log, 3).Split(Environment.NewLine);

        Assert.Equal(
            ["line 99998", "line 99999", "line 100000"],
            tail.Select(l => l[(l.LastIndexOf("line", StringComparison.Ordinal))..])
        );
        Assert.Equal("", LogTail.Read(Path.Combine(directory, "missing.log"), 3));
    }

    public void Dispose() => Directory.Delete(directory, recursive: true);
}
