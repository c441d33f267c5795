using Lightning.Bench.NodeKinds;
using Lightning.Bench.NodeKinds.Capabilities;
using Lightning.Bench.NodeKinds.Lnd;
using Lightning.Bench.Options;
using Lightning.Bench.Run;

namespace Lightning.Bench.Tests;

/// <summary>
/// LND's history of payments is written into its native SQL store on PostgreSQL, which keeps payments in SQL tables from
/// v0.21 only: a release before it on PostgreSQL is refused in one line before anything starts, build by build; a build
/// on its own bbolt files is given it in its key-value store (LndKvPaymentsTests; the copies themselves, on a real node:
/// LndEndToEndTests).
/// </summary>
[Trait("Category", "Unit")]
public class LndPaymentsHistoryTests
{
    private static readonly INodeKind Lnd = NodeKindCatalog.Default.Get(LndKind.KindName);

    [Theory]
    [InlineData("lnd version 0.18.5-beta commit=v0.18.5-beta", "v0.18.5")]
    [InlineData("lnd version 0.20.3-beta commit=v0.20.3-beta", "v0.20.3")]
    [InlineData("lnd version 0.21.0-beta commit=v0.21.0-beta", null)]
    [InlineData("lnd version 0.21.1-beta commit=v0.21.1-beta", null)]
    // A version it cannot read is the image check's to refuse.
    [InlineData("lnd version unknown", null)]
    public void A_release_before_v0_21_keeps_its_payments_in_a_key_value_store_and_is_refused_a_history_of_them(
        string version,
        string? release
    )
    {
        var refusal = Lnd.HistoryOf(HistoryKinds.Payments)!
            .Refusal(new Dictionary<string, string> { ["lnd"] = version });
        if (release is null)
        {
            Assert.Null(refusal);
            return;
        }
        Assert.Equal(
            $"its LND ({release}) keeps payments in a key-value store inside its database, not in SQL tables (native SQL payments came in v0.21): give a history of payments to v0.21 or later",
            refusal
        );
        // Invoices are SQL tables from v0.18: the same release is given a history of invoices.
        Assert.Null(
            Lnd.HistoryOf(HistoryKinds.Invoices)!.Refusal(new Dictionary<string, string> { ["lnd"] = version })
        );
    }

    [Fact]
    public void A_build_of_lnd_before_v0_21_on_postgres_is_refused_from_its_versions_and_one_of_v0_21_is_not()
    {
        var options = Parse("payments", "--build", "old=lnd=img:old", "--build", "new=lnd=img:new", "--db", "postgres");
        var needs = CapabilityCheck.Of(options, options.Workloads);
        Assert.Null(CapabilityCheck.Refusal(options, NodeKindCatalog.Default, needs));
        Assert.Equal(
            "--history with --db old:postgres: build old (img:old): its LND (v0.20.3) keeps payments in a key-value store inside its database, not in SQL tables (native SQL payments came in v0.21): give a history of payments to v0.21 or later",
            RefuseRelease(options, "old", "0.20.3")
        );
        // A need holds for its own build: the v0.21 build's is not the other's.
        Assert.Null(RefuseRelease(options, "new", "0.21.1"));
        Assert.Null(
            RefuseRelease(Parse("invoices", "--build", "old=lnd=img:old", "--db", "postgres"), "old", "0.20.3")
        );
    }

    [Fact]
    public void A_build_of_lnd_on_its_own_bbolt_files_is_given_a_history_of_payments_beside_one_on_postgres()
    {
        var options = Parse("payments", "--build", "pg=lnd=img:1", "--build", "bolt=lnd=img:1", "--db", "pg:postgres");
        var needs = CapabilityCheck.Of(options, options.Workloads);
        Assert.Contains(
            needs,
            n => n.Build == "pg" && n.Capability == KnownCapabilities.HistoryOnPostgres(HistoryKinds.Payments)
        );
        Assert.Contains(
            needs,
            n => n.Build == "bolt" && n.Capability == KnownCapabilities.HistoryOf(HistoryKinds.Payments)
        );
        Assert.Null(CapabilityCheck.Refusal(options, NodeKindCatalog.Default, needs));
        // On bbolt every release the harness runs is given it, v0.20 too; on PostgreSQL v0.20 is refused.
        Assert.Null(RefuseRelease(options, "bolt", "0.20.3"));
        Assert.StartsWith(
            "--history with --db pg:postgres: build pg (img:1): its LND (v0.20.3)",
            RefuseRelease(options, "pg", "0.20.3")
        );
        // Forwards LND has no history of, wherever it keeps its database.
        var forwards = Parse("forwards", "--build", "pg=lnd=img:1", "--db", "pg:postgres");
        Assert.StartsWith(
            "--history with --db pg:postgres needs a history of forwards written into its database on PostgreSQL",
            CapabilityCheck.Refusal(forwards, NodeKindCatalog.Default, CapabilityCheck.Of(forwards, forwards.Workloads))
        );
    }

    [Fact]
    public async Task A_node_on_bbolt_with_no_channel_db_stops_the_run_in_one_line()
    {
        var history = Lnd.HistoryOf(HistoryKinds.Payments)!;
        var empty = Directory.CreateTempSubdirectory("lnbench-nochanneldb-").FullName;
        try
        {
            var refused = await Assert.ThrowsAsync<InvalidOperationException>(() =>
                history.WriteAsync(new HistoryStore(empty), 100)
            );
            Assert.EndsWith("does not exist: the node keeps no bbolt channel.db there", refused.Message);
            Assert.DoesNotContain('\n', refused.Message);
        }
        finally
        {
            Directory.Delete(empty, recursive: true);
        }
        Assert.Equal(HistorySeed.Pay, history.Seed);
        Assert.Equal(new HistoryCheck("ListPayments", "payments", 7), history.Listing(7));
    }

    private static HarnessOptions Parse(string historyOf, params string[] builds) =>
        OptionParser.Parse(["LargeNode", "--history", "1000", "--history-of", historyOf, .. builds]);

    private static string? RefuseRelease(HarnessOptions options, string name, string version)
    {
        var build = options.Builds.Single(b => b.Name == name);
        return CapabilityCheck.RefuseRelease(
            build,
            build.Image,
            Lnd,
            new Dictionary<string, string> { ["lnd"] = $"lnd version {version}-beta commit=v{version}-beta" },
            CapabilityCheck.Of(options, options.Workloads)
        );
    }
}
