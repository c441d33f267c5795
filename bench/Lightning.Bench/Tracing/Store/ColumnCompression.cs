using System.IO.Compression;

namespace Lightning.Bench.Tracing.Store;

/// <summary>Compresses a column with the store's codec, or keeps it as it is when that is not smaller.</summary>
internal static class ColumnCompression
{
    public const int BrotliQuality = 10;
    public const int BrotliWindow = 24;

    /// <summary>The largest column a reader accepts (a damaged length must not allocate gigabytes).</summary>
    public const int MaxColumnBytes = 1 << 30;

    public static (ColumnCodec Codec, byte[] Bytes) Compress(ReadOnlySpan<byte> raw, ColumnCodec codec)
    {
        var compressed = codec switch
        {
            ColumnCodec.Brotli => Brotli(raw),
            ColumnCodec.Deflate => Deflate(raw),
            _ => null,
        };
        return compressed is not null && compressed.Length < raw.Length
            ? (codec, compressed)
            : (ColumnCodec.Stored, raw.ToArray());
    }

    public static byte[] Decompress(ColumnCodec codec, byte[] stored, int rawLength, SpanColumn column)
    {
        switch (codec)
        {
            case ColumnCodec.Stored:
                return stored.Length == rawLength ? stored : throw Damaged(column);
            case ColumnCodec.Brotli:
            {
                var raw = new byte[rawLength];
                return BrotliDecoder.TryDecompress(stored, raw, out var written) && written == rawLength
                    ? raw
                    : throw Damaged(column);
            }
            case ColumnCodec.Deflate:
            {
                var raw = new byte[rawLength];
                using var inflate = new DeflateStream(new MemoryStream(stored), CompressionMode.Decompress);
                try
                {
                    inflate.ReadExactly(raw);
                }
                catch (EndOfStreamException)
                {
                    throw Damaged(column);
                }
                return inflate.ReadByte() < 0 ? raw : throw Damaged(column);
            }
            default:
                throw new InvalidDataException(
                    $"the span store is damaged: its {column} column names codec {(int)codec}, which this harness does not know"
                );
        }
    }

    private static byte[]? Brotli(ReadOnlySpan<byte> raw)
    {
        var target = new byte[BrotliEncoder.GetMaxCompressedLength(raw.Length)];
        return BrotliEncoder.TryCompress(raw, target, out var written, BrotliQuality, BrotliWindow)
            ? target[..written]
            : null;
    }

    private static byte[] Deflate(ReadOnlySpan<byte> raw)
    {
        using var output = new MemoryStream();
        using (
            var deflate = new DeflateStream(
                output,
                new ZLibCompressionOptions { CompressionLevel = 9 },
                leaveOpen: true
            )
        )
        {
            deflate.Write(raw);
        }
        return output.ToArray();
    }

    private static InvalidDataException Damaged(SpanColumn column) =>
        new($"the span store is damaged: its {column} column does not decompress to its stated length");
}
