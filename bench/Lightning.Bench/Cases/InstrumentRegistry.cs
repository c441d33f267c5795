using Lightning.Bench.Instructions;
using Lightning.Bench.Instruments;
using Lightning.Bench.Network;
using Lightning.Bench.Profiling;
using Lightning.Bench.Results;
using Lightning.Bench.Scenarios;

namespace Lightning.Bench.Cases;

/// <summary>
/// The one place a case's instruments are chosen and ordered. Before an invocation they run in this order and after
/// it in the reverse, so the windows nest: storage and memory outermost, then the waits (another program's turn, the
/// nodes falling quiet), the instruction window, the CPU readings, the profile switch, the harness's collections, and
/// innermost the invocation's own time.
/// </summary>
internal static class InstrumentRegistry
{
    public static IReadOnlyList<CaseInstrument> For(
        RunContext run,
        CaseLifecycle lifecycle,
        CaseDefinition definition,
        CaseResults results,
        LightningNetwork network,
        INodeMeter? meter,
        bool idleAfterOperations
    )
    {
        var instruments = new List<CaseInstrument>();
        if (meter is not null)
        {
            instruments.Add(new NodeResourcesWindow(meter, results));
        }
        if (run.Turns is { } turns)
        {
            instruments.Add(
                new InvocationGate(
                    (i, ct) => turns.TakeTurnAsync(definition.Key, i.Number, definition.PaymentsPerInvocation, ct)
                )
            );
        }
        if (run.Valgrind is null && !run.Options.BackToBack)
        {
            instruments.Add(
                new InvocationGate(
                    async (_, _) =>
                    {
                        if (await lifecycle.SettleBeforeInvocationAsync() is { } wait)
                        {
                            results.InvocationSettleWaits.Add(wait);
                        }
                    }
                )
            );
        }
        if (run.Valgrind is not null)
        {
            var topology = definition.Topology;
            var counting = CaseInstructions.For(
                run.Engine,
                topology.Nodes.ToDictionary(n => n.Name, n => network.Containers[n.Name]),
                network.Layout.NodeDirectory,
                HostUser.ContainerUser,
                topology.Nodes.ToDictionary(n => n.Name, n => run.Kinds.Get(n.Kind).Instructions?.RetryLoops ?? []),
                topology.Nodes.ToDictionary(n => n.Name, n => run.Kinds.Get(n.Kind).Instructions?.ForkedWork ?? [])
            );
            instruments.Add(
                new InstructionWindow(
                    counting,
                    network.WaitSyncedAsync,
                    meter,
                    results,
                    run.InstructionProfiles,
                    run.ResultsDirectory,
                    run.Options.Warmups,
                    definition.Iterations,
                    definition.PaymentsPerInvocation,
                    run.Progress
                )
            );
        }
        if (meter is not null)
        {
            instruments.Add(new NodeCpuWindow(meter, results, idleAfterOperations, run.Progress));
        }
        if (run.Profiling is { } profiling && run.Options.Soak is null)
        {
            // A soak profiles in windows of its own.
            instruments.Add(
                new ProfileWindow(
                    profiling,
                    ct => network.Host.StartProfileAsync(profiling, CaseFolder.Of(definition.Key), ct),
                    results,
                    run.ResultsDirectory,
                    run.Options.Warmups,
                    run.Progress
                )
            );
        }
        if (
            run.Options.ProbeInterval is { } probe
            && run.Valgrind is null
            && (run.Options.ProbeBuild is null || run.Options.ProbeBuild == definition.Id.Build)
        )
        {
            // Runs beside the invocations (its calls are its own tasks): where it sits in the nesting does not matter.
            instruments.Add(new ResponsivenessProbe(network.Nodes, probe, results));
        }
        instruments.Add(new HarnessGcWindow(results));
        instruments.Add(new InvocationTiming(results));
        return instruments;
    }
}
