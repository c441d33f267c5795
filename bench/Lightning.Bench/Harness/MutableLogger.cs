using BenchmarkDotNet.Loggers;

namespace Lightning.Bench.Harness;

/// <summary>BenchmarkDotNet's console output, which a stopping run silences: a case cut off by Ctrl+C is not an error to print.</summary>
public sealed class MutableLogger(ILogger inner) : ILogger
{
    private volatile bool muted;

    public string Id => nameof(MutableLogger);

    public int Priority => inner.Priority;

    public void Mute() => muted = true;

    public void Write(LogKind logKind, string text)
    {
        if (!muted)
        {
            inner.Write(logKind, text);
        }
    }

    public void WriteLine()
    {
        if (!muted)
        {
            inner.WriteLine();
        }
    }

    public void WriteLine(LogKind logKind, string text)
    {
        if (!muted)
        {
            inner.WriteLine(logKind, text);
        }
    }

    public void Flush() => inner.Flush();
}
