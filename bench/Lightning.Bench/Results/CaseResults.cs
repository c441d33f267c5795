namespace Lightning.Bench.Results;

/// <summary>
/// One benchmark case in the results model: its payments and invocations as they happen, its topology, the payer's
/// steps once its spans are read, and its figures once it ended (<see cref="Finish"/>).
/// </summary>
internal sealed class CaseResults(string caseKey, int paymentsPerInvocation)
{
    private readonly List<OperationRecord> records = new();
    private readonly Dictionary<int, TimeSpan> completedInvocations = new();
    private readonly Dictionary<int, IReadOnlyDictionary<string, long>> cpuByInvocation = new();
    private readonly Dictionary<int, IReadOnlyDictionary<string, long>> writtenByInvocation = new();
    private readonly Dictionary<string, (double PeakMb, double RssMb)> memory = new();
    private readonly HashSet<int> profiledInvocations = new();
    private readonly List<ProbeSample> probes = new();
    private readonly object finishing = new();
    private bool idlePending;
    private (double?, double?, IReadOnlyList<double>?)? finishLater;
    private int invocations;

    public string CaseKey { get; } = caseKey;

    public int PaymentsPerInvocation { get; } = paymentsPerInvocation;

    /// <summary>What an operation of the case called on its payer ("invoice+xpay", "pay (deleted invoice)"), once its nodes answered; null before.</summary>
    public string? Method { get; set; }

    /// <summary>What one operation of the case's workload is called ("payment", "attempt").</summary>
    public string Noun { get; init; } = OperationNoun.Payment.Singular;

    /// <summary>The case's parameters (Build, Concurrency, Traces and the scenario's own) as text; <see cref="Id"/> is read from them.</summary>
    public IReadOnlyDictionary<string, string> Parameters { get; init; } = new Dictionary<string, string>();

    /// <summary>The case's identity, read from its parameters once, when first asked.</summary>
    public CaseId Id => field ??= CaseId.Of(Parameters);

    /// <summary>The topology the case ran on (null until it started).</summary>
    public CaseRecord? Topology { get; set; }

    /// <summary>The payer's mean steps per payment, once the case is reported (empty without traces); null before.</summary>
    public CaseSteps? Steps { get; set; }

    /// <summary>The case's figures, computed once by <see cref="Finish"/>; null before, or when no measured invocation completed.</summary>
    public CaseFigures? Figures { get; private set; }

    /// <summary>
    /// Computes the case's figures once it ended, from BenchmarkDotNet's statistics of its measured iterations, or,
    /// when BenchmarkDotNet has none because the case stopped early, from the harness's own timing of them.
    /// </summary>
    public CaseFigures? Finish(
        double? meanNanoseconds,
        double? stdDevNanoseconds,
        IReadOnlyList<double>? iterationsNanoseconds
    )
    {
        lock (finishing)
        {
            Ended = true;
            if (idlePending)
            {
                // The idle rate comes after the payments (AwaitIdleAfterPayments): the figures wait for it.
                finishLater = (meanNanoseconds, stdDevNanoseconds, iterationsNanoseconds);
                return null;
            }
        }
        return Compute(meanNanoseconds, stdDevNanoseconds, iterationsNanoseconds);
    }

    /// <summary>The case ended (<see cref="Finish"/> was called), whether or not its figures wait for the idle rate.</summary>
    public bool Ended { get; private set; }

    /// <summary>True while the idle rate measured after the payments is awaited.</summary>
    public bool IdleAfterPaymentsPending
    {
        get
        {
            lock (finishing)
            {
                return idlePending;
            }
        }
    }

    /// <summary>The nodes' idle CPU is measured after the payments (a timed case's end, behind the next case's setup): <see cref="Finish"/> waits for <see cref="IdleMeasured"/>.</summary>
    public void AwaitIdleAfterPayments()
    {
        lock (finishing)
        {
            idlePending = true;
        }
    }

    /// <summary>
    /// The figures of the measured invocations now, without CPU per payment, while the idle rate it needs is still to be
    /// measured (a budgeted round's last group of alternating arms, whose idle windows run behind the next round's
    /// setup): the round's verdicts need only the times. <see cref="IdleMeasured"/> then computes them in full.
    /// Nothing happens when no idle rate is pending.
    /// </summary>
    public void FinishProvisionally()
    {
        lock (finishing)
        {
            if (!idlePending)
            {
                return;
            }
        }
        if (Compute(null, null, null) is { } figures)
        {
            Figures = figures with { Cpu = null };
        }
    }

    /// <summary>The idle rate measured after the payments (empty when it could not be); the figures are computed now if the case already ended.</summary>
    public void IdleMeasured(IReadOnlyDictionary<string, double> idleNanosecondsPerSecond)
    {
        (double?, double?, IReadOnlyList<double>?)? later;
        lock (finishing)
        {
            IdleCpuNanosecondsPerSecond = idleNanosecondsPerSecond;
            idlePending = false;
            later = finishLater;
            finishLater = null;
        }
        if (later is { } finish)
        {
            Compute(finish.Item1, finish.Item2, finish.Item3);
        }
    }

    /// <summary>
    /// With alternating arms (--pairing alternate): the figures come from the harness's timing of every measured
    /// invocation, BenchmarkDotNet's (in this case) and the others' (in the other arms' cases), not from
    /// BenchmarkDotNet's statistics of its own iterations alone.
    /// </summary>
    public bool TimedByHarness { get; set; }

    private CaseFigures? Compute(
        double? meanNanoseconds,
        double? stdDevNanoseconds,
        IReadOnlyList<double>? iterationsNanoseconds
    )
    {
        if (meanNanoseconds is { } mean && !TimedByHarness)
        {
            return Figures = CaseFigures.Compute(
                this,
                mean,
                stdDevNanoseconds ?? double.NaN,
                iterationsNanoseconds,
                fromBenchmarkDotNet: true
            );
        }
        List<double> own;
        lock (records)
        {
            own = CompletedMeasured().Select(t => t.TotalNanoseconds).ToList();
        }
        return Figures =
            own.Count == 0
                ? null
                : CaseFigures.Compute(
                    this,
                    own.Average(),
                    own.Count > 1
                        ? Math.Sqrt(own.Sum(t => Math.Pow(t - own.Average(), 2)) / (own.Count - 1))
                        : double.NaN,
                    own
                );
    }

    /// <summary>Why the case ended before its iterations did (a node died), or null for a complete case.</summary>
    public string? StoppedBy { get; set; }

    public int StartInvocation() => Interlocked.Increment(ref invocations);

    /// <summary>Invocations started so far, warmups included (0: the case never got to pay).</summary>
    public int InvocationsStarted => Volatile.Read(ref invocations);

    /// <summary>An invocation whose payments all ended, with its time as the harness measured it (BenchmarkDotNet measures the same span).</summary>
    public void CompleteInvocation(int invocation, TimeSpan elapsed)
    {
        lock (completedInvocations)
        {
            completedInvocations[invocation] = elapsed;
        }
    }

    /// <summary>One answer (or none) of the responsiveness probe (--probe).</summary>
    public void RecordProbe(ProbeSample sample)
    {
        lock (probes)
        {
            probes.Add(sample);
        }
    }

    /// <summary>The responsiveness probe's calls so far, in the order they ended.</summary>
    public IReadOnlyList<ProbeSample> Probes
    {
        get
        {
            lock (probes)
            {
                return [.. probes];
            }
        }
    }

    /// <summary>Each node's CPU nanoseconds around an invocation, read outside its timing (just before and just after it).</summary>
    public void RecordCpu(int invocation, IReadOnlyDictionary<string, long> cpuNanoseconds)
    {
        if (cpuNanoseconds.Count == 0)
        {
            return;
        }
        lock (completedInvocations)
        {
            cpuByInvocation[invocation] = cpuNanoseconds;
        }
    }

    /// <summary>Each node's bytes written to storage around an invocation and its resources after it (read outside the invocation's timing).</summary>
    public void RecordResources(
        int invocation,
        IReadOnlyDictionary<string, (long WrittenBytes, NodeResourceSample After)> resources
    )
    {
        lock (completedInvocations)
        {
            if (resources.Count > 0)
            {
                writtenByInvocation[invocation] = resources.ToDictionary(r => r.Key, r => r.Value.WrittenBytes);
                foreach (var (node, (_, after)) in resources)
                {
                    memory[node] = (
                        Math.Max(memory.GetValueOrDefault(node).PeakMb, after.PeakBytes / 1048576.0),
                        after.RssBytes / 1048576.0
                    );
                }
            }
        }
    }

    /// <summary>
    /// What the Lightning nodes wrote to storage per successful payment in the measured invocations (KB), per invocation
    /// and per node, and each node's peak memory and resident memory at the end (MB). Null without the data.
    /// </summary>
    public NodeCosts? NodeCosts()
    {
        List<(int Invocation, IReadOnlyDictionary<string, long> Written)> measured;
        Dictionary<string, (double PeakMb, double RssMb)> mem;
        lock (records)
        {
            lock (completedInvocations)
            {
                measured = writtenByInvocation
                    .Where(w => w.Key >= firstMeasured && completedInvocations.ContainsKey(w.Key))
                    .OrderBy(w => w.Key)
                    .Select(w => (w.Key, w.Value))
                    .ToList();
                mem = new(memory);
            }
        }
        var succeeded = Records
            .Where(r => r.AsExpected)
            .GroupBy(r => r.Invocation)
            .ToDictionary(g => g.Key, g => g.Count());
        var payments = measured.Sum(m => succeeded.GetValueOrDefault(m.Invocation));
        if (measured.Count == 0 || payments == 0)
        {
            return null;
        }
        var perInvocation = measured
            .Where(m => succeeded.GetValueOrDefault(m.Invocation) > 0)
            .Select(m => m.Written.Values.Sum() / 1024.0 / succeeded[m.Invocation])
            .ToList();
        var byNode = measured
            .SelectMany(m => m.Written)
            .GroupBy(w => w.Key)
            .ToDictionary(g => g.Key, g => g.Sum(w => w.Value) / 1024.0 / payments);
        return new NodeCosts(
            perInvocation,
            byNode,
            mem.ToDictionary(m => m.Key, m => m.Value.PeakMb),
            mem.ToDictionary(m => m.Key, m => m.Value.RssMb)
        );
    }

    /// <summary>Each node's CPU nanoseconds per second while idle, measured before the first invocation (empty: not measured).</summary>
    public IReadOnlyDictionary<string, double> IdleCpuNanosecondsPerSecond { get; set; } =
        new Dictionary<string, double>();

    /// <summary>
    /// CPU time of the Lightning nodes per successful payment in the measured invocations, each node's idle rate
    /// subtracted: per invocation (all nodes), per node (all invocations), and without the subtraction. Null without CPU data.
    /// </summary>
    public CpuPerPayment? CpuPerPayment()
    {
        List<(int Invocation, TimeSpan Elapsed, IReadOnlyDictionary<string, long> Cpu)> measured;
        lock (records)
        {
            lock (completedInvocations)
            {
                measured = completedInvocations
                    .Where(i => i.Key >= firstMeasured && cpuByInvocation.ContainsKey(i.Key))
                    .OrderBy(i => i.Key)
                    .Select(i => (i.Key, i.Value, cpuByInvocation[i.Key]))
                    .ToList();
            }
        }
        if (measured.Count == 0)
        {
            return null;
        }
        var succeeded = Records
            .Where(r => r.AsExpected)
            .GroupBy(r => r.Invocation)
            .ToDictionary(g => g.Key, g => g.Count());
        double Active(string node, long ns, TimeSpan elapsed) =>
            ns - IdleCpuNanosecondsPerSecond.GetValueOrDefault(node) * elapsed.TotalSeconds;
        var perInvocation = measured
            .Where(m => succeeded.GetValueOrDefault(m.Invocation) > 0)
            .Select(m => m.Cpu.Sum(c => Active(c.Key, c.Value, m.Elapsed)) / 1e6 / succeeded[m.Invocation])
            .ToList();
        var payments = measured.Sum(m => succeeded.GetValueOrDefault(m.Invocation));
        if (payments == 0)
        {
            return null;
        }
        var byNode = measured
            .SelectMany(m => m.Cpu.Select(c => (c.Key, Ms: Active(c.Key, c.Value, m.Elapsed) / 1e6)))
            .GroupBy(c => c.Key)
            .ToDictionary(g => g.Key, g => g.Sum(c => c.Ms) / payments);
        var raw = measured.Sum(m => m.Cpu.Values.Sum()) / 1e6 / payments;
        return new CpuPerPayment(perInvocation, byNode, raw);
    }

    /// <summary>With --instructions: each node's instructions in the measured and the idle window; null until the window closed.</summary>
    public IReadOnlyDictionary<string, NodeInstructions>? Instructions { get; set; }

    /// <summary>With --instructions: each wait for the nodes to fall quiet in the measured window (see <see cref="InstructionSettle"/>).</summary>
    public List<(TimeSpan Waited, bool Quiet)> SettleWaits { get; } = [];

    /// <summary>A timed case's waits for the nodes to fall quiet before each invocation (see <c>TimedSettle</c>).</summary>
    public List<(TimeSpan Waited, bool Quiet)> InvocationSettleWaits { get; } = [];

    /// <summary>The harness's own garbage collections inside each measured invocation (see <see cref="HarnessGc"/>).</summary>
    public List<(TimeSpan Paused, int Collections)> GcInInvocations { get; } = [];

    /// <summary>Why a case run with --instructions has no counts (a node's processes did not answer vgdb), or null.</summary>
    public string? InstructionProblem { get; set; }

    /// <summary>Marks an invocation whose nodes' stacks were sampled (--profile).</summary>
    public void MarkProfiled(int invocation)
    {
        lock (completedInvocations)
        {
            profiledInvocations.Add(invocation);
        }
    }

    /// <summary>The nodes' CPU profiles, once the case ended (empty without --profile).</summary>
    public IReadOnlyList<ProfileRecord> Profiles { get; set; } = [];

    /// <summary>Why this case has no profiles though they were asked for, or null.</summary>
    public string? ProfileProblem { get; set; }

    /// <summary>Successful payments in the measured invocations that were sampled.</summary>
    public int ProfiledPayments()
    {
        HashSet<int> profiled;
        lock (completedInvocations)
        {
            profiled = new(profiledInvocations);
        }
        return Records.Count(r => r.AsExpected && profiled.Contains(r.Invocation));
    }

    /// <summary>
    /// The measured invocations' times (ms) and the nodes' CPU per payment (ms, idle subtracted) split by whether the
    /// nodes were sampled during them: what profiling cost in this topology.
    /// </summary>
    public (
        IReadOnlyList<double> SampledMs,
        IReadOnlyList<double> UnsampledMs,
        IReadOnlyList<double> SampledCpuMs,
        IReadOnlyList<double> UnsampledCpuMs
    ) ProfilingCost()
    {
        List<(int Invocation, TimeSpan Elapsed, bool Profiled, IReadOnlyDictionary<string, long>? Cpu)> measured;
        lock (records)
        {
            lock (completedInvocations)
            {
                measured = completedInvocations
                    .Where(i => i.Key >= firstMeasured)
                    .OrderBy(i => i.Key)
                    .Select(i =>
                        (i.Key, i.Value, profiledInvocations.Contains(i.Key), cpuByInvocation.GetValueOrDefault(i.Key))
                    )
                    .ToList();
            }
        }
        var succeeded = Records
            .Where(r => r.AsExpected)
            .GroupBy(r => r.Invocation)
            .ToDictionary(g => g.Key, g => g.Count());
        double? CpuMs((int Invocation, TimeSpan Elapsed, bool Profiled, IReadOnlyDictionary<string, long>? Cpu) m) =>
            m.Cpu is null || succeeded.GetValueOrDefault(m.Invocation) == 0
                ? null
                : m.Cpu.Sum(c =>
                    c.Value - IdleCpuNanosecondsPerSecond.GetValueOrDefault(c.Key) * m.Elapsed.TotalSeconds
                )
                    / 1e6
                    / succeeded[m.Invocation];
        List<double> Times(bool profiled) =>
            measured.Where(m => m.Profiled == profiled).Select(m => m.Elapsed.TotalMilliseconds).ToList();
        List<double> Cpu(bool profiled) =>
            measured.Where(m => m.Profiled == profiled).Select(CpuMs).OfType<double>().ToList();
        return (Times(true), Times(false), Cpu(true), Cpu(false));
    }

    /// <summary>Measured invocations that completed.</summary>
    public int CompletedMeasuredInvocations
    {
        get
        {
            lock (records)
            {
                return CompletedMeasured().Count;
            }
        }
    }

    /// <summary>Times of the completed measured invocations; the caller holds the records lock (it guards <see cref="firstMeasured"/>).</summary>
    private List<TimeSpan> CompletedMeasured()
    {
        lock (completedInvocations)
        {
            // In invocation order: with alternating arms the i-th of each arm are a turn (PrecisionEstimate.PairedWithinVariance).
            return completedInvocations
                .Where(i => i.Key >= firstMeasured)
                .OrderBy(i => i.Key)
                .Select(i => i.Value)
                .ToList();
        }
    }

    private int firstMeasured = int.MaxValue;

    public void Add(OperationRecord record)
    {
        lock (records)
        {
            records.Add(record);
        }
    }

    /// <summary>
    /// Marks the measured invocations: BenchmarkDotNet runs the warmups first, then the iterations. A complete case's
    /// last <paramref name="iterations"/> invocations were measured; a case that stopped early measured those after the warmups.
    /// </summary>
    public void Complete(int warmups, int iterations)
    {
        lock (records)
        {
            firstMeasured = invocations >= warmups + iterations ? invocations - iterations + 1 : warmups + 1;
            for (var i = 0; i < records.Count; i++)
            {
                records[i] = records[i] with { Measured = records[i].Invocation >= firstMeasured };
            }
        }
    }

    /// <summary>Replaces each record with what <paramref name="update"/> makes of it (used to attach spans).</summary>
    public void Update(Func<OperationRecord, OperationRecord> update)
    {
        lock (records)
        {
            for (var i = 0; i < records.Count; i++)
            {
                records[i] = update(records[i]);
            }
        }
    }

    public IReadOnlyList<OperationRecord> Records
    {
        get
        {
            lock (records)
            {
                return records.ToList();
            }
        }
    }

    public IReadOnlyList<OperationRecord> Measured => Records.Where(r => r.Measured).ToList();

    /// <summary>
    /// A signal cut the case off mid-invocation: its figures count the operations of the invocations that completed
    /// (<see cref="Counted"/>); the last one's, cancelled by the stop and no failure of a node, stay in payments.csv.
    /// </summary>
    public bool CutBySignal { get; set; }

    /// <summary>The measured operations the figures count: all of them, or for a case <see cref="CutBySignal"/>, those of its completed invocations.</summary>
    public IReadOnlyList<OperationRecord> Counted
    {
        get
        {
            if (!CutBySignal)
            {
                return Measured;
            }
            lock (completedInvocations)
            {
                return Measured.Where(r => completedInvocations.ContainsKey(r.Invocation)).ToList();
            }
        }
    }
}
