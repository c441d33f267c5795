using System.Globalization;
using Lightning.Bench.Options;
using Lightning.Bench.Profiling;
using Lightning.Bench.Progress;
using Lightning.Bench.Results;
using Lightning.Bench.Scenarios;

namespace Lightning.Bench.Reports;

/// <summary>What the run's end outputs are written from: the run's settings and results model, and how the run ended.</summary>
internal sealed class RunOutputContext
{
    private ProfilingRecord? profiles;
    private bool profilesKnown;

    public required string RunId { get; init; }

    public required string ResultsDirectory { get; init; }

    public required ScenarioInfo Scenario { get; init; }

    public required HarnessOptions Options { get; init; }

    public required RunResults Results { get; init; }

    /// <summary>The seed of the run's order of cases, and that order.</summary>
    public required int Seed { get; init; }

    public required IReadOnlyList<string> Order { get; init; }

    public required DateTimeOffset Started { get; init; }

    public required MachineRecord Machine { get; init; }

    public required IReadOnlyList<ImageRecord> Images { get; init; }

    /// <summary>What one payment calls, in the plots' words (the builds' node kinds), e.g. "invoice on the payee + xpay on the payer".</summary>
    public required string PaymentCalls { get; init; }

    /// <summary>The run's profiling (--profile), or null.</summary>
    public RunProfiling? Profiling { get; init; }

    /// <summary>With --graph: the run's mainnet graph, else null.</summary>
    public Graph.RunGraph? Graph { get; init; }

    /// <summary>With --history: what its rows are and how they were made.</summary>
    public HistoryRecord? History { get; init; }

    /// <summary>With --instructions: the host's Valgrind the nodes ran under, else null.</summary>
    public Instructions.HostValgrind? Valgrind { get; init; }

    /// <summary>With --instructions: every topology's function counts.</summary>
    public Instructions.RunInstructionProfiles? InstructionProfiles { get; init; }

    /// <summary>The machine while the run measured (null when it did not get to measure).</summary>
    public MachineLoad? MachineLoad { get; init; }

    /// <summary>The machine's samples, one a second, for machine-load.csv.</summary>
    public IReadOnlyList<MachineLoadSample> MachineLoadSamples { get; init; } = [];

    /// <summary>Why the run has no profiles though --profile-if-available asked for them, or null.</summary>
    public string? ProfileSkipped { get; init; }

    public required RunProgress Progress { get; init; }

    /// <summary>BenchmarkDotNet ran every case to its end (not stopped by a failure or a signal).</summary>
    public required bool Completed { get; init; }

    /// <summary>The run did not finish as asked (a failure or a signal): the manifest says so.</summary>
    public required bool Partial { get; init; }

    /// <summary>The signal that stopped the run before its end ("SIGHUP"), or null: summary.json and the manifest say so.</summary>
    public string? InterruptedBy { get; init; }

    /// <summary>Whether to draw the plots (not after a signal, except for a soak, which a signal ends normally).</summary>
    public required bool Plots { get; init; }

    /// <summary>How the run sampled and every profile it kept (null without --profile), computed once for the manifest and the profiles' report.</summary>
    public ProfilingRecord? Profiles
    {
        get
        {
            if (!profilesKnown)
            {
                profiles = ProfilingOf(Results.Cases);
                profilesKnown = true;
            }
            return profiles;
        }
    }

    /// <summary>Where the topologies ran ("one host", "swarm").</summary>
    public required string Platform { get; init; }

    /// <summary>What the run's figures mean beyond its cases.</summary>
    public MeasurementConditions Conditions =>
        new()
        {
            Platform = Platform,
            UnderValgrind = Valgrind is not null,
            Sampling = Profiling is null
                ? null
                : MeasurementConditions.SamplingOf(Profiling.Settings.FrequencyHz, Profiling.Settings.CallGraph),
            BackToBack = Options.BackToBack,
        };

    /// <summary>"pregenerated" or "in payment": when the run made its invoices.</summary>
    public string InvoiceMode => Options.PregenerateInvoices ? "pregenerated" : "in payment";

    private ProfilingRecord? ProfilingOf(IReadOnlyList<CaseResults> cases)
    {
        if (Options.Profile is not { } settings)
        {
            return null;
        }
        return new ProfilingRecord(
            settings.FrequencyHz,
            settings.CallGraph,
            Profiling?.PerfVersion ?? "",
            ProfileSkipped,
            cases
                .Where(c => c.Profiles.Count > 0 || c.ProfileProblem is not null)
                .Select(c => new CaseProfiles(c.CaseKey, c.Parameters, c.Profiles, c.ProfileProblem))
                .Concat(
                    Results.SoakProfiles.Select(w => new CaseProfiles(
                        $"soak window {w.Number}",
                        new Dictionary<string, string>
                        {
                            ["Window"] = w.Number.ToString(CultureInfo.InvariantCulture),
                            ["StartSeconds"] = w.StartSeconds.ToString("0.0", CultureInfo.InvariantCulture),
                            ["PaymentsBefore"] = w.PaymentsBefore.ToString(CultureInfo.InvariantCulture),
                        },
                        w.Profiles,
                        null
                    ))
                )
                .ToList()
        );
    }
}
