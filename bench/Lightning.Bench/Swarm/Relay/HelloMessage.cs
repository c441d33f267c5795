namespace Lightning.Bench.Swarm.Relay;

/// <summary>The harness's first frame: the protocol version it speaks and the run's token.</summary>
internal sealed record HelloMessage(int Version, byte[] Token)
{
    public const int CurrentVersion = 1;

    /// <param name="type">Hello, or Probe: the same body on a connection that only asks who the agent is.</param>
    public byte[] Encode(RelayFrameType type = RelayFrameType.Hello) =>
        new FrameBodyWriter().U16(Version).U16(Token.Length).Rest(Token).Frame(type);

    public static HelloMessage Decode(RelayFrame frame)
    {
        var reader = new FrameBodyReader(frame);
        var version = reader.U16();
        var length = reader.U16();
        var token = reader.Rest();
        if (token.Length != length)
        {
            throw new RelayProtocolException(
                RelayProblem.Malformed,
                $"{frame.Type} frame: a token of {token.Length} bytes where {length} were announced"
            );
        }
        return new HelloMessage(version, token.ToArray());
    }

    public override string ToString() => $"Hello {{ Version = {Version}, Token = *** }}";
}
