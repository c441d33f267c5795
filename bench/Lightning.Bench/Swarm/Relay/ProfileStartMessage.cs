namespace Lightning.Bench.Swarm.Relay;

/// <summary>Harness → agent: start a switched-off `perf record` per node on its container's cgroup (as CaseProfiler does on one host).</summary>
internal sealed record ProfileStartMessage(
    int RequestId,
    string Topology,
    int FrequencyHz,
    string CallGraph,
    IReadOnlyList<ProfileTarget> Targets
)
{
    public byte[] Encode()
    {
        var writer = new FrameBodyWriter()
            .I32(RequestId)
            .String(Topology)
            .U16(FrequencyHz)
            .String(CallGraph)
            .U16(Targets.Count);
        foreach (var target in Targets)
        {
            writer.String(target.Node).I32(target.Pid);
        }
        return writer.Frame(RelayFrameType.ProfileStart);
    }

    public static ProfileStartMessage Decode(RelayFrame frame)
    {
        var reader = new FrameBodyReader(frame);
        var (id, topology, frequency, callGraph) = (reader.I32(), reader.String(), reader.U16(), reader.String());
        var targets = new List<ProfileTarget>();
        for (var count = reader.U16(); count > 0; count--)
        {
            targets.Add(new ProfileTarget(reader.String(), reader.I32()));
        }
        reader.End();
        return new ProfileStartMessage(id, topology, frequency, callGraph, targets);
    }
}
