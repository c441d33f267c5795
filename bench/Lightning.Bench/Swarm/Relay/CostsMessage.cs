using Lightning.Bench.Results;

namespace Lightning.Bench.Swarm.Relay;

internal sealed record CostsMessage(int RequestId, IReadOnlyList<NodeCostReading> Readings)
{
    public byte[] Encode()
    {
        var writer = new FrameBodyWriter().I32(RequestId).U16(Readings.Count);
        foreach (var r in Readings)
        {
            writer.String(r.Node).String(r.Problem).I64(r.CpuNanoseconds).U8(r.Resources is null ? (byte)0 : (byte)1);
            if (r.Resources is { } s)
            {
                writer
                    .I64(s.CpuNanoseconds)
                    .I64(s.MemoryBytes)
                    .I64(s.RssBytes)
                    .I64(s.PeakBytes)
                    .I64(s.WrittenBytes)
                    .I32(s.OpenFiles)
                    .I32(s.Processes)
                    .I64(s.DataBytes);
            }
        }
        return writer.Frame(RelayFrameType.Costs);
    }

    public static CostsMessage Decode(RelayFrame frame)
    {
        var reader = new FrameBodyReader(frame);
        var id = reader.I32();
        var readings = new List<NodeCostReading>();
        for (var count = reader.U16(); count > 0; count--)
        {
            var (node, problem, cpu) = (reader.String(), reader.String(), reader.I64());
            var resources =
                reader.U8() == 1
                    ? new NodeResourceSample(
                        reader.I64(),
                        reader.I64(),
                        reader.I64(),
                        reader.I64(),
                        reader.I64(),
                        reader.I32(),
                        reader.I32(),
                        reader.I64()
                    )
                    : null;
            readings.Add(new NodeCostReading(node, problem, cpu, resources));
        }
        reader.End();
        return new CostsMessage(id, readings);
    }
}
