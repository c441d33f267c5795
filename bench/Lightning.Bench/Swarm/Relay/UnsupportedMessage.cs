namespace Lightning.Bench.Swarm.Relay;

/// <summary>A frame type the protocol defines but this agent does not implement (perf, the RPC pipe).</summary>
internal sealed record UnsupportedMessage(RelayFrameType Type)
{
    public byte[] Encode() => new FrameBodyWriter().U8((byte)Type).Frame(RelayFrameType.Unsupported);

    public static UnsupportedMessage Decode(RelayFrame frame)
    {
        var reader = new FrameBodyReader(frame);
        var type = reader.U8();
        reader.End();
        return RelayWire.IsDefined(type)
            ? new UnsupportedMessage((RelayFrameType)type)
            : throw new RelayProtocolException(
                RelayProblem.Malformed,
                $"Unsupported frame names unknown type 0x{type:x2}"
            );
    }
}
