using System.Net;
using System.Net.Sockets;

namespace Lightning.Bench.Tests.Relay;

/// <summary>
/// A TCP proxy between the harness and an agent whose upstream can change (an agent restarted elsewhere) and which can
/// cut its first connection after forwarding a number of the agent's bytes, in the middle of a frame: what the agent
/// wrote beyond that is lost, as on a connection that broke.
/// </summary>
internal sealed class CuttingProxy : IAsyncDisposable
{
    private readonly TcpListener listener = new(IPAddress.Loopback, 0);
    private readonly CancellationTokenSource closing = new();
    private readonly List<TcpClient> open = [];
    private readonly Task accepting;
    private long? cutAfter;

    public CuttingProxy(IPEndPoint upstream, long? cutFirstAfter = null)
    {
        Upstream = upstream;
        cutAfter = cutFirstAfter;
        listener.Start();
        accepting = Task.Run(AcceptAsync);
    }

    public IPEndPoint Endpoint => (IPEndPoint)listener.LocalEndpoint;

    public IPEndPoint Upstream { get; set; }

    public int Cuts { get; private set; }

    public async ValueTask DisposeAsync()
    {
        closing.Cancel();
        listener.Stop();
        lock (open)
        {
            open.ForEach(c => c.Dispose());
        }
        await accepting.ContinueWith(_ => { }, TaskScheduler.Default);
    }

    private async Task AcceptAsync()
    {
        while (!closing.IsCancellationRequested)
        {
            TcpClient downstream;
            try
            {
                downstream = await listener.AcceptTcpClientAsync(closing.Token);
            }
            catch (Exception)
            {
                return;
            }
            var upstream = new TcpClient();
            try
            {
                await upstream.ConnectAsync(Upstream, closing.Token);
            }
            catch (Exception)
            {
                downstream.Dispose();
                upstream.Dispose();
                continue;
            }
            lock (open)
            {
                open.Add(downstream);
                open.Add(upstream);
            }
            var limit = cutAfter;
            cutAfter = null;
            _ = PumpAsync(downstream, upstream, null);
            _ = PumpAsync(upstream, downstream, limit);
        }
    }

    private async Task PumpAsync(TcpClient from, TcpClient to, long? limit)
    {
        var buffer = new byte[16384];
        long forwarded = 0;
        try
        {
            while (true)
            {
                var read = await from.GetStream().ReadAsync(buffer, closing.Token);
                if (read == 0)
                {
                    break;
                }
                var take = limit is { } l ? (int)Math.Min(read, l - forwarded) : read;
                await to.GetStream().WriteAsync(buffer.AsMemory(0, take), closing.Token);
                forwarded += take;
                if (limit is { } cut && forwarded >= cut)
                {
                    Cuts++;
                    break;
                }
            }
        }
        catch (Exception) { }
        from.Dispose();
        to.Dispose();
    }
}
