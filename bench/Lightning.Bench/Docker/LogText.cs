using Docker.DotNet;

namespace Lightning.Bench.Docker;

/// <summary>A container's or service's log, as the engine streams it (multiplexed stdout and stderr), read to its end as text.</summary>
internal static class LogText
{
    public static async Task<string> ReadAsync(MultiplexedStream stream, CancellationToken ct)
    {
        // Bytes first, text once: a character may straddle two frames.
        using var bytes = new MemoryStream();
        var buffer = new byte[16384];
        while (await stream.ReadOutputAsync(buffer, 0, buffer.Length, ct) is { EOF: false } read)
        {
            bytes.Write(buffer, 0, read.Count);
        }
        return System.Text.Encoding.UTF8.GetString(bytes.GetBuffer(), 0, (int)bytes.Length);
    }
}
