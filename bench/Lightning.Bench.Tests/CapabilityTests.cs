using Lightning.Bench.NodeKinds;
using Lightning.Bench.NodeKinds.Capabilities;
using Lightning.Bench.NodeKinds.CoreLightning;
using Lightning.Bench.NodeKinds.Lnd;
using Lightning.Bench.Options;
using Lightning.Bench.Run;
using Lightning.Bench.Tests.Support.StandIn;
using Lightning.Bench.Workloads;

namespace Lightning.Bench.Tests;

/// <summary>
/// A workload and an option meet a node kind through capabilities: what a kind offers is read from the interfaces its
/// node implements and what it says it can be given or run on; one check refuses a need a build's kind does not offer,
/// naming the need, the capability and the kind.
/// </summary>
[Trait("Category", "Unit")]
public class CapabilityTests
{
    private static readonly NodeKindCatalog Kinds = NodeKindCatalog.Default.With(new StandInKind());

    [Fact]
    public void A_kinds_node_calls_are_the_interfaces_its_node_implements()
    {
        Assert.Equal(
            KnownCapabilities.NodeCalls.ToHashSet(),
            KnownCapabilities.OfNode(typeof(CoreLightningNode)).ToHashSet()
        );
        Assert.Equal(
            new HashSet<Capability>
            {
                KnownCapabilities.Keysend,
                KnownCapabilities.ChannelBalances,
                KnownCapabilities.PathChoice,
                KnownCapabilities.ChannelListing,
                KnownCapabilities.HistoryPages,
                KnownCapabilities.HistoryListing,
            },
            KnownCapabilities.OfNode(typeof(LndNode)).ToHashSet()
        );
        Assert.All(
            KnownCapabilities.NodeCalls,
            c => Assert.True(c.Interface!.IsInterface && typeof(INodeFeature).IsAssignableFrom(c.Interface))
        );
    }

    [Fact]
    public void What_a_kind_offers_matches_what_it_can_do()
    {
        foreach (var kind in NodeKindCatalog.Default.All)
        {
            Assert.Equal(kind.Instructions is not null, kind.Offers.Contains(KnownCapabilities.Instructions));
            Assert.Equal(kind.Graph is not null, kind.Offers.Contains(KnownCapabilities.Graph));
            foreach (var history in HistoryKinds.All)
            {
                // A history is written into the node's own files or into its database on PostgreSQL (LND's SQL store).
                Assert.Equal(
                    kind.HistoryOf(history) is not null,
                    kind.Offers.Contains(KnownCapabilities.HistoryOf(history))
                        || kind.Offers.Contains(KnownCapabilities.HistoryOnPostgres(history))
                );
            }
            // Every node call a kind offers is one its node implements (the kind reads them from its node type).
            Assert.Subset(
                KnownCapabilities.NodeCalls.ToHashSet(),
                kind.Offers.Where(c => c.Interface is not null).ToHashSet()
            );
        }
    }

    [Fact]
    public void A_need_a_builds_kind_does_not_offer_is_refused_in_one_line_naming_the_need_the_capability_and_the_kind()
    {
        var options = OptionParser.Parse([
            "AlicePaysBob",
            "--workload",
            "pay,list-channels",
            "--build",
            "a=standin=lnbench-test/standin:1",
        ]);
        var needs = CapabilityCheck.Of(options, options.Workloads);
        Assert.Equal([KnownCapabilities.ChannelListing], needs.Select(n => n.Capability));
        Assert.Equal(
            "--workload list-channels needs listing its channels with their peers (channel listing): build a (lnbench-test/standin:1) is standin, "
                + "whose nodes do not offer it; drop --workload list-channels or the build",
            CapabilityCheck.Refusal(options, Kinds, needs)
        );

        // Keysend the stand-in node implements: nothing refused.
        var keysend = OptionParser.Parse([
            "AlicePaysBob",
            "--workload",
            "keysend",
            "--build",
            "a=standin=lnbench-test/standin:1",
        ]);
        Assert.Null(CapabilityCheck.Refusal(keysend, Kinds, CapabilityCheck.Of(keysend, keysend.Workloads)));
    }

    [Theory]
    [InlineData("invoices", "lnd", true, null)]
    [InlineData("invoices", "lnd", false, null)]
    [InlineData("payments", "lnd", true, null)]
    [InlineData("payments", "lnd", false, null)]
    [InlineData("forwards", "lnd", false, null)]
    [InlineData(
        "forwards",
        "lnd",
        true,
        "--history with --db x:postgres needs a history of forwards written into its database on PostgreSQL (history of forwards on postgres): build x (img:1) is lnd"
    )]
    [InlineData(
        "moves",
        "cln",
        true,
        "--history with --db x:postgres needs a history of moves written into its database on PostgreSQL (history of moves on postgres): build x (img:1) is cln"
    )]
    [InlineData("invoices", "cln", false, null)]
    public void A_history_is_written_where_a_builds_kind_can_write_it_its_own_files_or_its_database_on_postgres(
        string historyOf,
        string kind,
        bool postgres,
        string? refused
    )
    {
        string[] db = postgres ? ["--db", "x:postgres"] : [];
        var options = OptionParser.Parse([
            "LargeNode",
            "--history",
            "1000",
            "--history-of",
            historyOf,
            "--build",
            $"x={kind}=img:1",
            .. db,
        ]);
        var refusal = CapabilityCheck.Refusal(options, Kinds, CapabilityCheck.Of(options, options.Workloads));
        if (refused is null)
        {
            Assert.Null(refusal);
        }
        else
        {
            Assert.StartsWith(refused, refusal);
        }
    }

    [Fact]
    public void Options_need_capabilities_too_and_a_database_need_holds_for_its_build_only()
    {
        var options = OptionParser.Parse([
            "AlicePaysBob",
            "--build",
            "lite=lnbench-test/a:1",
            "--build",
            "pg=standin=lnbench-test/standin:1",
            "--db",
            "pg:postgres",
        ]);
        var needs = CapabilityCheck.Of(options, ["pay"]);
        Assert.Equal([new CapabilityCheck.Need(KnownCapabilities.Postgres, "--db pg:postgres", "pg")], needs);
        Assert.Equal(
            "--db pg:postgres needs a database on PostgreSQL (postgres): build pg (lnbench-test/standin:1) is standin, whose nodes do not offer it; "
                + "drop --db pg:postgres or the build",
            CapabilityCheck.Refusal(options, Kinds, needs)
        );
    }

    [Fact]
    public void A_release_that_lacks_what_its_kind_offers_is_refused_from_its_versions()
    {
        var options = OptionParser.Parse([
            "MainnetGraph",
            "--graph",
            "g",
            "--workload",
            "routes",
            "--build",
            "old=lnbench-test/cln:1",
        ]);
        var needs = CapabilityCheck.Of(options, options.Workloads);
        var build = options.Builds.Single();
        var cln = Kinds.Get("cln");
        Assert.Equal(
            "--workload routes: build old (lnbench-test/cln:1): its Core Lightning (v24.08.2) has no getroutes (it came in v24.11): use v24.11 or later",
            CapabilityCheck.RefuseRelease(
                build,
                "lnbench-test/cln:1",
                cln,
                new Dictionary<string, string> { ["lightningd"] = "v24.08.2" },
                needs
            )
        );
        Assert.Null(
            CapabilityCheck.RefuseRelease(
                build,
                "lnbench-test/cln:1",
                cln,
                new Dictionary<string, string> { ["lightningd"] = "v26.06.6" },
                needs
            )
        );
        Assert.Contains(WorkloadCatalog.Get("routes").Needs, c => c == KnownCapabilities.RouteQueries);
    }
}
