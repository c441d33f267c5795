using Lightning.Bench.Progress;
using Lightning.Bench.Results;

namespace Lightning.Bench.Options;

/// <summary>./run.sh --replay run.zip: the same scenario, parameters and images, from the run's manifest.</summary>
internal sealed record ReplayPlan(Manifest Manifest, HarnessOptions Options)
{
    /// <summary>The replayed run's summary, when it has one (an interrupted run may not).</summary>
    public RunSummary? Summary { get; init; }

    /// <summary>
    /// Why this replay would not measure what the run it replays did, in one line, or null when it would: the same
    /// arguments can meet another machine (one that cannot profile, under --profile-if-available), and an older run's
    /// conditions are read from its files.
    /// </summary>
    public static string? Refusal(Manifest original, RunSummary? originalSummary, MeasurementConditions replay)
    {
        var recorded =
            original.Conditions
            ?? (originalSummary is null ? null : MeasurementConditions.Inferred(originalSummary, original))
            ?? new MeasurementConditions();
        var differences = recorded.DifferencesFrom(replay, $"run {original.RunId}", "this replay");
        return differences.Count == 0
            ? null
            : $"this replay would not measure what run {original.RunId} did ({string.Join("; ", differences)}): its figures could not be set beside that run's; replay it where it can be measured the same way";
    }

    /// <summary>Reads the manifest and parses its arguments again; the new results go where <paramref name="current"/> says.</summary>
    public static ReplayPlan Load(string runPath, HarnessOptions current)
    {
        var manifest = Manifest.Read(RunArchive.ReadText(runPath, Manifest.FileName));
        if (manifest.Format != Manifest.CurrentFormat)
        {
            throw new UsageException(
                $"{runPath} was written in format {manifest.Format}; this harness replays {Manifest.CurrentFormat}"
            );
        }
        var options = OptionParser.Parse(manifest.Arguments) with
        {
            ResultsRoot = current.ResultsRoot,
            ReplayOf = manifest.RunId,
            Seed = manifest.Seed,
            CommandLine = current.CommandLine,
            // How the console shows the replay is this invocation's choice, not the replayed run's.
            Plain = current.Plain,
        };
        // A run from before --pairing measured its arms one after the other: its replay does too.
        if (
            manifest.Pairing is { } pairing
            && !pairing.StartsWith(HarnessOptions.Alternate + ":", StringComparison.Ordinal)
        )
        {
            options = options with { Pairing = HarnessOptions.Sequential };
        }
        RunSummary? summary;
        try
        {
            summary = RunSummary.Read(RunArchive.ReadText(runPath, RunSummary.FileName));
        }
        catch (FileNotFoundException)
        {
            summary = null;
        }
        return new ReplayPlan(manifest, options) { Summary = summary };
    }
}
