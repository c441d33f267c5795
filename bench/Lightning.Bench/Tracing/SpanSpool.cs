using System.Collections.Concurrent;
using System.Threading.Channels;

namespace Lightning.Bench.Tracing;

/// <summary>
/// Receive threads fill <see cref="SpoolSegment"/>s from a fixed pool; a writer appends full segments to a spool file
/// and returns them. The pool bounds memory; when every segment is waiting for the disk, receivers drop and count.
/// </summary>
internal sealed class SpanSpool : IAsyncDisposable
{
    public const int SegmentBytes = 1 << 20;

    private readonly ConcurrentBag<SpoolSegment> free = new();
    private readonly Channel<SpoolSegment> full = Channel.CreateUnbounded<SpoolSegment>(
        new UnboundedChannelOptions { SingleReader = true }
    );
    private readonly SpoolFile file;
    private readonly Thread writing;
    private long written;

    public SpanSpool(string path, long maxBytes)
    {
        Path = path;
        for (var i = 0; i < Math.Max(4, maxBytes / SegmentBytes); i++)
        {
            free.Add(new SpoolSegment(SegmentBytes));
        }
        file = SpoolFile.Create(path);
        // A thread of its own at the lowest priority: copying segments to disk must never take a core from a receive thread.
        writing = new Thread(Write) { IsBackground = true, Name = "spans:spool" };
        writing.Start();
    }

    public string Path { get; }

    /// <summary>Records written to the spool file so far.</summary>
    public long Written => Interlocked.Read(ref written);

    /// <summary>A free segment, or null when all are waiting to be written.</summary>
    public SpoolSegment? Rent() => free.TryTake(out var segment) ? segment : null;

    /// <summary>Hands a filled segment to the writer (an empty one goes straight back to the pool).</summary>
    public void Submit(SpoolSegment segment)
    {
        if (segment.Records == 0 || !full.Writer.TryWrite(segment))
        {
            segment.Reset();
            free.Add(segment);
        }
    }

    /// <summary>Writes what was submitted and closes the file.</summary>
    public async ValueTask DisposeAsync()
    {
        full.Writer.TryComplete();
        while (writing.IsAlive)
        {
            await Task.Delay(10);
        }
        file.Dispose();
    }

    private void Write()
    {
        RecvMmsg.LowerCurrentThreadPriority();
        while (full.Reader.WaitToReadAsync().AsTask().GetAwaiter().GetResult())
        {
            while (full.Reader.TryRead(out var segment))
            {
                file.Write(segment);
                Interlocked.Add(ref written, segment.Records);
                segment.Reset();
                free.Add(segment);
            }
        }
    }
}
