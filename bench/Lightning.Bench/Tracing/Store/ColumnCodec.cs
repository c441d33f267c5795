namespace Lightning.Bench.Tracing.Store;

/// <summary>How a column's bytes are kept in a span store; each column says its own.</summary>
internal enum ColumnCodec : byte
{
    /// <summary>As they are: what compression cannot shrink (random ids).</summary>
    Stored = 0,

    /// <summary>Brotli, quality 10, window 2^24 (quality 11 took twice the time for 0.3 % less on a default run).</summary>
    Brotli = 1,

    /// <summary>Deflate, level 9.</summary>
    Deflate = 2,
}
