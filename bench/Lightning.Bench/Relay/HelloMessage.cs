namespace Lightning.Bench.Relay;

/// <summary>The harness's first frame: the protocol version it speaks and the run's token.</summary>
internal sealed record HelloMessage(int Version, byte[] Token)
{
    public const int CurrentVersion = 1;

    public byte[] Encode() => new FrameBodyWriter().U16(Version).U16(Token.Length).Rest(Token).Frame(RelayFrameType.Hello);

    public static HelloMessage Decode(RelayFrame frame)
    {
        var reader = new FrameBodyReader(frame);
        var version = reader.U16();
        var length = reader.U16();
        var token = reader.Rest();
        if (token.Length != length)
        {
            throw new RelayProtocolException(RelayProblem.Malformed, $"Hello frame: a token of {token.Length} bytes where {length} were announced");
        }
        return new HelloMessage(version, token.ToArray());
    }

    public override string ToString() => $"Hello {{ Version = {Version}, Token = *** }}";
}
