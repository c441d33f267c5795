using System.Text;

namespace Lightning.Bench.Tracing.Store;

/// <summary>Writes a span store (<see cref="SpanStore"/>) to a stream, case by case, a block at a time; <see cref="Finish"/> ends it.</summary>
internal sealed class SpanStoreWriter
{
    private readonly Stream output;
    private readonly ColumnCodec codec;
    private readonly SpanBlockEncoder encoder = new();
    private readonly ColumnWriter record = new();
    private readonly int blockLines;
    private int cases;

    /// <summary>Bytes written per <see cref="SpanColumn"/> so far, as stored (for the store's benchmark).</summary>
    public long[] ColumnBytes { get; } = new long[Enum.GetValues<SpanColumn>().Length];

    /// <param name="blockLines">Lines per block (tests make blocks small to cross their edges).</param>
    public SpanStoreWriter(
        Stream output,
        ColumnCodec codec = ColumnCodec.Brotli,
        int blockLines = SpanBlockEncoder.MaxLines
    )
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(blockLines, 1);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(blockLines, SpanBlockEncoder.MaxLines);
        this.output = output;
        this.codec = codec;
        this.blockLines = blockLines;
        record.WriteBytes(SpanStore.Magic);
        record.WriteVarint(SpanStore.Version);
        Flush();
    }

    /// <summary>Adds one case: <paramref name="spans"/> is its spans.jsonl, read to its end.</summary>
    public void AddCase(StoredCase stored, Stream spans)
    {
        cases++;
        record.WriteByte(SpanStore.CaseRecord);
        record.WriteText(Encoding.UTF8.GetBytes(stored.Folder));
        record.WriteVarint((ulong)stored.Flags);
        Flush();
        using var hash = SpanStore.CaseHash(stored);
        long lines = 0;
        var buffer = new byte[1 << 16];
        var filled = 0;
        int read;
        while ((read = spans.Read(buffer, filled, buffer.Length - filled)) > 0)
        {
            hash.AppendData(buffer, filled, read);
            filled += read;
            var start = 0;
            int newline;
            while ((newline = Array.IndexOf(buffer, (byte)'\n', start, filled - start)) >= 0)
            {
                encoder.Add(buffer.AsSpan(start, newline - start));
                lines++;
                if (encoder.Lines == blockLines || encoder.Bytes >= SpanBlockEncoder.MaxBytes)
                {
                    WriteBlock();
                }
                start = newline + 1;
            }
            // Keep the unfinished line at the front; a line longer than the buffer grows it.
            Array.Copy(buffer, start, buffer, 0, filled - start);
            filled -= start;
            if (filled == buffer.Length)
            {
                Array.Resize(ref buffer, buffer.Length * 2);
            }
        }
        if (encoder.Lines > 0)
        {
            WriteBlock();
        }
        record.WriteByte(SpanStore.CaseEndRecord);
        record.WriteVarint((ulong)lines);
        // Bytes after the last newline (a file cut off mid-line) are kept as they are.
        record.WriteText(buffer.AsSpan(0, filled));
        record.WriteBytes(hash.GetHashAndReset());
        Flush();
    }

    /// <summary>Ends the store; returns what it holds.</summary>
    public StoreContents Finish()
    {
        record.WriteByte(SpanStore.EndRecord);
        Flush();
        var kinds = encoder.LinesByKind;
        return new StoreContents(
            cases,
            kinds[(int)StoredLineKind.Span],
            kinds[(int)StoredLineKind.Payload],
            kinds[(int)StoredLineKind.Verbatim]
        );
    }

    private void WriteBlock()
    {
        var lines = encoder.Lines;
        var columns = encoder.Complete();
        record.WriteByte(SpanStore.BlockRecord);
        record.WriteVarint((ulong)lines);
        record.WriteVarint((ulong)columns.Count);
        for (var c = 0; c < columns.Count; c++)
        {
            var raw = columns[c];
            var (used, bytes) = ColumnCompression.Compress(raw, codec);
            ColumnBytes[c] += bytes.Length;
            record.WriteByte((byte)used);
            record.WriteVarint((ulong)raw.Length);
            record.WriteVarint((ulong)bytes.Length);
            record.WriteBytes(bytes);
        }
        Flush();
    }

    private void Flush()
    {
        output.Write(record.Written);
        record.Clear();
    }
}
