using BenchmarkDotNet.Loggers;
using Lightning.Bench.Progress;

namespace Lightning.Bench.Cases;

/// <summary>
/// BenchmarkDotNet's log into the run's console.log (<see cref="RunLog"/>), and, when no live display holds the
/// terminal, on to its console logger as it always was. BenchmarkDotNet also keeps a log of its own in the run folder
/// (SCENARIO-DATE.log, one per BenchmarkDotNet run); console.log has the harness's progress lines between its lines.
/// </summary>
internal sealed class RunLogLogger(RunLog log, ILogger? console) : ILogger
{
    public string Id => nameof(RunLogLogger);

    public int Priority => console?.Priority ?? 0;

    public void Write(LogKind logKind, string text)
    {
        log.Write(text);
        console?.Write(logKind, text);
    }

    public void WriteLine()
    {
        log.Write(Environment.NewLine);
        console?.WriteLine();
    }

    public void WriteLine(LogKind logKind, string text)
    {
        log.WriteLine(text);
        console?.WriteLine(logKind, text);
    }

    public void Flush() => console?.Flush();
}
