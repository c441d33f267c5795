using System.Net;
using System.Net.Sockets;
using System.Text;
using Lightning.Bench.Progress;

namespace Lightning.Bench.Swarm.Relay;

/// <summary>
/// The run's gate into its overlay network: `Lightning.Bench overlay-gate --socket PATH`, a container of the harness
/// image on the overlay with a folder of the manager's host mounted. Each connection to its Unix socket starts with one
/// line, `CONNECT HOST PORT` (answered `OK`, then the bytes of a TCP connection to HOST:PORT made from inside the
/// overlay, both ways until either side closes) or `RESOLVE NAME` (answered `OK ADDR ADDR…`, swarm's DNS on the
/// overlay); a failure is answered `ERR why` and closed. The socket's folder is the harness user's alone (0700), so
/// the gate is no wider than the engine's own socket; agents and bitcoind publish no port.
/// </summary>
internal static class OverlayGate
{
    public const string Command = "overlay-gate";

    /// <summary>The socket's name in the gate's folder.</summary>
    public const string SocketName = "overlay.sock";

    private const int MaxLineBytes = 512;
    private static readonly TimeSpan ConnectTimeout = TimeSpan.FromSeconds(10);

    /// <summary>`overlay-gate --socket PATH`: serves until SIGTERM or Ctrl+C.</summary>
    public static int Run(IReadOnlyList<string> args)
    {
        if (args is not ["--socket", var path])
        {
            return HarnessExit.Fail(
                HarnessExit.Usage,
                "overlay-gate needs --socket PATH (the Unix socket it listens on)"
            );
        }
        using var stop = new Processes.StopSignals();
        try
        {
            ServeAsync(path, stop.Token).GetAwaiter().GetResult();
        }
        catch (OperationCanceledException) { }
        return 0;
    }

    /// <summary>Listens on <paramref name="path"/> (replacing a stale socket file) until <paramref name="ct"/>.</summary>
    public static async Task ServeAsync(string path, CancellationToken ct)
    {
        File.Delete(path);
        using var listener = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        listener.Bind(new UnixDomainSocketEndPoint(path));
        listener.Listen(128);
        Console.WriteLine($"lnbench overlay gate: listening on {path}");
        while (true)
        {
            var client = await listener.AcceptAsync(ct);
            _ = Task.Run(() => HandleAsync(client, ct), CancellationToken.None);
        }
    }

    private static async Task HandleAsync(Socket client, CancellationToken ct)
    {
        using (client)
        {
            string? line;
            try
            {
                line = await ReadLineAsync(client, ct);
            }
            catch (InvalidDataException e)
            {
                await TryWriteLineAsync(client, $"ERR {e.Message}");
                return;
            }
            catch (Exception e) when (e is IOException or SocketException or OperationCanceledException)
            {
                return;
            }
            var parts = line?.Split(' ', StringSplitOptions.RemoveEmptyEntries) ?? [];
            try
            {
                switch (parts)
                {
                    case ["RESOLVE", var name]:
                        var addresses = await Dns.GetHostAddressesAsync(name, ct);
                        await WriteLineAsync(client, "OK" + string.Concat(addresses.Select(a => " " + a)), ct);
                        return;
                    case ["CONNECT", var host, var portText]
                        when int.TryParse(portText, out var port) && port is > 0 and < 65536:
                        using (var target = new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true })
                        {
                            using (var limit = CancellationTokenSource.CreateLinkedTokenSource(ct))
                            {
                                limit.CancelAfter(ConnectTimeout);
                                await target.ConnectAsync(host, port, limit.Token);
                            }
                            await WriteLineAsync(client, "OK", ct);
                            await PipeAsync(client, target, ct);
                        }
                        return;
                    default:
                        await WriteLineAsync(client, $"ERR '{line}' is neither CONNECT HOST PORT nor RESOLVE NAME", ct);
                        return;
                }
            }
            catch (Exception e)
                when (e is SocketException or IOException or OperationCanceledException && !ct.IsCancellationRequested)
            {
                await TryWriteLineAsync(
                    client,
                    $"ERR {(e is OperationCanceledException ? "no answer within " + ConnectTimeout.TotalSeconds + " s" : e.Message)}"
                );
            }
            catch (Exception e) when (e is SocketException or IOException or OperationCanceledException) { }
        }
    }

    /// <summary>Copies both ways; a side that ends its writing ends the other's, and both close when both have.</summary>
    private static async Task PipeAsync(Socket a, Socket b, CancellationToken ct)
    {
        static async Task CopyAsync(Socket from, Socket to, CancellationToken ct)
        {
            var buffer = new byte[64 * 1024];
            try
            {
                while (true)
                {
                    var read = await from.ReceiveAsync(buffer, SocketFlags.None, ct);
                    if (read == 0)
                    {
                        break;
                    }
                    await to.SendAsync(buffer.AsMemory(0, read), SocketFlags.None, ct);
                }
                to.Shutdown(SocketShutdown.Send);
            }
            catch (Exception e) when (e is SocketException or ObjectDisposedException or OperationCanceledException)
            {
                // Either side went away: closing both (below) ends the other copy.
                from.Close();
                to.Close();
            }
        }
        await Task.WhenAll(CopyAsync(a, b, ct), CopyAsync(b, a, ct));
    }

    /// <summary>A connection to HOST:PORT on the overlay through the gate at <paramref name="gateSocket"/>.</summary>
    public static async Task<Socket> ConnectAsync(
        string gateSocket,
        string host,
        int port,
        CancellationToken ct = default
    )
    {
        var socket = await OpenAsync(gateSocket, ct);
        try
        {
            await WriteLineAsync(socket, $"CONNECT {host} {port}", ct);
            var answer = await ReadLineAsync(socket, ct);
            if (answer != "OK")
            {
                throw new SocketException(
                    (int)SocketError.ConnectionRefused,
                    $"{host}:{port} through the run's gate: {Answer(answer)}"
                );
            }
            return socket;
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }

    /// <summary>What swarm's DNS on the overlay answers for <paramref name="name"/> (e.g. tasks.SERVICE: every task's address).</summary>
    public static async Task<IPAddress[]> ResolveAsync(string gateSocket, string name, CancellationToken ct = default)
    {
        using var socket = await OpenAsync(gateSocket, ct);
        await WriteLineAsync(socket, $"RESOLVE {name}", ct);
        var answer = await ReadLineAsync(socket, ct);
        if (answer is null || !answer.StartsWith("OK", StringComparison.Ordinal))
        {
            throw new SocketException(
                (int)SocketError.HostNotFound,
                $"{name} through the run's gate: {Answer(answer)}"
            );
        }
        return answer[2..].Split(' ', StringSplitOptions.RemoveEmptyEntries).Select(IPAddress.Parse).ToArray();
    }

    private static string Answer(string? answer) =>
        answer is null ? "the gate closed the connection"
        : answer.StartsWith("ERR ", StringComparison.Ordinal) ? answer[4..]
        : answer;

    private static async Task<Socket> OpenAsync(string gateSocket, CancellationToken ct)
    {
        var socket = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        try
        {
            await socket.ConnectAsync(new UnixDomainSocketEndPoint(gateSocket), ct);
            return socket;
        }
        catch (SocketException e)
        {
            socket.Dispose();
            throw new SocketException(
                (int)e.SocketErrorCode,
                $"the run's gate {gateSocket} does not answer ({e.SocketErrorCode}): is its container running?"
            );
        }
    }

    private static Task WriteLineAsync(Socket socket, string line, CancellationToken ct) =>
        socket.SendAsync(Encoding.UTF8.GetBytes(line + "\n"), SocketFlags.None, ct).AsTask();

    private static async Task TryWriteLineAsync(Socket socket, string line)
    {
        try
        {
            using var limit = new CancellationTokenSource(TimeSpan.FromSeconds(1));
            await WriteLineAsync(socket, line, limit.Token);
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException or OperationCanceledException) { }
    }

    /// <summary>One line, read a byte at a time so nothing after it is taken from the stream; null when the peer closed first.</summary>
    private static async Task<string?> ReadLineAsync(Socket socket, CancellationToken ct)
    {
        var bytes = new List<byte>();
        var one = new byte[1];
        while (true)
        {
            if (await socket.ReceiveAsync(one, SocketFlags.None, ct) == 0)
            {
                return null;
            }
            if (one[0] == (byte)'\n')
            {
                return Encoding.UTF8.GetString(bytes.ToArray());
            }
            if (bytes.Count >= MaxLineBytes)
            {
                throw new InvalidDataException($"a gate line longer than {MaxLineBytes} bytes");
            }
            bytes.Add(one[0]);
        }
    }
}
