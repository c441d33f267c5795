using System.Net.Sockets;
using System.Text.Json.Nodes;
using Lightning.Bench.Rpc;
using Lightning.Bench.Swarm.Relay;

namespace Lightning.Bench.Tests.Relay;

/// <summary>RPC to a node on another host through its agent: real TCP on loopback to a real Unix stream socket.</summary>
[Trait("Category", "Unit")]
public sealed class RelayRpcTests : IDisposable
{
    private readonly RelayHarness harness = new();

    public void Dispose() => harness.Dispose();

    private string NodeFolder(string topology, string node) => Path.Combine(harness.Work, topology, node);

    [Fact]
    public async Task Json_rpc_through_the_agent_reaches_the_node_with_the_harness_ids_unchanged_beside_the_span_connection()
    {
        await using var node = new FakeRpcNode(NodeFolder("topo-1", "alice"));
        await using var agent = harness.StartAgent();
        await using var spans = RelayClient.Start(agent.Endpoint, RelayHarness.Token);
        await using var recorder = await spans.BindAsync(
            "topo-1",
            ["alice"],
            harness.SpansFile("topo-1"),
            RelayHarness.Patience
        );

        await using (
            var rpc = await Support.RelayClnRpc.ConnectAsync(
                agent.Endpoint,
                RelayHarness.Token,
                "topo-1",
                "alice",
                "regtest",
                RelayHarness.Patience
            )
        )
        {
            // Many calls in flight on the one pipe, one answer far larger than any buffer on the way, spans flowing beside them.
            var calls = Enumerable
                .Range(0, 40)
                .Select(i =>
                    rpc.CallAsync(
                        i == 7 ? "listpays" : "xpay",
                        new JsonObject { ["pad"] = i == 7 ? 3 * 1024 * 1024 : 10 },
                        $"lnbench:xpay#{i}"
                    )
                )
                .ToList();
            Assert.Equal(200, harness.Send("topo-1", "alice", 0, 200));
            var answers = await Task.WhenAll(calls).WaitAsync(RelayHarness.Patience);

            Assert.Equal(
                Enumerable.Range(0, 40).Select(i => $"lnbench:xpay#{i}"),
                answers.Select(a => a.GetProperty("id").GetString())
            );
            Assert.Equal(3 * 1024 * 1024, answers[7].GetProperty("pad").GetString()!.Length);
            Assert.Equal("listpays", answers[7].GetProperty("method").GetString());
            Assert.Equal(Enumerable.Range(0, 40).Select(i => $"lnbench:xpay#{i}").Order(), node.IdsSeen.Order());
        }

        await RelayHarness.Until(
            "the node sees the pipe end when the harness closes it",
            () => node.Ended == 1,
            () => $"{node.Ended} ended"
        );
        await RelayHarness.Until(
            "200 spans beside the RPC",
            () => recorder.Arrived == 200,
            () => $"{recorder.Arrived} arrived"
        );
        // The pipe neither replaced nor disturbed the span connection.
        Assert.Equal((1L, 1L), (spans.Stats.Connections, spans.Stats.Sessions));
        Assert.Equal((2L, 1L, 1), (agent.Stats.Accepted, agent.Stats.RpcPipes, node.Connections));
        Assert.Empty(agent.Stats.BadFrames);
    }

    [Fact]
    public async Task A_wrong_token_is_refused_a_missing_node_or_a_bad_name_says_why_and_the_agent_serves_on()
    {
        await using var node = new FakeRpcNode(NodeFolder("topo-2", "bob"));
        await using var agent = harness.StartAgent();

        var refused = await Assert.ThrowsAsync<RelayRefusedException>(() =>
            RelayRpc.OpenAsync(
                agent.Endpoint,
                "not-the-token"u8.ToArray(),
                "topo-2",
                "bob",
                "regtest",
                RelayHarness.Patience
            )
        );
        Assert.Equal("wrong token", refused.Reason);

        var missing = await Assert.ThrowsAsync<RpcConnectionException>(() =>
            RelayRpc.OpenAsync(agent.Endpoint, RelayHarness.Token, "topo-2", "carol", "regtest", RelayHarness.Patience)
        );
        Assert.Contains("topo-2/carol: cannot connect to", missing.Message);
        Assert.Contains("is the node running?", missing.Message);

        var climbing = await Assert.ThrowsAsync<RpcConnectionException>(() =>
            RelayRpc.OpenAsync(agent.Endpoint, RelayHarness.Token, "..", "bob", "regtest", RelayHarness.Patience)
        );
        Assert.Contains("is not a topology, node and network name", climbing.Message);
        var network = await Assert.ThrowsAsync<RpcConnectionException>(() =>
            RelayRpc.OpenAsync(agent.Endpoint, RelayHarness.Token, "topo-2", "bob", "../../etc", RelayHarness.Patience)
        );
        Assert.Contains("is not a topology, node and network name", network.Message);
        Assert.Equal(0, node.Connections);

        // An RpcOpen cut short is bad input, counted; the agent serves the next pipe.
        var open = new RpcOpenMessage(
            HelloMessage.CurrentVersion,
            RelayHarness.Token,
            "topo-2",
            "bob",
            "regtest"
        ).Encode();
        using (var raw = new TcpClient())
        {
            await raw.ConnectAsync(agent.Endpoint);
            open[3] -= 4;
            await raw.GetStream().WriteAsync(open.AsMemory(0, open.Length - 4));
            raw.Client.Shutdown(SocketShutdown.Send);
            await RelayHarness.Until(
                "the malformed RpcOpen counted",
                () => agent.Stats.BadFrames.Values.Sum() == 1,
                () => string.Join(", ", agent.Stats.BadFrames)
            );
        }
        Assert.Equal(RelayProblem.Malformed, Assert.Single(agent.Stats.BadFrames).Key);

        await using var rpc = await Support.RelayClnRpc.ConnectAsync(
            agent.Endpoint,
            RelayHarness.Token,
            "topo-2",
            "bob",
            "regtest",
            RelayHarness.Patience
        );
        var answer = await rpc.CallAsync("getinfo", null, "lnbench:getinfo#1").WaitAsync(RelayHarness.Patience);
        Assert.Equal("getinfo", answer.GetProperty("method").GetString());
        Assert.Equal((1L, 1L), (agent.Stats.Refused, agent.Stats.RpcPipes));
    }

    [Fact]
    public async Task A_node_that_closes_its_socket_closes_the_pipe_and_the_next_call_fails_with_the_reason()
    {
        await using var node = new FakeRpcNode(NodeFolder("topo-3", "alice"), closeAfter: 1);
        await using var agent = harness.StartAgent();
        await using var rpc = await Support.RelayClnRpc.ConnectAsync(
            agent.Endpoint,
            RelayHarness.Token,
            "topo-3",
            "alice",
            "regtest",
            RelayHarness.Patience
        );

        await rpc.CallAsync("getinfo", null, "lnbench:getinfo#1").WaitAsync(RelayHarness.Patience);
        var failed = await Assert.ThrowsAsync<RpcConnectionException>(async () =>
        {
            // The close travels node → agent → harness; until it arrives a call may still be sent.
            for (var i = 2; ; i++)
            {
                await rpc.CallAsync("getinfo", null, $"lnbench:getinfo#{i}").WaitAsync(RelayHarness.Patience);
                await Task.Delay(20);
            }
        });
        Assert.Contains("alice", failed.Message);
    }

    /// <summary>The Core Lightning kind's connect on a swarm: through the node's host's agent, "not yet" until the node has made its socket.</summary>
    [Fact]
    public async Task The_core_lightning_kind_connects_through_the_agent_once_the_node_has_made_its_socket()
    {
        await using var agent = harness.StartAgent();
        var kind = new NodeKinds.CoreLightning.CoreLightningKind();
        var container = new NodeKinds.NodeContainer(
            "alice",
            "task-1",
            "/not/on/this/host",
            new Dictionary<string, int>(),
            new NodeKinds.PeerAddress("topo-5-alice", 9735)
        )
        {
            Relay = new NodeRelay(agent.Endpoint, RelayHarness.Token, "topo-5"),
        };

        var (none, observed) = await kind.TryConnectAsync(container);
        Assert.Null(none);
        Assert.Contains("alice: the agent at", observed);
        Assert.Contains("is the node running?", observed);

        await using var node = new FakeRpcNode(NodeFolder("topo-5", "alice"));
        var (connected, said) = await kind.TryConnectAsync(container);
        Assert.NotNull(connected);
        await using (connected)
        {
            Assert.Equal("answered", said);
            // The fake node answers getinfo with the id it was sent: the kind's own, joined as every call is.
            Assert.Equal("lnbench:getinfo#setup-alice", connected.NodeId);
        }

        var wrong = container with { Relay = new NodeRelay(agent.Endpoint, "not-the-token"u8.ToArray(), "topo-5") };
        var refused = await Assert.ThrowsAsync<NodeKinds.NodeCallException>(() => kind.TryConnectAsync(wrong));
        Assert.Contains("wrong token", refused.Message);
    }

    [Fact]
    public async Task A_probe_is_told_the_agents_host_without_taking_the_place_of_the_span_connection()
    {
        await using var agent = harness.StartAgent();
        await using var spans = RelayClient.Start(agent.Endpoint, RelayHarness.Token);
        await using var recorder = await spans.BindAsync(
            "topo-6",
            ["alice"],
            harness.SpansFile("topo-6"),
            RelayHarness.Patience
        );

        var welcome = await AgentDirectory.ProbeAsync(agent.Endpoint, RelayHarness.Token, RelayHarness.Patience);
        Assert.Equal(("host-1", agent.Session), (welcome.Host, welcome.Session));
        var refused = await Assert.ThrowsAsync<RelayRefusedException>(() =>
            AgentDirectory.ProbeAsync(agent.Endpoint, "not-the-token"u8.ToArray(), RelayHarness.Patience)
        );
        Assert.Equal("wrong token", refused.Reason);

        harness.Send("topo-6", "alice", 0, 50);
        await RelayHarness.Until(
            "50 spans after the probes",
            () => recorder.Arrived == 50,
            () => $"{recorder.Arrived}"
        );
        Assert.Equal(1L, spans.Stats.Connections);
    }

    [Fact]
    public async Task Agents_that_cannot_be_found_are_named_with_what_was_found_and_where_to_look()
    {
        var missing = await Assert.ThrowsAsync<TimeoutException>(() =>
            AgentDirectory.DiscoverAsync(
                "lnbench-nothing-agents_agent.invalid",
                9736,
                RelayHarness.Token,
                2,
                TimeSpan.FromSeconds(1)
            )
        );
        Assert.StartsWith(
            "0 of 2 agents of lnbench-nothing-agents_agent.invalid answered within 1 s (found: none); tasks.lnbench-nothing-agents_agent.invalid does not resolve",
            missing.Message
        );
        Assert.EndsWith(
            "see `docker service ps lnbench-nothing-agents_agent.invalid` for the hosts without one",
            missing.Message
        );
    }
}
