using System.Buffers.Binary;

namespace Lightning.Bench.NodeKinds.Lnd;

/// <summary>
/// Go's <c>time.Time.MarshalBinary</c>, as LND keeps an invoice's creation and settle dates: a version byte (1, or 2
/// with a seconds offset), seconds since 1 January of year 1 (8 bytes, big-endian), nanoseconds (4), the zone's offset.
/// </summary>
internal static class GoTime
{
    /// <summary>Moves the time in <paramref name="encoded"/> on by <paramref name="milliseconds"/>; a zero time (no date) is left alone.</summary>
    public static void AddMilliseconds(Span<byte> encoded, long milliseconds)
    {
        if (encoded.Length < 13 || encoded[0] is not (1 or 2))
        {
            throw new InvalidDataException(
                $"a time of {encoded.Length} bytes, version {(encoded.IsEmpty ? 0 : encoded[0])}, is not Go's binary time"
            );
        }
        var seconds = BinaryPrimitives.ReadInt64BigEndian(encoded[1..]);
        var nanoseconds = (long)BinaryPrimitives.ReadInt32BigEndian(encoded[9..]);
        if (seconds == 0 && nanoseconds == 0)
        {
            return;
        }
        nanoseconds += milliseconds * 1_000_000;
        seconds += nanoseconds / 1_000_000_000;
        BinaryPrimitives.WriteInt64BigEndian(encoded[1..], seconds);
        BinaryPrimitives.WriteInt32BigEndian(encoded[9..], (int)(nanoseconds % 1_000_000_000));
    }
}
