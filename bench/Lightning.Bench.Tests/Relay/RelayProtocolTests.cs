using System.Net;
using System.Net.Sockets;
using Lightning.Bench.Processes;
using Lightning.Bench.Swarm.Relay;

namespace Lightning.Bench.Tests.Relay;

/// <summary>The agent and the harness's client over real sockets: Unix datagram sockets in a temp folder, TCP on loopback port 0.</summary>
[Trait("Category", "Unit")]
public sealed class RelayProtocolTests : IDisposable
{
    private readonly RelayHarness harness = new();

    public void Dispose() => harness.Dispose();

    [Fact]
    public async Task A_nodes_datagrams_arrive_through_the_agent_with_the_counts_matching()
    {
        await using var agent = harness.StartAgent();
        await using var client = RelayClient.Start(agent.Endpoint, RelayHarness.Token);
        var welcome = await client.ConnectedAsync(RelayHarness.Patience);
        Assert.Equal(("host-1", agent.Session), (welcome.Host, welcome.Session));

        await using var recorder = await client.BindAsync(
            "topo-1",
            ["alice", "bob"],
            harness.SpansFile("topo-1"),
            RelayHarness.Patience
        );
        Assert.All(recorder.Bound!.Sockets, s => Assert.Equal("", s.Problem));
        Assert.Equal(500, harness.Send("topo-1", "alice", 0, 500));
        Assert.Equal(300, harness.Send("topo-1", "bob", 0, 300));
        await RelayHarness.Until(
            "800 spans through the agent",
            () => recorder.Arrived == 800,
            () => $"{recorder.Arrived} arrived"
        );

        var stats = await recorder.StopAsync(RelayHarness.Patience);

        Assert.Equal(
            [("alice", 500L, 0L), ("bob", 300L, 0L)],
            stats.Select(s => (s.Node, s.Received, s.DroppedByHarness))
        );
        Assert.All(
            recorder.Relay,
            r =>
                Assert.True(
                    r.Exact && r.LostInRelay == 0 && r.Duplicates == 0 && r.Relayed == r.Arrived && r.Sessions == 1
                )
        );
        Assert.Equal(
            new Dictionary<string, int> { ["alice"] = 500, ["bob"] = 300 },
            RelayHarness.LinesPerNode(recorder.SpansFile)
        );
        // The payload is kept byte for byte, in the same spans.jsonl the local collector writes.
        var first = System
            .Text.Json.JsonDocument.Parse(File.ReadLines(recorder.SpansFile).First(l => l.Contains("\"bob\"")))
            .RootElement;
        Assert.Equal(RelayHarness.Payload("bob", 0), first.GetProperty("payload").GetString());
        Assert.Empty(client.Stats.BadFrames);
        Assert.False(File.Exists(Path.Combine(harness.Work, "topo-1", "alice", "trace.sock")));
    }

    [Fact]
    public async Task A_connection_cut_mid_frame_is_made_again_and_what_it_lost_is_counted_not_guessed()
    {
        await using var agent = harness.StartAgent();
        var nodes = new[] { "alice" };
        // Cut 7 bytes into the first span frame, after the welcome and the bound answer.
        var cut =
            new WelcomeMessage(HelloMessage.CurrentVersion, agent.Host, agent.Session).Encode().Length
            + new BoundMessage("topo-2", [new BoundSocket("alice", "", 0)]).Encode().Length
            + 7;
        await using var proxy = new CuttingProxy(agent.Endpoint, cut);
        await using var client = RelayClient.Start(proxy.Endpoint, RelayHarness.Token);
        await client.ConnectedAsync(RelayHarness.Patience);
        await using var recorder = await client.BindAsync(
            "topo-2",
            nodes,
            harness.SpansFile("topo-2"),
            RelayHarness.Patience
        );

        Assert.Equal(200, harness.Send("topo-2", "alice", 0, 200));
        await RelayHarness.Until(
            "a second connection and every datagram relayed",
            () => client.Stats.Connections >= 2 && agent.Streams.Single().Relayed == 200,
            () => $"{client.Stats}, {agent.Streams.Single()}"
        );
        Assert.Equal(100, harness.Send("topo-2", "alice", 200, 100));
        await RelayHarness.Until(
            "all 300 relayed",
            () => agent.Streams.Single().Relayed == 300,
            () => $"{agent.Streams.Single()}"
        );

        var stats = (await recorder.StopAsync(RelayHarness.Patience)).Single();
        var relay = recorder.Relay.Single();

        Assert.Equal(1, proxy.Cuts);
        Assert.Equal(1, client.Stats.BadFrames[RelayProblem.Truncated]);
        Assert.True(relay.Exact, $"{relay}");
        Assert.Equal((300L, 0L, 300L), (relay.AgentReceived, relay.AgentDropped, relay.Relayed));
        Assert.True(relay.LostInRelay >= 1, $"the frame cut in two was written whole by the agent, and lost: {relay}");
        Assert.Equal(300, relay.Arrived + relay.LostInRelay);
        // As on one host: received − dropped is what spans.jsonl holds.
        Assert.Equal(stats.Received - stats.DroppedByHarness, RelayHarness.LinesPerNode(recorder.SpansFile)["alice"]);
    }

    [Fact]
    public async Task An_agent_killed_and_started_again_mid_stream_is_reconnected_rebound_and_its_new_session_counted_exactly()
    {
        var first = harness.StartAgent();
        await using var proxy = new CuttingProxy(first.Endpoint);
        await using var client = RelayClient.Start(proxy.Endpoint, RelayHarness.Token);
        await client.ConnectedAsync(RelayHarness.Patience);
        await using var recorder = await client.BindAsync(
            "topo-3",
            ["alice"],
            harness.SpansFile("topo-3"),
            RelayHarness.Patience
        );
        harness.Send("topo-3", "alice", 0, 100);
        await RelayHarness.Until("the first 100", () => recorder.Arrived == 100, () => $"{recorder.Arrived} arrived");
        var inFlight = harness.Send("topo-3", "alice", 100, 50);
        await first.DisposeAsync();

        await using var second = harness.StartAgent();
        proxy.Upstream = second.Endpoint;
        await RelayHarness.Until(
            "the harness welcomed by the new agent and the socket bound again",
            () => client.Stats.Sessions == 2 && second.Streams.Count == 1,
            () => $"{client.Stats}, {second.Streams.Count} streams"
        );
        Assert.Equal(100, harness.Send("topo-3", "alice", 1000, 100));
        await RelayHarness.Until(
            "the new session's 100",
            () => second.Streams.Single().Relayed == 100,
            () => $"{second.Streams.Single()}"
        );

        var stats = (await recorder.StopAsync(RelayHarness.Patience)).Single();
        var relay = recorder.Relay.Single();

        Assert.Equal(2, relay.Sessions);
        Assert.True(relay.Exact, $"{relay}");
        Assert.InRange(relay.Arrived, 200, 100 + inFlight + 100);
        Assert.InRange(relay.Arrived + relay.LostInRelay, 200, 100 + inFlight + 100);
        Assert.Equal(stats.Received - stats.DroppedByHarness, RelayHarness.LinesPerNode(recorder.SpansFile)["alice"]);
    }

    [Fact]
    public async Task A_topology_on_two_hosts_has_each_agents_spans_merged_by_receive_time_and_each_nodes_costs_read_on_its_own_host()
    {
        // Two agents stand for two hosts: alice's host and bob's (--place bob=…).
        await using var first = harness.StartAgent();
        await using var second = harness.StartAgent();
        await using var toFirst = RelayClient.Start(first.Endpoint, RelayHarness.Token);
        await using var toSecond = RelayClient.Start(second.Endpoint, RelayHarness.Token);
        await toFirst.ConnectedAsync(RelayHarness.Patience);
        await toSecond.ConnectedAsync(RelayHarness.Patience);
        var spans = harness.SpansFile("topo-9");
        var parts = new[]
        {
            await toFirst.BindAsync(
                "topo-9",
                ["alice"],
                SpreadTraceRecorder.PartFile(spans, "host-1"),
                RelayHarness.Patience
            ),
            await toSecond.BindAsync(
                "topo-9",
                ["bob"],
                SpreadTraceRecorder.PartFile(spans, "host-2"),
                RelayHarness.Patience
            ),
        };
        await using var recorder = new SpreadTraceRecorder(parts, ["alice", "bob"], spans);
        for (var round = 0; round < 5; round++)
        {
            Assert.Equal(40, harness.Send("topo-9", "bob", round * 40, 40));
            Assert.Equal(60, harness.Send("topo-9", "alice", round * 60, 60));
        }
        await RelayHarness.Until(
            "500 spans through the two agents",
            () => parts.Sum(p => p.Arrived) == 500,
            () => $"{parts.Sum(p => p.Arrived)} arrived"
        );

        var stats = await recorder.FinishAsync();

        Assert.Equal(
            [("alice", 300L, 0L), ("bob", 200L, 0L)],
            stats.Select(s => (s.Node, s.Received, s.DroppedByHarness))
        );
        Assert.Equal(new Dictionary<string, int> { ["alice"] = 300, ["bob"] = 200 }, RelayHarness.LinesPerNode(spans));
        var received = File.ReadLines(spans)
            .Select(l => System.Text.Json.JsonDocument.Parse(l).RootElement.GetProperty("recv_us").GetInt64())
            .ToList();
        Assert.Equal(received.Order(), received);
        // The parts are gone once merged; every line is one the agents relayed, byte for byte.
        Assert.All(parts, p => Assert.False(File.Exists(p.SpansFile)));
        Assert.Equal(
            RelayHarness.Payload("bob", 199),
            File.ReadLines(spans)
                .Select(l => System.Text.Json.JsonDocument.Parse(l).RootElement)
                .Where(e => e.GetProperty("node").GetString() == "bob")
                .Last()
                .GetProperty("payload")
                .GetString()
        );

        var meter = await RelayMeter.CreateAsync([
            (toFirst, [new CostTarget("alice", Environment.ProcessId)]),
            (toSecond, [new CostTarget("bob", Environment.ProcessId)]),
        ]);
        var (cgroups, _) = ProcessCgroups.Of(Environment.ProcessId);
        if (cgroups is not null && CgroupCpu.UsageFileOf(cgroups).File is not null)
        {
            Assert.Null(meter.Problem);
            Assert.Equal(["alice", "bob"], (await meter.ReadAsync()).Keys.Order());
        }
    }

    [Fact]
    public async Task A_wrong_token_is_refused_and_not_retried()
    {
        await using var agent = harness.StartAgent();
        await using var client = RelayClient.Start(agent.Endpoint, "not-the-token"u8.ToArray());
        var refused = await Assert.ThrowsAsync<RelayRefusedException>(() =>
            client.ConnectedAsync(RelayHarness.Patience)
        );
        Assert.Equal("wrong token", refused.Reason);
        Assert.Equal((0L, 1L), (agent.Stats.Accepted, agent.Stats.Refused));
    }

    [Fact]
    public async Task Garbage_oversized_truncated_and_unknown_frames_are_counted_and_the_agent_serves_on()
    {
        await using var agent = harness.StartAgent();
        var hello = new HelloMessage(HelloMessage.CurrentVersion, RelayHarness.Token).Encode();
        await SendRawAsync(agent.Endpoint, "GET / HTTP/1.1\r\nHost: x\r\n\r\n"u8.ToArray());
        await SendRawAsync(agent.Endpoint, [0, 0, 0, 9, (byte)RelayFrameType.Hello, 0]);
        await SendRawAsync(agent.Endpoint, [.. hello, 0, 0, 0, 1, 0x99]);
        await SendRawAsync(agent.Endpoint, [.. hello, 0x7f, 0xff, 0xff, 0xff, (byte)RelayFrameType.Bind]);
        await SendRawAsync(agent.Endpoint, [.. hello, 0, 0, 0, 4, (byte)RelayFrameType.Bind, 0, 9, 0x61]);
        await SendRawAsync(agent.Endpoint, [.. hello, .. new SpanMessage("t", "n", 1, 0, [1]).Encode()]);
        await RelayHarness.Until(
            "six bad connections counted",
            () => agent.Stats.BadFrames.Values.Sum() == 6,
            () => $"{string.Join(", ", agent.Stats.BadFrames)}"
        );

        Assert.Equal(
            new Dictionary<RelayProblem, long>
            {
                [RelayProblem.Oversized] = 2,
                [RelayProblem.Truncated] = 1,
                [RelayProblem.UnknownType] = 1,
                [RelayProblem.Malformed] = 1,
                [RelayProblem.Unexpected] = 1,
            },
            agent.Stats.BadFrames
        );
        await using var client = RelayClient.Start(agent.Endpoint, RelayHarness.Token);
        await using var recorder = await client.BindAsync(
            "topo-4",
            ["alice"],
            harness.SpansFile("topo-4"),
            RelayHarness.Patience
        );
        harness.Send("topo-4", "alice", 0, 10);
        await RelayHarness.Until(
            "10 spans after the bad input",
            () => recorder.Arrived == 10,
            () => $"{recorder.Arrived}"
        );
    }

    [Fact]
    public async Task Bad_frames_from_an_agent_are_counted_and_the_harness_connects_again()
    {
        using var fake = new TcpListener(IPAddress.Loopback, 0);
        fake.Start();
        await using var client = RelayClient.Start(fake.LocalEndpoint, RelayHarness.Token);
        var welcome = new WelcomeMessage(HelloMessage.CurrentVersion, "fake", 7).Encode();
        byte[][] answers =
        [
            [.. welcome, 0xff, 0xff, 0xff, 0xff],
            [.. welcome, 0, 0, 0, 2, 0x99, 0],
            [.. welcome, 0, 0, 0, 3, (byte)RelayFrameType.Span, 0, 5],
            [.. welcome, 0, 0, 0, 40, (byte)RelayFrameType.Span],
        ];
        foreach (var answer in answers)
        {
            using var connection = await fake.AcceptTcpClientAsync();
            var stream = connection.GetStream();
            await RelayWire.ReadAsync(stream, RelayWire.MaxHelloBytes);
            await stream.WriteAsync(answer);
            await stream.FlushAsync();
            connection.Client.Shutdown(SocketShutdown.Send);
            await RelayHarness.Until(
                "the client to hang up",
                () => connection.Client.Poll(1000, SelectMode.SelectRead) && connection.Available == 0,
                () => "open"
            );
        }
        await RelayHarness.Until(
            "four bad frames counted",
            () => client.Stats.BadFrames.Values.Sum() == 4,
            () => $"{client.Stats}"
        );
        Assert.Equal(
            new Dictionary<RelayProblem, long>
            {
                [RelayProblem.Oversized] = 1,
                [RelayProblem.UnknownType] = 1,
                [RelayProblem.Malformed] = 1,
                [RelayProblem.Truncated] = 1,
            },
            client.Stats.BadFrames
        );
        Assert.Equal(4, client.Stats.Connections);
    }

    [Fact]
    public async Task Cgroup_costs_are_read_on_the_agents_host_with_the_single_host_readers()
    {
        await using var agent = harness.StartAgent();
        await using var client = RelayClient.Start(agent.Endpoint, RelayHarness.Token);
        await client.ConnectedAsync(RelayHarness.Patience);
        var (cgroups, _) = ProcessCgroups.Of(Environment.ProcessId);
        var (file, problem) = cgroups is null ? (null, "no cgroups") : CgroupCpu.UsageFileOf(cgroups);
        var before = file is null ? 0 : CgroupCpu.ReadNanoseconds(file);

        var readings = await client.ReadCostsAsync(
            [new CostTarget("self", Environment.ProcessId), new CostTarget("gone", int.MaxValue - 1)],
            RelayHarness.Patience
        );

        var self = readings.Single(r => r.Node == "self");
        if (file is null)
        {
            Assert.Equal(problem, self.Problem);
        }
        else
        {
            Assert.Equal("", self.Problem);
            Assert.True(self.CpuNanoseconds >= before, $"{self.CpuNanoseconds} < {before}");
        }
        var gone = readings.Single(r => r.Node == "gone");
        Assert.Contains("not visible", gone.Problem);
        Assert.Equal(0, gone.CpuNanoseconds);
    }

    private static async Task SendRawAsync(IPEndPoint agent, byte[] bytes)
    {
        using var tcp = new TcpClient();
        await tcp.ConnectAsync(agent);
        var stream = tcp.GetStream();
        await stream.WriteAsync(bytes);
        tcp.Client.Shutdown(SocketShutdown.Send);
        // Read until the agent hangs up (it resets a connection with bad input), skipping its answers.
        var buffer = new byte[4096];
        using var patience = new CancellationTokenSource(RelayHarness.Patience);
        while (await stream.ReadAsync(buffer, patience.Token) > 0) { }
    }
}
