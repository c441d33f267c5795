using System.Net.Sockets;
using System.Text;
using System.Text.Json;

namespace Lightning.Bench.Cases;

/// <summary>
/// LNBENCH_TURN_SOCKET=PATH, for measuring the harness against another program at the same moments of the machine
/// (benchmarks/harness-overhead.sh: a plain loop over its own nodes): before each invocation, outside its timing and
/// before the wait for quiet nodes, the harness writes one JSON line (<c>{"case":…,"invocation":N,"payments":C}</c>)
/// to this Unix stream socket and waits for a line back, while the other program makes its own invocation of as many
/// payments at once. Their invocations then take turns, as alternating arms do. Not set: nothing happens.
/// </summary>
internal sealed class TurnSocket(string path) : IDisposable
{
    public const string Variable = "LNBENCH_TURN_SOCKET";
    private readonly SemaphoreSlim gate = new(1, 1);
    private Socket? socket;
    private NetworkStream? stream;
    private StreamReader? reader;

    public string Path { get; } = path;

    /// <summary>The socket LNBENCH_TURN_SOCKET names, or null when it is not set.</summary>
    public static TurnSocket? FromEnvironment() =>
        Environment.GetEnvironmentVariable(Variable) is { Length: > 0 } path ? new TurnSocket(path) : null;

    /// <summary>Gives the other program its turn and waits until it says it is done.</summary>
    public async Task TakeTurnAsync(string caseKey, int invocation, int payments, CancellationToken ct)
    {
        await gate.WaitAsync(ct);
        try
        {
            if (stream is null)
            {
                socket = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
                try
                {
                    await socket.ConnectAsync(new UnixDomainSocketEndPoint(Path), ct);
                }
                catch (SocketException e)
                {
                    throw new InvalidOperationException(
                        $"{Variable}={Path}: cannot connect ({e.SocketErrorCode}); start the program that takes turns first, or unset {Variable}",
                        e
                    );
                }
                stream = new NetworkStream(socket, ownsSocket: true);
                reader = new StreamReader(stream, Encoding.UTF8);
            }
            var line =
                JsonSerializer.Serialize(
                    new
                    {
                        @case = caseKey,
                        invocation,
                        payments,
                    }
                ) + "\n";
            await stream.WriteAsync(Encoding.UTF8.GetBytes(line), ct);
            if (await reader!.ReadLineAsync(ct) is null)
            {
                throw new InvalidOperationException($"{Variable}={Path}: the program taking turns closed the socket");
            }
        }
        finally
        {
            gate.Release();
        }
    }

    public void Dispose()
    {
        reader?.Dispose();
        stream?.Dispose();
        socket?.Dispose();
        gate.Dispose();
    }
}
