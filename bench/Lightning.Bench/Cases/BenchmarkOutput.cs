using BenchmarkDotNet.Loggers;
using Lightning.Bench.Network;

namespace Lightning.Bench.Cases;

/// <summary>
/// BenchmarkDotNet's console output, as the harness wants it: silenced once a run is stopping (a case cut off by
/// Ctrl+C is not an error to print), and a case stopped by a node's death reported by its evidence alone. BenchmarkDotNet
/// invokes an in-process benchmark by reflection and prints the exception with its stack, wrapped in a
/// TargetInvocationException; for an exception that says it stopped the case, only its message is kept.
/// </summary>
internal sealed class BenchmarkOutput(ILogger inner) : ILogger
{
    private const string InnerMarker = "---> " + NodeDiedException.CaseStoppedPrefix;
    private const string EndOfInner = "--- End of inner exception stack trace ---";
    private volatile bool muted;

    public string Id => nameof(BenchmarkOutput);

    public int Priority => inner.Priority;

    public void Mute() => muted = true;

    public void Write(LogKind logKind, string text)
    {
        if (!muted)
        {
            inner.Write(logKind, WithoutStack(text));
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
            inner.WriteLine(logKind, WithoutStack(text));
        }
    }

    public void Flush() => inner.Flush();

    /// <summary>"…TargetInvocationException… ---> case stopped: MESSAGE --- End of inner… at …" → "MESSAGE".</summary>
    public static string WithoutStack(string text)
    {
        var start = text.IndexOf(InnerMarker, StringComparison.Ordinal);
        if (start < 0)
        {
            return text.StartsWith(NodeDiedException.CaseStoppedPrefix, StringComparison.Ordinal)
                ? text[NodeDiedException.CaseStoppedPrefix.Length..]
                : text;
        }
        start += InnerMarker.Length;
        var end = text.IndexOf(EndOfInner, start, StringComparison.Ordinal);
        return (end < 0 ? text[start..] : text[start..end]).TrimEnd();
    }
}
