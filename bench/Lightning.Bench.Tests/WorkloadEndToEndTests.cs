using Lightning.Bench.Csv;
using Lightning.Bench.Docker;
using Lightning.Bench.Reports;

namespace Lightning.Bench.Tests;

/// <summary>The workloads against real Core Lightning and bitcoind images named by environment variables.</summary>
[Trait("Category", "E2E")]
[Collection(DockerCollection.Name)]
public class WorkloadEndToEndTests
{
    [SkippableFact]
    public async Task The_probe_times_every_nodes_answers_while_payments_run_and_compares_the_slowest_per_invocation_between_builds()
    {
        var (cln, bitcoind) = Requirements.NodeImages();
        var (runDir, _) = await HarnessProcess.RunToResultsAsync(
            "probe",
            [
                "AlicePaysBob",
                "--build",
                $"a={cln}",
                "--build",
                $"b={cln}",
                "--probe",
                "100ms",
                "--concurrency",
                "4",
                "--iterations",
                "4",
                "--warmups",
                "1",
                "--topologies",
                "2",
                "--bitcoind-image",
                bitcoind,
            ]
        );
        var probes = CsvReader.Read(Path.Combine(runDir, ProbeCsv.FileName));
        // Both nodes of every case were asked, inside the measured invocations and between them, and answered each time.
        Assert.Equal(["alice", "bob"], probes.Select(p => p["node"]).Distinct().Order());
        Assert.Equal(4, probes.Select(p => p["case"]).Distinct().Count());
        Assert.Contains(probes, p => p["phase"] == "measured");
        Assert.Contains(probes, p => p["phase"] == "between");
        Assert.All(
            probes,
            p =>
            {
                Assert.Equal("", p["error"]);
                Assert.True(double.Parse(p["latency_ms"], System.Globalization.CultureInfo.InvariantCulture) > 0);
            }
        );
        // One call at a time (each starts after the one before it answered), and never more often than every 100 ms on
        // average (the calls keep to a fixed 100 ms schedule; one that answers late delays the next).
        foreach (var calls in probes.GroupBy(p => (p["case"], p["node"])))
        {
            var ordered = calls
                .Select(p =>
                    (
                        Start: long.Parse(p["start_unix_us"]),
                        Latency: double.Parse(p["latency_ms"], System.Globalization.CultureInfo.InvariantCulture)
                    )
                )
                .OrderBy(c => c.Start)
                .ToList();
            Assert.All(
                ordered.Zip(ordered.Skip(1)),
                pair =>
                    Assert.True(
                        pair.Second.Start >= pair.First.Start + (long)(pair.First.Latency * 1000) - 1_000,
                        $"{calls.Key}: a call at {pair.Second.Start} before the one at {pair.First.Start} answered"
                    )
            );
            Assert.True(
                ordered.Count <= (ordered[^1].Start - ordered[0].Start) / 100_000 + 2,
                $"{calls.Key}: {ordered.Count} calls in {(ordered[^1].Start - ordered[0].Start) / 1000} ms"
            );
        }
        var comparison = await File.ReadAllTextAsync(Path.Combine(runDir, "comparison.md"));
        Assert.Contains("## How fast each node answered while it worked", comparison);
        Assert.Matches(@"\| Build=a, Concurrency=4, Traces=on \| bob \| 2 \|", comparison);
        var rpcWait = CsvReader
            .Read(Path.Combine(runDir, "comparisons.csv"))
            .Where(c => c["metric"] == "RPC wait")
            .ToList();
        Assert.Single(rpcWait, c => c["kind"] == "build");
        Assert.All(rpcWait, c => Assert.NotEqual("", c["verdict"]));
    }

    [SkippableFact]
    public async Task A_hub_forwards_every_payment_between_its_peers_and_its_costs_and_answers_are_reported_apart()
    {
        var (cln, bitcoind) = Requirements.NodeImages();
        var (runDir, run) = await HarnessProcess.RunToResultsAsync(
            "hub",
            [
                "HubRoutes",
                "--peers",
                "6",
                "--channels-per-peer",
                "2",
                "--history",
                "2000",
                "--history-of",
                "forwards",
                "--concurrency",
                "2",
                "--iterations",
                "3",
                "--warmups",
                "1",
                "--topologies",
                "1",
                "--probe",
                "100",
                "--snapshots",
                "off",
                "--cln-image",
                cln,
                "--bitcoind-image",
                bitcoind,
            ]
        );
        // The hub is given 2,000 past forwards (alice-1 -> hub -> bob-1 copied), restarted, and forwards again.
        Assert.Contains(
            "hub: a history of 2,000 forwards (1,999 written, the rest its own), restarted",
            run.StandardOutput
        );
        // Two channels between the hub and each peer, opened in two rounds, all usable before the first payment.
        Assert.Matches(@"opening 12 channel\(s\): alice-1->hub, alice-1->hub, ", run.StandardOutput);
        var rows = CsvReader.Read(Path.Combine(runDir, PaymentCsv.FileName));
        // 3 Alices × Concurrency 2 × (1 warmup + 3 measured), each alice-i paying bob-i, all through the hub.
        Assert.Equal(24, rows.Count);
        Assert.All(
            rows,
            r =>
            {
                Assert.Equal("succeeded", r["outcome"]);
                Assert.Equal(r["payer"].Replace("alice", "bob", StringComparison.Ordinal), r["payee"]);
            }
        );
        var comparison = await File.ReadAllTextAsync(Path.Combine(runDir, "comparison.md"));
        // The hub's own CPU and storage per forward, and how fast it answered while forwarding, each in its own row.
        Assert.Matches(@"\| Build=[^|]*PeerCount=6[^|]* \| hub \| 1 \| [0-9.]+ \| [0-9.]+ \|", comparison);
        Assert.Contains(
            CsvReader.Read(Path.Combine(runDir, ProbeCsv.FileName)),
            p => p["node"] == "hub" && p["phase"] == "measured"
        );
    }

    [SkippableFact]
    public async Task A_node_given_a_history_is_restarted_timed_and_its_bookkeeper_digests_it_while_the_probe_watches()
    {
        var (cln, bitcoind) = Requirements.NodeImages();
        var (runDir, run) = await HarnessProcess.RunToResultsAsync(
            "history",
            [
                "LargeNode",
                "--history",
                "0,3000",
                "--workload",
                "balances",
                "--iterations",
                "1",
                "--warmups",
                "0",
                "--topologies",
                "1",
                "--pairing",
                "sequential",
                "--probe",
                "100",
                "--snapshots",
                "off",
                "--cln-image",
                cln,
                "--bitcoind-image",
                bitcoind,
            ]
        );
        Assert.Contains("carol: a history of 3,000 moves", run.StandardOutput);
        // One bkpr-listbalances on carol per case, answered: with the history, its first call digests 3,000 moves.
        var calls = CsvReader.Read(Path.Combine(runDir, PaymentCsv.FileName));
        Assert.Equal(2, calls.Count);
        Assert.All(calls, c => Assert.Equal(("carol", "succeeded"), (c["payer"], c["outcome"])));
        // The restart's times are setup steps of the case with a history only.
        var comparison = await File.ReadAllTextAsync(Path.Combine(runDir, "comparison.md"));
        Assert.Contains("restart rpc", comparison);
        Assert.Contains("restart pay", comparison);
        Assert.Contains("## How the figures grow with HistoryRows", comparison);
        Assert.Contains(
            CsvReader.Read(Path.Combine(runDir, ProbeCsv.FileName)),
            p =>
                p["node"] == "carol"
                && p["phase"] == "measured"
                && p["case"].Contains("HistoryRows=3000", StringComparison.Ordinal)
        );
    }

    [SkippableFact]
    public async Task A_payee_given_a_history_of_invoices_is_paid_after_its_restart_and_lists_a_page_from_its_middle()
    {
        var (cln, bitcoind) = Requirements.NodeImages();
        var (runDir, run) = await HarnessProcess.RunToResultsAsync(
            "invoices",
            [
                "LargeNode",
                "--history",
                "5000",
                "--history-of",
                "invoices",
                "--workload",
                "pay,list-invoices",
                "--iterations",
                "3",
                "--warmups",
                "1",
                "--topologies",
                "1",
                "--snapshots",
                "off",
                "--cln-image",
                cln,
                "--bitcoind-image",
                bitcoind,
            ]
        );
        // The history is bob's (carol's payee), restarted; carol's payments to him go on.
        Assert.Contains(
            "bob: a history of 5,000 invoices (4,999 written, the rest its own), restarted",
            run.StandardOutput
        );
        var operations = CsvReader.Read(Path.Combine(runDir, PaymentCsv.FileName));
        var payments = operations.Where(p => !p["case"].Contains("list-invoices", StringComparison.Ordinal)).ToList();
        Assert.Equal(4, payments.Count);
        Assert.All(payments, p => Assert.Equal(("carol", "bob", "succeeded"), (p["payer"], p["payee"], p["outcome"])));
        // Each listing is bob's page of 100 invoices from the middle of his 5,000: all came (fewer is a failed call).
        var pages = operations.Except(payments).ToList();
        Assert.Equal(4, pages.Count);
        Assert.All(pages, p => Assert.Equal(("bob", "succeeded"), (p["payee"], p["outcome"])));
        var setup = await File.ReadAllTextAsync(Path.Combine(runDir, "comparison.md"));
        Assert.Contains("restart channels", setup);
        Assert.Contains("restart pay", setup);
    }

    [SkippableFact]
    public async Task A_router_given_a_history_of_forwards_routes_every_payment_and_a_payer_given_past_payments_still_pays()
    {
        var (cln, bitcoind) = Requirements.NodeImages();
        var snapshots = Directory.CreateTempSubdirectory("lnbench-e2e-snapshots-").FullName;
        var (runDir, run) = await HarnessProcess.RunToResultsAsync(
            "forwards",
            [
                "LargeNode",
                "--history",
                "3000",
                "--history-of",
                "forwards",
                "--iterations",
                "3",
                "--warmups",
                "1",
                "--topologies",
                "2",
                "--snapshots",
                snapshots,
                "--cln-image",
                cln,
                "--bitcoind-image",
                bitcoind,
            ]
        );
        // carol's past forwards are written in the first topology and kept; the second topology's carol is given a copy
        // (its own channels and peers in them); each is seen by carol's own listforwards once she is back, and every
        // payment is one more forward of hers: alice pays bob through her.
        Assert.Matches(
            @"carol: history kept as snapshot forwards-3000-[0-9a-f]{16}\.lnbench-history\.sqlite3 \([0-9.]+ MB\); snapshots in .*: 1, ",
            run.StandardOutput
        );
        Assert.Matches(
            @"carol: history copied from snapshot forwards-3000-[0-9a-f]{16}\.lnbench-history\.sqlite3",
            run.StandardOutput
        );
        Assert.Equal(
            2,
            System
                .Text.RegularExpressions.Regex.Matches(
                    run.StandardOutput,
                    @"carol: a history of 3,000 forwards \(2,999 written, the rest its own\), restarted"
                )
                .Count
        );
        var forwards = CsvReader.Read(Path.Combine(runDir, PaymentCsv.FileName));
        Assert.Equal(8, forwards.Count);
        Assert.All(forwards, p => Assert.Equal(("alice", "bob", "succeeded"), (p["payer"], p["payee"], p["outcome"])));
        using (
            var kept = System.Text.Json.JsonDocument.Parse(
                await File.ReadAllTextAsync(Path.Combine(runDir, "manifest.json"))
            )
        )
        {
            var history = kept.RootElement.GetProperty("history");
            Assert.Equal(
                ["made", "used"],
                history.GetProperty("snapshots").EnumerateArray().Select(u => u.GetProperty("how").GetString())
            );
        }
        var snapshot = Assert.Single(Directory.GetFiles(snapshots));

        // A snapshot damaged between runs is not used: the next run says why, writes carol's history afresh, keeps it
        // again, and carol lists it before anything is measured.
        await using (var file = File.OpenWrite(snapshot))
        {
            file.SetLength(file.Length / 2);
        }
        (_, run) = await HarnessProcess.RunToResultsAsync(
            "forwards-damaged",
            [
                "LargeNode",
                "--history",
                "3000",
                "--history-of",
                "forwards",
                "--iterations",
                "1",
                "--warmups",
                "0",
                "--topologies",
                "1",
                "--snapshots",
                snapshots,
                "--cln-image",
                cln,
                "--bitcoind-image",
                bitcoind,
            ]
        );
        Assert.Matches(
            @"carol: history kept as snapshot forwards-3000-[0-9a-f]{16}\.lnbench-history\.sqlite3 \([0-9.]+ MB; the one there was not used: damaged: ",
            run.StandardOutput
        );
        Assert.Contains(
            "carol: a history of 3,000 forwards (2,999 written, the rest its own), restarted",
            run.StandardOutput
        );
        var clean = await HarnessProcess.RunAsync(
            ["--clean-snapshots", "--snapshots", snapshots],
            TimeSpan.FromMinutes(2)
        );
        Assert.Matches(
            $@"snapshots: removed 1 from {System.Text.RegularExpressions.Regex.Escape(snapshots)} \([0-9.]+ MB\)",
            clean.StandardOutput
        );
        Assert.Empty(Directory.GetFiles(snapshots));

        (runDir, run) = await HarnessProcess.RunToResultsAsync(
            "payments",
            [
                "LargeNode",
                "--history",
                "3000",
                "--history-of",
                "payments",
                "--iterations",
                "3",
                "--warmups",
                "1",
                "--topologies",
                "1",
                "--snapshots",
                "off",
                "--cln-image",
                cln,
                "--bitcoind-image",
                bitcoind,
            ]
        );
        Assert.Contains(
            "carol: a history of 3,000 payments (2,999 written, the rest its own), restarted",
            run.StandardOutput
        );
        Assert.DoesNotContain("snapshot", run.StandardOutput);
        var operations = CsvReader.Read(Path.Combine(runDir, PaymentCsv.FileName));
        // The default workload only: carol's warmup and three measured payments, each after her 3,000.
        Assert.Equal(4, operations.Count);
        Assert.All(
            operations,
            p => Assert.Equal(("carol", "bob", "succeeded"), (p["payer"], p["payee"], p["outcome"]))
        );
        using var manifest = System.Text.Json.JsonDocument.Parse(
            await File.ReadAllTextAsync(Path.Combine(runDir, "manifest.json"))
        );
        Assert.Contains("payments:", manifest.RootElement.ToString());
    }

    [SkippableFact]
    public async Task A_build_on_postgres_is_compared_with_the_same_image_on_sqlite3_and_its_servers_costs_are_counted()
    {
        var (cln, bitcoind) = Requirements.NodeImages();
        var postgres = Requirements.PostgresImage();
        var (runDir, _) = await HarnessProcess.RunToResultsAsync(
            "postgres",
            [
                "AlicePaysBob",
                "--build",
                $"lite={cln}",
                "--build",
                $"pg={cln}",
                "--db",
                "pg:postgres",
                "--postgres-image",
                postgres,
                "--concurrency",
                "2",
                "--iterations",
                "3",
                "--warmups",
                "1",
                "--topologies",
                "1",
                "--bitcoind-image",
                bitcoind,
            ]
        );
        var payments = CsvReader.Read(Path.Combine(runDir, PaymentCsv.FileName));
        Assert.All(payments, p => Assert.Equal("succeeded", p["outcome"]));
        int Measured(string build) =>
            payments.Count(p => p["case"].Contains(build, StringComparison.Ordinal) && p["phase"] == "measured");
        Assert.True(Measured("Build=pg") >= 2 * 3, $"{Measured("Build=pg")} measured payments on postgres");
        Assert.Equal(Measured("Build=lite"), Measured("Build=pg"));
        // The server is a node of the costs: its CPU and writes are the pg build's, not the sqlite3 one's.
        var comparison = await File.ReadAllTextAsync(Path.Combine(runDir, "comparison.md"));
        Assert.Matches(@"\| Build=pg, [^|]*\| postgres \| 1 \| [0-9.]+ \| [0-9.]+ \|", comparison);
        Assert.DoesNotMatch(@"\| Build=lite, [^|]*\| postgres \|", comparison);
        using var manifest = System.Text.Json.JsonDocument.Parse(
            await File.ReadAllTextAsync(Path.Combine(runDir, "manifest.json"))
        );
        Assert.Contains(
            manifest.RootElement.GetProperty("images").EnumerateArray(),
            i => i.GetProperty("name").GetString() == postgres
        );
        Assert.Equal(
            ["sqlite3", "postgres"],
            manifest
                .RootElement.GetProperty("builds")
                .EnumerateArray()
                .Select(b => b.GetProperty("database").GetString())
        );
        using var engine = new DockerEngine();
        await RunResources.Of(engine, manifest.RootElement.GetProperty("run_id").GetString()!).AssertNoneLeftAsync();
    }

    [SkippableFact]
    public async Task A_release_before_channel_moves_is_refused_a_history_in_one_line_before_any_container()
    {
        var (_, bitcoind) = Requirements.NodeImages();
        var old = Environment.GetEnvironmentVariable("LNBENCH_E2E_OLD_CLN_IMAGE");
        Skip.If(
            string.IsNullOrEmpty(old),
            "set LNBENCH_E2E_OLD_CLN_IMAGE to a Core Lightning image before v24.11 (e.g. v24.08)"
        );
        var results = Directory.CreateTempSubdirectory("lnbench-e2e-oldhistory-").FullName;

        var refused = await HarnessProcess.RunAsync(
            [
                "LargeNode",
                "--history",
                "1000",
                "--build",
                $"old={old}",
                "--bitcoind-image",
                bitcoind,
                "--no-pull",
                "--results",
                results,
            ],
            TimeSpan.FromMinutes(5)
        );

        Assert.Equal(2, refused.ExitCode);
        Assert.Contains(
            "keeps no channel moves in its database (they came in v25.09): give a history to v25.09 or later",
            refused.StandardError
        );
        Assert.Empty(Directory.GetDirectories(results));
    }

    [SkippableFact]
    public async Task Payments_that_fail_at_the_payee_come_back_from_it_as_unknown_and_are_counted_as_expected_not_as_errors()
    {
        var (cln, bitcoind) = Requirements.NodeImages();
        var results = Directory.CreateTempSubdirectory("lnbench-e2e-fail-").FullName;

        var run = await HarnessProcess.RunAsync(
            [
                "AlicePaysBob",
                "--workload",
                "fail-at-payee",
                "--concurrency",
                "1,4",
                "--iterations",
                "3",
                "--warmups",
                "1",
                "--topologies",
                "1",
                "--cln-image",
                cln,
                "--bitcoind-image",
                bitcoind,
                "--no-pull",
                "--results",
                results,
            ],
            TimeSpan.FromMinutes(20)
        );

        Assert.True(run.Succeeded, $"exit {run.ExitCode}: {run.Tail(15)}");
        var runDir = Assert.Single(Directory.GetDirectories(results));
        var rows = CsvReader.Read(Path.Combine(runDir, PaymentCsv.FileName));
        // (1 warmup + 3 measured invocations) × (1 + 4) attempts, each once.
        Assert.Equal(20, rows.Count);
        Assert.Equal(20, rows.Select(r => r["payment_id"]).Distinct().Count());
        Assert.All(
            rows,
            r =>
            {
                Assert.Equal("failed", r["outcome"]);
                Assert.Equal("true", r["expected"]);
                // xpay's final failure: the payee said it does not know the payment.
                Assert.Contains("failed with 203", r["error"]);
                Assert.Contains("incorrect_or_unknown_payment_details", r["error"], StringComparison.OrdinalIgnoreCase);
                Assert.EndsWith("Workload=fail-at-payee", r["case"]);
            }
        );
        // The attempts' spans on the payer are joined to them (the harness's xpay id).
        Assert.All(
            rows.Where(r => r["phase"] == "measured"),
            r => Assert.Contains("jsonrpc:injectpaymentonion=", r["span_breakdown_ms"])
        );

        var table = await File.ReadAllTextAsync(
            Directory.GetFiles(Path.Combine(runDir, "results"), "*-report-github.md").Single()
        );
        Assert.Contains("Attempts/s", table);
        Assert.Contains("CPU ms/attempt", table);
        Assert.Matches(@"(?m)^\| xpay \(deleted invoice\) +\|", table);
        using var summary = System.Text.Json.JsonDocument.Parse(
            await File.ReadAllTextAsync(Path.Combine(runDir, "summary.json"))
        );
        foreach (var c in summary.RootElement.GetProperty("cases").EnumerateArray())
        {
            Assert.Equal(0, c.GetProperty("failed").GetInt32());
            Assert.True(c.GetProperty("payments_per_second").GetDouble() > 0);
            Assert.True(c.GetProperty("cpu_ms_per_payment").GetDouble() > 0);
            Assert.Equal("attempt", c.GetProperty("noun").GetString());
        }
        var runId = Path.GetFileName(runDir)[..^"-AlicePaysBob".Length];
        using var engine = new DockerEngine();
        await RunResources.Of(engine, runId).AssertNoneLeftAsync();
    }

    [SkippableFact]
    public async Task Keysend_and_both_ways_pay_on_real_nodes_and_both_ways_fills_a_channel_from_each_end_past_the_htlc_limit()
    {
        var (cln, bitcoind) = Requirements.NodeImages();
        var results = Directory.CreateTempSubdirectory("lnbench-e2e-ways-").FullName;

        // 500 from each end of one channel: past the 483 HTLCs a direction may have in flight.
        var run = await HarnessProcess.RunAsync(
            [
                "AlicePaysBob",
                "--workload",
                "keysend,both-ways",
                "--concurrency",
                "2,500",
                "--iterations",
                "1",
                "--warmups",
                "0",
                "--topologies",
                "1",
                "--traces",
                "off",
                "--cln-image",
                cln,
                "--bitcoind-image",
                bitcoind,
                "--no-pull",
                "--results",
                results,
            ],
            TimeSpan.FromMinutes(30)
        );

        Assert.True(run.Succeeded, $"exit {run.ExitCode}: {run.Tail(15)}");
        var runDir = Assert.Single(Directory.GetDirectories(results));
        var rows = CsvReader.Read(Path.Combine(runDir, PaymentCsv.FileName));
        var keysend = rows.Where(r => r["case"].EndsWith("Workload=keysend", StringComparison.Ordinal)).ToList();
        Assert.Equal(2 + 500, keysend.Count);
        Assert.All(
            keysend.Where(r => r["case"].Contains("Concurrency=2,", StringComparison.Ordinal)),
            r => Assert.Equal(("succeeded", ""), (r["outcome"], r["payment_hash"]))
        );

        var bothWays = rows.Where(r => r["case"].EndsWith("Workload=both-ways", StringComparison.Ordinal)).ToList();
        Assert.Equal(2 * (2 + 500), bothWays.Count);
        // Every payment is counted once with its outcome, from both ends: bob could pay because half of the channel was his.
        Assert.Equal(bothWays.Count, bothWays.Select(r => r["payment_id"]).Distinct().Count());
        var small = bothWays.Where(r => r["case"].Contains("Concurrency=2,", StringComparison.Ordinal)).ToList();
        Assert.All(small, r => Assert.Equal("succeeded", r["outcome"]));
        Assert.Equal(2, small.Count(r => r["payer"] == "bob"));
        var large = bothWays.Where(r => r["case"].Contains("Concurrency=500,", StringComparison.Ordinal)).ToList();
        Assert.Equal(500, large.Count(r => r["payer"] == "bob"));
        Assert.All(
            large.Where(r => r["outcome"] == "failed"),
            r => Assert.False(string.IsNullOrWhiteSpace(r["error"]))
        );
        Assert.True(large.Count(r => r["outcome"] == "succeeded") > 0);
    }

    [SkippableFact]
    public async Task A_multi_part_payment_splits_over_both_paths_and_its_parts_are_counted()
    {
        var (cln, bitcoind) = Requirements.NodeImages();
        var results = Directory.CreateTempSubdirectory("lnbench-e2e-mpp-").FullName;

        var run = await HarnessProcess.RunAsync(
            [
                "AlicePaysBobOverTwoPaths",
                "--workload",
                "mpp",
                "--amount-msat",
                "1500000000",
                "--concurrency",
                "1",
                "--iterations",
                "6",
                "--warmups",
                "1",
                "--topologies",
                "1",
                "--cln-image",
                cln,
                "--bitcoind-image",
                bitcoind,
                "--no-pull",
                "--results",
                results,
            ],
            TimeSpan.FromMinutes(20)
        );

        Assert.True(run.Succeeded, $"exit {run.ExitCode}: {run.Tail(15)}");
        var runDir = Assert.Single(Directory.GetDirectories(results));
        var rows = CsvReader.Read(Path.Combine(runDir, PaymentCsv.FileName));
        Assert.Equal(7, rows.Count);
        Assert.All(
            rows,
            r =>
            {
                // Every payment, not only the first: each starts from the balances the first started from (paid back path by path).
                Assert.Equal("succeeded", r["outcome"]);
                // 1,500,000 sat over two paths of 1,000,000: at least two parts reached bob.
                Assert.True(int.Parse(r["parts"]) >= 2, $"parts {r["parts"]}");
                Assert.True(int.Parse(r["failed_parts"]) >= 0);
            }
        );
        var table = await File.ReadAllTextAsync(
            Directory.GetFiles(Path.Combine(runDir, "results"), "*-report-github.md").Single()
        );
        Assert.Contains("Parts", table);
        Assert.Matches(@"(?m)^\| invoice\+xpay in parts +\|", table);
    }

    [SkippableFact]
    public async Task A_release_before_xpay_pays_with_pay_and_says_so_and_a_node_option_it_does_not_know_stops_the_run()
    {
        var (_, bitcoind) = Requirements.NodeImages();
        var old = Environment.GetEnvironmentVariable("LNBENCH_E2E_OLD_CLN_IMAGE");
        Skip.If(
            string.IsNullOrEmpty(old),
            "set LNBENCH_E2E_OLD_CLN_IMAGE to a Core Lightning image before v24.11 (e.g. v24.08)"
        );
        var results = Directory.CreateTempSubdirectory("lnbench-e2e-old-").FullName;

        var refused = await HarnessProcess.RunAsync(
            [
                "AlicePaysBob",
                "--build",
                $"old={old}",
                "--node-option",
                "old:--dev-keep-nagle",
                "--concurrency",
                "1",
                "--iterations",
                "2",
                "--topologies",
                "1",
                "--bitcoind-image",
                bitcoind,
                "--no-pull",
                "--results",
                results,
            ],
            TimeSpan.FromMinutes(5)
        );
        Assert.Equal(2, refused.ExitCode);
        Assert.Contains("does not know --dev-keep-nagle", refused.StandardError);
        Assert.Empty(Directory.GetDirectories(results));

        var run = await HarnessProcess.RunAsync(
            [
                "AlicePaysBob",
                "--workload",
                "pay,fail-at-payee",
                "--build",
                $"old={old}",
                "--concurrency",
                "1",
                "--iterations",
                "2",
                "--warmups",
                "1",
                "--topologies",
                "1",
                "--bitcoind-image",
                bitcoind,
                "--no-pull",
                "--results",
                results,
            ],
            TimeSpan.FromMinutes(20)
        );
        Assert.True(run.Succeeded, $"exit {run.ExitCode}: {run.Tail(15)}");
        Assert.Contains("its payments use pay", run.StandardOutput);
        Assert.Contains("no trace socket", run.StandardOutput);
        var runDir = Assert.Single(Directory.GetDirectories(results));
        var rows = CsvReader.Read(Path.Combine(runDir, PaymentCsv.FileName));
        Assert.All(rows, r => Assert.Equal("true", r["expected"]));
        var table = await File.ReadAllTextAsync(
            Directory.GetFiles(Path.Combine(runDir, "results"), "*-report-github.md").Single()
        );
        Assert.Matches(@"(?m)^\| invoice\+pay +\|", table);
        Assert.Matches(@"(?m)^\| pay \(deleted invoice\) +\|", table);
    }
}
