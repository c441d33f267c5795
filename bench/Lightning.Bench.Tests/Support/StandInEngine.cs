using System.Collections.Concurrent;
using System.Globalization;
using System.Net.Sockets;
using System.Text;

namespace Lightning.Bench.Tests.Support;

/// <summary>
/// A stand-in Docker engine on a real Unix socket: it answers the unversioned GET /version with the API range it is
/// given and refuses versioned paths outside that range with Docker's own message, as Docker Engine 29 does
/// (ApiVersion 1.52, MinAPIVersion 1.44). Other paths are answered by the test's handler; every request is recorded.
/// </summary>
internal sealed class StandInEngine : IAsyncDisposable
{
    private readonly Socket listener;
    private readonly CancellationTokenSource stop = new();
    private readonly Task accepting;
    private readonly Version newest;
    private readonly Version oldest;
    private readonly Func<string, string, StandInResponse?> handler;

    /// <param name="handler">(method, path without the version prefix) → the answer, or null for 404.</param>
    public StandInEngine(
        string directory,
        string apiVersion,
        string minApiVersion,
        Func<string, string, StandInResponse?>? handler = null
    )
    {
        SocketPath = Path.Combine(directory, $"engine-{Guid.NewGuid():N}"[..15] + ".sock");
        newest = Version.Parse(apiVersion);
        oldest = Version.Parse(minApiVersion);
        this.handler = handler ?? ((_, _) => null);
        listener = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        listener.Bind(new UnixDomainSocketEndPoint(SocketPath));
        listener.Listen(16);
        accepting = Task.Run(AcceptLoopAsync);
    }

    public string SocketPath { get; }

    public string Host => $"unix://{SocketPath}";

    /// <summary>"METHOD /path?query" of every request, in arrival order.</summary>
    public ConcurrentQueue<string> Requests { get; } = new();

    public async ValueTask DisposeAsync()
    {
        stop.Cancel();
        listener.Dispose();
        try
        {
            await accepting;
        }
        catch (Exception e) when (e is OperationCanceledException or ObjectDisposedException or SocketException) { }
        File.Delete(SocketPath);
    }

    private async Task AcceptLoopAsync()
    {
        while (!stop.IsCancellationRequested)
        {
            Socket connection;
            try
            {
                connection = await listener.AcceptAsync(stop.Token);
            }
            catch (Exception e) when (e is OperationCanceledException or ObjectDisposedException or SocketException)
            {
                return;
            }
            _ = Task.Run(() => ServeAsync(connection));
        }
    }

    private async Task ServeAsync(Socket connection)
    {
        using var _ = connection;
        await using var stream = new NetworkStream(connection, ownsSocket: false);
        try
        {
            var (method, target) = await ReadRequestAsync(stream);
            Requests.Enqueue($"{method} {target}");
            var path = target;
            if (
                target.StartsWith("/v", StringComparison.Ordinal)
                && target.IndexOf('/', 1) is var slash and > 0
                && Version.TryParse(target[2..slash], out var asked)
            )
            {
                path = target[slash..];
                if (asked < oldest)
                {
                    await WriteAsync(
                        stream,
                        new StandInResponse(
                            400,
                            $"{{\"message\":\"client version {asked} is too old. Minimum supported API version is {oldest}, please upgrade your client to a newer version\"}}"
                        )
                    );
                    return;
                }
                if (asked > newest)
                {
                    await WriteAsync(
                        stream,
                        new StandInResponse(
                            400,
                            $"{{\"message\":\"client version {asked} is too new. Maximum supported API version is {newest}\"}}"
                        )
                    );
                    return;
                }
            }
            else if (path == "/version" || path == "/_ping")
            {
                await WriteAsync(
                    stream,
                    new StandInResponse(
                        200,
                        $"{{\"Version\":\"stand-in\",\"ApiVersion\":\"{newest}\",\"MinAPIVersion\":\"{oldest}\",\"Os\":\"linux\"}}"
                    )
                );
                return;
            }
            else
            {
                // Docker 29 answers unversioned paths at its own version; the harness must never rely on that.
                await WriteAsync(stream, new StandInResponse(400, "{\"message\":\"unversioned path\"}"));
                return;
            }
            await WriteAsync(
                stream,
                handler(method, path) ?? new StandInResponse(404, "{\"message\":\"no such thing\"}")
            );
        }
        catch (Exception e)
            when (e is IOException or SocketException or ObjectDisposedException or OperationCanceledException) { }
    }

    private async Task WriteAsync(NetworkStream stream, StandInResponse response)
    {
        if (response.Delay > TimeSpan.Zero)
        {
            await Task.Delay(response.Delay, stop.Token);
        }
        if (response.Lines is null)
        {
            var body = Encoding.UTF8.GetBytes(response.Body);
            var head =
                $"HTTP/1.1 {response.Status} X\r\nContent-Type: application/json\r\nContent-Length: {body.Length.ToString(CultureInfo.InvariantCulture)}\r\nConnection: close\r\n\r\n";
            await stream.WriteAsync(Encoding.ASCII.GetBytes(head).Concat(body).ToArray(), stop.Token);
            return;
        }
        // A stream of lines (events, pull progress): no length, the body ends when the connection closes.
        await stream.WriteAsync(
            Encoding.ASCII.GetBytes(
                $"HTTP/1.1 {response.Status} X\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n"
            ),
            stop.Token
        );
        foreach (var line in response.Lines)
        {
            await stream.WriteAsync(Encoding.UTF8.GetBytes(line + "\n"), stop.Token);
            await stream.FlushAsync(stop.Token);
            await Task.Delay(20, stop.Token);
        }
        if (response.HoldOpen)
        {
            await Task.Delay(Timeout.Infinite, stop.Token);
        }
    }

    private static async Task<(string Method, string Target)> ReadRequestAsync(NetworkStream stream)
    {
        var header = new StringBuilder();
        var one = new byte[1];
        while (!header.ToString().EndsWith("\r\n\r\n", StringComparison.Ordinal))
        {
            if (await stream.ReadAsync(one) == 0)
            {
                throw new IOException("closed before the request ended");
            }
            header.Append((char)one[0]);
        }
        var lines = header.ToString().Split("\r\n");
        var length = lines
            .Select(l => l.Split(':', 2))
            .Where(p => p.Length == 2 && p[0].Trim().Equals("Content-Length", StringComparison.OrdinalIgnoreCase))
            .Select(p => int.Parse(p[1].Trim(), CultureInfo.InvariantCulture))
            .FirstOrDefault();
        var body = new byte[length];
        await stream.ReadExactlyAsync(body);
        var parts = lines[0].Split(' ');
        return (parts[0], parts[1]);
    }
}

/// <summary>An answer of the stand-in engine: a JSON body, or a stream of lines that may be held open.</summary>
internal sealed record StandInResponse(
    int Status,
    string Body = "",
    IReadOnlyList<string>? Lines = null,
    bool HoldOpen = false
)
{
    /// <summary>Wait this long before answering (a hung engine).</summary>
    public TimeSpan Delay { get; init; }
}
