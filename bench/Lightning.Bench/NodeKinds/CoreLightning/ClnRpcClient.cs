using System.Collections.Concurrent;
using System.Net.Sockets;
using System.Text.Encodings.Web;
using System.Text.Json;
using System.Text.Json.Nodes;
using Lightning.Bench.Rpc;

namespace Lightning.Bench.NodeKinds.CoreLightning;

/// <summary>
/// JSON-RPC 2.0 over a Core Lightning node's Unix stream socket. Many requests may be in flight on one connection;
/// answers are matched by id, so every caller chooses an id that says what the request belongs to (the traces join on it).
/// </summary>
internal sealed class ClnRpcClient : IAsyncDisposable
{
    /// <summary>
    /// Only what JSON requires is escaped: Core Lightning reads some parameters (a PSBT's base64 '+', for one) without
    /// decoding \u escapes, which System.Text.Json's default writes for +, &lt;, &gt;, &amp; and '.
    /// </summary>
    public static readonly JsonSerializerOptions Wire = new() { Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping };

    /// <summary>The largest answer accepted: the harness's calls are answered in kilobytes; more means a broken stream.</summary>
    public const int DefaultMaxMessageBytes = 16 * 1024 * 1024;

    private readonly Socket socket;
    private readonly int maxMessageBytes;
    private readonly object gate = new();
    private readonly SemaphoreSlim writeLock = new(1, 1);
    private readonly ConcurrentDictionary<string, Pending> pending = new();
    private readonly CancellationTokenSource closing = new();
    private readonly Task readLoop;
    private Exception? failure;

    private ClnRpcClient(string node, Socket socket, int maxMessageBytes)
    {
        Node = node;
        this.socket = socket;
        this.maxMessageBytes = maxMessageBytes;
        readLoop = Task.Run(ReadLoopAsync);
    }

    public string Node { get; }

    public static async Task<ClnRpcClient> ConnectAsync(
        string node,
        string socketPath,
        CancellationToken ct = default,
        int maxMessageBytes = DefaultMaxMessageBytes
    )
    {
        var socket = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        try
        {
            await socket.ConnectAsync(new UnixDomainSocketEndPoint(socketPath), ct);
        }
        catch (SocketException e)
        {
            socket.Dispose();
            throw new RpcConnectionException($"{node}: cannot connect to {socketPath} ({e.SocketErrorCode})", e);
        }
        return new ClnRpcClient(node, socket, maxMessageBytes);
    }

    /// <summary>Over a stream socket already connected to a node's JSON-RPC (a pipe through an agent, see Relay/RelayRpc.cs); the client owns it.</summary>
    public static ClnRpcClient Over(string node, Socket connected, int maxMessageBytes = DefaultMaxMessageBytes) =>
        new(node, connected, maxMessageBytes);

    /// <summary>Sends one request and waits for its answer; a JSON-RPC error becomes a <see cref="JsonRpcException"/>.</summary>
    public async Task<JsonElement> CallAsync(
        string method,
        JsonObject? parameters,
        string id,
        CancellationToken ct = default
    )
    {
        var request = new JsonObject
        {
            ["jsonrpc"] = "2.0",
            ["id"] = id,
            ["method"] = method,
            ["params"] = parameters ?? new JsonObject(),
        };
        var entry = new Pending(
            method,
            new TaskCompletionSource<JsonElement>(TaskCreationOptions.RunContinuationsAsynchronously)
        );
        // Under the lock the read loop takes to fail every pending call: a call is either failed by it or sees the failure here.
        lock (gate)
        {
            if (failure is not null)
            {
                throw new RpcConnectionException($"{Node}: RPC connection is closed ({failure.Message})", failure);
            }
            if (!pending.TryAdd(id, entry))
            {
                throw new ArgumentException($"JSON-RPC id '{id}' is already in flight on {Node}", nameof(id));
            }
        }
        try
        {
            var bytes = JsonSerializer.SerializeToUtf8Bytes(request, Wire);
            await writeLock.WaitAsync(ct);
            try
            {
                var sent = 0;
                while (sent < bytes.Length)
                {
                    sent += await socket.SendAsync(bytes.AsMemory(sent), SocketFlags.None, ct);
                }
            }
            finally
            {
                writeLock.Release();
            }
            using var registration = ct.Register(() => entry.Answer.TrySetCanceled(ct));
            return await entry.Answer.Task;
        }
        catch (SocketException e)
        {
            throw new RpcConnectionException(
                $"{Node}: RPC connection failed while sending {method} ({e.SocketErrorCode})",
                e
            );
        }
        finally
        {
            pending.TryRemove(id, out _);
        }
    }

    public async ValueTask DisposeAsync()
    {
        closing.Cancel();
        try
        {
            socket.Shutdown(SocketShutdown.Both);
        }
        catch (SocketException) { }
        catch (ObjectDisposedException) { }
        socket.Dispose();
        await readLoop;
        closing.Dispose();
        writeLock.Dispose();
    }

    private async Task ReadLoopAsync()
    {
        var buffer = new byte[64 * 1024];
        var length = 0;
        try
        {
            while (true)
            {
                if (length == buffer.Length)
                {
                    if (buffer.Length >= maxMessageBytes)
                    {
                        throw new RpcConnectionException(
                            $"{Node}: an RPC answer exceeded {maxMessageBytes / 1024} KiB; the connection is closed"
                        );
                    }
                    Array.Resize(ref buffer, Math.Min(buffer.Length * 2, maxMessageBytes));
                }
                var read = await socket.ReceiveAsync(buffer.AsMemory(length), SocketFlags.None, closing.Token);
                if (read == 0)
                {
                    throw new RpcConnectionException($"{Node}: the node closed its RPC connection");
                }
                length += read;
                var start = 0;
                int valueLength;
                while ((valueLength = JsonFraming.CompleteValueLength(buffer.AsSpan(start, length - start))) > 0)
                {
                    Dispatch(buffer.AsMemory(start, valueLength));
                    start += valueLength;
                }
                // Whitespace between answers is consumed with the next value.
                Buffer.BlockCopy(buffer, start, buffer, 0, length - start);
                length -= start;
            }
        }
        catch (Exception e)
        {
            // Whatever ended the loop, no call may be left waiting for an answer that cannot come.
            var reason =
                e is RpcConnectionException
                    ? e
                    : new RpcConnectionException($"{Node}: RPC connection lost ({e.Message})", e);
            List<Pending> waiting;
            lock (gate)
            {
                failure = reason;
                waiting = pending.Values.ToList();
            }
            foreach (var entry in waiting)
            {
                entry.Answer.TrySetException(reason);
            }
            // Nothing more is read: the node must not block writing into a connection nobody drains.
            try
            {
                socket.Shutdown(SocketShutdown.Both);
            }
            catch (SocketException) { }
            catch (ObjectDisposedException) { }
        }
    }

    /// <summary>Completes the call an answer belongs to. An answer that is not valid JSON-RPC fails its call, not the connection.</summary>
    private void Dispatch(ReadOnlyMemory<byte> json)
    {
        using var document = JsonDocument.Parse(json);
        var root = document.RootElement;
        if (root.ValueKind != JsonValueKind.Object || !root.TryGetProperty("id", out var idElement))
        {
            return; // a notification
        }
        var id = idElement.ValueKind == JsonValueKind.String ? idElement.GetString()! : idElement.GetRawText();
        if (!pending.TryGetValue(id, out var entry))
        {
            return;
        }
        if (root.TryGetProperty("error", out var error))
        {
            var code =
                error.ValueKind == JsonValueKind.Object
                && error.TryGetProperty("code", out var c)
                && c.ValueKind == JsonValueKind.Number
                && c.TryGetInt64(out var n)
                    ? n
                    : 0;
            var message =
                error.ValueKind == JsonValueKind.Object && error.TryGetProperty("message", out var m)
                    ? m.ToString()
                    : error.GetRawText();
            entry.Answer.TrySetException(new JsonRpcException(Node, entry.Method, code, message));
        }
        else if (root.TryGetProperty("result", out var result))
        {
            entry.Answer.TrySetResult(result.Clone());
        }
        else
        {
            var raw = root.GetRawText();
            entry.Answer.TrySetException(
                new JsonRpcException(
                    Node,
                    entry.Method,
                    0,
                    $"the answer has neither 'result' nor 'error': {(raw.Length > 200 ? raw[..200] + "..." : raw)}"
                )
            );
        }
    }

    private sealed record Pending(string Method, TaskCompletionSource<JsonElement> Answer);
}
