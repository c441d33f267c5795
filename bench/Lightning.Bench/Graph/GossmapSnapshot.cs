using System.IO.Compression;

namespace Lightning.Bench.Graph;

/// <summary>
/// A snapshot of the public channel graph in Core Lightning's GOSSMAP_COMPRESSv1 format (the format its tests ship the
/// mainnet graph in, documented at the top of its devtools/gossmap-compress.c): gzip over a header, the channels' ends
/// (node indexes), the disabled directions, and per channel or direction an index into a table of values (capacities,
/// HTLC minimum and maximum, base fee, proportional fee, delay), every number a BOLT bigsize. Read here so a file can be
/// checked (and a graph's size told) before any node starts.
/// </summary>
internal sealed class GossmapSnapshot
{
    public const string Header = "GOSSMAP_COMPRESSv1";

    private GossmapSnapshot(int nodeCount, IReadOnlyList<GossmapChannel> channels)
    {
        NodeCount = nodeCount;
        Channels = channels;
    }

    /// <summary>Nodes: one more than the largest index a channel names.</summary>
    public int NodeCount { get; }

    public IReadOnlyList<GossmapChannel> Channels { get; }

    /// <summary>Reads a snapshot; a file not in the format is an <see cref="InvalidDataException"/> that says where it broke.</summary>
    public static GossmapSnapshot Read(string path)
    {
        using var file = File.OpenRead(path);
        Stream input;
        Span<byte> magic = stackalloc byte[2];
        if (file.Read(magic) != 2 || magic[0] != 0x1f || magic[1] != 0x8b)
        {
            throw new InvalidDataException(
                $"{path} is not a gzip file: a GOSSMAP_COMPRESSv1 snapshot is gzip-compressed (Core Lightning's tests/data/gossip-store-*.compressed)"
            );
        }
        file.Position = 0;
        input = new GZipStream(file, CompressionMode.Decompress);
        using var reader = new BufferedStream(input);
        try
        {
            return Read(reader, path);
        }
        catch (EndOfStreamException)
        {
            throw new InvalidDataException($"{path} ends in the middle of its data: a truncated or different file");
        }
        catch (InvalidDataException e) when (!e.Message.StartsWith(path, StringComparison.Ordinal))
        {
            throw new InvalidDataException($"{path}: {e.Message}", e);
        }
    }

    private static GossmapSnapshot Read(Stream input, string path)
    {
        var header = new byte[Header.Length + 1];
        input.ReadExactly(header);
        if (System.Text.Encoding.ASCII.GetString(header, 0, Header.Length) != Header || header[^1] != 0)
        {
            throw new InvalidDataException($"its header is not {Header}");
        }
        var count = Count(input, "channels", int.MaxValue / 2);
        var node1 = new int[count];
        var node2 = new int[count];
        var nodes = 0;
        for (var i = 0; i < count; i++)
        {
            node1[i] = (int)Count(input, "a node index", int.MaxValue - 1);
            nodes = Math.Max(nodes, node1[i] + 1);
        }
        for (var i = 0; i < count; i++)
        {
            node2[i] = (int)Count(input, "a node index", int.MaxValue - 1);
            nodes = Math.Max(nodes, node2[i] + 1);
        }
        // Disabled directions: channel × 2 + direction, until an index past the last direction.
        var disabled = new bool[count * 2];
        for (ulong index; (index = Bigsize.Read(input)) < (ulong)count * 2; )
        {
            disabled[index] = true;
        }
        var capacities = Values(input, count, "capacities", perDirection: false);
        var htlcMin = Values(input, count, "htlc minimums", perDirection: true);
        var htlcMax = Values(input, count, "htlc maximums", perDirection: true);
        var baseFee = Values(input, count, "base fees", perDirection: true);
        var propFee = Values(input, count, "proportional fees", perDirection: true);
        var delay = Values(input, count, "delays", perDirection: true);
        var channels = new GossmapChannel[count];
        for (var i = 0; i < count; i++)
        {
            var capacitySat = capacities[i];
            GossmapDirection Direction(int d)
            {
                var j = i * 2 + d;
                // 0 and 1 stand for the capacity and 99 % of it (the format's two common cases).
                var max = htlcMax[j] switch
                {
                    0 => capacitySat * 1000,
                    1 => capacitySat * 990,
                    var v => v,
                };
                return new GossmapDirection(disabled[j], htlcMin[j], max, baseFee[j], propFee[j], delay[j])
                {
                    HtlcMaxAsWritten = htlcMax[j],
                };
            }
            channels[i] = new GossmapChannel(node1[i], node2[i], capacitySat, Direction(0), Direction(1));
        }
        return new GossmapSnapshot(nodes, channels);
    }

    /// <summary>A table of values, then one index into it per channel (or per direction of each).</summary>
    private static ulong[] Values(Stream input, int channels, string what, bool perDirection)
    {
        var table = new ulong[Count(input, what, 1 << 26)];
        for (var i = 0; i < table.Length; i++)
        {
            table[i] = Bigsize.Read(input);
        }
        var values = new ulong[perDirection ? channels * 2 : channels];
        for (var i = 0; i < values.Length; i++)
        {
            var index = Bigsize.Read(input);
            values[i] =
                index < (ulong)table.Length
                    ? table[index]
                    : throw new InvalidDataException(
                        $"a channel's index {index} into its {table.Length} {what} is out of range"
                    );
        }
        return values;
    }

    private static int Count(Stream input, string what, long most)
    {
        var value = Bigsize.Read(input);
        return value <= (ulong)most
            ? (int)value
            : throw new InvalidDataException($"{value} {what} is more than the format allows here");
    }
}

/// <param name="Node1">The snapshot's index of one end (the node map names it).</param>
internal sealed record GossmapChannel(
    int Node1,
    int Node2,
    ulong CapacitySat,
    GossmapDirection Forward,
    GossmapDirection Backward
);

/// <param name="HtlcMaxMsat">The most one HTLC may carry (the format's "capacity" and "99 % of capacity" resolved, in msat).</param>
/// <param name="FeePpm">Proportional fee, millionths.</param>
internal readonly record struct GossmapDirection(
    bool Disabled,
    ulong HtlcMinMsat,
    ulong HtlcMaxMsat,
    ulong BaseFeeMsat,
    ulong FeePpm,
    ulong Delay
)
{
    /// <summary>The HTLC maximum as the file has it: 0 and 1 for "the capacity" and "99 % of it", else msat.</summary>
    public ulong HtlcMaxAsWritten { get; init; }
}

/// <summary>BOLT 1's bigsize: one byte, or 0xfd/0xfe/0xff and 2/4/8 big-endian bytes (minimal encodings only).</summary>
internal static class Bigsize
{
    public static ulong Read(Stream input)
    {
        var first = input.ReadByte();
        if (first < 0)
        {
            throw new EndOfStreamException();
        }
        var (length, least) = first switch
        {
            0xfd => (2, 0xfdUL),
            0xfe => (4, 0x10000UL),
            0xff => (8, 0x100000000UL),
            _ => (0, 0UL),
        };
        if (length == 0)
        {
            return (ulong)first;
        }
        Span<byte> bytes = stackalloc byte[8];
        input.ReadExactly(bytes[..length]);
        var value = 0UL;
        for (var i = 0; i < length; i++)
        {
            value = (value << 8) | bytes[i];
        }
        return value >= least ? value : throw new InvalidDataException($"bigsize {value} is not minimally encoded");
    }
}
