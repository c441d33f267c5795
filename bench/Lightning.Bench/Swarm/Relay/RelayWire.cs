using System.Buffers.Binary;

namespace Lightning.Bench.Swarm.Relay;

/// <summary>
/// Frames on a TCP stream: a 4-byte big-endian length (of the type byte and the body), the type, the body. A reader
/// never trusts the length: above its limit (or zero) it stops before allocating, and a
/// connection that ends inside a frame is reported as truncated.
/// </summary>
internal static class RelayWire
{
    /// <summary>Room for any datagram (the local collector's limit is 64 KiB) and a stream's counters.</summary>
    public const int MaxFrameBytes = 1 << 20;

    /// <summary>Before the token is checked a peer may send only this much: an unauthenticated peer cannot make the agent allocate.</summary>
    public const int MaxHelloBytes = 4096;

    public const int HeaderBytes = 4;

    public static bool IsDefined(byte type) => Enum.IsDefined(typeof(RelayFrameType), type);

    /// <summary>The next frame, or null when the peer closed the connection between frames.</summary>
    public static async Task<RelayFrame?> ReadAsync(Stream stream, int maxFrameBytes, CancellationToken ct = default)
    {
        var header = new byte[HeaderBytes];
        var got = await ReadFullyAsync(stream, header, ct);
        if (got == 0)
        {
            return null;
        }
        if (got < HeaderBytes)
        {
            throw new RelayProtocolException(
                RelayProblem.Truncated,
                $"the connection ended {got} bytes into a frame header"
            );
        }
        var length = BinaryPrimitives.ReadUInt32BigEndian(header);
        if (length == 0 || length > maxFrameBytes)
        {
            throw new RelayProtocolException(
                RelayProblem.Oversized,
                $"a frame of {length} bytes (the limit is {maxFrameBytes})"
            );
        }
        var frame = new byte[length];
        got = await ReadFullyAsync(stream, frame, ct);
        if (got < length)
        {
            throw new RelayProtocolException(
                RelayProblem.Truncated,
                $"the connection ended {got} bytes into a frame of {length}"
            );
        }
        if (!IsDefined(frame[0]))
        {
            throw new RelayProtocolException(RelayProblem.UnknownType, $"unknown frame type 0x{frame[0]:x2}");
        }
        return new RelayFrame((RelayFrameType)frame[0], frame[1..]);
    }

    /// <summary>A whole frame as bytes (header, type, body), written to the stream by one call.</summary>
    public static byte[] Encode(RelayFrameType type, ReadOnlySpan<byte> body)
    {
        var bytes = new byte[HeaderBytes + 1 + body.Length];
        BinaryPrimitives.WriteUInt32BigEndian(bytes, (uint)(body.Length + 1));
        bytes[HeaderBytes] = (byte)type;
        body.CopyTo(bytes.AsSpan(HeaderBytes + 1));
        return bytes;
    }

    private static async Task<int> ReadFullyAsync(Stream stream, byte[] buffer, CancellationToken ct)
    {
        var total = 0;
        while (total < buffer.Length)
        {
            var read = await stream.ReadAsync(buffer.AsMemory(total), ct);
            if (read == 0)
            {
                break;
            }
            total += read;
        }
        return total;
    }
}
