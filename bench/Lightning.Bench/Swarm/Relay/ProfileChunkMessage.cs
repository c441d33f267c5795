using System.Text;

namespace Lightning.Bench.Swarm.Relay;

/// <summary>
/// Agent → harness: part of one node's folded stacks (whole lines, at most <see cref="MaxTextBytes"/>). The node's last
/// chunk says how long it was sampled, how big its raw recording was, and why it has no stacks if it has none.
/// </summary>
internal sealed record ProfileChunkMessage(
    int RequestId,
    string Node,
    bool Last,
    string Problem,
    long SampledMicroseconds,
    long RawBytes,
    byte[] Text
)
{
    public const string TooLongStack = "[stack longer than a chunk]";

    /// <summary>Well under a frame's 1 MiB.</summary>
    public const int MaxTextBytes = 512 * 1024;

    public byte[] Encode() =>
        new FrameBodyWriter()
            .I32(RequestId)
            .String(Node)
            .U8(Last ? (byte)1 : (byte)0)
            .String(Problem)
            .I64(SampledMicroseconds)
            .I64(RawBytes)
            .Rest(Text)
            .Frame(RelayFrameType.ProfileChunk);

    public static ProfileChunkMessage Decode(RelayFrame frame)
    {
        var reader = new FrameBodyReader(frame);
        var (id, node, last, problem, sampled, raw) = (
            reader.I32(),
            reader.String(),
            reader.U8(),
            reader.String(),
            reader.I64(),
            reader.I64()
        );
        var text = reader.Rest().ToArray();
        if (last > 1 || sampled < 0 || raw < 0 || text.Length > MaxTextBytes)
        {
            throw new RelayProtocolException(
                RelayProblem.Malformed,
                $"ProfileChunk frame of {node}: flag {last}, sampled {sampled} µs, raw {raw} B, {text.Length} B of stacks"
            );
        }
        return new ProfileChunkMessage(id, node, last == 1, problem, sampled, raw, text);
    }

    /// <summary>A node's folded stacks as chunk frames: its lines cut into pieces of whole lines, the last carrying the figures.</summary>
    public static IEnumerable<ProfileChunkMessage> Split(
        int requestId,
        string node,
        string foldedText,
        TimeSpan sampled,
        long rawBytes
    )
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
                yield return new ProfileChunkMessage(
                    requestId,
                    node,
                    false,
                    "",
                    0,
                    0,
                    Encoding.UTF8.GetBytes(pending.ToString())
                );
                pending.Clear();
                pendingBytes = 0;
            }
            pending.Append(text);
            pendingBytes += bytes;
        }
        yield return new ProfileChunkMessage(
            requestId,
            node,
            true,
            "",
            (long)sampled.TotalMicroseconds,
            rawBytes,
            Encoding.UTF8.GetBytes(pending.ToString())
        );
    }
}
