using System.Text;

namespace Lightning.Bench.Relay;

/// <summary>A node to profile on the agent's host: its name and the host pid of its container's first process.</summary>
internal sealed record ProfileTarget(string Node, int Pid);

/// <summary>Harness → agent: start a switched-off `perf record` per node on its container's cgroup (as CaseProfiler does on one host).</summary>
internal sealed record ProfileStartMessage(int RequestId, string Topology, int FrequencyHz, string CallGraph, IReadOnlyList<ProfileTarget> Targets)
{
    public byte[] Encode()
    {
        var writer = new FrameBodyWriter().I32(RequestId).String(Topology).U16(FrequencyHz).String(CallGraph).U16(Targets.Count);
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

/// <summary>Harness → agent: switch a topology's recordings on (an invocation to sample begins) or off (it ended).</summary>
internal sealed record ProfileSwitchMessage(int RequestId, string Topology, bool On)
{
    public byte[] Encode() => new FrameBodyWriter().I32(RequestId).String(Topology).U8(On ? (byte)1 : (byte)0).Frame(RelayFrameType.ProfileSwitch);

    public static ProfileSwitchMessage Decode(RelayFrame frame)
    {
        var reader = new FrameBodyReader(frame);
        var (id, topology, on) = (reader.I32(), reader.String(), reader.U8());
        reader.End();
        return on <= 1 ? new ProfileSwitchMessage(id, topology, on == 1)
            : throw new RelayProtocolException(RelayProblem.Malformed, $"ProfileSwitch frame: on/off byte {on}");
    }
}

/// <summary>Harness → agent: end a topology's recordings and send each node's folded stacks back as ProfileChunk frames.</summary>
internal sealed record ProfileStopMessage(int RequestId, string Topology)
{
    public byte[] Encode() => new FrameBodyWriter().I32(RequestId).String(Topology).Frame(RelayFrameType.ProfileStop);

    public static ProfileStopMessage Decode(RelayFrame frame)
    {
        var reader = new FrameBodyReader(frame);
        var message = new ProfileStopMessage(reader.I32(), reader.String());
        reader.End();
        return message;
    }
}

/// <summary>Agent → harness: the answer to ProfileStart and ProfileSwitch, per node the problem (empty: done).</summary>
internal sealed record ProfileStateMessage(int RequestId, IReadOnlyList<(string Node, string Problem)> Nodes)
{
    public byte[] Encode()
    {
        var writer = new FrameBodyWriter().I32(RequestId).U16(Nodes.Count);
        foreach (var (node, problem) in Nodes)
        {
            writer.String(node).String(problem);
        }
        return writer.Frame(RelayFrameType.ProfileState);
    }

    public static ProfileStateMessage Decode(RelayFrame frame)
    {
        var reader = new FrameBodyReader(frame);
        var id = reader.I32();
        var nodes = new List<(string, string)>();
        for (var count = reader.U16(); count > 0; count--)
        {
            nodes.Add((reader.String(), reader.String()));
        }
        reader.End();
        return new ProfileStateMessage(id, nodes);
    }

    public string Problems => string.Join("; ", Nodes.Where(n => n.Problem.Length > 0).Select(n => $"{n.Node}: {n.Problem}"));
}

/// <summary>
/// Agent → harness: part of one node's folded stacks (whole lines, at most <see cref="MaxTextBytes"/>). The node's last
/// chunk says how long it was sampled, how big its raw recording was, and why it has no stacks if it has none.
/// </summary>
internal sealed record ProfileChunkMessage(int RequestId, string Node, bool Last, string Problem, long SampledMicroseconds, long RawBytes, byte[] Text)
{
    public const string TooLongStack = "[stack longer than a chunk]";

    /// <summary>Well under a frame's 1 MiB.</summary>
    public const int MaxTextBytes = 512 * 1024;

    public byte[] Encode() => new FrameBodyWriter().I32(RequestId).String(Node).U8(Last ? (byte)1 : (byte)0).String(Problem)
        .I64(SampledMicroseconds).I64(RawBytes).Rest(Text).Frame(RelayFrameType.ProfileChunk);

    public static ProfileChunkMessage Decode(RelayFrame frame)
    {
        var reader = new FrameBodyReader(frame);
        var (id, node, last, problem, sampled, raw) = (reader.I32(), reader.String(), reader.U8(), reader.String(), reader.I64(), reader.I64());
        var text = reader.Rest().ToArray();
        if (last > 1 || sampled < 0 || raw < 0 || text.Length > MaxTextBytes)
        {
            throw new RelayProtocolException(RelayProblem.Malformed, $"ProfileChunk frame of {node}: flag {last}, sampled {sampled} µs, raw {raw} B, {text.Length} B of stacks");
        }
        return new ProfileChunkMessage(id, node, last == 1, problem, sampled, raw, text);
    }

    /// <summary>A node's folded stacks as chunk frames: its lines cut into pieces of whole lines, the last carrying the figures.</summary>
    public static IEnumerable<ProfileChunkMessage> Split(int requestId, string node, string foldedText, TimeSpan sampled, long rawBytes)
    {
        var pending = new StringBuilder();
        var pendingBytes = 0;
        foreach (var line in foldedText.Split('\n', StringSplitOptions.RemoveEmptyEntries))
        {
            var text = line + "\n";
            var bytes = Encoding.UTF8.GetByteCount(text);
            if (bytes > MaxTextBytes)
            {
                // A stack longer than a chunk (thousands of frames) keeps its samples under a frame that says so.
                text = $"{TooLongStack} {line[(line.LastIndexOf(' ') + 1)..]}\n";
                bytes = Encoding.UTF8.GetByteCount(text);
            }
            if (pendingBytes + bytes > MaxTextBytes)
            {
                yield return new ProfileChunkMessage(requestId, node, false, "", 0, 0, Encoding.UTF8.GetBytes(pending.ToString()));
                pending.Clear();
                pendingBytes = 0;
            }
            pending.Append(text);
            pendingBytes += bytes;
        }
        yield return new ProfileChunkMessage(requestId, node, true, "", (long)sampled.TotalMicroseconds, rawBytes, Encoding.UTF8.GetBytes(pending.ToString()));
    }
}
