using Lightning.Bench.Results;

namespace Lightning.Bench.Profiling;

/// <summary>Where a run keeps its profiles (profiles/CASE/NODE.folded, and the reports beside them) and how big they may get.</summary>
internal static class ProfileFiles
{
    public const string Folder = "profiles";

    public const string Extension = ".folded";

    /// <summary>
    /// Distinct stacks kept per node and case; rarer ones are merged into "[other stacks]" under their process, so
    /// a file stays a few MB at most while every process's total stays exact. Measured: a Core Lightning node's case
    /// has a few hundred to a few thousand distinct stacks.
    /// </summary>
    public const int MaxStacks = 20_000;

    /// <summary>Writes each node's folded stacks of one case and returns what they rest on.</summary>
    public static IReadOnlyList<ProfileRecord> Write(
        string runDirectory,
        string caseFolder,
        IReadOnlyDictionary<string, (FoldedStacks Stacks, TimeSpan Sampled, long RawBytes)> folded,
        int payments
    )
    {
        var directory = Path.Combine(runDirectory, Folder, caseFolder);
        Directory.CreateDirectory(directory);
        var records = new List<ProfileRecord>();
        foreach (var (node, (stacks, sampled, rawBytes)) in folded.OrderBy(f => f.Key, StringComparer.Ordinal))
        {
            var bounded = stacks.Bounded(MaxStacks);
            var file = Path.Combine(directory, node + Extension);
            bounded.WriteFile(file);
            records.Add(
                new ProfileRecord(
                    node,
                    Path.GetRelativePath(runDirectory, file),
                    bounded.Total,
                    payments,
                    sampled.TotalSeconds,
                    rawBytes,
                    bounded.Counts.Count,
                    bounded.MergedStacks,
                    bounded.MergedSamples
                )
            );
        }
        return records;
    }
}
