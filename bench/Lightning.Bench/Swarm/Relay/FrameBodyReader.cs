using System.Buffers.Binary;
using System.Text;

namespace Lightning.Bench.Swarm.Relay;

/// <summary>Reads a frame's body as <see cref="FrameBodyWriter"/> wrote it; a field cut short or bad UTF-8 is <see cref="RelayProblem.Malformed"/>.</summary>
internal ref struct FrameBodyReader(RelayFrame frame)
{
    private static readonly UTF8Encoding Strict = new(false, throwOnInvalidBytes: true);

    private readonly ReadOnlySpan<byte> body = frame.Body;
    private readonly RelayFrameType type = frame.Type;
    private int position;

    public byte U8() => Take(1)[0];

    public int U16() => BinaryPrimitives.ReadUInt16BigEndian(Take(2));

    public int I32() => BinaryPrimitives.ReadInt32BigEndian(Take(4));

    public long I64() => BinaryPrimitives.ReadInt64BigEndian(Take(8));

    public string String()
    {
        var bytes = Take(U16());
        try
        {
            return Strict.GetString(bytes);
        }
        catch (ArgumentException)
        {
            throw new RelayProtocolException(RelayProblem.Malformed, $"{type} frame: a string that is not UTF-8");
        }
    }

    /// <summary>A field of <paramref name="count"/> bytes (its length read before it).</summary>
    public byte[] Bytes(int count) => Take(count).ToArray();

    public ReadOnlySpan<byte> Rest()
    {
        var rest = body[position..];
        position = body.Length;
        return rest;
    }

    /// <summary>Checks nothing is left over (a body longer than its type says is as wrong as a short one).</summary>
    public readonly void End()
    {
        if (position != body.Length)
        {
            throw new RelayProtocolException(
                RelayProblem.Malformed,
                $"{type} frame: {body.Length - position} bytes left over"
            );
        }
    }

    private ReadOnlySpan<byte> Take(int count)
    {
        if (body.Length - position < count)
        {
            throw new RelayProtocolException(
                RelayProblem.Malformed,
                $"{type} frame: a field cut short at byte {position} of {body.Length}"
            );
        }
        var span = body.Slice(position, count);
        position += count;
        return span;
    }
}
