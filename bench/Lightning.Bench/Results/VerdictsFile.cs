using System.Text.Json;

namespace Lightning.Bench.Results;

/// <summary>
/// verdicts.json: every verdict of a run as a program reads it (a CI job's gate, a bisection's step), with the builds
/// it judged and what --fail-on made of them. Its schema is docs/verdicts.schema.json.
/// </summary>
internal sealed record VerdictsFile
{
    public const string FileName = "verdicts.json";
    public const string CurrentFormat = "lnbench-verdicts/1";

    public string Format { get; init; } = CurrentFormat;

    public required string RunId { get; init; }

    public required string Scenario { get; init; }

    /// <summary>Every case ran to its end; a partial run's verdicts are what it had when it stopped.</summary>
    public required bool Complete { get; init; }

    /// <summary>The run's --threshold, in %; a metric with its own (RPC wait, instructions) says so in its row.</summary>
    public required double ThresholdPercent { get; init; }

    public required IReadOnlyList<VerdictBuild> Builds { get; init; }

    /// <summary>Every comparison of the run: each build against the first, each trace mode against off, per case and metric.</summary>
    public required IReadOnlyList<VerdictRow> Verdicts { get; init; }

    /// <summary>What --fail-on asked and what it found (absent without --fail-on).</summary>
    public VerdictGate? Gate { get; init; }

    public void Write(string directory) =>
        File.WriteAllText(Path.Combine(directory, FileName), JsonSerializer.Serialize(this, RunSummary.Json));

    public static VerdictsFile Read(string json) =>
        JsonSerializer.Deserialize<VerdictsFile>(json, RunSummary.Json)
        ?? throw new InvalidDataException($"{FileName} is empty");

    /// <summary>The primary verdicts whose word --fail-on lists, in the file's order.</summary>
    public IReadOnlyList<VerdictRow> Tripping(IReadOnlyList<string> failOn) =>
        Verdicts.Where(v => v.Primary && FailOn.Trips(failOn, v.Verdict)).ToList();
}

/// <summary>A build the run judged: its name, its image and, when the harness made it from a commit, that commit.</summary>
internal sealed record VerdictBuild(string Name, string Image, string? Commit, string? Subject);

/// <summary>
/// One comparison: a candidate against its baseline in one case on one metric. <see cref="Verdict"/> is one word
/// (slower, faster, same, unknown, no ratio), <see cref="VerdictText"/> the words comparison.md shows.
/// </summary>
/// <param name="Kind">"build" (a build against the first) or "traces" (a trace mode against off, on one build).</param>
/// <param name="Pairs">The topology pairs (or, unpaired, the baseline's topologies) the interval rests on.</param>
/// <param name="DetectsPercent">The smallest change, the worse way, that an interval this wide calls so 80 % of the time (null when not known).</param>
/// <param name="Primary">A build's mean time or operations/s: what a budgeted run waits for and what --fail-on judges.</param>
internal sealed record VerdictRow(
    string Case,
    string Metric,
    string Unit,
    string Kind,
    string Baseline,
    string Candidate,
    double? BaselineMean,
    double? CandidateMean,
    double? Ratio,
    VerdictInterval? Interval,
    int Pairs,
    string Verdict,
    string VerdictText,
    double? DetectsPercent,
    double ThresholdPercent,
    bool Primary
);

/// <param name="Sequential">An anytime-valid confidence sequence (a budgeted run), not a fixed-size t-interval.</param>
internal sealed record VerdictInterval(double Low, double High, double Confidence, bool Paired, bool Sequential);

/// <summary>--fail-on: the verdict words asked for, the primary verdicts that had one, and whether the run exits <c>3</c> for them.</summary>
internal sealed record VerdictGate(IReadOnlyList<string> FailOn, int Tripped, bool Failed);
