using System.Net.Sockets;
using System.Text;
using System.Text.Json;
using Lightning.Bench.NodeKinds.CoreLightning;
using Lightning.Bench.Reports;
using Lightning.Bench.Tracing;

namespace Lightning.Bench.Tests;

/// <summary>Real Unix datagram sockets, one per node, fed valid and broken payloads at a high rate.</summary>
[Trait("Category", "Unit")]
public class TraceCollectionTests : IDisposable
{
    private readonly string directory = Directory.CreateTempSubdirectory("lnb-trace-").FullName;

    // A deep kernel queue: one thread polls every socket (at these rates it waits in poll(2), or in recvmmsg when
    // there is one socket); the default queue of 10: a thread blocks on each.
    [Theory]
    [InlineData(1024, 3)]
    [InlineData(1024, 1)]
    [InlineData(10, 3)]
    public async Task Every_datagram_is_counted_attributed_to_its_socket_and_kept_and_bad_ones_never_stop_collection(
        int queueLength,
        int nodeCount
    )
    {
        var nodes = new[] { "alice", "bob", "carol-1" }[..nodeCount];
        const int validPerNode = 20_000;
        var recorder = TraceRecorder.Start(
            nodes.Select(n => (n, Path.Combine(directory, $"{n}.sock"))),
            Path.Combine(directory, "spans.jsonl"),
            queueLength
        );
        Assert.Equal(OperatingSystem.IsLinux() && queueLength >= 256, recorder.Polling);

        var senders = nodes
            .Select(node =>
                Task.Run(() =>
                {
                    using var socket = new Socket(AddressFamily.Unix, SocketType.Dgram, ProtocolType.Unspecified);
                    var target = new UnixDomainSocketEndPoint(Path.Combine(directory, $"{node}.sock"));
                    for (var i = 0; i < validPerNode; i++)
                    {
                        // Blocking sends: the test wants exact counts, so the sender waits when the kernel queue is full.
                        socket.SendTo(
                            Encoding.UTF8.GetBytes(
                                SpanPayloads.Valid($"span-of-{node}", 1_700_000_000_000_000 + i, 10 + i % 7)
                            ),
                            target
                        );
                        if (i % 1000 == 0)
                        {
                            socket.SendTo(SpanPayloads.Truncated(), target);
                            socket.SendTo(Encoding.UTF8.GetBytes(SpanPayloads.UnescapedQuote()), target);
                            socket.SendTo(SpanPayloads.Oversized(), target);
                            socket.SendTo(SpanPayloads.InvalidUtf8(), target);
                            socket.SendTo("garbage"u8.ToArray(), target);
                        }
                    }
                })
            )
            .ToArray();
        await Task.WhenAll(senders);

        var stats = await recorder.StopAsync(TimeSpan.FromMilliseconds(200));
        await recorder.DisposeAsync();
        const int badPerNode = validPerNode / 1000 * 5;
        Assert.All(
            stats,
            s =>
            {
                Assert.Equal(validPerNode + badPerNode, s.Received);
                Assert.Equal(0, s.DroppedByHarness);
            }
        );

        var parsed = new List<Span>();
        var analysis = TraceAnalysis.Scan(recorder.SpansFile, parsed.Add);
        foreach (var node in nodes)
        {
            var spans = parsed.Where(s => s.Node == node).ToList();
            // The oversized payload is valid JSON: it parses. Truncated, unescaped, invalid UTF-8 and garbage do not.
            Assert.Equal(validPerNode + validPerNode / 1000, spans.Count);
            Assert.All(spans.Where(s => s.Name != "jsonrpc"), s => Assert.Equal($"span-of-{node}", s.Name));
            Assert.Equal(validPerNode / 1000 * 4, analysis.MalformedByNode[node]);
        }
        Assert.Contains(analysis.MalformedSamples, m => m.Problem == "cut at 2048 bytes");
    }

    [Fact]
    public void The_parser_survives_random_and_adversarial_payloads()
    {
        var random = new Random(42);
        var adversarial = new[]
        {
            new string('[', 10_000),
            "[{\"id\":\"1\",\"name\":\"x\",\"timestamp\":1e999,\"duration\":1,\"traceId\":\"t\"}]",
            "[{\"id\":\"1\",\"name\":\"x\",\"timestamp\":99999999999999999999999,\"duration\":1,\"traceId\":\"t\"}]",
            "[]",
            "[1]",
            "null",
            "{\"id\":1}",
            "[{\"id\":\"1\",\"name\":\"x\",\"timestamp\":1,\"duration\":1,\"traceId\":\"t\",\"tags\":[1,2]}]",
        };
        foreach (var text in adversarial)
        {
            SpanParser.Parse("n", Encoding.UTF8.GetBytes(text), out _);
        }
        var valid = Encoding.UTF8.GetBytes(SpanPayloads.Valid("jsonrpc", 1, 2, tags: ("id", "lnbench:xpay#1")));
        for (var i = 0; i < 100_000; i++)
        {
            var payload = i % 2 == 0 ? new byte[random.Next(0, 4096)] : valid.ToArray();
            if (i % 2 == 0)
            {
                random.NextBytes(payload);
            }
            else
            {
                payload[random.Next(payload.Length)] = (byte)random.Next(256);
                payload = payload.AsSpan(0, random.Next(1, payload.Length + 1)).ToArray();
            }
            var span = SpanParser.Parse("n", payload, out var problem);
            Assert.True(span is not null || problem is not null);
        }
    }

    [Fact]
    public void Zipkin_export_round_trips_with_each_node_as_its_own_service_and_one_trace_per_payment()
    {
        var spans = new[]
        {
            Parse(
                "alice",
                SpanPayloads.Valid(
                    "jsonrpc",
                    100,
                    50,
                    "a1",
                    null,
                    ("id", "lnbench:xpay#7/cln:xpay#2/cln-xpay:injectpaymentonion#1")
                )
            ),
            Parse("alice", SpanPayloads.Valid("db_exec_prepared", 120, 5, "a2", "a1", ("query", "UPDATE x"))),
            Parse("bob", SpanPayloads.Valid("lightningd/jsonrpc", 90, 3, "b1", null, ("method", "invoice"))),
        };
        var path = Path.Combine(directory, ZipkinExport.FileName);
        ZipkinExport.Write(
            path,
            () => spans,
            s => s.Tags.TryGetValue("id", out var id) ? RpcIdChain.PaymentId(id) : null,
            "run-1"
        );

        using var document = JsonDocument.Parse(File.ReadAllText(path));
        var exported = document.RootElement.EnumerateArray().ToList();
        Assert.Equal(3, exported.Count);
        Assert.Equal(
            ["alice", "alice", "bob"],
            exported.Select(e => e.GetProperty("localEndpoint").GetProperty("serviceName").GetString())
        );
        Assert.Equal([100L, 120, 90], exported.Select(e => e.GetProperty("timestamp").GetInt64()));
        Assert.Equal("7", exported[0].GetProperty("tags").GetProperty("lnbench.payment").GetString());
        Assert.Equal(32, exported[0].GetProperty("traceId").GetString()!.Length);
        // The db span's parent is in another trace (not joined to the payment), so the link is dropped.
        Assert.False(exported[1].TryGetProperty("parentId", out _));
        var reparsed = exported
            .Select(e => SpanParser.Parse("x", Encoding.UTF8.GetBytes($"[{e.GetRawText()}]"), out _))
            .ToList();
        Assert.All(reparsed, Assert.NotNull);
        var source = new CoreLightningTraceSource();
        Assert.Equal(spans.Select(source.OperationOf), reparsed.Select(s => source.OperationOf(s!)));
    }

    [Fact]
    public void Id_chains_name_the_payment_and_the_step()
    {
        const string chain = "lnbench:xpay#42/cln:xpay#89/cln-xpay:injectpaymentonion#9";
        Assert.Equal(42, RpcIdChain.PaymentId(chain));
        Assert.Equal("injectpaymentonion", RpcIdChain.LastMethod(chain));
        Assert.Equal(3, RpcIdChain.Depth(chain));
        Assert.Null(RpcIdChain.PaymentId("cln:autoclean#3/cln-autoclean:listinvoices#1"));
        Assert.Null(RpcIdChain.PaymentId("lnbench:getinfo#setup-4"));
        var source = new CoreLightningTraceSource();
        Assert.Equal(
            "jsonrpc:getroutes",
            source.OperationOf(
                Parse(
                    "alice",
                    SpanPayloads.Valid("jsonrpc", 1, 1, tags: ("id", "lnbench:xpay#1/cln:xpay#2/cln-xpay:getroutes#6"))
                )
            )
        );
        Assert.Equal(
            "lightningd/jsonrpc:invoice",
            source.OperationOf(
                Parse("bob", SpanPayloads.Valid("lightningd/jsonrpc", 1, 1, tags: ("method", "invoice")))
            )
        );
    }

    public void Dispose() => Directory.Delete(directory, recursive: true);

    private static Span Parse(string node, string payload) =>
        SpanParser.Parse(node, Encoding.UTF8.GetBytes(payload), out var problem)
        ?? throw new InvalidOperationException(problem);
}
