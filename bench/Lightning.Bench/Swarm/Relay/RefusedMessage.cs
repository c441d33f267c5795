namespace Lightning.Bench.Swarm.Relay;

internal sealed record RefusedMessage(string Reason)
{
    public byte[] Encode() => new FrameBodyWriter().String(Reason).Frame(RelayFrameType.Refused);

    public static RefusedMessage Decode(RelayFrame frame)
    {
        var reader = new FrameBodyReader(frame);
        var message = new RefusedMessage(reader.String());
        reader.End();
        return message;
    }
}
