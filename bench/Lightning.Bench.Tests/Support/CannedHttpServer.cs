using System.Net;
using System.Net.Sockets;
using System.Text;

namespace Lightning.Bench.Tests.Support;

/// <summary>
/// An HTTP/1.1 server on loopback that answers each request with what the test says (null: never answers) and keeps
/// every request as read off the wire, so a client's requests (headers, body framing) can be checked, not only its results.
/// </summary>
internal sealed class CannedHttpServer : IAsyncDisposable
{
    private readonly TcpListener listener = new(IPAddress.Loopback, 0);
    private readonly CancellationTokenSource stopping = new();
    private readonly Func<CannedHttpRequest, string?> answer;
    private readonly List<CannedHttpRequest> requests = [];
    private readonly List<Task> connections = [];
    private readonly Task accepting;

    public CannedHttpServer(Func<CannedHttpRequest, string?> answer)
    {
        this.answer = answer;
        listener.Start();
        Port = ((IPEndPoint)listener.LocalEndpoint).Port;
        accepting = AcceptAsync();
    }

    public int Port { get; }

    public Uri Endpoint => new($"http://127.0.0.1:{Port}/");

    public IReadOnlyList<CannedHttpRequest> Requests
    {
        get
        {
            lock (requests)
            {
                return requests.ToList();
            }
        }
    }

    /// <summary>An answer with a JSON body, as bitcoind sends its results and its errors (with their HTTP status).</summary>
    public static string Json(int status, string body) =>
        $"HTTP/1.1 {status} Canned\r\nContent-Type: application/json\r\nContent-Length: {Encoding.UTF8.GetByteCount(body)}\r\n\r\n{body}";

    /// <summary>An answer with no body, as bitcoind refuses a login.</summary>
    public static string Empty(int status) => $"HTTP/1.1 {status} Canned\r\nContent-Length: 0\r\n\r\n";

    /// <summary>A JSON-RPC result for a request (bitcoind's form: error null, the request's id).</summary>
    public static string Result(CannedHttpRequest request, string resultJson) =>
        Json(
            200,
            $$"""{"result":{{resultJson}},"error":null,"id":{{request.Json?["id"]?.ToJsonString() ?? "null"}}}"""
        );

    private async Task AcceptAsync()
    {
        try
        {
            while (true)
            {
                var socket = await listener.AcceptSocketAsync(stopping.Token);
                lock (connections)
                {
                    connections.Add(ServeAsync(socket));
                }
            }
        }
        catch (Exception e) when (e is OperationCanceledException or SocketException or ObjectDisposedException)
        {
            // Stopped.
        }
    }

    private async Task ServeAsync(Socket socket)
    {
        using (socket)
        {
            await using var stream = new NetworkStream(socket);
            try
            {
                while (await ReadRequestAsync(stream) is { } request)
                {
                    lock (requests)
                    {
                        requests.Add(request);
                    }
                    var response = answer(request);
                    if (response is null)
                    {
                        await Task.Delay(Timeout.Infinite, stopping.Token);
                        return;
                    }
                    await stream.WriteAsync(Encoding.UTF8.GetBytes(response), stopping.Token);
                }
            }
            catch (Exception e) when (e is IOException or SocketException or OperationCanceledException)
            {
                // The client went away, or the server stops.
            }
        }
    }

    /// <summary>The head up to its empty line, then the body by its Content-Length (none without one: a chunked body is not read).</summary>
    private async Task<CannedHttpRequest?> ReadRequestAsync(Stream stream)
    {
        var head = new List<byte>();
        var one = new byte[1];
        while (head.Count < 4 || head[^4] != '\r' || head[^3] != '\n' || head[^2] != '\r' || head[^1] != '\n')
        {
            if (await stream.ReadAsync(one, stopping.Token) == 0)
            {
                return null;
            }
            head.Add(one[0]);
        }
        var lines = Encoding.ASCII.GetString(head.ToArray()).Split("\r\n", StringSplitOptions.RemoveEmptyEntries);
        var headers = lines
            .Skip(1)
            .Select(l => l.Split(':', 2))
            .ToDictionary(p => p[0].Trim(), p => p[1].Trim(), StringComparer.OrdinalIgnoreCase);
        var body = "";
        if (headers.TryGetValue("Content-Length", out var length))
        {
            var bytes = new byte[int.Parse(length)];
            await stream.ReadExactlyAsync(bytes, stopping.Token);
            body = Encoding.UTF8.GetString(bytes);
        }
        return new CannedHttpRequest(lines[0], headers, body);
    }

    public async ValueTask DisposeAsync()
    {
        await stopping.CancelAsync();
        listener.Stop();
        await accepting;
        Task[] open;
        lock (connections)
        {
            open = connections.ToArray();
        }
        await Task.WhenAll(open);
        stopping.Dispose();
    }
}
