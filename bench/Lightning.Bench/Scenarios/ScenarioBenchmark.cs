using BenchmarkDotNet.Attributes;
using Lightning.Bench.Network;
using Lightning.Bench.Options;
using Lightning.Bench.Payments;
using Lightning.Bench.Reports;
using Lightning.Bench.Results;
using Lightning.Bench.Run;
using Lightning.Bench.Setup;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Scenarios;

/// <summary>
/// What every scenario shares: a fresh topology per benchmark case (global setup), payments driven per invocation,
/// teardown in global cleanup, and the parameters every scenario has (Build, Concurrency, Traces). A scenario says
/// which topology it builds, its own parameters, and how many payments one invocation makes.
/// </summary>
public abstract class ScenarioBenchmark
{
    private LightningNetwork? network;
    private PaymentDriver? driver;
    private CaseResults? results;

    protected static HarnessSession Session => HarnessSession.Current;

    /// <summary>The node build (--build NAME=IMAGE); the first one is the baseline of the Ratio column.</summary>
    [ParamsSource(nameof(BuildValues))]
    public BuildName Build { get; set; } = new(0, "");

    /// <summary>Payments each payer starts at once in one invocation.</summary>
    [ParamsSource(nameof(ConcurrencyValues))]
    public int Concurrency { get; set; }

    /// <summary>Whether the nodes send their spans to the harness: a parameter, so one run can measure the tracing overhead.</summary>
    [ParamsSource(nameof(TracesValues))]
    public TraceMode Traces { get; set; } = new(0, TraceModes.On);

    public static IEnumerable<BuildName> BuildValues => Session.Options.Builds.Select((b, i) => new BuildName(i, b.Name));

    public static IEnumerable<int> ConcurrencyValues => Session.Sweep(nameof(Concurrency));

    public static IEnumerable<TraceMode> TracesValues => Session.Options.Traces.Select((t, i) => new TraceMode(i, t));

    /// <summary>The scenario's own parameters (name → value), part of the case's identity.</summary>
    protected virtual IReadOnlyDictionary<string, object> ScenarioParameters => new Dictionary<string, object>();

    /// <summary>Payments one invocation makes: Concurrency per payer.</summary>
    protected virtual int PaymentsPerInvocation => Concurrency;

    protected abstract TopologySpec BuildTopology(BuildSpec build, string bitcoindImage);

    // BenchmarkDotNet 0.14's in-process toolchain calls setup and cleanup without awaiting a returned Task, so these
    // two are the synchronous boundary to the async harness (a console app has no synchronization context to deadlock on).
    [GlobalSetup]
    public void GlobalSetup() => GlobalSetupAsync().GetAwaiter().GetResult();

    [GlobalCleanup]
    public void GlobalCleanup() => GlobalCleanupAsync().GetAwaiter().GetResult();

    private IReadOnlyDictionary<string, object> CaseParameters => new Dictionary<string, object>(ScenarioParameters)
    {
        [nameof(Build)] = Build.Name,
        [nameof(Concurrency)] = Concurrency,
        [nameof(Traces)] = Traces.Name,
    };

    private async Task GlobalSetupAsync()
    {
        var caseKey = CaseKey.From(CaseParameters);
        Session.Progress.Info($"case {caseKey}: building the topology");
        var build = Session.Options.Builds[Build.Index];
        var topology = BuildTopology(build, Session.Options.BitcoindImage);
        network = await Session.StartNetworkAsync(topology, caseKey, Traces.Name);
        var ct = Session.Cancellation;
        try
        {
            await new WalletFunder(network, Session.Progress).FundAsync(topology.Funders, 1m, ct);
            var opener = new ChannelOpener(network, Session.Progress);
            await opener.OpenAsync(topology.Channels, ct);
            await opener.WaitRoutesAsync(topology.Flows, Session.Options.AmountMsat, ct);
            results = Session.Payments.StartCase(caseKey, PaymentsPerInvocation);
            driver = new PaymentDriver(network.Nodes, topology.Flows, Session.Options.AmountMsat,
                $"lnbench-{Session.RunId}", Session.Payments, results, network.ThrowIfNodeDiedAsync);
            if (Session.Options.PregenerateInvoices)
            {
                var count = (Session.Options.Warmups + Session.Options.Iterations) * PaymentsPerInvocation;
                using var step = Session.Progress.Begin($"creating {count} invoices");
                await driver.PregenerateInvoicesAsync(count, ct);
            }
        }
        catch
        {
            await network.DisposeAsync();
            throw;
        }
        Session.Progress.Info($"case {caseKey}: topology ready, benchmarking");
    }

    protected async Task PayBatchAsync()
    {
        var current = network!;
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(Session.Cancellation, current.NodeDied);
        try
        {
            try
            {
                await driver!.RunBatchAsync(PaymentsPerInvocation, stop.Token);
            }
            catch (OperationCanceledException) when (current.Death is not null)
            {
                throw current.Death;
            }
        }
        catch (NodeDiedException e)
        {
            // BenchmarkDotNet ends the case on this exception; the topology goes now, not at the end of the run.
            Session.Progress.Info($"{e.Summary}: tearing the case down, its results so far are kept");
            if (results is not null)
            {
                results.StoppedBy = $"node {e.Node} exited with code {e.ExitCode}";
            }
            await GlobalCleanupAsync();
            throw;
        }
    }

    /// <summary>Reports the case and tears its topology down; a second call (after a node died) does nothing.</summary>
    private async Task GlobalCleanupAsync()
    {
        var ending = Interlocked.Exchange(ref network, null);
        if (ending is null)
        {
            return;
        }
        try
        {
            if (results is not null)
            {
                var steps = await new CaseReporter(Session.RunId, Session.ResultsDirectory, Session.Progress)
                    .ReportAsync(results, ending, Session.Options.Warmups, Session.Options.Iterations, Session.Cancellation);
                Session.RecordSteps(CaseKey.Texts(CaseParameters), steps);
            }
        }
        finally
        {
            await ending.DisposeAsync();
            Session.CaseEnded(ending.Options.ProjectName);
        }
    }
}
