using System.Text;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.NodeKinds.CoreLightning;
using Lightning.Bench.Topology;
using Lightning.Bench.Tracing;

namespace Lightning.Bench.Tests;

/// <summary>A topology of nodes of different kinds: each node's spans are read and joined by its own kind's trace source.</summary>
[Trait("Category", "Unit")]
public class MixedTopologyTraceTests
{
    private static readonly NodeKindCatalog Kinds = NodeKindCatalog.Default.With(new TaggedSpansKind());

    [Fact]
    public void Each_nodes_spans_join_payments_by_its_own_kinds_join_whichever_kind_comes_first()
    {
        // bob (tagged) comes first, so a join taken from the first traced kind would read alice's spans the tagged way.
        var topology = new TopologySpec(
            "bitcoind:test",
            [
                new NodeSpec("bob", "tagged:1", TaggedSpansKind.KindName),
                new NodeSpec("alice", "cln:1", CoreLightningKind.KindName),
            ],
            [new ChannelSpec("alice", "bob", 1_000_000)],
            [new PaymentFlow("alice", "bob")]
        );
        var join = TopologyTraceJoin.Of(topology, Kinds)!;
        var alicePays = Parse(
            "alice",
            SpanPayloads.Valid("jsonrpc", 1_000, 4_000, tags: ("id", "lnbench:xpay#7/cln:xpay#2/cln-xpay:getroutes#3"))
        );
        var bobInvoices = Parse("bob", SpanPayloads.Valid("pay", 500, 2_000, tags: ("payment", "7")));
        var bobWithAnIdChain = Parse(
            "bob",
            SpanPayloads.Valid("jsonrpc", 600, 100, tags: ("id", "lnbench:xpay#8/cln:xpay#2/cln-xpay:getroutes#3"))
        );

        Assert.Equal(7, join.PaymentOf(alicePays, new Dictionary<string, long>()));
        Assert.Equal(7, join.PaymentOf(bobInvoices, new Dictionary<string, long>()));
        Assert.Null(join.PaymentOf(bobWithAnIdChain, new Dictionary<string, long>())); // an id chain means nothing to the tagged kind
        Assert.Equal("jsonrpc:getroutes", join.OperationOf(alicePays));
        Assert.Equal("tagged:pay", join.OperationOf(bobInvoices));
        Assert.IsType<CoreLightningTraceSource>(join.SourceOf("alice"));

        var steps = new PaymentSteps(join, new Dictionary<string, long>());
        foreach (var span in new[] { alicePays, bobInvoices, bobWithAnIdChain })
        {
            steps.Add(span);
        }
        Assert.Equal(2, steps.SpanCount(7));
        Assert.Equal([("jsonrpc:getroutes", 1, 4.0)], steps.Breakdown(7, "alice"));
        Assert.Equal([("tagged:pay", 1, 2.0)], steps.Breakdown(7, "bob"));
    }

    [Fact]
    public void A_topology_whose_kinds_send_no_spans_has_no_join()
    {
        var kinds = NodeKindCatalog.Default.With(new Support.StandIn.StandInKind());
        var topology = new TopologySpec(
            "bitcoind:test",
            [
                new NodeSpec("alice", "s:1", Support.StandIn.StandInKind.KindName),
                new NodeSpec("bob", "s:1", Support.StandIn.StandInKind.KindName),
            ],
            [new ChannelSpec("alice", "bob", 1_000_000)],
            [new PaymentFlow("alice", "bob")]
        );

        Assert.Null(TopologyTraceJoin.Of(topology, kinds));
    }

    private static Span Parse(string node, string payload) =>
        SpanParser.Parse(node, Encoding.UTF8.GetBytes(payload), out var problem)
        ?? throw new InvalidOperationException(problem);
}
