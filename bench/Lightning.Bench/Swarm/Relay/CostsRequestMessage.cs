namespace Lightning.Bench.Swarm.Relay;

internal sealed record CostsRequestMessage(int RequestId, IReadOnlyList<CostTarget> Targets)
{
    public byte[] Encode()
    {
        var writer = new FrameBodyWriter().I32(RequestId).U16(Targets.Count);
        foreach (var target in Targets)
        {
            writer.String(target.Node).I32(target.Pid);
        }
        return writer.Frame(RelayFrameType.CostsRequest);
    }

    public static CostsRequestMessage Decode(RelayFrame frame)
    {
        var reader = new FrameBodyReader(frame);
        var id = reader.I32();
        var targets = new List<CostTarget>();
        for (var count = reader.U16(); count > 0; count--)
        {
            targets.Add(new CostTarget(reader.String(), reader.I32()));
        }
        reader.End();
        return new CostsRequestMessage(id, targets);
    }
}
