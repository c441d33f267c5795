using Lightning.Bench.NodeKinds.CoreLightning;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Tests;

[Trait("Category", "Unit")]
public class TopologySpecTests
{
    [Theory]
    [InlineData("Alice", "lowercase")]
    [InlineData("bitcoind", "not be 'bitcoind'")]
    [InlineData("a_b", "lowercase")]
    public void Node_names_are_checked(string name, string expected)
    {
        var error = Assert.Throws<ArgumentException>(() =>
            new TopologySpec("btc", [new NodeSpec(name, "cln")], [], [])
        );
        Assert.Contains(expected, error.Message);
    }

    [Fact]
    public void Channels_and_flows_must_name_nodes_of_the_topology()
    {
        NodeSpec[] nodes = [new("alice", "cln"), new("bob", "cln")];
        Assert.Contains(
            "carol",
            Assert
                .Throws<ArgumentException>(() =>
                    new TopologySpec("btc", nodes, [new ChannelSpec("alice", "carol", 1000)], [])
                )
                .Message
        );
        Assert.Contains(
            "itself",
            Assert
                .Throws<ArgumentException>(() =>
                    new TopologySpec("btc", nodes, [new ChannelSpec("alice", "alice", 1000)], [])
                )
                .Message
        );
        Assert.Contains(
            "dave",
            Assert
                .Throws<ArgumentException>(() => new TopologySpec("btc", nodes, [], [new PaymentFlow("dave", "bob")]))
                .Message
        );
        Assert.Contains(
            "twice",
            Assert
                .Throws<ArgumentException>(() =>
                    new TopologySpec("btc", [new("alice", "cln"), new("alice", "cln")], [], [])
                )
                .Message
        );
    }

    [Fact]
    public void A_chain_of_any_length_is_a_valid_topology()
    {
        var names = new[] { "alice" }.Concat(Enumerable.Range(1, 6).Select(i => $"carol-{i}")).Append("bob").ToList();
        var topology = new TopologySpec(
            "btc",
            names.Select(n => new NodeSpec(n, "cln")).ToList(),
            names.Zip(names.Skip(1), (a, b) => new ChannelSpec(a, b, 1_000_000)).ToList(),
            [new PaymentFlow("alice", "bob")]
        );
        Assert.Equal(7, topology.Funders.Count);
    }

    [Fact]
    public void A_hub_has_one_channel_per_peer_and_each_alice_pays_her_own_bob_through_it()
    {
        var topology = Scenarios.HubRoutes.TopologyFor(
            BuildSpec.FromImage("elementsproject/lightningd:v26.06.6"),
            "btc",
            6
        );

        Assert.Equal(
            ["alice-1", "alice-2", "alice-3", "bob-1", "bob-2", "bob-3", "hub"],
            topology.Nodes.Select(n => n.Name).Order()
        );
        // Every channel has the hub at one end: the Alices fund theirs, the hub funds the Bobs'.
        Assert.Equal(6, topology.Channels.Count);
        Assert.All(topology.Channels, c => Assert.True(c.From == "hub" ^ c.To == "hub", $"{c.From}->{c.To}"));
        Assert.Equal(["alice-1", "alice-2", "alice-3", "hub"], topology.Funders.Order());
        Assert.Equal(
            [("alice-1", "bob-1"), ("alice-2", "bob-2"), ("alice-3", "bob-3")],
            topology.Flows.Select(f => (f.Payer, f.Payee))
        );
    }

    [Fact]
    public void A_hub_with_several_channels_per_peer_opens_them_in_rounds_each_pairs_kth_channel_in_round_k()
    {
        var topology = Scenarios.HubRoutes.TopologyFor(
            BuildSpec.FromImage("elementsproject/lightningd:v26.06.6"),
            "btc",
            4,
            channelsPerPeer: 3
        );

        Assert.Equal(12, topology.Channels.Count);
        Assert.Equal(2, topology.PeersOf("alice-1").Count + topology.PeersOf("bob-1").Count);
        var rounds = Setup.ChannelOpener.Rounds(topology.Channels);
        // Three rounds of four: every round one channel of each of the four pairs, so no node opens two to one peer at once.
        Assert.Equal([4, 4, 4], rounds.Select(r => r.Count));
        Assert.All(rounds, r => Assert.Equal(4, r.Select(c => (c.From, c.To)).Distinct().Count()));
        // Every channel once (equal channels are still two): the rounds hold the topology's channels, no more, no fewer.
        static string Key(ChannelSpec c) => $"{c.From}->{c.To}";
        Assert.Equal(topology.Channels.Select(Key).Order(), rounds.SelectMany(r => r).Select(Key).Order());
        // One channel per pair (the default) is one round: nothing changes for the other scenarios.
        Assert.Single(
            Setup.ChannelOpener.Rounds(
                Scenarios
                    .HubRoutes.TopologyFor(BuildSpec.FromImage("elementsproject/lightningd:v26.06.6"), "btc", 6)
                    .Channels
            )
        );
        // A pair counts once whichever end funds: a->b then b->a is two rounds.
        Assert.Equal(2, Setup.ChannelOpener.Rounds([new ChannelSpec("a", "b", 1), new ChannelSpec("b", "a", 1)]).Count);
    }

    [Fact]
    public void A_run_folder_too_deep_for_unix_sockets_is_refused_with_the_fix()
    {
        var deep = "/tmp/" + new string('x', 80);
        var error = Assert.Throws<ArgumentException>(() => new RunLayout(deep));
        Assert.Contains("107-byte", error.Message);
        Assert.Contains("--work-dir", error.Message);
        Assert.True(
            Path.Combine(
                new RunLayout("/tmp/lnb/lnbench-20261121-101010-abcd-1").NodeDirectory("alice"),
                CoreLightningKind.RpcSocketPath
            ).Length < RunLayout.MaxUnixSocketPath
        );
    }
}
