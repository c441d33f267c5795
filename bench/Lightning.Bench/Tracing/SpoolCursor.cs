namespace Lightning.Bench.Tracing;

/// <summary>The spool segment one receive thread is filling: appends records, swaps full segments for free ones.</summary>
internal sealed class SpoolCursor(SpanSpool spool)
{
    private SpoolSegment? segment = spool.Rent();

    /// <summary>Appends one datagram; false when no segment is free (every one is waiting for the disk).</summary>
    public bool Append(ReadOnlySpan<byte> payload, long receivedUnixMicros, int nodeIndex)
    {
        if (segment is null || segment.Free < SpoolSegment.HeaderBytes + payload.Length)
        {
            if (segment is not null)
            {
                spool.Submit(segment);
            }
            segment = spool.Rent();
            if (segment is null)
            {
                return false;
            }
        }
        payload.CopyTo(segment.NextPayload);
        segment.Commit(payload.Length, receivedUnixMicros, nodeIndex);
        return true;
    }

    /// <summary>Hands the partly filled segment to the writer.</summary>
    public void Flush()
    {
        if (segment is not null)
        {
            spool.Submit(segment);
            segment = null;
        }
    }
}
