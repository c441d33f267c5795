using Lightning.Bench.NodeKinds;
using Lightning.Bench.NodeKinds.Capabilities;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Workloads;

/// <summary>
/// A workload a case can run (the Workload parameter, --workload): its name, what one operation is called in tables,
/// where it makes sense, and a new instance per case. Registered in <see cref="WorkloadCatalog"/>.
/// </summary>
internal interface IWorkloadKind
{
    /// <summary>Its name as --workload and the Workload parameter give it ("pay").</summary>
    string Name { get; }

    /// <summary>One operation, as the figures count it ("payment", "attempt"): CPU per payment, attempts/s.</summary>
    string Noun { get; }

    /// <summary>One line for --list and the docs.</summary>
    string Description { get; }

    /// <summary>What one operation calls on a build of <paramref name="calls"/>'s kind, in BenchmarkDotNet's Method column ("invoice+xpay").</summary>
    string MethodOf(PaymentCalls calls);

    /// <summary>Whether one operation may split its amount over several paths (multi-part); if not, the amount must fit one channel.</summary>
    bool SplitsPayments => false;

    /// <summary>
    /// What it needs of every node of a build beyond setup and payments (<see cref="KnownCapabilities"/>): a run whose
    /// build's kind does not offer one is refused in one line before any container. Nothing by default.
    /// </summary>
    IReadOnlyList<Capability> Needs => [];

    /// <summary>
    /// For a workload that <see cref="SplitsPayments"/>: why <paramref name="concurrency"/> payments of
    /// <paramref name="amountMsat"/> at once are no multi-part payments on <paramref name="topology"/>, or null.
    /// </summary>
    string? SplitRefusal(TopologySpec topology, long amountMsat, int concurrency) => null;

    /// <summary>Why this workload cannot run on <paramref name="topology"/> (one line), or null when it can.</summary>
    string? Refusal(TopologySpec topology);

    /// <summary>The topology the workload runs on, from the scenario's (a workload may add flows or give channels both ways); as it is by default.</summary>
    TopologySpec Shape(TopologySpec topology) => topology;

    IWorkload Create(WorkloadSetup setup);
}
