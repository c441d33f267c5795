namespace Lightning.Bench.Progress;

/// <summary>
/// The progress lines as they always were, one after the other on <paramref name="output"/>: what CI, pipes and the
/// tests read. The model is not drawn; BenchmarkDotNet's own log keeps scrolling beside the lines.
/// </summary>
internal sealed class PlainProgressRenderer(TextWriter output) : IProgressRenderer
{
    public bool IsLive => false;

    public void Line(string line)
    {
        lock (output)
        {
            output.WriteLine(line);
            output.Flush();
        }
    }

    public void Start(ProgressModel model, string? logPath) { }

    public void Stop() { }
}
