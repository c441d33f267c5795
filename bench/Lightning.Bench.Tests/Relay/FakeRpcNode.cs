using System.Collections.Concurrent;
using System.Net.Sockets;
using System.Text.Json;

namespace Lightning.Bench.Tests.Relay;

/// <summary>
/// A node's JSON-RPC socket as Core Lightning serves it: a Unix stream socket at NODE/NETWORK/lightning-rpc taking
/// concatenated JSON requests and answering each by id. Every answer echoes the method and the id it saw and carries
/// <c>pad</c> bytes when asked (answers larger than any buffer on the way).
/// </summary>
internal sealed class FakeRpcNode : IAsyncDisposable
{
    private readonly Socket listener = new(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
    private readonly CancellationTokenSource stopping = new();
    private readonly Task accepting;
    private readonly int closeAfter;
    private int connections;
    private int ended;

    /// <param name="closeAfter">Answers per connection before the node closes it (0: never).</param>
    public FakeRpcNode(string nodeFolder, string network = "regtest", int closeAfter = 0)
    {
        var folder = Path.Combine(nodeFolder, network);
        Directory.CreateDirectory(folder);
        SocketPath = Path.Combine(folder, "lightning-rpc");
        this.closeAfter = closeAfter;
        listener.Bind(new UnixDomainSocketEndPoint(SocketPath));
        listener.Listen(16);
        accepting = Task.Run(AcceptAsync);
    }

    public string SocketPath { get; }

    public ConcurrentQueue<string> IdsSeen { get; } = new();

    public int Connections => Volatile.Read(ref connections);

    /// <summary>Connections the other side closed (a pipe that ended reaches the node as an end of stream).</summary>
    public int Ended => Volatile.Read(ref ended);

    public async ValueTask DisposeAsync()
    {
        stopping.Cancel();
        listener.Dispose();
        await accepting.ContinueWith(_ => { });
        File.Delete(SocketPath);
    }

    private async Task AcceptAsync()
    {
        while (!stopping.IsCancellationRequested)
        {
            Socket connection;
            try
            {
                connection = await listener.AcceptAsync(stopping.Token);
            }
            catch (Exception e) when (e is OperationCanceledException or SocketException or ObjectDisposedException)
            {
                return;
            }
            Interlocked.Increment(ref connections);
            _ = Task.Run(() => ServeAsync(connection));
        }
    }

    private async Task ServeAsync(Socket connection)
    {
        using var _ = connection;
        var buffer = new byte[1 << 20];
        var length = 0;
        var answered = 0;
        try
        {
            while (true)
            {
                var read = await connection.ReceiveAsync(buffer.AsMemory(length), SocketFlags.None, stopping.Token);
                if (read == 0)
                {
                    Interlocked.Increment(ref ended);
                    return;
                }
                length += read;
                while (NextRequest(buffer.AsSpan(0, length)) is { } consumed)
                {
                    using var request = JsonDocument.Parse(buffer.AsMemory(0, consumed));
                    var id = request.RootElement.GetProperty("id").GetString()!;
                    IdsSeen.Enqueue(id);
                    var pad = request.RootElement.GetProperty("params").TryGetProperty("pad", out var p)
                        ? p.GetInt32()
                        : 0;
                    var answer = JsonSerializer.SerializeToUtf8Bytes(
                        new
                        {
                            jsonrpc = "2.0",
                            id,
                            result = new
                            {
                                method = request.RootElement.GetProperty("method").GetString(),
                                id,
                                pad = new string('x', pad),
                            },
                        }
                    );
                    await connection.SendAsync(answer, SocketFlags.None, stopping.Token);
                    Buffer.BlockCopy(buffer, consumed, buffer, 0, length - consumed);
                    length -= consumed;
                    if (closeAfter > 0 && ++answered == closeAfter)
                    {
                        connection.Shutdown(SocketShutdown.Both);
                        return;
                    }
                }
            }
        }
        catch (Exception e) when (e is OperationCanceledException or SocketException or ObjectDisposedException) { }
    }

    /// <summary>The length of the first whole JSON value in the buffer, or null while it is still arriving.</summary>
    private static int? NextRequest(ReadOnlySpan<byte> bytes)
    {
        var reader = new Utf8JsonReader(bytes, isFinalBlock: false, default);
        return reader.Read() && reader.TrySkip() ? (int)reader.BytesConsumed : null;
    }
}
