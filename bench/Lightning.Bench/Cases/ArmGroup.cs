using Lightning.Bench.Network;
using Lightning.Bench.Scenarios;

namespace Lightning.Bench.Cases;

/// <summary>
/// --pairing alternate: the arms (builds, trace modes) of one cell and topology index, live at once, their invocations
/// alternated. The group's first case in the plan's order sets up every arm's topology, then each arm's warmups; in
/// each BenchmarkDotNet iteration of any arm's case, every other arm makes one invocation first (untimed by
/// BenchmarkDotNet, timed by the harness as every invocation is), then the case's own. Over the group's cases each arm
/// measures as many invocations as BenchmarkDotNet's iterations times the arms, interleaved with the others' (for two
/// arms A then B: BA BA … in A's case, AB AB … in B's), so the machine's moments of a few seconds, which are what
/// differs most between two topologies measured one after the other (benchmarks/spread-live.py), are common to the
/// pair. Each arm's figures come from the harness's timing of all its measured invocations. The last case's cleanup
/// ends every arm (idle window, report, teardown), behind the next group's setup.
/// </summary>
internal sealed class ArmGroup
{
    private readonly RunContext run;
    private readonly List<CaseLifecycle> arms;
    private readonly HashSet<string> done = [];
    private bool ended;

    private ArmGroup(RunContext run, List<CaseLifecycle> arms)
    {
        this.run = run;
        this.arms = arms;
    }

    /// <summary>The group's case keys, in the order their cases run.</summary>
    public IReadOnlyList<string> Keys => arms.Select(a => a.Key).ToList();

    /// <summary>
    /// The lifecycle of a case whose cell and topology index alternate its arms: the live group's arm if it is the
    /// group's, else a new group with every arm set up and warmed up. A case whose group is a single arm, or which the
    /// plan did not arrange, or whose group could not be set up, starts alone.
    /// </summary>
    /// <param name="definitionOf">A partner's definition from its parameters (the case's, with another Build or Traces).</param>
    public static async Task<CaseLifecycle> StartAsync(
        RunContext run,
        CaseDefinition definition,
        Func<IReadOnlyDictionary<string, string>, CaseDefinition> definitionOf
    )
    {
        if (run.LiveGroup is { } live && live.Keys.Contains(definition.Key))
        {
            return live.Take(definition.Key);
        }
        var group = run.Plan.GroupOf(definition.Key);
        if (group is null || group.Count < 2 || run.StartAlone.Contains(definition.Key))
        {
            return await CaseLifecycle.StartAsync(run, definition);
        }
        if (run.LiveGroup is { } stale)
        {
            // Its last case never reached its cleanup (it failed to start): its arms end now.
            await stale.EndAllAsync(wait: true);
        }
        var started = new List<CaseLifecycle>();
        try
        {
            foreach (var (key, parameters) in group)
            {
                started.Add(
                    await CaseLifecycle.StartAsync(
                        run,
                        key == definition.Key ? definition : definitionOf(parameters),
                        awaitEndBehind: false
                    )
                );
            }
            // The previous group's end (idle windows, reports, teardowns) ran beside these setups; none of it beside a payment.
            await run.EndBehindAsync();
        }
        catch
        {
            foreach (var (key, _) in group.Where(g => g.Key != definition.Key))
            {
                run.StartAlone.Add(key);
            }
            foreach (var arm in started)
            {
                await arm.AbortAsync();
            }
            throw;
        }
        var armGroup = new ArmGroup(run, started);
        foreach (var arm in started)
        {
            arm.Group = armGroup;
        }
        run.LiveGroup = armGroup;
        run.Progress.Info(
            $"{started.Count} topologies live, invocations alternated: {string.Join(" | ", armGroup.Keys)}"
        );
        for (var w = 0; w < run.Options.Warmups; w++)
        {
            foreach (var arm in armGroup.Alive())
            {
                await armGroup.InvokeAsync(arm);
            }
        }
        return armGroup.Take(definition.Key);
    }

    private CaseLifecycle Take(string key)
    {
        var arm = arms.Single(a => a.Key == key);
        if (!arm.Alive)
        {
            throw new InvalidOperationException(
                $"case {key}: its topology ended while it was measured beside another arm ({arm.StoppedBy ?? "no reason recorded"})"
            );
        }
        return arm;
    }

    private IEnumerable<CaseLifecycle> Alive() => arms.Where(a => a.Alive).ToList();

    /// <summary>Before <paramref name="own"/>'s invocation in its BenchmarkDotNet iteration: one invocation of every other live arm.</summary>
    public async Task PartnersAsync(CaseLifecycle own)
    {
        foreach (var arm in Alive().Where(a => a != own))
        {
            await InvokeAsync(arm);
        }
    }

    /// <summary>An arm's invocation outside BenchmarkDotNet; a node that dies ends that arm only (its case fails when it starts).</summary>
    private async Task InvokeAsync(CaseLifecycle arm)
    {
        try
        {
            await arm.InvokeAloneAsync();
        }
        catch (NodeDiedException e)
        {
            run.Progress.Info($"case {arm.Key}: {e.Summary}; the other arms go on");
        }
    }

    /// <summary>Waits until every live arm's nodes are quiet (see <see cref="TimedSettle"/>): no arm's last payment runs into the next invocation.</summary>
    public async Task<(TimeSpan Waited, bool Quiet)> SettleAsync()
    {
        var (waited, quiet) = (TimeSpan.Zero, true);
        foreach (var arm in Alive())
        {
            if (await arm.WaitQuietAsync() is { } wait)
            {
                waited += wait.Waited;
                quiet &= wait.Quiet;
            }
        }
        return (waited, quiet);
    }

    /// <summary>An arm's BenchmarkDotNet case is done; after the group's last, every arm ends (awaited when it is the run's last case).</summary>
    public Task ArmDoneAsync(CaseLifecycle arm)
    {
        done.Add(arm.Key);
        if (!arms.All(a => done.Contains(a.Key)))
        {
            return Task.CompletedTask;
        }
        var order = run.Plan.Order;
        // The run's last case waits for its group's end, unless a budgeted run's next round may follow: then the arms'
        // figures are taken now without the idle rate, and their idle windows run behind that round's setup.
        var last = order.Count == 0 || order[^1] == arm.Key;
        if (last && run.RoundsMayFollow)
        {
            foreach (var each in arms)
            {
                each.FinishProvisionally();
            }
            return EndAllAsync(wait: false);
        }
        return EndAllAsync(wait: last);
    }

    /// <summary>
    /// Every arm's end: their idle windows at once, then each one's report and teardown in turn (a report appends to
    /// the run's files: payments.csv, spans.csv…); awaited, or left behind the next case's setup. Never throws.
    /// </summary>
    public async Task EndAllAsync(bool wait)
    {
        if (ended)
        {
            return;
        }
        ended = true;
        if (run.LiveGroup == this)
        {
            run.LiveGroup = null;
        }
        async Task EndArmsAsync()
        {
            await Task.WhenAll(arms.Select(a => a.MeasureIdleAsArmAsync()));
            foreach (var arm in arms)
            {
                await arm.EndQuietlyAsync();
            }
        }
        var end = EndArmsAsync();
        if (wait)
        {
            await end;
            return;
        }
        run.LeaveEndBehind(end);
    }
}
