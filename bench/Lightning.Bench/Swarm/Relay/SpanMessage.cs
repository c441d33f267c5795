namespace Lightning.Bench.Swarm.Relay;

/// <param name="Sequence">1, 2, 3… within the node's stream in one agent session: a gap is a frame lost on the way.</param>
/// <param name="ReceivedUnixMicros">When the agent received the datagram (its host's clock).</param>
/// <param name="Payload">The datagram, byte for byte.</param>
internal sealed record SpanMessage(string Topology, string Node, long Sequence, long ReceivedUnixMicros, byte[] Payload)
{
    public byte[] Encode() =>
        new FrameBodyWriter()
            .String(Topology)
            .String(Node)
            .I64(Sequence)
            .I64(ReceivedUnixMicros)
            .Rest(Payload)
            .Frame(RelayFrameType.Span);

    public static SpanMessage Decode(RelayFrame frame)
    {
        var reader = new FrameBodyReader(frame);
        return new SpanMessage(reader.String(), reader.String(), reader.I64(), reader.I64(), reader.Rest().ToArray());
    }
}
