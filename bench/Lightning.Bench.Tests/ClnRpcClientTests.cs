using System.Net.Sockets;
using System.Text;
using System.Text.Json;
using System.Text.Json.Nodes;
using Lightning.Bench.NodeKinds.CoreLightning;
using Lightning.Bench.Rpc;

namespace Lightning.Bench.Tests;

/// <summary>Against a real Unix stream socket that answers the way lightningd can: out of order, split, back to back.</summary>
[Trait("Category", "Unit")]
public class ClnRpcClientTests : IDisposable
{
    private readonly string directory = Directory.CreateTempSubdirectory("lnbench-rpc-").FullName;

    private string SocketPath => Path.Combine(directory, "lightning-rpc");

    [Fact]
    public async Task Answers_are_matched_to_requests_by_id_whatever_their_order_and_framing()
    {
        using var listener = Listen();
        var server = Task.Run(async () =>
        {
            using var connection = await listener.AcceptAsync();
            var ids = await ReadRequestIdsAsync(connection, 3);
            // Reverse order; the first two answers in one write, the last one split mid-token.
            var answers = ids.AsEnumerable()
                .Reverse()
                .Select(id =>
                    id.Contains("fail")
                        ? $$$"""{"jsonrpc":"2.0","id":"{{{id}}}","error":{"code":205,"message":"no route, \"quoted\""}}"""
                        : """{"jsonrpc":"2.0","id":"ID","result":{"echo":"ID","nested":{"a":[1,2,{"b":"}"}]}}}""".Replace(
                            "ID",
                            id
                        )
                )
                .ToList();
            await connection.SendAsync(Encoding.UTF8.GetBytes(answers[0] + "\n\n" + answers[1] + "\n\n"));
            var last = Encoding.UTF8.GetBytes(answers[2] + "\n\n");
            await connection.SendAsync(last.AsMemory(0, 17));
            await Task.Delay(50);
            await connection.SendAsync(last.AsMemory(17));
            await Task.Delay(200);
        });

        await using var client = await ClnRpcClient.ConnectAsync("alice", SocketPath);
        var first = client.CallAsync("getinfo", null, "lnbench:getinfo#1");
        var second = client.CallAsync("xpay", new JsonObject { ["invstring"] = "lnbcrt1" }, "lnbench:xpay#2");
        var failing = client.CallAsync("xpay", null, "lnbench:xpay#fail");

        Assert.Equal("lnbench:getinfo#1", (await first).GetProperty("echo").GetString());
        Assert.Equal("lnbench:xpay#2", (await second).GetProperty("echo").GetString());
        var error = await Assert.ThrowsAsync<JsonRpcException>(() => failing);
        Assert.Equal(205, error.Code);
        Assert.Equal("alice", error.Node);
        Assert.Contains("no route", error.Message);
        await server;
    }

    [Fact]
    public async Task A_closed_connection_fails_the_calls_in_flight_with_the_node_name()
    {
        using var listener = Listen();
        var server = Task.Run(async () =>
        {
            var connection = await listener.AcceptAsync();
            await ReadRequestIdsAsync(connection, 1);
            connection.Dispose();
        });
        await using var client = await ClnRpcClient.ConnectAsync("bob", SocketPath);
        var error = await Assert.ThrowsAsync<RpcConnectionException>(() =>
            client.CallAsync("invoice", null, "lnbench:invoice#1")
        );
        Assert.Contains("bob", error.Message);
        await server;
    }

    [Fact]
    public async Task Connecting_to_a_missing_socket_names_the_node_and_path()
    {
        var error = await Assert.ThrowsAsync<RpcConnectionException>(() =>
            ClnRpcClient.ConnectAsync("carol-1", SocketPath)
        );
        Assert.Contains("carol-1", error.Message);
        Assert.Contains(SocketPath, error.Message);
    }

    [Fact]
    public async Task An_answer_with_neither_result_nor_error_fails_its_call_and_the_connection_goes_on()
    {
        using var listener = Listen();
        var server = Task.Run(async () =>
        {
            using var connection = await listener.AcceptAsync();
            var first = await ReadRequestIdsAsync(connection, 1);
            await connection.SendAsync(
                Encoding.UTF8.GetBytes($$$"""{"jsonrpc":"2.0","id":"{{{first[0]}}}"}""" + "\n\n")
            );
            var second = await ReadRequestIdsAsync(connection, 1);
            await connection.SendAsync(
                Encoding.UTF8.GetBytes($$$"""{"jsonrpc":"2.0","id":"{{{second[0]}}}","result":{"ok":true}}""" + "\n\n")
            );
            await Task.Delay(200);
        });
        await using var client = await ClnRpcClient.ConnectAsync("alice", SocketPath);

        var bad = await Assert.ThrowsAsync<JsonRpcException>(() =>
            client.CallAsync("getinfo", null, "lnbench:getinfo#1").WaitAsync(TimeSpan.FromSeconds(10))
        );
        Assert.Contains("neither 'result' nor 'error'", bad.Message);
        var good = await client.CallAsync("getinfo", null, "lnbench:getinfo#2").WaitAsync(TimeSpan.FromSeconds(10));
        Assert.True(good.GetProperty("ok").GetBoolean());
        await server;
    }

    [Fact]
    public async Task Calls_made_while_the_connection_fails_all_end_none_hangs()
    {
        for (var round = 0; round < 20; round++)
        {
            using var listener = Listen();
            var server = Task.Run(async () =>
            {
                var connection = await listener.AcceptAsync();
                await Task.Delay(Random.Shared.Next(0, 5));
                connection.Dispose();
            });
            await using var client = await ClnRpcClient.ConnectAsync("bob", SocketPath);
            var calls = Enumerable
                .Range(0, 50)
                .Select(i => Task.Run(() => client.CallAsync("xpay", null, $"lnbench:xpay#{round}-{i}")))
                .ToArray();

            var all = Task.WhenAll(calls.Select(c => c.ContinueWith(_ => { })));
            Assert.Same(all, await Task.WhenAny(all, Task.Delay(TimeSpan.FromSeconds(20))));
            Assert.All(calls, c => Assert.IsType<RpcConnectionException>(c.Exception?.InnerException));
            await server;
            File.Delete(SocketPath);
        }
    }

    [Fact]
    public async Task An_answer_larger_than_the_limit_closes_the_connection_instead_of_growing_the_buffer()
    {
        using var listener = Listen();
        var server = Task.Run(async () =>
        {
            using var connection = await listener.AcceptAsync();
            var ids = await ReadRequestIdsAsync(connection, 1);
            var huge = $$$"""{"jsonrpc":"2.0","id":"{{{ids[0]}}}","result":{"x":"{{{new string('x', 1_000_000)}}}"}}""";
            try
            {
                await connection.SendAsync(Encoding.UTF8.GetBytes(huge));
            }
            catch (SocketException) { }
        });
        await using var client = await ClnRpcClient.ConnectAsync("carol-1", SocketPath, maxMessageBytes: 256 * 1024);

        var error = await Assert.ThrowsAsync<RpcConnectionException>(() =>
            client.CallAsync("listinvoices", null, "lnbench:listinvoices#1").WaitAsync(TimeSpan.FromSeconds(10))
        );

        Assert.Contains("exceeded", error.Message);
        await server;
    }

    [Fact]
    public async Task Requests_escape_only_what_json_requires_so_base64_and_markup_arrive_as_written()
    {
        using var listener = Listen();
        var received = Task.Run(async () =>
        {
            using var connection = await listener.AcceptAsync();
            var buffer = new byte[65536];
            var length = 0;
            while (JsonFraming.CompleteValueLength(buffer.AsSpan(0, length)) == 0)
            {
                length += await connection.ReceiveAsync(buffer.AsMemory(length));
            }
            var text = Encoding.UTF8.GetString(buffer, 0, length);
            var id = JsonDocument.Parse(text).RootElement.GetProperty("id").GetString();
            await connection.SendAsync(Encoding.UTF8.GetBytes($$$"""{"jsonrpc":"2.0","id":"{{{id}}}","result":{}}"""));
            return text;
        });

        await using var client = await ClnRpcClient.ConnectAsync("alice", SocketPath);
        await client.CallAsync(
            "fundchannel_complete",
            new JsonObject { ["psbt"] = "cHNi+/8=", ["note"] = "a<b>&'c\"d\\ é" },
            "lnbench:fundchannel_complete#1"
        );

        var sent = await received;
        // Core Lightning does not decode \u escapes in every parameter: '+' must arrive as '+'.
        Assert.Contains("\"psbt\":\"cHNi+/8=\"", sent);
        Assert.Contains("a<b>&'c\\\"d\\\\ é", sent);
        Assert.DoesNotContain("\\u00", sent);
    }

    [Fact]
    public async Task A_Core_Lightning_node_reports_its_call_errors_as_node_call_failures_in_the_clients_words()
    {
        using var listener = Listen();
        var server = Task.Run(async () =>
        {
            var connection = await listener.AcceptAsync();
            var answers = new Dictionary<string, string>
            {
                ["xpay"] = """{"code":203,"message":"no route"}""",
                ["getroutes"] = """{"code":-32601,"message":"Unknown command 'getroutes'"}""",
            };
            foreach (var method in new[] { "xpay", "getroutes", "newaddr" })
            {
                var id = (await ReadRequestIdsAsync(connection, 1)).Single();
                var answer = answers.TryGetValue(method, out var error)
                    ? $$$"""{"jsonrpc":"2.0","id":"{{{id}}}","error":{{{error}}}}"""
                    : $$$"""{"jsonrpc":"2.0","id":"{{{id}}}","result":{"p2tr":"bcrt1p"}}""";
                await connection.SendAsync(Encoding.UTF8.GetBytes(answer));
            }
            await ReadRequestIdsAsync(connection, 1);
            connection.Dispose();
        });
        var peer = new NodeKinds.PeerAddress("127.0.0.1", 9736);
        await using var node = new CoreLightningNode(
            "alice",
            peer,
            await ClnRpcClient.ConnectAsync("alice", SocketPath),
            "02aa",
            "v26.06"
        );

        var refused = await Assert.ThrowsAsync<NodeKinds.NodeCallException>(() =>
            node.PayAsync(new NodeKinds.NodeInvoice("lnbcrt1", "00"), new NodeKinds.PaymentTag(7))
        );
        var unknown = await Assert.ThrowsAsync<NodeKinds.NodeCallException>(() => node.CountRoutesAsync(node, 1000));
        var badAnswer = await Assert.ThrowsAsync<NodeKinds.NodeCallException>(() => node.NewAddressAsync());
        var lost = await Assert.ThrowsAsync<NodeKinds.NodeCallException>(() =>
            node.ConfirmedBalanceSatAsync().WaitAsync(TimeSpan.FromSeconds(10))
        );

        Assert.Equal(
            (NodeKinds.NodeCallFailure.Refused, "alice", "xpay", "alice: xpay failed with 203: no route"),
            (refused.Failure, refused.Node, refused.Call, refused.Message)
        );
        Assert.Equal((NodeKinds.NodeCallFailure.Unsupported, "getroutes"), (unknown.Failure, unknown.Call));
        Assert.Equal((NodeKinds.NodeCallFailure.BadAnswer, "newaddr"), (badAnswer.Failure, badAnswer.Call));
        Assert.StartsWith("alice: newaddr answered without what it returns", badAnswer.Message);
        Assert.Equal((NodeKinds.NodeCallFailure.ConnectionLost, "listfunds"), (lost.Failure, lost.Call));
        await server;
    }

    [Fact]
    public void Framing_finds_complete_values_only()
    {
        Assert.Equal(0, JsonFraming.CompleteValueLength("{\"a\":\"}\""u8));
        Assert.Equal(0, JsonFraming.CompleteValueLength("  "u8));
        Assert.Equal(11, JsonFraming.CompleteValueLength("\n {\"a\":[1]}{\"b\":2}"u8));
    }

    public void Dispose() => Directory.Delete(directory, recursive: true);

    private Socket Listen()
    {
        var socket = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        socket.Bind(new UnixDomainSocketEndPoint(SocketPath));
        socket.Listen();
        return socket;
    }

    private static async Task<List<string>> ReadRequestIdsAsync(Socket connection, int count)
    {
        var ids = new List<string>();
        var buffer = new byte[65536];
        var length = 0;
        while (ids.Count < count)
        {
            length += await connection.ReceiveAsync(buffer.AsMemory(length));
            int size;
            while ((size = JsonFraming.CompleteValueLength(buffer.AsSpan(0, length))) > 0)
            {
                using var request = JsonDocument.Parse(buffer.AsMemory(0, size));
                Assert.Equal("2.0", request.RootElement.GetProperty("jsonrpc").GetString());
                ids.Add(request.RootElement.GetProperty("id").GetString()!);
                Buffer.BlockCopy(buffer, size, buffer, 0, length - size);
                length -= size;
            }
        }
        return ids;
    }
}
