namespace Lightning.Bench.Processes;

internal sealed record ProcessResult(
    string FileName,
    IReadOnlyList<string> Arguments,
    int ExitCode,
    string StandardOutput,
    string StandardError
)
{
    public bool Succeeded => ExitCode == 0;

    public string CommandLine => string.Join(' ', new[] { FileName }.Concat(Arguments));

    /// <summary>The last non-empty lines of stderr (or stdout when stderr is empty), for one-line error messages.</summary>
    public string Tail(int lines = 3)
    {
        var text = string.IsNullOrWhiteSpace(StandardError) ? StandardOutput : StandardError;
        var tail = text.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
            .TakeLast(lines);
        return string.Join(" | ", tail);
    }
}
