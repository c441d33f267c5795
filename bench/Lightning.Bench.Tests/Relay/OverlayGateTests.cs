using System.Net;
using System.Net.Sockets;
using System.Text;
using Lightning.Bench.Chain;
using Lightning.Bench.Rpc;
using Lightning.Bench.Swarm.Relay;
using NBitcoin.RPC;

namespace Lightning.Bench.Tests.Relay;

/// <summary>The run's gate into the overlay, served in-process on a real Unix socket, reaching real TCP listeners on loopback.</summary>
[Trait("Category", "Unit")]
public sealed class OverlayGateTests : IAsyncLifetime
{
    private readonly string folder = Directory.CreateTempSubdirectory("lnbench-gate-").FullName;
    private readonly CancellationTokenSource stop = new();
    private Task serving = Task.CompletedTask;

    private string Gate => Path.Combine(folder, OverlayGate.SocketName);

    public async Task InitializeAsync()
    {
        serving = Task.Run(() => OverlayGate.ServeAsync(Gate, stop.Token));
        for (var i = 0; i < 200 && !File.Exists(Gate); i++)
        {
            await Task.Delay(25);
        }
        Assert.True(File.Exists(Gate), "the gate made no socket");
    }

    public async Task DisposeAsync()
    {
        stop.Cancel();
        await serving.ContinueWith(_ => { });
        Directory.Delete(folder, recursive: true);
    }

    [Fact]
    public async Task A_connection_through_the_gate_carries_bytes_both_ways_and_ends_when_the_far_side_closes()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        var port = ((IPEndPoint)listener.LocalEndpoint).Port;
        // An upper-casing echo that closes after 1 MiB, so a large transfer and the far side's end both cross the gate.
        var far = Task.Run(async () =>
        {
            using var client = await listener.AcceptTcpClientAsync();
            var stream = client.GetStream();
            var buffer = new byte[8192];
            var total = 0;
            while (total < 1 << 20)
            {
                var read = await stream.ReadAsync(buffer);
                if (read == 0)
                {
                    break;
                }
                for (var i = 0; i < read; i++)
                {
                    buffer[i] = (byte)char.ToUpperInvariant((char)buffer[i]);
                }
                await stream.WriteAsync(buffer.AsMemory(0, read));
                total += read;
            }
        });

        using var socket = await Dial.ConnectAsync(new OverlayEndPoint(Gate, "127.0.0.1", port));
        await using var through = new NetworkStream(socket, ownsSocket: false);
        var sent = Encoding.ASCII.GetBytes(string.Concat(Enumerable.Repeat("abcdefghijklmnop", 1 << 16)));
        var writing = through.WriteAsync(sent).AsTask();
        var received = new MemoryStream();
        await through.CopyToAsync(received);
        await writing;
        await far;
        Assert.Equal(1 << 20, received.Length);
        Assert.Equal(Encoding.ASCII.GetString(sent).ToUpperInvariant(), Encoding.ASCII.GetString(received.ToArray()));
    }

    [Fact]
    public async Task Names_resolve_through_the_gate()
    {
        var addresses = await OverlayGate.ResolveAsync(Gate, "localhost");
        Assert.Contains(addresses, IPAddress.IsLoopback);
    }

    [Fact]
    public async Task A_port_nobody_listens_on_and_a_name_that_does_not_resolve_fail_with_the_target_named()
    {
        using var probe = new TcpListener(IPAddress.Loopback, 0);
        probe.Start();
        var closed = ((IPEndPoint)probe.LocalEndpoint).Port;
        probe.Stop();
        var refused = await Assert.ThrowsAsync<SocketException>(() =>
            OverlayGate.ConnectAsync(Gate, "127.0.0.1", closed)
        );
        Assert.Contains($"127.0.0.1:{closed} through the run's gate", refused.Message);

        var unknown = await Assert.ThrowsAsync<SocketException>(() =>
            OverlayGate.ResolveAsync(Gate, "no-such-service.invalid")
        );
        Assert.Contains("no-such-service.invalid through the run's gate", unknown.Message);
    }

    [Fact]
    public async Task Bitcoinds_RPC_client_calls_through_the_gate_as_a_swarm_run_makes_it_and_a_refused_port_is_a_connection_error()
    {
        await using var bitcoind = new CannedHttpServer(request => CannedHttpServer.Result(request, "101"));
        // SwarmTopologyLauncher.BitcoindRpc's connect callback, against this gate.
        Func<string, int, CancellationToken, ValueTask<Stream>> throughGate = async (host, port, ct) =>
            new NetworkStream(await OverlayGate.ConnectAsync(Gate, host, port, ct), ownsSocket: true);
        using (
            var rpc = new BitcoinRpcClient(
                new Uri($"http://localhost:{bitcoind.Port}/"),
                "lnbench",
                "secret",
                throughGate
            )
        )
        {
            Assert.Equal(
                101,
                await rpc.CallAsync(RPCOperations.getblockcount, (client, c) => client.GetBlockCountAsync(c))
            );
        }
        Assert.Equal("getblockcount", Assert.Single(bitcoind.Requests).RpcMethod);

        using var probe = new TcpListener(IPAddress.Loopback, 0);
        probe.Start();
        var closed = ((IPEndPoint)probe.LocalEndpoint).Port;
        probe.Stop();
        using var refused = new BitcoinRpcClient(
            new Uri($"http://127.0.0.1:{closed}/"),
            "lnbench",
            "secret",
            throughGate
        );
        var error = await Assert.ThrowsAsync<RpcConnectionException>(() =>
            refused.CallAsync(RPCOperations.getblockchaininfo, [])
        );
        Assert.StartsWith(
            $"bitcoind: cannot reach RPC at http://127.0.0.1:{closed}/ for getblockchaininfo",
            error.Message
        );
        Assert.Contains("through the run's gate", error.Message);
    }

    [Fact]
    public async Task A_bad_first_line_is_answered_with_what_the_gate_takes_and_the_gate_keeps_serving()
    {
        foreach (var line in new[] { "HELLO there\n", "CONNECT host notaport\n", new string('x', 600) + "\n" })
        {
            using var socket = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
            await socket.ConnectAsync(new UnixDomainSocketEndPoint(Gate));
            await socket.SendAsync(Encoding.ASCII.GetBytes(line), SocketFlags.None);
            var answer = new byte[1024];
            var read = await socket.ReceiveAsync(answer, SocketFlags.None);
            var text = Encoding.ASCII.GetString(answer, 0, read);
            Assert.StartsWith("ERR ", text);
            Assert.Contains(
                line.Length > 512 ? "longer than 512 bytes" : "neither CONNECT HOST PORT nor RESOLVE NAME",
                text
            );
        }
        Assert.Contains(await OverlayGate.ResolveAsync(Gate, "localhost"), IPAddress.IsLoopback);
    }

    [Fact]
    public async Task Without_a_gate_the_error_says_so()
    {
        var missing = Path.Combine(folder, "nobody.sock");
        var e = await Assert.ThrowsAsync<SocketException>(() => OverlayGate.ConnectAsync(missing, "bitcoind", 18443));
        Assert.Contains("does not answer", e.Message);
        Assert.Contains("is its container running?", e.Message);
    }
}
