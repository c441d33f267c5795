namespace Lightning.Bench.Reports;

/// <summary>The run's plots (PNG files beside the tables), drawn by the project's R script (<see cref="PlotRenderer"/>).</summary>
internal sealed class Plots : IRunEndOutput
{
    public IReadOnlyList<string> Files =>
        [
            "payments-timeline.png",
            "spans-timeline.png",
            "span-breakdown.png",
            "probes-timeline.png",
            "scaling-SIZE.png",
            "route-amounts.png",
            "comparison-topologies.png",
            "comparison-ratios.png",
            "soak-latency.png",
            "soak-nodes.png",
        ];

    public async Task WriteAsync(RunOutputContext context, CancellationToken ct = default)
    {
        if (!context.Plots)
        {
            return;
        }
        foreach (
            var plot in await new PlotRenderer(context.Progress).RenderAsync(
                context.ResultsDirectory,
                context.PaymentCalls,
                ct
            )
        )
        {
            context.Progress.Info($"plot: {plot}");
        }
    }
}
