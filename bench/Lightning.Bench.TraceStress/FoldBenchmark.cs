using System.Diagnostics;
using System.Globalization;
using System.Text;
using Lightning.Bench.Profiling;

namespace Lightning.Bench.TraceStress;

/// <summary>
/// The harness's folding of `perf script` output on its own: a captured output repeated REPEAT times is streamed
/// through <see cref="PerfScriptFolder"/> as a run streams perf's pipe, then the throughput and the peak memory are
/// printed (a long profile must not cost memory in proportion to its length).
/// </summary>
public static class FoldBenchmark
{
    public static int Run(string file, int repeat)
    {
        var text = File.ReadAllText(file).TrimEnd('\n') + "\n\n";
        var clock = Stopwatch.StartNew();
        using var reader = new StreamReader(new RepeatedStream(Encoding.UTF8.GetBytes(text), repeat));
        var folded = PerfScriptFolder.Fold(reader);
        var seconds = clock.Elapsed.TotalSeconds;
        var megabytes = (double)text.Length * repeat / 1048576;
        Console.WriteLine(
            string.Create(
                CultureInfo.InvariantCulture,
                $"folded {folded.Total} samples ({megabytes:0} MB of perf script) into {folded.Counts.Count} stacks in {seconds:0.0} s: {megabytes / seconds:0} MB/s, {folded.Total / seconds:0} samples/s; peak RSS {PeakRss.Megabytes():0} MB"
            )
        );
        return 0;
    }

    /// <summary>The same bytes over and over, without holding more than one copy.</summary>
    private sealed class RepeatedStream(byte[] content, int repeat) : Stream
    {
        private int copy;
        private int offset;

        public override int Read(byte[] buffer, int start, int count)
        {
            if (copy >= repeat)
            {
                return 0;
            }
            var n = Math.Min(count, content.Length - offset);
            Array.Copy(content, offset, buffer, start, n);
            offset += n;
            if (offset == content.Length)
            {
                offset = 0;
                copy++;
            }
            return n;
        }

        public override bool CanRead => true;
        public override bool CanSeek => false;
        public override bool CanWrite => false;
        public override long Length => throw new NotSupportedException();
        public override long Position
        {
            get => throw new NotSupportedException();
            set => throw new NotSupportedException();
        }

        public override void Flush() { }

        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

        public override void SetLength(long value) => throw new NotSupportedException();

        public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();
    }
}
