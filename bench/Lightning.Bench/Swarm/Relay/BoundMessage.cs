namespace Lightning.Bench.Swarm.Relay;

internal sealed record BoundMessage(string Topology, IReadOnlyList<BoundSocket> Sockets)
{
    public byte[] Encode()
    {
        var writer = new FrameBodyWriter().String(Topology).U16(Sockets.Count);
        foreach (var socket in Sockets)
        {
            writer.String(socket.Node).String(socket.Problem).I32(socket.KernelBufferBytes);
        }
        return writer.Frame(RelayFrameType.Bound);
    }

    public static BoundMessage Decode(RelayFrame frame)
    {
        var reader = new FrameBodyReader(frame);
        var topology = reader.String();
        var sockets = new List<BoundSocket>();
        for (var count = reader.U16(); count > 0; count--)
        {
            sockets.Add(new BoundSocket(reader.String(), reader.String(), reader.I32()));
        }
        reader.End();
        return new BoundMessage(topology, sockets);
    }
}
