namespace Lightning.Bench.Swarm.Relay;

/// <summary>Agent → harness: the answer to ProfileStart and ProfileSwitch, per node the problem (empty: done).</summary>
internal sealed record ProfileStateMessage(int RequestId, IReadOnlyList<(string Node, string Problem)> Nodes)
{
    public byte[] Encode()
    {
        var writer = new FrameBodyWriter().I32(RequestId).U16(Nodes.Count);
        foreach (var (node, problem) in Nodes)
        {
            writer.String(node).String(problem);
        }
        return writer.Frame(RelayFrameType.ProfileState);
    }

    public static ProfileStateMessage Decode(RelayFrame frame)
    {
        var reader = new FrameBodyReader(frame);
        var id = reader.I32();
        var nodes = new List<(string, string)>();
        for (var count = reader.U16(); count > 0; count--)
        {
            nodes.Add((reader.String(), reader.String()));
        }
        reader.End();
        return new ProfileStateMessage(id, nodes);
    }

    public string Problems =>
        string.Join("; ", Nodes.Where(n => n.Problem.Length > 0).Select(n => $"{n.Node}: {n.Problem}"));
}
