namespace Lightning.Bench.Swarm.Relay;

/// <summary>
/// The agent's counts. Periodic ones cover every bound stream; a final one (the answer to Unbind) covers one topology,
/// and is queued behind that topology's last span frame, so when it arrives every frame that will arrive has.
/// </summary>
/// <param name="Session">The agent session the counts belong to.</param>
/// <param name="FramesWritten">Span frames the agent has written to harness connections in this session.</param>
internal sealed record CountersMessage(
    bool Final,
    long Session,
    long FramesWritten,
    IReadOnlyList<RelayStreamCounters> Streams
)
{
    public byte[] Encode()
    {
        var writer = new FrameBodyWriter()
            .U8(Final ? (byte)1 : (byte)0)
            .I64(Session)
            .I64(FramesWritten)
            .U16(Streams.Count);
        foreach (var s in Streams)
        {
            writer
                .String(s.Topology)
                .String(s.Node)
                .I64(s.Received)
                .I64(s.Dropped)
                .I64(s.Relayed)
                .I64(s.Bytes)
                .I32(s.KernelBufferBytes);
        }
        return writer.Frame(RelayFrameType.Counters);
    }

    public static CountersMessage Decode(RelayFrame frame)
    {
        var reader = new FrameBodyReader(frame);
        var final = reader.U8() switch
        {
            0 => false,
            1 => true,
            var other => throw new RelayProtocolException(
                RelayProblem.Malformed,
                $"Counters frame: final flag {other}"
            ),
        };
        var session = reader.I64();
        var written = reader.I64();
        var streams = new List<RelayStreamCounters>();
        for (var count = reader.U16(); count > 0; count--)
        {
            streams.Add(
                new RelayStreamCounters(
                    reader.String(),
                    reader.String(),
                    reader.I64(),
                    reader.I64(),
                    reader.I64(),
                    reader.I64(),
                    reader.I32()
                )
            );
        }
        reader.End();
        return new CountersMessage(final, session, written, streams);
    }
}
