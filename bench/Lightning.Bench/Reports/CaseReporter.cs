using System.Globalization;
using Lightning.Bench.Network;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Progress;
using Lightning.Bench.Results;
using Lightning.Bench.Tracing;

namespace Lightning.Bench.Reports;

/// <summary>
/// At the end of a case: stops span collection, reads the spans once (joined to payments, summarised, fed to the span
/// outputs), then writes the case's outputs (<see cref="RunOutputs.Cases"/>).
/// </summary>
internal sealed class CaseReporter(string runId, string runDirectory, RunProgress progress)
{
    /// <summary>Returns the payer's mean steps per payment (empty without traces), for the comparison of builds.</summary>
    public async Task<CaseSteps> ReportAsync(
        CaseResults results,
        LightningNetwork network,
        int warmups,
        int iterations,
        CancellationToken ct = default
    )
    {
        results.Complete(warmups, iterations);
        Directory.CreateDirectory(runDirectory);
        CaseSpans? spans = null;
        if (network.Traces is { } traces && network.TraceJoin is { } join)
        {
            var collected = await traces.FinishAsync(ct);
            spans = ReadSpans(
                results,
                collected,
                traces.SpansFile,
                network,
                join,
                traces.StoppedUnixMicros ?? long.MaxValue
            );
        }
        RunOutputs.WriteCase(new CaseOutputContext(runId, runDirectory, results, spans));
        if (spans is not null)
        {
            ReportSpans(results.CaseKey, spans);
        }
        var measured = results.Measured;
        var failed = measured.Where(r => !r.AsExpected).ToList();
        if (failed.Count > 0)
        {
            progress.Info(
                $"case {results.CaseKey}: {failed.Count} of {measured.Count} measured operations did not end as their workload expects; first: {failed[0].Error ?? failed[0].Outcome.ToString().ToLowerInvariant()}"
            );
        }
        return new CaseSteps(
            results.CaseKey,
            spans?.MeanBreakdown.Select(b => new CaseStep(b.Operation, b.TotalMs)).ToList() ?? []
        );
    }

    /// <summary>Reads the case's spans once (a span at a time) into what every span output needs, and the payments' span counts and steps.</summary>
    private CaseSpans ReadSpans(
        CaseResults results,
        IReadOnlyList<TraceNodeStats> collected,
        string spansFile,
        LightningNetwork network,
        TopologyTraceJoin join,
        long stoppedUnixMicros
    )
    {
        var measured = results.Measured;
        var byHash = PaymentSteps.ByHash(results.Records);
        var steps = new PaymentSteps(join, byHash);
        var summary =
            measured.Count == 0
                ? null
                : new SpanSummary(
                    join,
                    measured.Min(r => r.StartUnixMicros),
                    measured.Max(r => r.EndUnixMicros),
                    measured.Sum(r => r.LatencyMs)
                );
        var writers = RunOutputs.Spans.Select(o => o.Open(runDirectory, results.CaseKey, join)).ToList();
        TraceAnalysis analysis;
        try
        {
            analysis = TraceAnalysis.Scan(
                spansFile,
                span =>
                {
                    var payment = steps.Add(span);
                    summary?.Add(span);
                    foreach (var writer in writers)
                    {
                        writer.Write(span, payment);
                    }
                },
                collectIds: network.Options.DevTraceFile
            );
        }
        finally
        {
            foreach (var writer in writers)
            {
                writer.Dispose();
            }
        }
        var stats = collected
            .Select(s =>
            {
                var check =
                    network.Options.DevTraceFile && join.SourceOf(s.Node) is { EmittedSpansPrefix: not null } source
                        ? CheckEmitted(
                            source,
                            network.Layout.NodeDirectory(s.Node),
                            Path.Combine(network.Options.ResultsDirectory, source.EmittedSpansPrefix, s.Node),
                            stoppedUnixMicros,
                            analysis.ReceivedIds(s.Node)
                        )
                        : ((long Emitted, long Arrived)?)null;
                return s with
                {
                    Malformed = analysis.MalformedByNode.GetValueOrDefault(s.Node),
                    Emitted = check?.Emitted,
                    Arrived = check?.Arrived,
                };
            })
            .ToList();
        results.Update(r =>
            steps.SpanCount(r.PaymentId) is > 0 and var count
                ? r with
                {
                    SpanCount = count,
                    SpanBreakdown = string.Join(
                        ';',
                        steps
                            .Breakdown(r.PaymentId)
                            .Select(b => FormattableString.Invariant($"{b.Operation}={b.TotalMs:0.###}"))
                    ),
                }
                : r
        );

        var meanPaymentMs = measured.Count == 0 ? double.NaN : measured.Average(r => r.LatencyMs);
        var meanBreakdown = steps
            .Breakdown(measured.Select(r => r.PaymentId))
            .Select(b => (b.Operation, (int)Math.Round((double)b.Count / measured.Count), b.TotalMs / measured.Count))
            .ToList();
        return new CaseSpans(
            network.Options.ResultsDirectory,
            spansFile,
            join,
            byHash,
            steps,
            stats,
            summary?.Rows() ?? [],
            meanPaymentMs,
            meanBreakdown,
            analysis.MalformedSamples
        );
    }

    private void ReportSpans(string caseKey, CaseSpans spans)
    {
        progress.Info(
            $"case {caseKey}: spans "
                + string.Join(
                    ", ",
                    spans.Nodes.Select(s =>
                        $"{s.Node} {s.Received}{(s.Malformed > 0 ? $" ({s.Malformed} malformed)" : "")}{(s.DroppedByHarness > 0 ? $" ({s.DroppedByHarness} dropped)" : "")}{(s.Emitted is null ? "" : $" (trace-check: {s.Arrived} of the {s.Emitted} emitted while collecting arrived)")}"
                    )
                )
        );
        if (spans.MeanBreakdown.Count > 0)
        {
            progress.Info(
                $"case {caseKey}: mean payment {spans.MeanPaymentMs.ToString("0.0", CultureInfo.InvariantCulture)} ms; payer steps: "
                    + string.Join(
                        ", ",
                        spans
                            .MeanBreakdown.Take(4)
                            .Select(b => FormattableString.Invariant($"{b.Operation} {b.TotalMs:0.0} ms"))
                    )
            );
        }
    }

    /// <summary>
    /// A node's own records of the spans it emitted (Core Lightning: one per process, trace-events.PID), kept with the
    /// case (PREFIX/NODE/) as the ground truth: spans emitted while the harness collected, and how many arrived.
    /// </summary>
    private static (long Emitted, long Arrived) CheckEmitted(
        ITraceSource source,
        string nodeDirectory,
        string keepIn,
        long stoppedUnixMicros,
        IReadOnlySet<string> receivedIds
    )
    {
        Directory.CreateDirectory(keepIn);
        // The copies are read: the node still runs and may append to its files.
        var copies = Directory
            .GetFiles(nodeDirectory, $"{source.EmittedSpansPrefix}.*")
            .Select(file =>
            {
                var copy = Path.Combine(keepIn, Path.GetFileName(file));
                File.Copy(file, copy, overwrite: true);
                return copy;
            })
            .ToList();
        return source.CountEmitted(copies.SelectMany(File.ReadLines), stoppedUnixMicros, receivedIds);
    }
}
