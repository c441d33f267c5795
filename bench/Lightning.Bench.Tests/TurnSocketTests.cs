using System.Net.Sockets;
using System.Text;
using System.Text.Json;
using Lightning.Bench.Cases;

namespace Lightning.Bench.Tests;

/// <summary>LNBENCH_TURN_SOCKET on a real Unix socket: one line per turn, the harness waits for the answer, a missing program is one clear error.</summary>
[Trait("Category", "Unit")]
public class TurnSocketTests
{
    [Fact]
    public async Task Each_turn_is_one_json_line_and_waits_for_the_answer()
    {
        var path = Path.Combine(Path.GetTempPath(), $"lnb-turns-{Guid.NewGuid():N}.sock");
        using var server = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        server.Bind(new UnixDomainSocketEndPoint(path));
        server.Listen(1);
        var answer = new TaskCompletionSource();
        var seen = new List<string>();
        var serving = Task.Run(async () =>
        {
            using var connection = await server.AcceptAsync();
            using var stream = new NetworkStream(connection);
            using var reader = new StreamReader(stream, Encoding.UTF8);
            for (var i = 0; i < 2; i++)
            {
                seen.Add((await reader.ReadLineAsync())!);
                if (i == 0)
                {
                    await answer.Task;
                }
                await stream.WriteAsync("ok\n"u8.ToArray());
            }
        });
        try
        {
            using var turns = new TurnSocket(path);
            var first = turns.TakeTurnAsync("Build=a, Concurrency=10, Topology=1", 3, 10, CancellationToken.None);
            // Not answered yet: the turn is still being taken.
            await Task.Delay(200);
            Assert.False(first.IsCompleted);
            answer.SetResult();
            await first.WaitAsync(TimeSpan.FromSeconds(30));
            await turns
                .TakeTurnAsync("Build=a, Concurrency=1, Topology=1", 4, 1, CancellationToken.None)
                .WaitAsync(TimeSpan.FromSeconds(30));
            await serving.WaitAsync(TimeSpan.FromSeconds(30));

            using var line = JsonDocument.Parse(seen[0]);
            Assert.Equal("Build=a, Concurrency=10, Topology=1", line.RootElement.GetProperty("case").GetString());
            Assert.Equal(3, line.RootElement.GetProperty("invocation").GetInt32());
            Assert.Equal(10, line.RootElement.GetProperty("payments").GetInt32());
            Assert.Contains("\"invocation\":4", seen[1]);
        }
        finally
        {
            File.Delete(path);
        }
    }

    [Fact]
    public async Task Nobody_listening_is_one_clear_error_and_a_closed_socket_another()
    {
        var path = Path.Combine(Path.GetTempPath(), $"lnb-turns-{Guid.NewGuid():N}.sock");
        using (var turns = new TurnSocket(path))
        {
            var e = await Assert.ThrowsAsync<InvalidOperationException>(() =>
                turns.TakeTurnAsync("c", 1, 1, CancellationToken.None)
            );
            Assert.Contains("LNBENCH_TURN_SOCKET=" + path + ": cannot connect", e.Message);
        }
        using var server = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        server.Bind(new UnixDomainSocketEndPoint(path));
        server.Listen(1);
        try
        {
            var closing = Task.Run(async () =>
            {
                using var connection = await server.AcceptAsync();
                var buffer = new byte[256];
                await connection.ReceiveAsync(buffer);
            });
            using var turns = new TurnSocket(path);
            var e = await Assert.ThrowsAsync<InvalidOperationException>(() =>
                turns.TakeTurnAsync("c", 1, 1, CancellationToken.None).WaitAsync(TimeSpan.FromSeconds(30))
            );
            Assert.Contains("closed the socket", e.Message);
            await closing;
        }
        finally
        {
            File.Delete(path);
        }
    }
}
