using System.Buffers.Binary;
using System.Text;

namespace Lightning.Bench.Docker;

/// <summary>Decodes the engine's multiplexed log stream (8-byte frame headers) of containers without a TTY.</summary>
internal static class DockerLogFrames
{
    public static string Demultiplex(ReadOnlySpan<byte> bytes)
    {
        var text = new StringBuilder();
        var offset = 0;
        while (offset + 8 <= bytes.Length && bytes[offset] <= 2 && bytes[offset + 1] == 0)
        {
            var size = (int)BinaryPrimitives.ReadUInt32BigEndian(bytes.Slice(offset + 4, 4));
            var end = Math.Min(bytes.Length, offset + 8 + size);
            text.Append(Encoding.UTF8.GetString(bytes[(offset + 8)..end]));
            offset = end;
        }
        if (offset < bytes.Length)
        {
            // A TTY container's log is not framed.
            text.Append(Encoding.UTF8.GetString(bytes[offset..]));
        }
        return text.ToString();
    }
}
