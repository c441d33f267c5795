namespace Lightning.Bench.Swarm.Relay;

/// <param name="Host">The agent's host (the swarm node's hostname).</param>
/// <param name="Session">Random, new each time the agent starts: a new session means what the old one held is gone.</param>
internal sealed record WelcomeMessage(int Version, string Host, long Session)
{
    public byte[] Encode() =>
        new FrameBodyWriter().U16(Version).String(Host).I64(Session).Frame(RelayFrameType.Welcome);

    public static WelcomeMessage Decode(RelayFrame frame)
    {
        var reader = new FrameBodyReader(frame);
        var message = new WelcomeMessage(reader.U16(), reader.String(), reader.I64());
        reader.End();
        return message;
    }
}
