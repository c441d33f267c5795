namespace Lightning.Bench.Progress;

/// <summary>
/// Where a run is, as the run reports it (the cases BenchmarkDotNet was given, each case's start and end, what it does
/// between cases), for a display to show. It knows nothing of how it is shown; <see cref="Snapshot"/> copies it under
/// its lock, since cases start and end on BenchmarkDotNet's thread while a display reads it on its own.
/// </summary>
internal sealed class ProgressModel(TimeProvider clock)
{
    private readonly Lock gate = new();
    private readonly Dictionary<string, ProgressCase> declared = new(StringComparer.Ordinal);
    private readonly HashSet<string> ended = new(StringComparer.Ordinal);
    private string scenario = "";
    private string runId = "";
    private DateTimeOffset started = clock.GetUtcNow();
    private TimeSpan? budget;
    private string? activity;
    private int rounds;
    private int failed;
    private (string Key, int Topology, DateTimeOffset Started)? current;
    private (string Key, bool Succeeded, TimeSpan? Mean)? last;

    // Wall time of the ended cases, for the mean an ETA is made from.
    private TimeSpan endedTime;
    private int timedCases;

    public ProgressModel()
        : this(TimeProvider.System) { }

    /// <summary>The run: its budget counts from <paramref name="runStarted"/>, as --max-time's does.</summary>
    public void Describe(string scenarioName, string id, DateTimeOffset runStarted, TimeSpan? maxTime)
    {
        lock (gate)
        {
            (scenario, runId, started, budget) = (scenarioName, id, runStarted, maxTime);
        }
    }

    /// <summary>What the run does now that no case shows (setup, a soak, the results); null to say nothing.</summary>
    public void SetActivity(string? text)
    {
        lock (gate)
        {
            activity = text;
        }
    }

    /// <summary>The cases of one BenchmarkDotNet run (a budgeted run's round): added to those given before.</summary>
    public void Declare(IEnumerable<ProgressCase> cases)
    {
        lock (gate)
        {
            rounds++;
            foreach (var c in cases)
            {
                declared.TryAdd(c.Key, c);
            }
        }
    }

    public void CaseStarted(string key)
    {
        lock (gate)
        {
            current = (key, declared.TryGetValue(key, out var c) ? c.Topology : 0, clock.GetUtcNow());
            // The case says what the run does now; whatever was said before it is over.
            activity = null;
        }
    }

    /// <param name="mean">The mean time of its invocations, if BenchmarkDotNet measured any.</param>
    public void CaseEnded(string key, bool succeeded, TimeSpan? mean)
    {
        lock (gate)
        {
            if (current is { } running && running.Key == key)
            {
                endedTime += clock.GetUtcNow() - running.Started;
                timedCases++;
                current = null;
            }
            if (ended.Add(key) && !succeeded)
            {
                failed++;
            }
            last = (key, succeeded, mean);
        }
    }

    public ProgressSnapshot Snapshot()
    {
        lock (gate)
        {
            var now = clock.GetUtcNow();
            var mean = timedCases == 0 ? (TimeSpan?)null : endedTime / timedCases;
            var pairs = declared.Values.GroupBy(c => (c.Cell, c.Topology)).ToList();
            // A comparison's pair is its arms at one topology index; a run of one arm has no pairs to count.
            var compared = pairs.Any(p => p.Count() > 1);
            return new ProgressSnapshot
            {
                Scenario = scenario,
                RunId = runId,
                Elapsed = now - started,
                Activity = activity,
                CasesTotal = declared.Count,
                CasesDone = ended.Count,
                CasesFailed = failed,
                Round = rounds,
                CurrentCase = current?.Key,
                CurrentCaseElapsed = current is { } c ? now - c.Started : null,
                Topology = current?.Topology,
                Topologies = declared.Count == 0 ? 0 : declared.Values.Max(d => d.Topology),
                LastCase = last?.Key,
                LastCaseSucceeded = last?.Succeeded ?? false,
                LastCaseMean = last?.Mean,
                PairsDone = compared ? pairs.Count(p => p.All(d => ended.Contains(d.Key))) : null,
                PairsTotal = compared ? pairs.Count : null,
                Budget = budget,
                MeanCaseTime = mean,
                Eta = mean is { } m
                    ? Eta(m, declared.Count - ended.Count, current is { } r ? now - r.Started : null)
                    : null,
            };
        }
    }

    /// <summary>
    /// The time left for <paramref name="remaining"/> cases (the running one among them) at <paramref name="mean"/>
    /// each: the running case is taken to need what it lacks of the mean, and nothing once it has run longer.
    /// </summary>
    public static TimeSpan Eta(TimeSpan mean, int remaining, TimeSpan? runningFor)
    {
        if (remaining <= 0)
        {
            return TimeSpan.Zero;
        }
        if (runningFor is not { } running)
        {
            return mean * remaining;
        }
        var rest = mean - running;
        return mean * (remaining - 1) + (rest > TimeSpan.Zero ? rest : TimeSpan.Zero);
    }
}
