using System.Text;

namespace Lightning.Bench.Progress;

/// <summary>
/// Standard output or error as a run writes them, where they may be a terminal that closes mid-run (an SSH connection
/// that drops, a tmux session killed): the harness gets SIGHUP and stops as on Ctrl+C, but every write to the closed
/// terminal fails (EIO), and a teardown that threw on its first progress line would leave the topologies running.
/// A write that fails loses its text and closes this writer, never the run: console.log keeps every line.
/// </summary>
internal sealed class ClosableConsoleWriter(TextWriter inner) : TextWriter
{
    private static readonly Lock Installing = new();
    private static bool installed;
    private volatile bool closed;

    /// <summary>Puts standard output and error behind one each, once per process, before anything keeps a reference to them.</summary>
    public static void Install()
    {
        lock (Installing)
        {
            if (installed)
            {
                return;
            }
            Console.SetOut(new ClosableConsoleWriter(Console.Out));
            Console.SetError(new ClosableConsoleWriter(Console.Error));
            installed = true;
        }
    }

    /// <summary>A write failed: what is behind it is gone (a closed terminal), and nothing more is written to it.</summary>
    public bool Closed => closed;

    public override Encoding Encoding => inner.Encoding;

    public override IFormatProvider FormatProvider => inner.FormatProvider;

    public override void Write(char value) => Try(() => inner.Write(value));

    public override void Write(string? value) => Try(() => inner.Write(value));

    public override void Write(char[] buffer, int index, int count) => Try(() => inner.Write(buffer, index, count));

    public override void Write(ReadOnlySpan<char> buffer)
    {
        if (closed)
        {
            return;
        }
        var text = buffer.ToString();
        Try(() => inner.Write(text));
    }

    public override void WriteLine(string? value) => Try(() => inner.WriteLine(value));

    public override void WriteLine() => Try(inner.WriteLine);

    public override void Flush() => Try(inner.Flush);

    private void Try(Action write)
    {
        if (closed)
        {
            return;
        }
        try
        {
            write();
        }
        catch (IOException)
        {
            closed = true;
        }
        catch (ObjectDisposedException)
        {
            closed = true;
        }
    }
}
