using Lightning.Bench.Results;

namespace Lightning.Bench.Options;

/// <summary>./run.sh --replay run.zip: the same scenario, parameters and images, from the run's manifest.</summary>
internal sealed record ReplayPlan(Manifest Manifest, HarnessOptions Options)
{
    /// <summary>Reads the manifest and parses its arguments again; the new results go where <paramref name="current"/> says.</summary>
    public static ReplayPlan Load(string runPath, HarnessOptions current)
    {
        var manifest = Manifest.Read(RunArchive.ReadText(runPath, Manifest.FileName));
        if (manifest.Format != Manifest.CurrentFormat)
        {
            throw new UsageException($"{runPath} was written in format {manifest.Format}; this harness replays {Manifest.CurrentFormat}");
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
        if (manifest.Pairing is { } pairing && !pairing.StartsWith(HarnessOptions.Alternate + ":", StringComparison.Ordinal))
        {
            options = options with { Pairing = HarnessOptions.Sequential };
        }
        return new ReplayPlan(manifest, options);
    }
}
