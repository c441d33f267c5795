using BenchmarkDotNet.Attributes;
using Lightning.Bench.Harness;
using Lightning.Bench.Nodes;
using Lightning.Bench.Payments;
using Lightning.Bench.Reporting;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Scenarios;

/// <summary>
/// What every scenario shares: a fresh topology per benchmark case (global setup), payments driven per invocation,
/// teardown in global cleanup. A scenario says which topology, which parameters make its case, and how many payments an invocation makes.
/// </summary>
public abstract class ScenarioBenchmark
{
    private LightningNetwork? network;
    private PaymentDriver? driver;
    private CaseResults? results;

    protected static HarnessSession Session => HarnessSession.Current;

    /// <summary>Whether the nodes send their spans to the harness: a parameter, so one run can measure the tracing overhead.</summary>
    [ParamsSource(nameof(TracesValues))]
    public string Traces { get; set; } = "on";

    public static IEnumerable<string> TracesValues => Session.Options.Traces.Select(on => on ? "on" : "off");

    /// <summary>The case's parameters as BenchmarkDotNet shows them (name → value); the ledger and columns key on them.</summary>
    protected abstract IReadOnlyDictionary<string, object> CaseParameters { get; }

    protected abstract int PaymentsPerInvocation { get; }

    protected abstract TopologySpec BuildTopology();

    // BenchmarkDotNet 0.14's in-process toolchain calls setup and cleanup without awaiting a returned Task, so these
    // two are the synchronous boundary to the async harness (a console app has no synchronization context to deadlock on).
    [GlobalSetup]
    public void GlobalSetup() => GlobalSetupAsync().GetAwaiter().GetResult();

    [GlobalCleanup]
    public void GlobalCleanup() => GlobalCleanupAsync().GetAwaiter().GetResult();

    public async Task GlobalSetupAsync()
    {
        var caseKey = CaseKey.From(CaseParameters);
        Session.Progress.Info($"case {caseKey}: building the topology");
        var topology = BuildTopology();
        network = await Session.StartNetworkAsync(topology, caseKey, Traces == "on");
        try
        {
            await new WalletFunder(network, Session.Progress).FundAsync(topology.Funders, 1m, Session.Cancellation);
            var opener = new ChannelOpener(network, Session.Progress);
            await opener.OpenAsync(topology.Channels, Session.Cancellation);
            await opener.WaitRoutesAsync(topology.Flows, Session.Options.AmountMsat, Session.Cancellation);
        }
        catch
        {
            await network.DisposeAsync();
            throw;
        }
        results = Session.Payments.StartCase(caseKey, PaymentsPerInvocation);
        driver = new PaymentDriver(network.Nodes, topology.Flows, Session.Options.AmountMsat,
            $"lnbench-{Session.RunId}", Session.Payments, results);
        Session.Progress.Info($"case {caseKey}: topology ready, benchmarking");
    }

    protected Task PayBatchAsync() => driver!.RunBatchAsync(PaymentsPerInvocation, Session.Cancellation);

    public async Task GlobalCleanupAsync()
    {
        if (network is null)
        {
            return;
        }
        try
        {
            if (results is not null)
            {
                await new CaseReporter(Session.RunId, Session.ResultsDirectory, Session.Progress)
                    .ReportAsync(results, network, Session.Options.Iterations, Session.Cancellation);
            }
        }
        finally
        {
            await network.DisposeAsync();
        }
    }
}
