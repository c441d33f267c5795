namespace Lightning.Bench.Processes;

/// <summary>The "name : value" lines of a /proc file (/proc/cpuinfo, /proc/meminfo): each value of a name, trimmed.</summary>
internal static class ProcFields
{
    public static IEnumerable<string> Values(IEnumerable<string> lines, string name) =>
        lines
            .Where(l => l.StartsWith(name, StringComparison.Ordinal) && l.Contains(':'))
            .Select(l => l[(l.IndexOf(':') + 1)..].Trim());

    public static IEnumerable<string> Values(string? text, string name) => Values((text ?? "").Split('\n'), name);

    /// <summary>The first value of <paramref name="name"/> in the file, or null (no file, no such line).</summary>
    public static string? First(string path, string name) =>
        File.Exists(path) ? Values(File.ReadLines(path), name).FirstOrDefault() : null;
}
