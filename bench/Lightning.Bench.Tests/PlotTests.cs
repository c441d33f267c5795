using System.Text;
using Lightning.Bench.NodeKinds.CoreLightning;
using Lightning.Bench.Progress;
using Lightning.Bench.Reports;
using Lightning.Bench.Results;
using Lightning.Bench.Tracing;

namespace Lightning.Bench.Tests;

/// <summary>The R script over small CSVs written by the harness's own writers, with real Rscript and ggplot2.</summary>
[Trait("Category", "Plots")]
public class PlotTests : IDisposable
{
    private readonly string directory = Directory.CreateTempSubdirectory("lnbench-plots-").FullName;

    // 30 nodes: a hub's peers, one panel each, more than ggplot2 saves at full height (50 inches).
    [SkippableTheory]
    [InlineData(2)]
    [InlineData(30)]
    public async Task The_r_script_draws_the_payment_timeline_span_timeline_and_breakdown(int nodes)
    {
        Requirements.R();
        var spans = new List<Span>();
        foreach (var (caseKey, concurrency) in new[] { ("Concurrency=1", 1), ("Concurrency=4", 4) })
        {
            var results = new CaseResults(caseKey, concurrency);
            var t0 = DateTimeOffset.UnixEpoch.AddDays(20_000);
            for (var invocation = 1; invocation <= 4; invocation++)
            {
                results.StartInvocation();
                for (var i = 0; i < concurrency; i++)
                {
                    var id = (concurrency * 100) + (invocation * 10) + i;
                    var start = t0.AddMilliseconds(invocation * 80);
                    var end = start.AddMilliseconds(50 + (5 * i) + invocation);
                    results.Add(
                        new OperationRecord(
                            caseKey,
                            invocation,
                            id,
                            "alice",
                            "bob",
                            start,
                            start.AddMilliseconds(3),
                            end,
                            $"h{id}",
                            i == 3 ? OperationOutcome.Failed : OperationOutcome.Succeeded,
                            i == 3 ? "xpay failed" : null
                        )
                    );
                    var us = (start - DateTimeOffset.UnixEpoch).Ticks / 10;
                    spans.Add(
                        Span(
                            "alice",
                            "jsonrpc",
                            us + 4000,
                            40_000,
                            ("id", $"lnbench:xpay#{id}/cln:xpay#1/cln-xpay:injectpaymentonion#2")
                        )
                    );
                    spans.Add(
                        Span(
                            "alice",
                            "jsonrpc",
                            us + 3000,
                            4_000,
                            ("id", $"lnbench:xpay#{id}/cln:xpay#1/cln-xpay:getroutes#3")
                        )
                    );
                    spans.Add(Span("bob", "lightningd/jsonrpc", us + 100, 900, ("method", "invoice")));
                    spans.Add(Span("bob", "db_exec_prepared", us + 500, 40, ("query", "UPDATE invoices")));
                    for (var carol = 1; carol <= nodes - 2; carol++)
                    {
                        spans.Add(Span($"carol-{carol}", "lightningd/jsonrpc", us + 200, 700, ("method", "getinfo")));
                    }
                }
            }
            results.Complete(warmups: 0, iterations: 3);
            var source = new CoreLightningTraceSource();
            var steps = new PaymentSteps(source, PaymentSteps.ByHash(results.Records));
            using (var spansCsv = new SpansCsv().Open(directory, caseKey, source))
            {
                foreach (var span in spans)
                {
                    spansCsv.Write(span, steps.Add(span));
                }
            }
            PaymentCsv.Append(Path.Combine(directory, PaymentCsv.FileName), results.Records);
            PaymentSpansCsv.Append(Path.Combine(directory, PaymentSpansCsv.FileName), caseKey, results.Records, steps);
            spans.Clear();
        }

        var output = new StringWriter();
        var plots = await new PlotRenderer(new RunProgress(output)).RenderAsync(
            directory,
            new CoreLightningKind().PaymentCalls.Phrase
        );

        Assert.Equal(
            ["payments-timeline.png", "span-breakdown.png", "spans-timeline.png"],
            plots.Select(Path.GetFileName).Order()
        );
        foreach (var plot in plots)
        {
            var bytes = await File.ReadAllBytesAsync(plot);
            Assert.True(bytes.Length > 10_000, $"{plot} has only {bytes.Length} bytes");
            Assert.Equal(new byte[] { 0x89, 0x50, 0x4E, 0x47 }, bytes[..4]);
        }
    }

    [SkippableFact]
    public async Task Without_spans_only_the_payment_timeline_is_drawn()
    {
        Requirements.R();
        WriteOnePayment("Concurrency=2", 2, DateTimeOffset.UtcNow);

        var plots = await new PlotRenderer(new RunProgress(TextWriter.Null)).RenderAsync(directory);

        Assert.Equal("payments-timeline.png", Path.GetFileName(Assert.Single(plots)));
    }

    [SkippableFact]
    public async Task The_probes_answers_are_drawn_over_each_cases_time_line_and_unanswered_calls_left_out()
    {
        Requirements.R();
        var start = DateTimeOffset.UtcNow;
        WriteOnePayment("Concurrency=1", 1, start);
        var t0 = (start - DateTimeOffset.UnixEpoch).Ticks / 10;
        var probes = new StringBuilder("case,node,invocation,phase,start_unix_us,latency_ms,error\n");
        for (var i = 0; i < 40; i++)
        {
            // carol freezes for 3 s once; one call of bob's got no answer.
            probes.Append(
                $"Concurrency=1,carol,{i / 10},{(i < 10 ? "between" : "measured")},{t0 + i * 100_000},{(i == 25 ? 3000 : 2.5)},\n"
            );
            probes.Append(
                $"Concurrency=1,bob,{i / 10},measured,{t0 + i * 100_000},{(i == 30 ? 60000 : 1.5)},{(i == 30 ? "no answer in 60 s" : "")}\n"
            );
        }
        await File.WriteAllTextAsync(Path.Combine(directory, ProbeCsv.FileName), probes.ToString());

        var plots = await new PlotRenderer(new RunProgress(TextWriter.Null)).RenderAsync(directory);

        Assert.Equal(["payments-timeline.png", "probes-timeline.png"], plots.Select(Path.GetFileName).Order());
        Assert.True(
            new FileInfo(plots.Single(p => p.EndsWith("probes-timeline.png", StringComparison.Ordinal))).Length > 10_000
        );
    }

    [SkippableFact]
    public async Task A_run_with_two_sizes_of_its_scenario_gets_a_plot_of_latency_against_the_size_and_concurrency_is_no_size()
    {
        Requirements.R();
        foreach (var (peers, concurrency) in new[] { (10, 1), (20, 1), (10, 4), (20, 4) })
        {
            var key = $"Build=a, Concurrency={concurrency}, PeerCount={peers}, Topology=1, Traces=on";
            var results = new CaseResults(key, 1);
            results.StartInvocation();
            var start = DateTimeOffset.UtcNow;
            for (var i = 0; i < 5; i++)
            {
                results.Add(
                    new OperationRecord(
                        key,
                        1,
                        peers * 100 + concurrency * 10 + i,
                        "alice-1",
                        "bob-1",
                        start,
                        start,
                        start.AddMilliseconds(peers * 10 + i),
                        "h",
                        OperationOutcome.Succeeded,
                        null
                    )
                );
            }
            results.Complete(warmups: 0, iterations: 1);
            PaymentCsv.Append(Path.Combine(directory, PaymentCsv.FileName), results.Records);
        }

        var plots = await new PlotRenderer(new RunProgress(TextWriter.Null)).RenderAsync(directory);

        Assert.Equal(["payments-timeline.png", "scaling-PeerCount.png"], plots.Select(Path.GetFileName).Order());
    }

    public void Dispose() => Directory.Delete(directory, recursive: true);

    /// <summary>payments.csv of a case with one measured payment of 60 ms, started at <paramref name="start"/>.</summary>
    private void WriteOnePayment(string caseKey, int concurrency, DateTimeOffset start)
    {
        var results = new CaseResults(caseKey, concurrency);
        results.StartInvocation();
        results.Add(
            new OperationRecord(
                caseKey,
                1,
                1,
                "alice",
                "bob",
                start,
                start,
                start.AddMilliseconds(60),
                "h",
                OperationOutcome.Succeeded,
                null
            )
        );
        results.Complete(warmups: 0, iterations: 1);
        PaymentCsv.Append(Path.Combine(directory, PaymentCsv.FileName), results.Records);
    }

    private static Span Span(string node, string name, long startUs, long durationUs, (string, string) tag) =>
        new(
            node,
            Random.Shared.NextInt64().ToString("x16"),
            null,
            "t",
            name,
            startUs,
            durationUs,
            new Dictionary<string, string> { [tag.Item1] = tag.Item2 }
        );
}
