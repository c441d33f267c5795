namespace Lightning.Bench.Progress;

/// <summary>What the progress display shows at one moment: a copy of <see cref="ProgressModel"/>, safe to render on another thread.</summary>
internal sealed record ProgressSnapshot
{
    public string Scenario { get; init; } = "";

    public string RunId { get; init; } = "";

    /// <summary>Since the run started (the budget counts from then too).</summary>
    public TimeSpan Elapsed { get; init; }

    /// <summary>What the run is doing when no case is running ("seeding the chain"), or null.</summary>
    public string? Activity { get; init; }

    /// <summary>The cases BenchmarkDotNet was given so far (a budgeted run's rounds add theirs).</summary>
    public int CasesTotal { get; init; }

    /// <summary>Cases ended, failed ones included.</summary>
    public int CasesDone { get; init; }

    public int CasesFailed { get; init; }

    /// <summary>BenchmarkDotNet runs so far: a budgeted run's rounds; 1 otherwise.</summary>
    public int Round { get; init; }

    public string? CurrentCase { get; init; }

    public TimeSpan? CurrentCaseElapsed { get; init; }

    /// <summary>The current case's topology index, or null between cases.</summary>
    public int? Topology { get; init; }

    /// <summary>The highest topology index of the cases given so far.</summary>
    public int Topologies { get; init; }

    public string? LastCase { get; init; }

    public bool LastCaseSucceeded { get; init; }

    /// <summary>The last case's mean time of an invocation, when BenchmarkDotNet measured one.</summary>
    public TimeSpan? LastCaseMean { get; init; }

    /// <summary>Pairs (all arms of a cell's topology index) whose every case has ended; null when nothing is compared.</summary>
    public int? PairsDone { get; init; }

    public int? PairsTotal { get; init; }

    /// <summary>--max-time, or null.</summary>
    public TimeSpan? Budget { get; init; }

    /// <summary>The budget left (never below zero), or null without one.</summary>
    public TimeSpan? BudgetLeft =>
        Budget is { } budget ? TimeSpan.FromTicks(Math.Max(0, (budget - Elapsed).Ticks)) : null;

    /// <summary>The mean wall time of the cases ended so far, or null before the first ends.</summary>
    public TimeSpan? MeanCaseTime { get; init; }

    /// <summary>
    /// Until the cases given so far have ended, from <see cref="MeanCaseTime"/>; null before the first case ends. A
    /// budgeted run may add rounds after these: its end is bounded by the budget instead.
    /// </summary>
    public TimeSpan? Eta { get; init; }
}
