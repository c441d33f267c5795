using System.Net;
using System.Net.Sockets;
using Lightning.Bench.Swarm.Relay;
using Lightning.Bench.Waiting;

namespace Lightning.Bench.Tests.Relay;

/// <summary>What the relay tests share: a short work folder, a node's sender (an unconnected sendto, as Core Lightning sends), waits on conditions.</summary>
internal sealed class RelayHarness : IDisposable
{
    public static readonly byte[] Token = "run-token-0123456789"u8.ToArray();

    /// <summary>Generous: the machine may be busy; no test depends on how fast it is.</summary>
    public static readonly TimeSpan Patience = TimeSpan.FromSeconds(60);

    public RelayHarness()
    {
        Work = Directory.CreateTempSubdirectory("lnr-").FullName;
    }

    public string Work { get; }

    public string SpansFile(string topology) => Path.Combine(Work, $"{topology}.jsonl");

    public RelayAgent StartAgent(int port = 0) =>
        RelayAgent.Start(
            new AgentSettings(
                new IPEndPoint(IPAddress.Loopback, port),
                Token,
                Work,
                Host: "host-1",
                CountersInterval: TimeSpan.FromMilliseconds(100)
            )
        );

    public static string Payload(string node, int i) =>
        $"[{{\"id\":\"{i:x16}\",\"name\":\"{node}/test\",\"traceId\":\"{i:x32}\",\"timestamp\":{1_700_000_000_000_000 + i},\"duration\":5}}]";

    /// <summary>Sends datagrams to a node's trace socket; false for one the socket did not take (no agent bound).</summary>
    public int Send(string topology, string node, int from, int count)
    {
        using var socket = new Socket(AddressFamily.Unix, SocketType.Dgram, ProtocolType.Unspecified);
        var target = new UnixDomainSocketEndPoint(Path.Combine(Work, topology, node, "trace.sock"));
        var sent = 0;
        for (var i = from; i < from + count; i++)
        {
            try
            {
                socket.SendTo(System.Text.Encoding.UTF8.GetBytes(Payload(node, i)), target);
                sent++;
            }
            catch (SocketException)
            {
                // Nobody bound (the agent is down): the node's span is gone, as Core Lightning's would be.
            }
        }
        return sent;
    }

    public static Task Until(string condition, Func<bool> check, Func<string> observed) =>
        Wait.UntilAsync(
            condition,
            _ => Task.FromResult(check() ? WaitState.Met() : WaitState.NotYet(observed())),
            Patience,
            interval: TimeSpan.FromMilliseconds(20)
        );

    public static IReadOnlyDictionary<string, int> LinesPerNode(string spansFile) =>
        File.ReadLines(spansFile)
            .Select(l => System.Text.Json.JsonDocument.Parse(l).RootElement.GetProperty("node").GetString()!)
            .GroupBy(n => n)
            .ToDictionary(g => g.Key, g => g.Count());

    public void Dispose()
    {
        try
        {
            Directory.Delete(Work, recursive: true);
        }
        catch (IOException) { }
    }
}
