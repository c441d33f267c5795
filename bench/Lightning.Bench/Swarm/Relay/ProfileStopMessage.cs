namespace Lightning.Bench.Swarm.Relay;

/// <summary>Harness → agent: end a topology's recordings and send each node's folded stacks back as ProfileChunk frames.</summary>
internal sealed record ProfileStopMessage(int RequestId, string Topology)
{
    public byte[] Encode() => new FrameBodyWriter().I32(RequestId).String(Topology).Frame(RelayFrameType.ProfileStop);

    public static ProfileStopMessage Decode(RelayFrame frame)
    {
        var reader = new FrameBodyReader(frame);
        var message = new ProfileStopMessage(reader.I32(), reader.String());
        reader.End();
        return message;
    }
}
