using Lightning.Bench.NodeKinds;
using Lightning.Bench.Results;
using Lightning.Bench.Topology;
using Lightning.Bench.Workloads;

namespace Lightning.Bench.Tests.Support;

/// <summary>Two in-memory nodes, alice paying bob, and one case's results: what a workload's unit tests run it on.</summary>
internal sealed class ScriptedPair
{
    public ScriptedPair(int iterations = 3, long amountMsat = 1_000)
    {
        Results = Run.StartCase("case", new Dictionary<string, string>(), iterations);
        Setup = new WorkloadSetup(
            new Dictionary<string, ILightningNode> { ["alice"] = Alice, ["bob"] = Bob },
            [Flow],
            amountMsat,
            "lnbench-test",
            new OperationLog(Run, Results),
            MadeAhead: false
        );
    }

    public ScriptedNode Alice { get; } = new("alice");

    public ScriptedNode Bob { get; } = new("bob");

    public PaymentFlow Flow { get; } = new("alice", "bob");

    public RunResults Run { get; } = new();

    public CaseResults Results { get; }

    /// <summary>The workload's setup on the pair (a test may change it with <c>with</c>).</summary>
    public WorkloadSetup Setup { get; }
}
