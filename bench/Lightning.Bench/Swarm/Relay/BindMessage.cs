namespace Lightning.Bench.Swarm.Relay;

/// <summary>Bind a socket per node at WORK/TOPOLOGY/NODE/trace.sock (the node folder, made if missing).</summary>
internal sealed record BindMessage(string Topology, IReadOnlyList<string> Nodes)
{
    public byte[] Encode()
    {
        var writer = new FrameBodyWriter().String(Topology).U16(Nodes.Count);
        foreach (var node in Nodes)
        {
            writer.String(node);
        }
        return writer.Frame(RelayFrameType.Bind);
    }

    public static BindMessage Decode(RelayFrame frame)
    {
        var reader = new FrameBodyReader(frame);
        var topology = reader.String();
        var nodes = new List<string>();
        for (var count = reader.U16(); count > 0; count--)
        {
            nodes.Add(reader.String());
        }
        reader.End();
        return new BindMessage(topology, nodes);
    }
}
