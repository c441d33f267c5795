namespace Lightning.Bench.Swarm.Relay;

internal sealed record UnbindMessage(string Topology)
{
    public byte[] Encode() => new FrameBodyWriter().String(Topology).Frame(RelayFrameType.Unbind);

    public static UnbindMessage Decode(RelayFrame frame)
    {
        var reader = new FrameBodyReader(frame);
        var message = new UnbindMessage(reader.String());
        reader.End();
        return message;
    }
}
