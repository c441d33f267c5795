using System.Text.RegularExpressions;
using Lightning.Bench.Csv;
using Lightning.Bench.Docker;
using Lightning.Bench.Processes;
using Lightning.Bench.Reports;

namespace Lightning.Bench.Tests;

/// <summary>LND nodes, alone and beside Core Lightning, against real images named by environment variables.</summary>
[Trait("Category", "E2E")]
[Collection(DockerCollection.Name)]
public class LndEndToEndTests
{
    [SkippableFact]
    public async Task Lnd_pays_lnd_with_invoices_keysend_both_ways_and_payments_that_fail_at_the_payee_each_counted_once()
    {
        var (lnd, _, bitcoind) = Requirements.LndImages();
        var (runDir, run) = await RunAsync(
            "lnd-lnd",
            [
                "AlicePaysBob",
                "--workload",
                "pay,keysend,fail-at-payee,both-ways",
                "--build",
                $"lnd={lnd}",
                "--concurrency",
                "1,4",
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

        // The kind was recognised from the image, and the run said LND sends no spans.
        Assert.Contains("recognised as lnd", run.StandardOutput);
        Assert.Contains("has no trace socket", run.StandardOutput);
        var all = CsvReader.Read(Path.Combine(runDir, PaymentCsv.FileName));
        // Both ways: bob pays alice as often as alice pays bob, over the same channel, each payment counted once.
        var bothWays = all.Where(r => r["case"].EndsWith("Workload=both-ways", StringComparison.Ordinal)).ToList();
        AssertEachInvocationCounted(bothWays, payers: 2);
        Assert.Equal(bothWays.Count / 2, bothWays.Count(r => r["payer"] == "bob"));
        Assert.All(bothWays, r => Assert.Equal("succeeded", r["outcome"]));
        var rows = all.Except(bothWays).ToList();
        // 3 workloads × (1 warmup + 3 measured) × (1 + 4) operations, each once.
        Assert.Equal(3 * 4 * 5, rows.Count);
        Assert.Equal(rows.Count, rows.Select(r => r["payment_id"]).Distinct().Count());
        Assert.All(
            rows.Where(r => !r["case"].EndsWith("Workload=fail-at-payee", StringComparison.Ordinal)),
            r => Assert.Equal("succeeded", r["outcome"])
        );
        Assert.All(
            rows.Where(r => r["case"].EndsWith("Workload=fail-at-payee", StringComparison.Ordinal)),
            r =>
            {
                Assert.Equal(("failed", "true"), (r["outcome"], r["expected"]));
                Assert.Contains("FAILURE_REASON_INCORRECT_PAYMENT_DETAILS", r["error"]);
            }
        );
        var table = await File.ReadAllTextAsync(
            Directory.GetFiles(Path.Combine(runDir, "results"), "*-report-github.md").Single()
        );
        Assert.Matches(@"(?m)^\| AddInvoice\+SendPaymentV2 +\|", table);
        await AssertNothingLeftAsync(runDir, "AlicePaysBob");
    }

    [SkippableFact]
    public async Task Lnd_on_postgres_is_compared_with_the_same_image_on_its_own_files_and_keeps_nothing_of_its_database_itself()
    {
        var (lnd, _, bitcoind) = Requirements.LndImages();
        var postgres = Requirements.PostgresImage();
        var (runDir, _) = await RunAsync(
            "lnd-postgres",
            [
                "AlicePaysBob",
                "--build",
                $"bolt={lnd}",
                "--build",
                $"pg={lnd}",
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
        Assert.Equal(
            payments.Count(p => p["case"].StartsWith("Build=bolt", StringComparison.Ordinal)),
            payments.Count(p => p["case"].StartsWith("Build=pg", StringComparison.Ordinal))
        );
        // lnd on PostgreSQL (native SQL): the server writes what the nodes wrote to their own files in the other build.
        var log = await File.ReadAllTextAsync(
            Path.Combine(runDir, "cases", "Build-pg-Concurrency-2-Topology-1-Traces-on", "logs", "alice.log")
        );
        Assert.Contains("Using remote postgres database!", log);
        var comparison = await File.ReadAllTextAsync(Path.Combine(runDir, "comparison.md"));
        Assert.Matches(@"\| Build=pg, [^|]*\| postgres \| 1 \| [0-9.]+ \| [0-9.]+ \|", comparison);
        await AssertNothingLeftAsync(runDir, "AlicePaysBob");
    }

    [SkippableFact]
    public async Task An_older_lnd_release_pays_a_current_one_and_pages_their_invoices_with_its_differences_said()
    {
        var (lnd, _, bitcoind) = Requirements.LndImages();
        var old = Environment.GetEnvironmentVariable("LNBENCH_E2E_OLD_LND_IMAGE");
        Skip.If(
            string.IsNullOrEmpty(old),
            "set LNBENCH_E2E_OLD_LND_IMAGE to an LND release before v0.19 (e.g. lightninglabs/lnd:v0.18.5-beta)"
        );
        var (runDir, run) = await RunAsync(
            "lnd-old",
            [
                "AlicePaysBob",
                "--workload",
                "pay,fail-at-payee,list-invoices,list-payments",
                "--build",
                $"mixed=lnd={old},bob=lnd={lnd}",
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

        // What the older release does differently is said before anything starts, and it pays as any other.
        Assert.Contains("SendPaymentV2 refuses a payment without timeout_seconds (before v0.19)", run.StandardOutput);
        Assert.Contains("the harness passes --nobootstrap", run.StandardOutput);
        var operations = CsvReader.Read(Path.Combine(runDir, PaymentCsv.FileName));
        Assert.Equal(4 * 4 * 2, operations.Count);
        Assert.All(
            operations,
            r =>
                Assert.Equal(
                    r["case"].Contains("fail-at-payee", StringComparison.Ordinal) ? "failed" : "succeeded",
                    r["outcome"]
                )
        );
        var manifest = await File.ReadAllTextAsync(Path.Combine(runDir, "manifest.json"));
        Assert.Contains("timeout_seconds (before v0.19)", manifest);
        await AssertNothingLeftAsync(runDir, "AlicePaysBob");
    }

    [SkippableFact]
    public async Task An_lnd_payee_on_postgres_given_a_history_of_invoices_lists_it_is_paid_after_its_restart_and_pages_from_its_middle()
    {
        var (runDir, run) = await LndHistoryRunAsync(
            "lnd-history",
            "invoices",
            "pay,list-invoices",
            Postgres,
            "--snapshots",
            "off"
        );

        // Written into bob's SQL tables while he was stopped, seen by his own ListInvoices, then paid again.
        Assert.Contains(
            "bob: a history of 3,000 invoices (2,999 written, the rest its own), restarted",
            run.StandardOutput
        );
        var operations = CsvReader.Read(Path.Combine(runDir, PaymentCsv.FileName));
        Assert.All(operations, p => Assert.Equal(("bob", "succeeded"), (p["payee"], p["outcome"])));
        // Each page is 100 of bob's invoices after add index 1,500: all there (fewer is a failed call).
        Assert.Equal(4, operations.Count(p => p["case"].Contains("list-invoices", StringComparison.Ordinal)));
        Assert.Equal(4, operations.Count(p => !p["case"].Contains("list-invoices", StringComparison.Ordinal)));
        await AssertNothingLeftAsync(runDir, "LargeNode");
    }

    [SkippableFact]
    public async Task An_lnd_payee_on_its_own_bbolt_files_given_a_history_of_invoices_lists_it_is_paid_after_its_restart_and_pages_from_its_middle()
    {
        var (runDir, _) = await LndBboltHistoryRunAsync("lnd-bbolt", "invoices", "bob", "payee");
        await AssertNothingLeftAsync(runDir, "LargeNode");
    }

    [SkippableFact]
    public async Task An_lnd_payer_on_postgres_given_a_history_of_payments_lists_it_whole_pays_after_its_restart_and_pages_from_its_middle()
    {
        var (runDir, run) = await LndHistoryRunAsync("lnd-payments", "payments", "pay,list-payments", Postgres);

        // Copied in carol's SQL tables while she was stopped; her own ListPayments listed the last copy succeeded,
        // with its settled attempt's route and a preimage of its own hash, before she paid bob again.
        var made = Regex.Match(
            run.StandardOutput,
            @"carol: a history of 3,000 payments \(([0-9,]+) written, the rest its own\), restarted"
        );
        Assert.True(made.Success, run.StandardOutput);
        Assert.InRange(int.Parse(made.Groups[1].Value.Replace(",", "")), 2_990, 2_999);
        var operations = CsvReader.Read(Path.Combine(runDir, PaymentCsv.FileName));
        Assert.All(operations, p => Assert.Equal(("carol", "succeeded"), (p["payer"], p["outcome"])));
        var pages = operations.Where(p => p["case"].Contains("list-payments", StringComparison.Ordinal)).ToList();
        // Each page is 100 of carol's payments after index 1,500, copies all: every one there (fewer is a failed call).
        Assert.Equal(4, pages.Count);
        var payments = operations.Except(pages).ToList();
        Assert.Equal(4, payments.Count);
        Assert.All(payments, p => Assert.Equal("bob", p["payee"]));
        // Her restart over the copies was timed, and she paid after it.
        var comparison = await File.ReadAllTextAsync(Path.Combine(runDir, "comparison.md"));
        Assert.Contains("restart rpc", comparison);
        Assert.Contains("restart pay", comparison);
        await AssertNothingLeftAsync(runDir, "LargeNode");
    }

    [SkippableFact]
    public async Task An_lnd_payer_on_its_own_bbolt_files_given_a_history_of_payments_lists_it_resumes_none_and_pays_after_its_restart()
    {
        var (runDir, builds) = await LndBboltHistoryRunAsync("lnd-bbolt-payments", "payments", "carol", "payer");

        // Every copy is settled: her start resumed none of them.
        var logs = Directory.GetFiles(Path.Combine(runDir, "cases"), "carol.log", SearchOption.AllDirectories);
        Assert.Equal(2 * builds, logs.Length);
        Assert.All(logs, l => Assert.DoesNotContain("Resuming payment", File.ReadAllText(l)));
        await AssertNothingLeftAsync(runDir, "LargeNode");
    }

    [SkippableFact]
    public async Task An_lnd_router_on_its_own_bbolt_files_given_a_history_of_forwards_lists_it_and_forwards_after_its_restart()
    {
        // The current release (events with HTLC ids), and the old one beside it when there is one (events without).
        var oldBuild = OldBuild();
        var (runDir, run) = await LndHistoryRunAsync("lnd-bbolt-forwards", "forwards", "pay", [], oldBuild);

        // Copied into carol's forwarding log while she was stopped (her switch flushed her one forward as she stopped),
        // the last copy listed by her own ForwardingHistory, then alice paid bob through her again, on each build.
        var builds = 1 + oldBuild.Length / 2;
        var made = Regex.Matches(
            run.StandardOutput,
            @"carol: a history of 3,000 forwards \(2,999 written, the rest its own\), restarted"
        );
        Assert.True(made.Count == builds, run.StandardOutput);
        var operations = CsvReader.Read(Path.Combine(runDir, PaymentCsv.FileName));
        Assert.NotEmpty(operations);
        Assert.All(
            operations,
            p => Assert.Equal(("alice", "bob", "succeeded"), (p["payer"], p["payee"], p["outcome"]))
        );
        await AssertNothingLeftAsync(runDir, "LargeNode");
    }

    [SkippableFact]
    public async Task An_lnd_release_before_v0_21_is_refused_a_history_of_payments_in_one_line_before_anything_starts()
    {
        var (_, _, bitcoind) = Requirements.LndImages();
        var old = Environment.GetEnvironmentVariable("LNBENCH_E2E_OLD_LND_IMAGE");
        Skip.If(string.IsNullOrEmpty(old), "set LNBENCH_E2E_OLD_LND_IMAGE to an LND release before v0.21");
        var postgres = Requirements.PostgresImage();
        var results = Directory.CreateTempSubdirectory("lnbench-e2e-lndpayments-").FullName;

        var refused = await HarnessProcess.RunAsync(
            [
                "LargeNode",
                "--history",
                "1000",
                "--history-of",
                "payments",
                "--build",
                $"old=lnd={old}",
                "--db",
                "old:postgres",
                "--postgres-image",
                postgres,
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
            "keeps payments in a key-value store inside its database, not in SQL tables (native SQL payments came in v0.21)",
            refused.StandardError
        );
        Assert.Empty(Directory.GetDirectories(results));
    }

    [SkippableFact]
    public async Task Core_lightning_pays_lnd_and_lnd_pays_core_lightning_on_one_channel_and_through_a_carol_of_the_other_kind()
    {
        var (lnd, cln, bitcoind) = Requirements.LndImages();
        var (runDir, _) = await RunAsync(
            "mixed",
            [
                "AlicePaysBob",
                "--build",
                $"cln-to-lnd=cln={cln},bob=lnd={lnd}",
                "--build",
                $"lnd-to-cln=lnd={lnd},bob=cln={cln}",
                "--concurrency",
                "1,4",
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
        var rows = CsvReader.Read(Path.Combine(runDir, PaymentCsv.FileName));
        AssertEachInvocationCounted(rows);
        Assert.Equal(
            ["cln-to-lnd", "lnd-to-cln"],
            rows.Select(r => Regex.Match(r["case"], "Build=([^,]+)").Groups[1].Value).Distinct().Order()
        );
        Assert.All(rows, r => Assert.Equal("succeeded", r["outcome"]));
        // Core Lightning's payer still sends its spans, joined to its payments; LND's payer sends none (what joins there is
        // the Core Lightning payee's invoice call).
        Assert.All(
            rows.Where(r =>
                r["case"].Contains("Build=cln-to-lnd", StringComparison.Ordinal) && r["phase"] == "measured"
            ),
            r => Assert.Contains("jsonrpc:injectpaymentonion=", r["span_breakdown_ms"])
        );
        Assert.All(
            rows.Where(r => r["case"].Contains("Build=lnd-to-cln", StringComparison.Ordinal)),
            r => Assert.DoesNotContain("injectpaymentonion", r["span_breakdown_ms"])
        );

        var (viaDir, _) = await RunAsync(
            "via",
            [
                "AlicePaysBobViaCarols",
                "--carols",
                "1",
                "--build",
                $"mixed=cln={cln},carol-1=lnd={lnd}",
                "--concurrency",
                "1",
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
        Assert.All(
            CsvReader.Read(Path.Combine(viaDir, PaymentCsv.FileName)),
            r => Assert.Equal("succeeded", r["outcome"])
        );

        var (alicesDir, _) = await RunAsync(
            "alices",
            [
                "AlicesPayBob",
                "--alices",
                "2",
                "--build",
                $"lnd=lnd={lnd}",
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
        var alices = CsvReader.Read(Path.Combine(alicesDir, PaymentCsv.FileName));
        AssertEachInvocationCounted(alices, payers: 2);
        Assert.Equal(["alice-1", "alice-2"], alices.Select(r => r["payer"]).Distinct().Order());
        Assert.All(alices, r => Assert.Equal("succeeded", r["outcome"]));
    }

    [SkippableFact]
    public async Task A_multi_part_payment_splits_over_both_paths_every_time_on_lnd_and_through_core_lightning_carols()
    {
        var (lnd, cln, bitcoind) = Requirements.LndImages();
        // LND paying LND, and LND paying through two Core Lightning Carols: the payee pays back over each path what it
        // carried, so every payment starts from the same balances and must split again. (Core Lightning paying through
        // LND Carols fails here, as an outcome: xpay sends 975,000 sat of the 1,500,000 over one path, more than an LND
        // Carol that funded its channel to Bob will forward; see docs/lnd.md.)
        var (runDir, _) = await RunAsync(
            "mpp",
            [
                "AlicePaysBobOverTwoPaths",
                "--workload",
                "mpp",
                "--amount-msat",
                "1500000000",
                "--build",
                $"lnd=lnd={lnd}",
                "--build",
                $"lnd-via-cln=lnd={lnd},carol-1=cln={cln},carol-2=cln={cln}",
                "--concurrency",
                "1",
                "--iterations",
                "6",
                "--warmups",
                "1",
                "--topologies",
                "1",
                "--bitcoind-image",
                bitcoind,
            ]
        );
        var rows = CsvReader.Read(Path.Combine(runDir, PaymentCsv.FileName));
        Assert.Equal(2 * 7, rows.Count);
        Assert.All(
            rows,
            r =>
            {
                Assert.Equal("succeeded", r["outcome"]);
                Assert.True(int.Parse(r["parts"]) >= 2, $"{r["case"]} payment {r["payment_id"]}: {r["parts"]} part(s)");
            }
        );
        var table = await File.ReadAllTextAsync(
            Directory.GetFiles(Path.Combine(runDir, "results"), "*-report-github.md").Single()
        );
        Assert.Matches(@"(?m)^\| AddInvoice\+SendPaymentV2 in parts +\|", table);
    }

    /// <summary>Every invocation's operations, each once: as many as its payers × its case's concurrency.</summary>
    private static void AssertEachInvocationCounted(IReadOnlyList<CsvRow> rows, int payers = 1)
    {
        Assert.NotEmpty(rows);
        Assert.Equal(rows.Count, rows.Select(r => r["payment_id"]).Distinct().Count());
        foreach (var invocation in rows.GroupBy(r => (Case: r["case"], Invocation: r["invocation"])))
        {
            Assert.Equal(
                payers * int.Parse(Regex.Match(invocation.Key.Case, "Concurrency=([0-9]+)").Groups[1].Value),
                invocation.Count()
            );
        }
    }

    private static Task<(string RunDir, ProcessResult Run)> RunAsync(string name, IReadOnlyList<string> arguments) =>
        HarnessProcess.RunToResultsAsync($"lnd-{name}", arguments);

    private static async Task AssertNothingLeftAsync(string runDir, string scenario)
    {
        using var engine = new DockerEngine();
        await RunResources.Of(engine, Path.GetFileName(runDir)[..^($"-{scenario}".Length)]).AssertNoneLeftAsync();
    }

    /// <summary>The options that put the build named lnd on the topology's PostgreSQL server.</summary>
    private static string[] Postgres => ["--db", "lnd:postgres", "--postgres-image", Requirements.PostgresImage()];

    /// <summary>
    /// LargeNode on LND's own bbolt files, the current release and the old one beside it when there is one (their
    /// key-value stores are the same), <paramref name="node"/> given a history of 3,000 <paramref name="of"/>. Checks
    /// what both histories must show: in each case's topology (a build's pay and list-…), on each build, the file was
    /// read whole and written afresh while the node was stopped and its own listing found the last copy; every operation
    /// of the node (as <paramref name="role"/>) ended as expected, each page (100 rows after index 1,500, copies all)
    /// whole, since fewer is a failed call; and its restart was timed to a payment. Returns the run's folder and builds.
    /// </summary>
    private static async Task<(string RunDir, int Builds)> LndBboltHistoryRunAsync(
        string label,
        string of,
        string node,
        string role
    )
    {
        var oldBuild = OldBuild();
        var (runDir, run) = await LndHistoryRunAsync(label, of, $"pay,list-{of}", [], oldBuild);

        var builds = 1 + oldBuild.Length / 2;
        var made = Regex.Matches(
            run.StandardOutput,
            $@"{node}: a history of 3,000 {of} \(2,999 written, the rest its own\), restarted"
        );
        Assert.True(made.Count == 2 * builds, run.StandardOutput);
        // LND keeps no snapshots of its histories, and the run says so once, not per topology.
        Assert.Single(
            Regex.Matches(
                run.StandardOutput,
                $"its history of {of} is written afresh in every topology: its kind keeps no snapshots"
            )
        );
        var operations = CsvReader.Read(Path.Combine(runDir, PaymentCsv.FileName));
        Assert.All(operations, p => Assert.Equal((node, "succeeded"), (p[role], p["outcome"])));
        var pages = operations.Count(p => p["case"].Contains($"list-{of}", StringComparison.Ordinal));
        Assert.InRange(pages, 4 * builds, 5 * builds);
        Assert.Equal(pages, operations.Count - pages);
        var comparison = await File.ReadAllTextAsync(Path.Combine(runDir, "comparison.md"));
        Assert.Contains("restart pay", comparison);
        return (runDir, builds);
    }

    /// <summary>The build named old on LNBENCH_E2E_OLD_LND_IMAGE (<c>--build old=lnd=IMAGE</c>), or none when it is not set.</summary>
    private static string[] OldBuild() =>
        Environment.GetEnvironmentVariable("LNBENCH_E2E_OLD_LND_IMAGE") is { Length: > 0 } old
            ? ["--build", $"old=lnd={old}"]
            : [];

    /// <summary>LargeNode on one LND build (on PostgreSQL with <paramref name="database"/> = <see cref="Postgres"/>, else on its own bbolt files) given a history of 3,000 rows of <paramref name="of"/>: 1 topology, a warmup and 3 invocations.</summary>
    private static async Task<(string RunDir, ProcessResult Run)> LndHistoryRunAsync(
        string label,
        string of,
        string workload,
        string[] database,
        params string[] extra
    )
    {
        var (lnd, _, bitcoind) = Requirements.LndImages();
        return await RunAsync(
            label,
            [
                "LargeNode",
                "--history",
                "3000",
                "--history-of",
                of,
                "--workload",
                workload,
                "--build",
                $"lnd=lnd={lnd}",
                .. database,
                "--concurrency",
                "1",
                "--iterations",
                "3",
                "--warmups",
                "1",
                "--topologies",
                "1",
                "--bitcoind-image",
                bitcoind,
                .. extra,
            ]
        );
    }
}
