namespace Lightning.Bench.Tests.Support;

/// <summary>
/// Tests of the wait for quiet nodes run alone, after every other test: with a 10 ms window on 2 cores, a busy
/// container whose cgroup gets no CPU for 10 ms (the machine's other work has it) does look quiet, and the tests run
/// in parallel are such work. A busy machine outside the tests can still make it so; the harness's wait is best
/// effort there (summary.json `invocation_settle` keeps its waits).
/// </summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class QuietMachineCollection
{
    public const string Name = "Quiet machine";
}
