namespace Lightning.Bench.Swarm.Relay;

/// <summary>The agent's answer to a <see cref="QuietRequestMessage"/>: how long it waited and whether the nodes fell quiet, or why it could not read them.</summary>
internal sealed record QuietMessage(int RequestId, string Problem, TimeSpan Waited, bool Quiet)
{
    public byte[] Encode() =>
        new FrameBodyWriter()
            .I32(RequestId)
            .String(Problem)
            .I64((long)Math.Round(Waited.TotalMicroseconds))
            .U8(Quiet ? (byte)1 : (byte)0)
            .Frame(RelayFrameType.Quiet);

    public static QuietMessage Decode(RelayFrame frame)
    {
        var reader = new FrameBodyReader(frame);
        var message = new QuietMessage(
            reader.I32(),
            reader.String(),
            TimeSpan.FromMicroseconds(reader.I64()),
            reader.U8() == 1
        );
        reader.End();
        return message;
    }
}
