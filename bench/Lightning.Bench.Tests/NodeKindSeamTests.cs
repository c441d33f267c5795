using System.Text.Json;
using Lightning.Bench.Compose;
using Lightning.Bench.Csv;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Reports;
using Lightning.Bench.Soak;
using Lightning.Bench.Tests.Support.StandIn;

namespace Lightning.Bench.Tests;

/// <summary>
/// The node-kind seam carries a whole run: a test-only kind whose nodes are busybox scripts (no Core Lightning code, no
/// Core Lightning image) goes through setup, payments and reports like Core Lightning does, on the real engine.
/// </summary>
[Trait("Category", "Docker")]
[Collection(DockerCollection.Name)]
public class NodeKindSeamTests : IDisposable
{
    private readonly string work = Directory.CreateTempSubdirectory("lnb-").FullName;
    private readonly string results = Directory.CreateTempSubdirectory("lnbench-results-").FullName;
    private readonly string fragments = Directory.CreateTempSubdirectory("lnbench-fragments-").FullName;

    [SkippableFact]
    public async Task A_stand_in_node_kind_carries_an_AlicePaysBob_run_through_setup_payments_and_reports()
    {
        await ReadyAsync();
        var exit = await RunAsync([
            "AlicePaysBob",
            "--build",
            $"standin={StandInKind.KindName}={FakeNodeImage.StandIn}",
            "--bitcoind-image",
            FakeNodeImage.StandIn,
            "--no-pull",
            "--concurrency",
            "3",
            "--warmups",
            "1",
            "--iterations",
            "4",
            "--topologies",
            "1",
            "--traces",
            "off",
            "--results",
            results,
            "--work-dir",
            work,
            "--setup-timeout",
            "60",
        ]);

        Assert.Equal(0, exit);
        var run = Assert.Single(Directory.GetDirectories(results));
        // Setup went through the seam: the stand-in nodes funded, opened and announced their channel, then paid.
        var payments = File.ReadAllLines(Path.Combine(run, PaymentCsv.FileName)).Skip(1).ToList();
        Assert.Equal((1 + 4) * 3, payments.Count);
        Assert.All(payments, p => Assert.Contains(",succeeded,", p));
        Assert.Equal(4 * 3, payments.Count(p => p.Contains(",measured,", StringComparison.Ordinal)));

        using var summary = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(run, "summary.json")));
        var figures = Assert.Single(summary.RootElement.GetProperty("cases").EnumerateArray().ToList());
        Assert.Equal("Build=standin, Concurrency=3, Topology=1, Traces=off", figures.GetProperty("case").GetString());
        Assert.True(figures.GetProperty("payments_per_second").GetDouble() > 0);
        Assert.Equal(4, figures.GetProperty("iterations_ms").GetArrayLength());
        Assert.Equal(12, figures.GetProperty("succeeded").GetInt32());

        using var manifest = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(run, "manifest.json")));
        var topology = Assert.Single(manifest.RootElement.GetProperty("cases").EnumerateArray().ToList());
        Assert.Equal(StandInKind.KindName, topology.GetProperty("node_kinds").GetProperty("alice").GetString());
        Assert.Equal("standin-node v1", topology.GetProperty("node_versions").GetProperty("bob").GetString());
        Assert.Contains(
            manifest.RootElement.GetProperty("images").EnumerateArray(),
            i =>
                i.GetProperty("versions").TryGetProperty("standin-node", out var v)
                && v.GetString() == "standin-node v1"
        );

        // BenchmarkDotNet's table has the harness's columns, filled from the results model.
        var table = File.ReadAllText(Directory.GetFiles(Path.Combine(run, "results"), "*-report-github.md").Single());
        Assert.Contains("Payments/s", table);
        Assert.Contains("complete", table);
        // The Method column names what the kind's payment calls.
        Assert.Contains("| invoice+pay |", table);
        // The node logs were kept, and the compose file shows the kind's own service.
        Assert.Contains(
            "pay",
            File.ReadAllText(
                Path.Combine(run, "cases", "Build-standin-Concurrency-3-Topology-1-Traces-off", "logs", "alice.log")
            )
        );
        Assert.Contains(
            "standin-node",
            File.ReadAllText(
                Path.Combine(run, "cases", "Build-standin-Concurrency-3-Topology-1-Traces-off", "docker-compose.yml")
            )
        );

        // The chain was mined once for the run, and the case's bitcoind started from a copy of it at height 101.
        Assert.Contains("bitcoind", File.ReadAllText(Path.Combine(run, "chain", "docker-compose.yml")));
        Assert.Contains(
            "stand-in bitcoind started at height 101",
            File.ReadAllText(
                Path.Combine(run, "cases", "Build-standin-Concurrency-3-Topology-1-Traces-off", "logs", "bitcoind.log")
            )
        );
        Assert.Empty(Directory.GetDirectories(work));
        // The topology's setup, step by step, with the time it took to get ready.
        var setup = topology.GetProperty("setup");
        Assert.Equal(
            ["containers", "chain", "nodes", "fund", "channels", "routes"],
            setup.GetProperty("steps").EnumerateArray().Select(s => s.GetProperty("name").GetString()).ToList()
        );
        Assert.Equal(
            setup.GetProperty("steps").EnumerateArray().Sum(s => s.GetProperty("seconds").GetDouble()),
            setup.GetProperty("ready_seconds").GetDouble(),
            6
        );
        Assert.Equal(3, setup.GetProperty("idle_window_seconds").GetDouble());
        Assert.True(figures.GetProperty("setup").GetProperty("ready_seconds").GetDouble() > 0);
    }

    [SkippableFact]
    public async Task The_fail_at_payee_workload_counts_every_attempt_failed_at_the_payee_as_expected_beside_the_pay_workload()
    {
        await ReadyAsync();
        var exit = await RunAsync([
            "AlicePaysBob",
            "--build",
            $"standin={StandInKind.KindName}={FakeNodeImage.StandIn}",
            "--bitcoind-image",
            FakeNodeImage.StandIn,
            "--no-pull",
            "--workload",
            "pay,fail-at-payee",
            "--concurrency",
            "2",
            "--warmups",
            "1",
            "--iterations",
            "3",
            "--topologies",
            "1",
            "--traces",
            "off",
            "--results",
            results,
            "--work-dir",
            work,
            "--setup-timeout",
            "60",
        ]);

        Assert.Equal(0, exit);
        var run = Assert.Single(Directory.GetDirectories(results));
        var rows = CsvReader.Read(Path.Combine(run, PaymentCsv.FileName));
        var failing = rows.Where(r => r["case"].EndsWith("Workload=fail-at-payee", StringComparison.Ordinal)).ToList();
        var paying = rows.Except(failing).ToList();
        Assert.Equal((1 + 3) * 2, failing.Count);
        Assert.Equal((1 + 3) * 2, paying.Count);
        // Every attempt failed at the payee, each counted once, and as expected: no error.
        Assert.All(failing, r => Assert.Equal(("failed", "true"), (r["outcome"], r["expected"])));
        Assert.All(failing, r => Assert.Contains("unknown or paid invoice", r["error"]));
        Assert.All(paying, r => Assert.Equal(("succeeded", "true"), (r["outcome"], r["expected"])));
        Assert.Equal(rows.Count, rows.Select(r => r["payment_id"]).Distinct().Count());

        using var summary = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(run, "summary.json")));
        var cases = summary
            .RootElement.GetProperty("cases")
            .EnumerateArray()
            .ToDictionary(c => c.GetProperty("case").GetString()!);
        var attempts = cases["Build=standin, Concurrency=2, Topology=1, Traces=off, Workload=fail-at-payee"];
        Assert.Equal(6, attempts.GetProperty("succeeded").GetInt32());
        Assert.Equal(0, attempts.GetProperty("failed").GetInt32());
        Assert.True(attempts.GetProperty("payments_per_second").GetDouble() > 0);
        Assert.True(attempts.GetProperty("p50_ms").GetDouble() > 0);
        Assert.Contains("Build=standin, Concurrency=2, Topology=1, Traces=off", cases.Keys);

        // The table counts operations, not payments, and names each workload's calls.
        var table = File.ReadAllText(Directory.GetFiles(Path.Combine(run, "results"), "*-report-github.md").Single());
        Assert.Contains("Ops/s", table);
        Assert.Matches(@"\| pay \(deleted invoice\) +\|", table);
        Assert.Matches(@"\| invoice\+pay +\|", table);
        Assert.Contains("fail-at-payee", table);
        Assert.Empty(Directory.GetDirectories(work));
    }

    [SkippableFact]
    public async Task Keysend_pays_without_an_invoice_and_both_ways_pays_from_each_end_of_the_channel_as_many_at_once()
    {
        await ReadyAsync();
        var exit = await RunAsync([
            "AlicePaysBob",
            "--build",
            $"standin={StandInKind.KindName}={FakeNodeImage.StandIn}",
            "--bitcoind-image",
            FakeNodeImage.StandIn,
            "--no-pull",
            "--workload",
            "keysend,both-ways",
            "--concurrency",
            "2",
            "--warmups",
            "1",
            "--iterations",
            "3",
            "--topologies",
            "1",
            "--traces",
            "off",
            "--results",
            results,
            "--work-dir",
            work,
            "--setup-timeout",
            "60",
        ]);

        Assert.Equal(0, exit);
        var run = Assert.Single(Directory.GetDirectories(results));
        var rows = CsvReader.Read(Path.Combine(run, PaymentCsv.FileName));
        var keysend = rows.Where(r => r["case"].EndsWith("Workload=keysend", StringComparison.Ordinal)).ToList();
        var bothWays = rows.Where(r => r["case"].EndsWith("Workload=both-ways", StringComparison.Ordinal)).ToList();
        Assert.Equal((1 + 3) * 2, keysend.Count);
        Assert.All(
            keysend,
            r => Assert.Equal(("succeeded", "true", ""), (r["outcome"], r["expected"], r["payment_hash"]))
        );
        // Concurrency 2 from each end: 4 payments an invocation, half each way.
        Assert.Equal((1 + 3) * 4, bothWays.Count);
        Assert.Equal(bothWays.Count / 2, bothWays.Count(r => (r["payer"], r["payee"]) == ("bob", "alice")));
        Assert.All(bothWays, r => Assert.Equal("succeeded", r["outcome"]));
        Assert.All(bothWays.GroupBy(r => r["invocation"]), g => Assert.Equal(2, g.Count(r => r["payer"] == "bob")));
        var table = File.ReadAllText(Directory.GetFiles(Path.Combine(run, "results"), "*-report-github.md").Single());
        Assert.Matches(@"\| keysend +\|", table);
        Assert.Matches(@"\| invoice\+pay both ways +\|", table);
        Assert.Empty(Directory.GetDirectories(work));
    }

    [SkippableFact]
    public async Task A_soak_on_the_stand_in_kind_samples_every_node_from_its_cgroup_and_reports_trends_and_a_broken_budget()
    {
        await ReadyAsync();
        var exit = await RunAsync([
            "AlicePaysBob",
            "--build",
            $"standin={StandInKind.KindName}={FakeNodeImage.StandIn}",
            "--bitcoind-image",
            FakeNodeImage.StandIn,
            "--no-pull",
            "--concurrency",
            "2",
            "--soak",
            "12s",
            "--sample-interval",
            "1",
            "--budget",
            "p95<0.01ms,failures<1",
            "--results",
            results,
            "--work-dir",
            work,
            "--setup-timeout",
            "60",
        ]);

        // A stand-in payment is two HTTP calls: far above 10 µs, so the run exits 1 for its broken budget.
        Assert.Equal(1, exit);
        var run = Assert.Single(Directory.GetDirectories(results));
        var windows = File.ReadAllLines(Path.Combine(run, SoakWindowsCsv.FileName));
        Assert.InRange(windows.Length, 10, 16); // header, the start, about one window a second for 12 s, the last
        var last = windows[^1].Split(',');
        Assert.True(long.Parse(last[1]) > 10, windows[^1]);
        var nodes = File.ReadAllLines(Path.Combine(run, SoakNodesCsv.FileName))
            .Skip(1)
            .Select(l => l.Split(','))
            .ToList();
        Assert.Equal(["alice", "bitcoind", "bob"], nodes.Select(n => n[2]).Distinct().Order());
        // Read from each container's cgroup: memory charged and processes alive.
        Assert.All(
            nodes,
            n =>
                Assert.True(
                    double.Parse(n[6], System.Globalization.CultureInfo.InvariantCulture) > 0,
                    string.Join(",", n)
                )
        );
        Assert.All(nodes, n => Assert.True(int.Parse(n[11]) >= 1, string.Join(",", n)));

        var report = File.ReadAllText(Path.Combine(run, SoakReportMarkdown.FileName));
        Assert.Contains("## Trends", report);
        Assert.Contains("| alice RSS | payment |", report);
        Assert.Contains("| `p95<0.01ms` |", report);
        Assert.Contains("**FAIL**", report);
        Assert.Contains("| `failures<1` | failed payments | 0  | pass |", report);
        using var zip = System.IO.Compression.ZipFile.OpenRead(run + ".zip");
        Assert.Contains(zip.Entries, e => e.FullName.EndsWith(SoakReportMarkdown.FileName, StringComparison.Ordinal));
        Assert.Empty(Directory.GetDirectories(work));
    }

    [SkippableFact]
    public async Task A_profiled_soak_on_the_stand_in_kind_folds_a_window_per_interval_and_reports_them()
    {
        await ReadyAsync();
        Requirements.Perf();
        var exit = await RunAsync([
            "AlicePaysBob",
            "--build",
            $"standin={StandInKind.KindName}={FakeNodeImage.StandIn}",
            "--bitcoind-image",
            FakeNodeImage.StandIn,
            "--no-pull",
            "--concurrency",
            "2",
            "--soak",
            "40s",
            "--profile",
            "--profile-every",
            "12s",
            "--results",
            results,
            "--work-dir",
            work,
            "--setup-timeout",
            "60",
        ]);

        Assert.Equal(0, exit);
        var run = Assert.Single(Directory.GetDirectories(results));
        // Windows open at 12 s and 24 s on the soak's clock however long folding takes; the one at 36 s would outlast the soak and is not opened.
        var windows = Directory
            .GetDirectories(Path.Combine(run, "profiles"), "soak-window-*")
            .Select(Path.GetFileName)
            .Order()
            .ToList();
        Assert.Equal(["soak-window-001", "soak-window-002"], windows);
        foreach (var window in windows)
        {
            Assert.Equal(
                ["alice.folded", "bob.folded"],
                Directory.GetFiles(Path.Combine(run, "profiles", window!)).Select(Path.GetFileName).Order()
            );
        }
        var report = File.ReadAllText(Path.Combine(run, "profiles", "profiles.md"));
        Assert.Contains("in 2 windows of 10 s, one every 0.2 min", report);
        Assert.Contains("unknown: 2 windows, 8 needed", report);
        Assert.True(File.Exists(Path.Combine(run, "profiles", "soak", "alice-last-vs-first.svg")));
        var manifest = File.ReadAllText(Path.Combine(run, "manifest.json"));
        Assert.Contains("\"soak window 2\"", manifest);
        Assert.Empty(Directory.GetDirectories(work));
    }

    [SkippableFact]
    public async Task A_build_comparison_interleaves_builds_over_fresh_topologies_and_writes_its_verdicts()
    {
        await ReadyAsync();
        var image = $"{StandInKind.KindName}={FakeNodeImage.StandIn}";

        var exit = await RunAsync([
            "AlicePaysBob",
            "--build",
            $"a={image}",
            "--build",
            $"b={image}",
            "--bitcoind-image",
            FakeNodeImage.StandIn,
            "--no-pull",
            "--concurrency",
            "2",
            "--warmups",
            "0",
            "--iterations",
            "3",
            "--topologies",
            "4",
            "--seed",
            "11",
            "--traces",
            "off",
            "--results",
            results,
            "--work-dir",
            work,
            "--no-zip",
        ]);

        Assert.Equal(0, exit);
        var run = Assert.Single(Directory.GetDirectories(results));
        using var manifest = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(run, "manifest.json")));
        Assert.Equal(11, manifest.RootElement.GetProperty("seed").GetInt32());
        Assert.Equal(4, manifest.RootElement.GetProperty("topologies").GetInt32());
        var order = manifest.RootElement.GetProperty("order").EnumerateArray().Select(o => o.GetString()!).ToList();
        Assert.Equal(8, order.Count);
        // Topology by topology, both builds side by side, each order (ab, ba) twice.
        Assert.All(
            order.Chunk(2).Select((pair, i) => (pair, i)),
            x => Assert.All(x.pair, k => Assert.Contains($"Topology={x.i + 1}", k))
        );
        Assert.Equal(2, order.Chunk(2).Count(pair => pair[0].StartsWith("Build=a", StringComparison.Ordinal)));

        var comparisons = (await File.ReadAllLinesAsync(Path.Combine(run, ComparisonReport.ComparisonsCsv)))
            .Skip(1)
            .ToList();
        Assert.Equal(4, comparisons.Count); // mean time, payments/s, CPU and storage writes per payment (cgroups), b against a
        Assert.Contains(comparisons, c => c.Contains(",CPU/payment,ms,", StringComparison.Ordinal));
        Assert.Contains(comparisons, c => c.Contains(",storage/payment,KB,", StringComparison.Ordinal));
        Assert.All(comparisons, c => Assert.StartsWith("build,Concurrency=2,", c));
        Assert.All(comparisons, c => Assert.Contains(",a,b,", c));
        Assert.All(comparisons, c => Assert.Contains(",true,4,4,", c)); // paired over 4 topologies
        var topologies = (await File.ReadAllLinesAsync(Path.Combine(run, ComparisonReport.TopologiesCsv)))
            .Skip(1)
            .ToList();
        Assert.Equal(2 * 4 * 4, topologies.Count);
        var markdown = await File.ReadAllTextAsync(Path.Combine(run, ComparisonReport.MarkdownFile));
        Assert.Contains("| Concurrency=2 | mean time | a | b |", markdown);
        Assert.Contains("## Spread between topologies and within them", markdown);
        // What each node cost, read from its container's cgroup around every invocation.
        Assert.Contains("## What each node cost per payment", markdown);
        Assert.Matches(
            @"\| Build=a, Concurrency=2, Traces=off \| alice \| 4 \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \|",
            markdown
        );
        Assert.Contains("8 topologies ready in median", markdown);
        using var summary = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(run, "summary.json")));
        Assert.Equal(
            ["mean time", "payments/s", "CPU/payment", "storage/payment"],
            summary
                .RootElement.GetProperty("comparisons")
                .EnumerateArray()
                .Select(c => c.GetProperty("metric").GetString())
                .Distinct()
        );
        Assert.All(
            summary.RootElement.GetProperty("cases").EnumerateArray(),
            c => Assert.True(c.GetProperty("cpu_ms_per_payment").GetDouble() > 0)
        );
        Assert.Equal(8, summary.RootElement.GetProperty("cases").GetArrayLength());
    }

    /// <summary>
    /// --pairing alternate (the default with two builds): a pair's two topologies are live at once, and in every
    /// BenchmarkDotNet iteration of one build's case the other build pays first, so the two builds' measured invocations
    /// alternate in time, each topology measures its invocations in both cases, and its figures count all of them;
    /// --pairing sequential measures one topology after the other, their payments never overlapping in time.
    /// </summary>
    [SkippableFact]
    public async Task Alternating_arms_keep_a_pairs_topologies_live_together_and_alternate_their_invocations()
    {
        await ReadyAsync();
        var image = $"{StandInKind.KindName}={FakeNodeImage.StandIn}";
        string[] Args(string pairing, string into) =>
            [
                "AlicePaysBob",
                "--build",
                $"a={image}",
                "--build",
                $"b={image}",
                "--bitcoind-image",
                FakeNodeImage.StandIn,
                "--no-pull",
                "--concurrency",
                "1",
                "--warmups",
                "1",
                "--iterations",
                "5",
                "--topologies",
                "2",
                "--seed",
                "3",
                "--traces",
                "off",
                "--pairing",
                pairing,
                "--results",
                into,
                "--work-dir",
                work,
                "--no-zip",
            ];
        var sequential = Path.Combine(results, "sequential");

        Assert.Equal(0, await RunAsync(Args("alternate", results)));
        Assert.Equal(0, await RunAsync(Args("sequential", sequential)));

        var run = Assert.Single(Directory.GetDirectories(results), d => d != sequential);
        using var manifest = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(run, "manifest.json")));
        Assert.StartsWith("alternate:", manifest.RootElement.GetProperty("pairing").GetString());
        var payments = CsvReader.Read(Path.Combine(run, "payments.csv"));
        // The arms' reports append to the run's files one after the other: every row whole.
        Assert.All(payments, p => Assert.Matches(@"^Build=[ab], Concurrency=1, Topology=[12], Traces=off$", p["case"]));
        Assert.All(payments, p => Assert.Contains(p["phase"], new[] { "warmup", "measured" }));
        for (var topology = 1; topology <= 2; topology++)
        {
            var measured = payments
                .Where(p =>
                    p["case"].Contains($"Topology={topology},", StringComparison.Ordinal) && p["phase"] == "measured"
                )
                .OrderBy(p => p.Number("start_unix_us"))
                .Select(p => p["case"][..7])
                .ToList();
            // 5 iterations over two arms: 3 BenchmarkDotNet iterations per case, one invocation of each build in each.
            Assert.Equal(6, measured.Count(m => m == "Build=a"));
            Assert.Equal(6, measured.Count(m => m == "Build=b"));
            // Alternating in time: never the same build twice in a row within a case, so at most one repeat (where
            // the second case begins).
            Assert.InRange(measured.Zip(measured.Skip(1)).Count(x => x.First == x.Second), 0, 1);
        }
        using var summary = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(run, "summary.json")));
        Assert.All(
            summary.RootElement.GetProperty("cases").EnumerateArray(),
            c => Assert.Equal(6, c.GetProperty("iterations_ms").GetArrayLength())
        );

        var other = Assert.Single(Directory.GetDirectories(sequential));
        using var otherManifest = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(other, "manifest.json")));
        Assert.StartsWith("sequential:", otherManifest.RootElement.GetProperty("pairing").GetString());
        var byCase = CsvReader
            .Read(Path.Combine(other, "payments.csv"))
            .Where(p => p["phase"] == "measured")
            .GroupBy(p => p["case"])
            .Select(g =>
                (
                    Start: g.Min(p => p.Number("start_unix_us")),
                    End: g.Max(p => p.Number("end_unix_us")),
                    Count: g.Count()
                )
            )
            .OrderBy(c => c.Start)
            .ToList();
        Assert.Equal(4, byCase.Count);
        Assert.All(byCase, c => Assert.Equal(5, c.Count));
        Assert.All(
            byCase.Zip(byCase.Skip(1)),
            x => Assert.True(x.First.End <= x.Second.Start, "a sequential case's payments overlap the next one's")
        );
    }

    /// <summary>Each test starts here: the engine (or a skip), the images, and fragments for bitcoind and the stand-in kind.</summary>
    /// <summary>
    /// --max-time on two builds of the same stand-in at two concurrencies: rounds of one more pair of the open cases
    /// whose turn it is by time spent, until the verdicts decide or the budget ends. What holds however fast the machine
    /// is: the first round has --topologies pairs of every case, each next round one more pair of some cases (each at
    /// its own next topology index, so every case's pairs are 1…n), every case of every round ran and is in the
    /// results, each pair's builds next to each other, and the budget section says why the run stopped, what each case
    /// took, and every primary verdict.
    /// </summary>
    [SkippableFact]
    public async Task A_budgeted_run_adds_pairs_by_turn_and_says_why_it_stopped()
    {
        await ReadyAsync();
        var exit = await RunAsync([
            "AlicePaysBob",
            "--build",
            $"a={StandInKind.KindName}={FakeNodeImage.StandIn}",
            "--build",
            $"b={StandInKind.KindName}={FakeNodeImage.StandIn}",
            "--bitcoind-image",
            FakeNodeImage.StandIn,
            "--no-pull",
            "--concurrency",
            "1,2",
            "--warmups",
            "0",
            "--iterations",
            "3",
            "--topologies",
            "2",
            "--max-time",
            "90s",
            "--traces",
            "off",
            "--seed",
            "7",
            "--no-zip",
            "--results",
            results,
            "--work-dir",
            work,
            "--setup-timeout",
            "60",
        ]);

        Assert.Equal(0, exit);
        var run = Assert.Single(Directory.GetDirectories(results));
        using var manifest = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(run, "manifest.json")));
        Assert.Contains(
            "pairs added round by round until decided or out of time",
            manifest.RootElement.GetProperty("pairing").GetString()
        );
        var budget = manifest.RootElement.GetProperty("budget");
        Assert.Equal(90, budget.GetProperty("budget_seconds").GetDouble());
        var rounds = budget.GetProperty("rounds").EnumerateArray().ToList();
        Assert.NotEmpty(rounds);
        Assert.Equal(
            ["Concurrency=1", "Concurrency=2"],
            rounds[0].GetProperty("cells").EnumerateArray().Select(c => c.GetString()).ToList()
        );
        Assert.Equal(2, rounds[0].GetProperty("pairs").GetInt32());
        // Each case's pairs after the last round, and each round after the first added one pair to each case it measured.
        var pairsOf = rounds[^1]
            .GetProperty("spent")
            .EnumerateArray()
            .ToDictionary(c => c.GetProperty("cell").GetString()!, c => c.GetProperty("pairs").GetInt32());
        Assert.Equal(["Concurrency=1", "Concurrency=2"], pairsOf.Keys.Order().ToList());
        Assert.All(pairsOf.Values, p => Assert.True(p >= 2));
        Assert.Equal(pairsOf.Values.Sum(), 4 + rounds.Skip(1).Sum(r => r.GetProperty("cells").GetArrayLength()));
        Assert.All(
            rounds[^1].GetProperty("spent").EnumerateArray(),
            c => Assert.True(c.GetProperty("seconds").GetDouble() > 0)
        );
        var stopped = budget.GetProperty("stopped_because").GetString()!;
        Assert.True(
            stopped == Lightning.Bench.Statistics.BudgetedVerdicts.AllDecided
                || stopped.StartsWith("the budget", StringComparison.Ordinal),
            stopped
        );
        // Every round's cases ran: two builds × each case's pairs, numbered 1…n per case, a pair's builds next to each other.
        var order = manifest.RootElement.GetProperty("order").EnumerateArray().Select(o => o.GetString()!).ToList();
        Assert.Equal(2 * pairsOf.Values.Sum(), order.Count);
        foreach (var (cell, pairs) in pairsOf)
        {
            for (var k = 1; k <= pairs; k++)
            {
                var at = order.FindIndex(o =>
                    o.Contains(cell + ",", StringComparison.Ordinal)
                    && o.Contains($"Topology={k},", StringComparison.Ordinal)
                );
                Assert.True(at >= 0, $"{cell} topology {k} did not run");
                Assert.Contains($"Topology={k},", order[at + 1]);
                Assert.Contains(cell + ",", order[at + 1]);
            }
        }
        using var summary = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(run, "summary.json")));
        Assert.Equal(2 * pairsOf.Values.Sum(), summary.RootElement.GetProperty("cases").GetArrayLength());
        // A round's last pair ended behind the next round's setup, its figures first without the idle rate; at the end
        // every case has them in full, CPU per payment with its idle rate included.
        Assert.All(
            summary.RootElement.GetProperty("cases").EnumerateArray(),
            c =>
            {
                Assert.Equal(JsonValueKind.Number, c.GetProperty("cpu_ms_per_payment").ValueKind);
                Assert.True(c.GetProperty("iterations_ms").GetArrayLength() >= 3);
            }
        );
        // The primary verdicts (mean time, payments/s of b against a, per case), with the pairs they rest on.
        var verdicts = budget.GetProperty("verdicts").EnumerateArray().ToList();
        Assert.Equal(4, verdicts.Count);
        Assert.All(
            verdicts,
            v => Assert.InRange(v.GetProperty("pairs").GetInt32(), 1, pairsOf[v.GetProperty("cell").GetString()!])
        );
        var markdown = File.ReadAllText(Path.Combine(run, ComparisonReport.MarkdownFile));
        Assert.Contains("95 % confidence sequences (budgeted run)", markdown);
        Assert.Contains($"pairs per case in", markdown);
        Assert.Contains($"What each case took: Concurrency=1: {pairsOf["Concurrency=1"]} pairs", markdown);
        // The run's page carries it too, its verdict cells coloured.
        var page = File.ReadAllText(Path.Combine(run, ReportHtml.FileName));
        Assert.Contains("What each case took", page);
        Assert.Contains("<td class=\"verdict-", page);
    }

    private async Task ReadyAsync()
    {
        Requirements.Docker();
        await FakeNodeImage.EnsureBuiltAsync();
        File.Copy(
            Path.Combine(ComposeFragments.DefaultDirectory, ComposeFragments.BitcoindFile),
            Path.Combine(fragments, ComposeFragments.BitcoindFile)
        );
        File.Copy(StandInKind.FragmentSource, Path.Combine(fragments, StandInKind.Fragment));
    }

    /// <summary>
    /// The harness in-process with the stand-in kind registered (its one line: a shipped kind is one entry of
    /// <see cref="NodeKindCatalog.Default"/>), on the thread pool (no test synchronization context under its blocking boundary).
    /// </summary>
    private Task<int> RunAsync(string[] args) =>
        Task.Run(() => Program.Run(args, NodeKindCatalog.Default.With(new StandInKind()), fragments));

    public void Dispose()
    {
        foreach (var directory in new[] { work, results, fragments })
        {
            Directory.Delete(directory, recursive: true);
        }
    }
}
