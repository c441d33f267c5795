using Lightning.Bench.NodeKinds.CoreLightning;
using Lightning.Bench.Reports;
using Lightning.Bench.Results;
using Lightning.Bench.Tracing;

namespace Lightning.Bench.Tests;

/// <summary>The outputs of a run, listed in one place, write the files and columns they always wrote.</summary>
[Trait("Category", "Unit")]
public class RunOutputsTests : IDisposable
{
    private const string CaseKey = "Build=a, Concurrency=1, Topology=1, Traces=on";
    private readonly string run = Directory.CreateTempSubdirectory("lnbench-outputs-").FullName;

    [Fact]
    public void The_list_names_every_file_the_outputs_write()
    {
        Assert.Equal(
        [
            "spans.csv", "payment-spans.csv", "span-summary.csv", "span-summary.md", "cases/CASE/zipkin.json", "zipkin.json",
            "cases/CASE/malformed-spans.txt", "payments.csv", "summary.json", "comparison.md", "comparisons.csv", "topologies.csv", "manifest.json",
            "profiles/profiles.md", "profiles/CASE/NODE.svg", "profiles/CASE/NODE.folded", "profiles/diff-BUILD-vs-BASELINE/CASE/NODE.svg",
            "instructions/instructions.md", "instructions/CASE/NODE.folded", "instructions/CASE/NODE.functions.csv", "instructions/CELL/BUILD/NODE.svg",
            "instructions/diff-BUILD-vs-BASELINE/CELL/NODE.svg",
            "payments-timeline.png", "spans-timeline.png", "span-breakdown.png", "comparison-topologies.png", "comparison-ratios.png",
            "soak-latency.png", "soak-nodes.png", "report.html", "../RUN.zip",
        ], RunOutputs.Files);
        Assert.Equal(4, RunOutputs.BenchmarkDotNet.Count);
    }

    [Fact]
    public void A_case_with_spans_writes_the_span_tables_zipkin_and_payments_with_their_columns()
    {
        var results = Case();
        var caseDirectory = Directory.CreateDirectory(Path.Combine(run, "cases", CaseFolder.Of(CaseKey))).FullName;
        var spansFile = Path.Combine(caseDirectory, "spans.jsonl");
        File.WriteAllText(spansFile, "");
        var join = new CoreLightningTraceSource();
        var byHash = PaymentSteps.ByHash(results.Records);
        var steps = new PaymentSteps(join, byHash);
        var summary = new SpanSummary(join, 0, 10_000_000, 80);
        var writers = RunOutputs.Spans.Select(o => o.Open(run, CaseKey, join)).ToList();
        foreach (var id in new long[] { 1, 2 })
        {
            var span = new Span("alice", $"{id:x16}", null, "t", "jsonrpc", id * 1_000_000, 30_000,
                new Dictionary<string, string> { ["id"] = $"lnbench:xpay#{id}/cln:xpay#1/cln-xpay:getroutes#3" });
            var payment = steps.Add(span);
            summary.Add(span);
            writers.ForEach(w => w.Write(span, payment));
        }
        writers.ForEach(w => w.Dispose());
        var spans = new CaseSpans(caseDirectory, spansFile, join, byHash, steps, [new TraceNodeStats("alice", 2, 0, 1, 500, 0)], summary.Rows(), 40,
            steps.Breakdown([1, 2]).Select(b => (b.Operation, b.Count / 2, b.TotalMs / 2)).ToList(), [new MalformedPayload("alice", 5, "not JSON", "{")]);

        RunOutputs.WriteCase(new CaseOutputContext("run-1", run, results, spans));

        Assert.Equal(
        [
            $"cases/{CaseFolder.Of(CaseKey)}/malformed-spans.txt", $"cases/{CaseFolder.Of(CaseKey)}/spans.jsonl", $"cases/{CaseFolder.Of(CaseKey)}/zipkin.json",
            "payment-spans.csv", "payments.csv", "span-summary.csv", "span-summary.md", "spans.csv",
        ], Files());
        Assert.Equal("case,node,name,operation,start_unix_us,duration_us,payment_id,id,parent_id,trace_id", Header("spans.csv"));
        Assert.Equal(3, File.ReadAllLines(Path.Combine(run, "spans.csv")).Length);
        Assert.Equal("case,payment_id,phase,node,operation,count,total_ms", Header("payment-spans.csv"));
        Assert.Equal("case,node,operation,count,total_ms,p50_ms,p95_ms,max_ms,share_percent", Header("span-summary.csv"));
        Assert.Equal("case,invocation,phase,payment_id,payer,payee,start_utc,start_unix_us,end_unix_us,latency_ms,invoice_ms,pay_ms,payment_hash,outcome,error,spans,span_breakdown_ms",
            Header("payments.csv"));
        Assert.Equal("# Where the time of a payment goes", Header("span-summary.md"));
        Assert.Equal("[]", File.ReadAllText(Path.Combine(caseDirectory, "zipkin.json")));
    }

    [Fact]
    public void A_case_cut_off_by_a_signal_keeps_its_payments_and_nothing_of_its_spans()
    {
        RunOutputs.WriteCase(new CaseOutputContext("run-1", run, Case(), Spans: null));

        Assert.Equal(["payments.csv"], Files());
        Assert.Equal(3, File.ReadAllLines(Path.Combine(run, "payments.csv")).Length);
    }

    private static CaseResults Case()
    {
        var results = new CaseResults(CaseKey, 1);
        foreach (var id in new long[] { 1, 2 })
        {
            results.StartInvocation();
            var start = DateTimeOffset.UnixEpoch.AddSeconds(id);
            results.Add(new PaymentRecord(CaseKey, (int)id, id, "alice", "bob", start, start.AddMilliseconds(2), start.AddMilliseconds(40), $"hash{id}",
                PaymentOutcome.Succeeded, null));
        }
        results.Complete(warmups: 0, iterations: 2);
        return results;
    }

    private List<string> Files() =>
        Directory.GetFiles(run, "*", SearchOption.AllDirectories).Select(f => Path.GetRelativePath(run, f).Replace('\\', '/')).Order(StringComparer.Ordinal).ToList();

    private string Header(string file) => File.ReadLines(Path.Combine(run, file)).First();

    public void Dispose() => Directory.Delete(run, recursive: true);
}
