namespace Lightning.Bench.Results;

/// <summary>
/// What a run's figures mean beyond its cases: where the topologies ran, whether the Lightning nodes ran under
/// Valgrind (about ten times slower: its times and costs are not a plain run's), whether perf sampled them, and
/// whether invocations waited for quiet nodes. Figures join (--compare, a history's series, a replay against its run)
/// only when these are the same; otherwise one line says why not.
/// </summary>
internal sealed record MeasurementConditions
{
    /// <summary>"one host" or "swarm" (see the platforms).</summary>
    public string Platform { get; init; } = "one host";

    /// <summary>--instructions: every Lightning node ran under Valgrind's callgrind.</summary>
    public bool UnderValgrind { get; init; }

    /// <summary>--profile: perf sampled the nodes ("perf 99 Hz, dwarf stacks"), or null.</summary>
    public string? Sampling { get; init; }

    /// <summary>--back-to-back: each invocation started as soon as the last ended, without waiting for quiet nodes.</summary>
    public bool BackToBack { get; init; }

    /// <summary>"one host", "swarm; nodes under Valgrind; perf 99 Hz, dwarf stacks".</summary>
    public string Describe() =>
        string.Join(
            "; ",
            new[]
            {
                Platform,
                UnderValgrind ? "nodes under Valgrind (--instructions)" : null,
                Sampling is null ? null : $"nodes sampled by {Sampling} (--profile)",
                BackToBack ? "invocations back to back (--back-to-back)" : null,
            }.OfType<string>()
        );

    /// <summary>Why figures measured under <paramref name="other"/> do not mean what these do, one clause each (empty: they do).</summary>
    public IReadOnlyList<string> DifferencesFrom(MeasurementConditions other, string thisName, string otherName)
    {
        var differences = new List<string>();
        if (Platform != other.Platform)
        {
            differences.Add($"{thisName} ran on {Platform}, {otherName} on {other.Platform}");
        }
        if (UnderValgrind != other.UnderValgrind)
        {
            differences.Add(
                UnderValgrind
                    ? $"{thisName}'s nodes ran under Valgrind (--instructions) and {otherName}'s did not"
                    : $"{otherName}'s nodes ran under Valgrind (--instructions) and {thisName}'s did not"
            );
        }
        if (Sampling != other.Sampling)
        {
            differences.Add(
                $"{thisName}'s nodes were {(Sampling is null ? "not sampled" : $"sampled by {Sampling}")} and {otherName}'s {(other.Sampling is null ? "not" : $"by {other.Sampling}")} (--profile)"
            );
        }
        if (BackToBack != other.BackToBack)
        {
            differences.Add(
                $"{(BackToBack ? thisName : otherName)} started each invocation back to back (--back-to-back) and {(BackToBack ? otherName : thisName)} waited for quiet nodes"
            );
        }
        return differences;
    }

    /// <summary>perf's sampling as the conditions name it ("perf 99 Hz, dwarf stacks").</summary>
    public static string SamplingOf(int frequencyHz, string callGraph) => $"perf {frequencyHz} Hz, {callGraph} stacks";

    /// <summary>
    /// The conditions of a run from before they were recorded, from what its files show: instruction counts mean its
    /// nodes ran under Valgrind; a swarm record, the swarm; a profiling record, perf's sampling.
    /// </summary>
    public static MeasurementConditions Inferred(RunSummary summary, Manifest? manifest) =>
        new()
        {
            Platform = manifest?.Swarm is not null ? "swarm" : "one host",
            UnderValgrind = summary.Cases.Any(c => c.Instructions is not null) || manifest?.Instructions is not null,
            Sampling = manifest?.Profiling is { Skipped: null } profiling
                ? SamplingOf(profiling.FrequencyHz, profiling.CallGraph)
                : null,
            BackToBack = manifest?.BackToBack ?? false,
        };
}
