using System.Diagnostics;
using System.Net.Sockets;
using System.Text;
using Lightning.Bench.Chain;
using Lightning.Bench.Rpc;
using NBitcoin.RPC;

namespace Lightning.Bench.Tests;

/// <summary>
/// bitcoind's RPC client (NBitcoin's RPCClient inside) against a loopback HTTP server that answers as bitcoind does:
/// what goes on the wire, and what its callers catch when a call fails, hangs or cannot connect.
/// </summary>
[Trait("Category", "Unit")]
public class BitcoinRpcClientTests
{
    private const string User = "lnbenchtest";
    private const string Password = "0123456789abcdef";
    private const string MinerAddress = "bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080";

    [Fact]
    public async Task The_miners_calls_go_to_the_node_endpoint_each_with_its_login_and_length_in_the_form_bitcoind_and_the_stand_in_read()
    {
        await using var server = new CannedHttpServer(request =>
            CannedHttpServer.Result(
                request,
                request.RpcMethod switch
                {
                    "createwallet" => """{"name":"miner"}""",
                    "getnewaddress" => $"\"{MinerAddress}\"",
                    "getblockcount" => "104",
                    "generatetoaddress" => "[]",
                    "sendmany" => "\"ab\"",
                    _ => "null",
                }
            )
        );
        using var miner = await BitcoinMiner.CreateAsync(Client(server));
        await miner.MineAsync(3);
        Assert.Equal(104, await miner.GetHeightAsync());
        Assert.Equal("ab", await miner.SendManyAsync(new Dictionary<string, decimal> { ["standin-alice"] = 0.5m }));

        var requests = server.Requests;
        Assert.Equal(
            ["createwallet", "getnewaddress", "generatetoaddress", "getblockcount", "sendmany"],
            requests.Select(r => r.RpcMethod)
        );
        var login = $"Basic {Convert.ToBase64String(Encoding.UTF8.GetBytes($"{User}:{Password}"))}";
        Assert.All(
            requests,
            r =>
            {
                // bitcoind's wallet is its only one, so every call goes to / (the stand-in serves nothing else).
                Assert.Equal("POST / HTTP/1.1", r.RequestLine);
                Assert.Equal(login, r.Headers["Authorization"]);
                // A body with its length, not chunked: busybox httpd's CGI (the stand-in chain) reads only that.
                Assert.Equal(Encoding.UTF8.GetByteCount(r.Body).ToString(), r.Headers["Content-Length"]);
                Assert.False(r.Headers.ContainsKey("Transfer-Encoding"));
                // Compact JSON: the stand-in finds the method with sed.
                Assert.Contains($"\"method\":\"{r.RpcMethod}\"", r.Body);
            }
        );
        Assert.Equal("""{"wallet_name":"miner"}""", requests[0].Json!["params"]!.ToJsonString());
        Assert.Contains($"\"params\":[3,\"{MinerAddress}\"]", requests[2].Body);
        Assert.Equal("""["",{"standin-alice":0.5}]""", requests[4].Json!["params"]!.ToJsonString());
    }

    [Fact]
    public async Task An_RPC_error_names_bitcoind_the_call_and_the_error()
    {
        await using var server = new CannedHttpServer(request =>
            request.RpcMethod == "sendmany"
                ? CannedHttpServer.Json(
                    500,
                    """{"result":null,"error":{"code":-6,"message":"Insufficient funds"},"id":1}"""
                )
                : CannedHttpServer.Json(
                    404,
                    """{"result":null,"error":{"code":-32601,"message":"Method not found"},"id":1}"""
                )
        );
        using var client = Client(server);

        var refused = await Assert.ThrowsAsync<JsonRpcException>(() =>
            client.CallAsync(RPCOperations.sendmany, ["", new Newtonsoft.Json.Linq.JObject()])
        );
        Assert.Equal("bitcoind: sendmany failed with -6: Insufficient funds", refused.Message);
        Assert.Equal(
            ("bitcoind", "sendmany", -6L, "Insufficient funds"),
            (refused.Node, refused.Method, refused.Code, refused.RpcMessage)
        );

        // A typed call's error names its call too; an unknown method keeps the code callers tell "unsupported" by.
        var unknown = await Assert.ThrowsAsync<JsonRpcException>(() =>
            client.CallAsync(RPCOperations.getblockcount, (rpc, c) => rpc.GetBlockCountAsync(c))
        );
        Assert.Equal(("getblockcount", JsonRpcException.MethodNotFound), (unknown.Method, unknown.Code));
        Assert.StartsWith("bitcoind: getblockcount failed", unknown.Message);
    }

    [Fact]
    public async Task An_answer_that_is_no_JSON_RPC_answer_names_the_call()
    {
        await using var server = new CannedHttpServer(request =>
            request.RpcMethod switch
            {
                "getblockcount" => CannedHttpServer.Empty(401),
                "getnewaddress" => CannedHttpServer.Result(request, "\"standin-miner\""),
                _ => CannedHttpServer.Json(200, "not json"),
            }
        );
        using var client = Client(server);

        var login = await Assert.ThrowsAsync<RpcConnectionException>(() =>
            client.CallAsync(RPCOperations.getblockcount, (rpc, c) => rpc.GetBlockCountAsync(c))
        );
        Assert.Equal("bitcoind: getblockcount answered HTTP 401 without a JSON-RPC answer", login.Message);
        var garbled = await Assert.ThrowsAsync<RpcConnectionException>(() =>
            client.CallAsync(RPCOperations.getblockchaininfo, [])
        );
        Assert.StartsWith("bitcoind: getblockchaininfo answered with no JSON-RPC answer", garbled.Message);
        // A typed call reads its answer: an address of no regtest form is named with the call, not left to NBitcoin's words.
        var unreadable = await Assert.ThrowsAsync<InvalidDataException>(() => BitcoinMiner.OpenAsync(client));
        Assert.StartsWith("bitcoind: getnewaddress answered what NBitcoin cannot read", unreadable.Message);
    }

    [Fact]
    public async Task An_unreachable_endpoint_is_a_connection_error_that_names_bitcoind_and_where_it_was_looked_for()
    {
        var closed = new TcpListener(System.Net.IPAddress.Loopback, 0);
        closed.Start();
        var endpoint = new Uri($"http://127.0.0.1:{((System.Net.IPEndPoint)closed.LocalEndpoint).Port}/");
        closed.Stop();
        using var client = new BitcoinRpcClient(endpoint, User, Password);

        var error = await Assert.ThrowsAsync<RpcConnectionException>(() =>
            client.CallAsync(RPCOperations.getblockchaininfo, [])
        );
        Assert.StartsWith($"bitcoind: cannot reach RPC at {endpoint} for getblockchaininfo (", error.Message);
    }

    [Fact]
    public async Task Every_call_connects_through_the_callback_when_there_is_one_and_its_failure_is_a_connection_error()
    {
        await using var server = new CannedHttpServer(request => CannedHttpServer.Result(request, "7"));
        var asked = new List<(string Host, int Port)>();
        // As the swarm's gate: the endpoint names a host only the callback can reach.
        var endpoint = new Uri("http://lnbench-stack-bitcoind.invalid:18443/");
        using var gated = new BitcoinRpcClient(
            endpoint,
            User,
            Password,
            async (host, port, ct) =>
            {
                lock (asked)
                {
                    asked.Add((host, port));
                }
                var socket = new Socket(SocketType.Stream, ProtocolType.Tcp);
                await socket.ConnectAsync(System.Net.IPAddress.Loopback, server.Port, ct);
                return new NetworkStream(socket, ownsSocket: true);
            }
        );
        Assert.Equal(7, await gated.CallAsync(RPCOperations.getblockcount, (rpc, c) => rpc.GetBlockCountAsync(c)));
        Assert.Equal([("lnbench-stack-bitcoind.invalid", 18443)], asked);

        using var shut = new BitcoinRpcClient(
            endpoint,
            User,
            Password,
            (_, _, _) => throw new IOException("the gate refused")
        );
        var error = await Assert.ThrowsAsync<RpcConnectionException>(() =>
            shut.CallAsync(RPCOperations.getblockcount, (rpc, c) => rpc.GetBlockCountAsync(c))
        );
        Assert.StartsWith($"bitcoind: cannot reach RPC at {endpoint} for getblockcount", error.Message);
        Assert.Contains("the gate refused", error.ToString());
    }

    [Fact]
    public async Task A_call_that_gets_no_answer_ends_when_cancelled_or_at_its_own_timeout_naming_the_call()
    {
        await using var server = new CannedHttpServer(_ => null);
        using var client = new BitcoinRpcClient(
            server.Endpoint,
            User,
            Password,
            callTimeout: TimeSpan.FromMilliseconds(1500)
        );

        // Cancelled by the caller: a cancellation, as every other awaited step of the harness (the call's own
        // timeout, later, would have been a connection error).
        using var cancel = new CancellationTokenSource(TimeSpan.FromMilliseconds(200));
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() =>
            client.CallAsync(RPCOperations.getblockcount, (rpc, c) => rpc.GetBlockCountAsync(c), cancel.Token)
        );

        // Its own bound: the call named, as a connection error (bitcoind did not answer).
        var timedOut = await Assert.ThrowsAsync<RpcConnectionException>(() =>
            client.CallAsync(RPCOperations.generatetoaddress, [1, MinerAddress])
        );
        Assert.Equal("bitcoind: generatetoaddress got no answer within 1.5 s", timedOut.Message);
        Assert.Equal(["getblockcount", "generatetoaddress"], server.Requests.Select(r => r.RpcMethod));
    }

    [Fact]
    public async Task A_full_work_queue_is_asked_again_but_the_call_still_ends_at_its_timeout()
    {
        // bitcoind answers 503 with no JSON when its work queue is full; NBitcoin asks again after 1, 2, 4... s, unbounded.
        await using var server = new CannedHttpServer(_ => CannedHttpServer.Empty(503));
        using var client = new BitcoinRpcClient(server.Endpoint, User, Password, callTimeout: TimeSpan.FromSeconds(2));

        var clock = Stopwatch.StartNew();
        var error = await Assert.ThrowsAsync<RpcConnectionException>(() =>
            client.CallAsync(RPCOperations.sendrawtransaction, ["00"])
        );
        Assert.Equal("bitcoind: sendrawtransaction got no answer within 2 s", error.Message);
        Assert.True(
            clock.Elapsed < TimeSpan.FromSeconds(10),
            $"the call ended after {clock.Elapsed.TotalSeconds:0.0} s"
        );
        Assert.NotEmpty(server.Requests);
    }

    private static BitcoinRpcClient Client(CannedHttpServer server) => new(server.Endpoint, User, Password);
}
