using System.Text;

namespace Lightning.Bench.Progress;

/// <summary>
/// The run's whole console, as plain text, in the run folder (console.log): every progress line and everything
/// BenchmarkDotNet logs, in both modes. With a live display it is the only place BenchmarkDotNet's log is read as it
/// comes (tail -f). The folder is made only after the images are checked, so what comes before is held until
/// <see cref="Open"/>; a run that fails before then printed it on the console and keeps no folder.
/// </summary>
internal sealed class RunLog : IDisposable
{
    public const string FileName = "console.log";

    private readonly Lock gate = new();
    private readonly StringBuilder held = new();
    private StreamWriter? file;
    private bool closed;

    /// <summary>The file, once opened; null before.</summary>
    public string? Path { get; private set; }

    /// <summary>Starts the file at <paramref name="path"/> with what was written so far.</summary>
    public void Open(string path)
    {
        lock (gate)
        {
            if (file is not null || closed)
            {
                return;
            }
            // Flushed at every write: the log is read while the run goes on, and a killed run keeps what it wrote.
            file = new StreamWriter(path, append: false) { AutoFlush = true };
            file.Write(held.ToString());
            held.Clear();
            Path = path;
        }
    }

    public void Write(string text)
    {
        lock (gate)
        {
            if (file is not null)
            {
                TryWrite(() => file.Write(text));
            }
            else if (!closed)
            {
                held.Append(text);
            }
        }
    }

    public void WriteLine(string text) => Write(text + Environment.NewLine);

    public void Dispose()
    {
        lock (gate)
        {
            file?.Dispose();
            file = null;
            closed = true;
            held.Clear();
        }
    }

    /// <summary>A full disk loses the log, not the run: its outputs say so themselves when they cannot be written.</summary>
    private static void TryWrite(Action write)
    {
        try
        {
            write();
        }
        catch (IOException) { }
    }
}
