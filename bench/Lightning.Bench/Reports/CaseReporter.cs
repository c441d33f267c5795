using System.Globalization;
using Lightning.Bench.Network;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Results;
using Lightning.Bench.Run;
using Lightning.Bench.Scenarios;
using Lightning.Bench.Tracing;

namespace Lightning.Bench.Reports;

/// <summary>At the end of a case: stops span collection, joins spans to payments, writes the payment and span tables.</summary>
public sealed class CaseReporter(string runId, string runDirectory, RunProgress progress)
{
    /// <summary>Returns the payer's mean steps per payment (empty without traces), for the comparison of builds.</summary>
    public async Task<CaseSteps> ReportAsync(CaseResults results, LightningNetwork network, int warmups, int iterations, CancellationToken ct = default)
    {
        var steps = new CaseSteps(results.CaseKey, []);
        results.Complete(warmups, iterations);
        Directory.CreateDirectory(runDirectory);
        if (network.Traces is { } traces && network.TraceJoin is { } join)
        {
            var collected = await traces.StopAsync(TimeSpan.FromMilliseconds(300), ct: ct);
            steps = ReportSpans(results, collected, traces.SpansFile, network, join, traces.StoppedUnixMicros ?? long.MaxValue);
        }
        PaymentCsv.Append(Path.Combine(runDirectory, PaymentCsv.FileName), results.Records);
        var measured = results.Measured;
        var failed = measured.Where(r => r.Outcome == PaymentOutcome.Failed).ToList();
        if (failed.Count > 0)
        {
            progress.Info($"case {results.CaseKey}: {failed.Count} of {measured.Count} measured payments failed; first error: {failed[0].Error}");
        }
        return steps;
    }

    /// <summary>Reads the case's spans once into every table that needs them (a span at a time), then writes Zipkin in two more passes.</summary>
    private CaseSteps ReportSpans(CaseResults results, IReadOnlyList<TraceNodeStats> collected, string spansFile, LightningNetwork network, TopologyTraceJoin join, long stoppedUnixMicros)
    {
        var caseDirectory = network.Options.ResultsDirectory;
        var measured = results.Measured;
        var byHash = PaymentSteps.ByHash(results.Records);
        var steps = new PaymentSteps(join, byHash);
        var summary = measured.Count == 0
            ? null
            : new SpanSummary(join, measured.Min(r => r.StartUnixMicros), measured.Max(r => r.EndUnixMicros), measured.Sum(r => r.LatencyMs));
        TraceAnalysis analysis;
        using (var spansCsv = new TraceFiles.SpansCsv(Path.Combine(runDirectory, TraceFiles.SpansCsvFile), results.CaseKey, join))
        {
            analysis = TraceAnalysis.Scan(spansFile, span =>
            {
                var payment = steps.Add(span);
                summary?.Add(span);
                spansCsv.Write(span, payment);
            }, collectIds: network.Options.DevTraceFile);
        }
        var stats = collected.Select(s =>
        {
            var check = network.Options.DevTraceFile && join.SourceOf(s.Node) is { EmittedSpansPrefix: not null } source
                ? CheckEmitted(source, network.Layout.NodeDirectory(s.Node), Path.Combine(network.Options.ResultsDirectory, source.EmittedSpansPrefix, s.Node),
                    stoppedUnixMicros, analysis.ReceivedIds(s.Node))
                : ((long Emitted, long Arrived)?)null;
            return s with { Malformed = analysis.MalformedByNode.GetValueOrDefault(s.Node), Emitted = check?.Emitted, Arrived = check?.Arrived };
        }).ToList();
        results.Update(r => steps.SpanCount(r.PaymentId) is > 0 and var count
            ? r with
            {
                SpanCount = count,
                SpanBreakdown = string.Join(';', steps.Breakdown(r.PaymentId).Select(b => FormattableString.Invariant($"{b.Operation}={b.TotalMs:0.###}"))),
            }
            : r);

        var rows = summary?.Rows() ?? [];
        var meanPaymentMs = measured.Count == 0 ? double.NaN : measured.Average(r => r.LatencyMs);
        var meanBreakdown = steps.Breakdown(measured.Select(r => r.PaymentId))
            .Select(b => (b.Operation, (int)Math.Round((double)b.Count / measured.Count), b.TotalMs / measured.Count))
            .ToList();

        TraceFiles.AppendPaymentSpans(Path.Combine(runDirectory, TraceFiles.PaymentSpansCsv), results.CaseKey, results.Records, steps);
        TraceFiles.AppendSummary(Path.Combine(runDirectory, TraceFiles.SummaryCsv), results.CaseKey, rows);
        TraceFiles.AppendMarkdown(Path.Combine(runDirectory, TraceFiles.SummaryMarkdown), results.CaseKey, stats, rows, meanPaymentMs, meanBreakdown);
        ZipkinExport.Write(Path.Combine(caseDirectory, ZipkinExport.FileName), () => TraceAnalysis.ReadSpans(spansFile), s => join.PaymentOf(s, byHash), runId);
        if (analysis.MalformedSamples.Count > 0)
        {
            File.WriteAllLines(Path.Combine(caseDirectory, "malformed-spans.txt"),
                analysis.MalformedSamples.Select(m => $"{m.Node}\t{m.ReceivedUnixMicros}\t{m.Problem}\t{m.Raw}"));
        }

        progress.Info($"case {results.CaseKey}: spans " + string.Join(", ", stats.Select(s =>
            $"{s.Node} {s.Received}{(s.Malformed > 0 ? $" ({s.Malformed} malformed)" : "")}{(s.DroppedByHarness > 0 ? $" ({s.DroppedByHarness} dropped)" : "")}{(s.Emitted is null ? "" : $" (trace-check: {s.Arrived} of the {s.Emitted} emitted while collecting arrived)")}")));
        if (meanBreakdown.Count > 0)
        {
            progress.Info($"case {results.CaseKey}: mean payment {meanPaymentMs.ToString("0.0", CultureInfo.InvariantCulture)} ms; payer steps: " +
                string.Join(", ", meanBreakdown.Take(4).Select(b => FormattableString.Invariant($"{b.Item1} {b.Item3:0.0} ms"))));
        }
        return new CaseSteps(results.CaseKey, meanBreakdown.Select(b => new CaseStep(b.Operation, b.Item3)).ToList());
    }

    /// <summary>
    /// A node's own records of the spans it emitted (Core Lightning: one per process, trace-events.PID), kept with the
    /// case (PREFIX/NODE/) as the ground truth: spans emitted while the harness collected, and how many arrived.
    /// </summary>
    private static (long Emitted, long Arrived) CheckEmitted(ITraceSource source, string nodeDirectory, string keepIn, long stoppedUnixMicros, IReadOnlySet<string> receivedIds)
    {
        Directory.CreateDirectory(keepIn);
        // The copies are read: the node still runs and may append to its files.
        var copies = Directory.GetFiles(nodeDirectory, $"{source.EmittedSpansPrefix}.*").Select(file =>
        {
            var copy = Path.Combine(keepIn, Path.GetFileName(file));
            File.Copy(file, copy, overwrite: true);
            return copy;
        }).ToList();
        return source.CountEmitted(copies.SelectMany(File.ReadLines), stoppedUnixMicros, receivedIds);
    }
}
