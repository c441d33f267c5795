using System.Net;
using System.Net.Sockets;

namespace Lightning.Bench.Swarm.Relay;

/// <summary>
/// A TCP address on the run's overlay network, reached from the manager's host through the run's gate
/// (<see cref="OverlayGate"/>): the harness runs on the host, which has no route into an overlay network; the gate, a
/// container on the overlay, listens on a Unix socket in a folder of the host only its user can enter.
/// </summary>
internal sealed class OverlayEndPoint(string gateSocket, string host, int port) : EndPoint
{
    public string GateSocket { get; } = gateSocket;

    public string Host { get; } = host;

    public int Port { get; } = port;

    public override AddressFamily AddressFamily => AddressFamily.Unix;

    public override string ToString() => $"{Host}:{Port} (through the gate {GateSocket})";

    public override bool Equals(object? obj) =>
        obj is OverlayEndPoint o && o.GateSocket == GateSocket && o.Host == Host && o.Port == Port;

    public override int GetHashCode() => HashCode.Combine(GateSocket, Host, Port);
}

/// <summary>Opens a stream connection to an agent or service: directly over TCP, or through the run's gate (<see cref="OverlayEndPoint"/>).</summary>
internal static class Dial
{
    public static async Task<Socket> ConnectAsync(EndPoint target, CancellationToken ct = default)
    {
        if (target is OverlayEndPoint overlay)
        {
            return await OverlayGate.ConnectAsync(overlay.GateSocket, overlay.Host, overlay.Port, ct);
        }
        var socket = new Socket(target.AddressFamily, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        try
        {
            await socket.ConnectAsync(target, ct);
            return socket;
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }
}
