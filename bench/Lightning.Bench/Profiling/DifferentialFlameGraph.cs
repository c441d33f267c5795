namespace Lightning.Bench.Profiling;

/// <summary>
/// Brendan Gregg's differential flame graph of two builds, per payment: the candidate's flame graph, whose full width
/// stands for the costlier build's CPU per payment (a cheaper candidate draws narrower), each frame coloured by how
/// its self time per payment changed from the baseline: red grew, blue shrank, white unchanged, the strongest colour
/// for the largest change in the graph.
/// </summary>
internal static class DifferentialFlameGraph
{
    /// <param name="baselineName">What the baseline is called in the notes and tooltips ("baseline", "first window").</param>
    /// <param name="samplesPerSecond">The sampling frequency of both captures, to turn samples into CPU milliseconds.</param>
    /// <param name="units">How a count per payment reads, when the counts are not samples at <paramref name="samplesPerSecond"/>
    /// (instructions: the counts themselves); null for CPU milliseconds.</param>
    public static string Render(
        FoldedStacks baseline,
        double baselinePayments,
        FoldedStacks candidate,
        double candidatePayments,
        double samplesPerSecond,
        string title,
        string subtitle,
        FlameGraphStyle? style = null,
        string baselineName = "baseline",
        string candidateName = "candidate",
        ProfileUnits? units = null
    )
    {
        ProfileFormat.RequirePositive(baselinePayments, nameof(baselinePayments));
        ProfileFormat.RequirePositive(candidatePayments, nameof(candidatePayments));
        ProfileFormat.RequirePositive(samplesPerSecond, nameof(samplesPerSecond));
        style ??= FlameGraphStyle.Default;
        var after = CallTree.Build(candidate);
        var before = CallTree.Build(baseline);
        var counterparts = Counterparts(after, before);
        double Ms(double samplesPerPayment) => samplesPerPayment / samplesPerSecond * 1000;
        units ??= new ProfileUnits(
            "CPU",
            "ms",
            "self time",
            v => ProfileFormat.Ms(Ms(v)),
            v => ProfileFormat.SignedMs(Ms(v)),
            "samples",
            "profiles.md"
        );
        double SelfChange(CallTree node) =>
            node.Self / candidatePayments - (counterparts[node]?.Self ?? 0) / baselinePayments;

        var fullWidthPerPayment = Math.Max(before.Total / baselinePayments, after.Total / candidatePayments);
        var pixelsPerSample = fullWidthPerPayment > 0 ? style.FramesWidth / candidatePayments / fullWidthPerPayment : 0;
        var largestChange = after.DepthFirst().Select(node => Math.Abs(SelfChange(node))).DefaultIfEmpty(0).Max();

        string Tooltip(CallTree node)
        {
            var counterpart = counterparts[node];
            var change = SelfChange(node);
            var baselineSelf = (counterpart?.Self ?? 0) / baselinePayments;
            return $"{node.Name}: {baselineName} {units.Format((counterpart?.Total ?? 0) / baselinePayments)} {units.Unit} → "
                + $"{candidateName} {units.Format(node.Total / candidatePayments)} {units.Unit} per payment total "
                + $"(self Δ {units.Signed(change)} {units.Unit}, {ProfileDiff.Relative(change, baselineSelf)})";
        }

        var (frames, notDrawn) = FlameGraphCanvas.Layout(
            after,
            pixelsPerSample,
            style,
            Tooltip,
            node => Fill(SelfChange(node), largestChange)
        );
        var baselineOnly = before.Total > 0 ? (double)AbsentFrom(after, baseline) / before.Total : 0;
        // One note per line: a long joined line runs off the graph's width.
        string[] lines =
        [
            subtitle,
            FlameGraphSvg.Joined(
                $"{units.What} per payment: {candidateName} {units.Format(after.Total / candidatePayments)} {units.Unit}, {baselineName} {units.Format(before.Total / baselinePayments)} {units.Unit} (full width: the larger)",
                $"red: more {units.Self} per payment than the {baselineName}, blue: less"
            ),
            baselineOnly > 0
                ? $"{ProfileFormat.Percent(baselineOnly)} % of the {baselineName}'s {units.Counts} per payment are on stacks the {candidateName} has no {units.Counts.TrimEnd('s')} of (not drawn; functions that shrank are listed in {units.Report})"
                : "",
            FlameGraphSvg.NotDrawnNote(notDrawn, style) ?? "",
        ];
        return FlameGraphCanvas.Svg(frames, title, lines, style, outlineFrames: true);
    }

    /// <summary>White for no change, to pure red (growth) or blue (shrinkage) for the largest change.</summary>
    internal static string Fill(double change, double largestChange)
    {
        var intensity = largestChange > 0 ? Math.Min(1, Math.Abs(change) / largestChange) : 0;
        var fade = 255 * (1 - intensity);
        return change >= 0 ? FlameGraphCanvas.Rgb(255, fade, fade) : FlameGraphCanvas.Rgb(fade, fade, 255);
    }

    /// <summary>Each candidate node with the baseline node at the same stack, if the baseline has it.</summary>
    private static Dictionary<CallTree, CallTree?> Counterparts(CallTree candidate, CallTree baseline)
    {
        var pairs = new Dictionary<CallTree, CallTree?>(ReferenceEqualityComparer.Instance);
        var pending = new Stack<(CallTree Candidate, CallTree? Baseline)>();
        pending.Push((candidate, baseline));
        while (pending.TryPop(out var pair))
        {
            pairs[pair.Candidate] = pair.Baseline;
            foreach (var child in pair.Candidate.Children)
            {
                pending.Push((child, pair.Baseline?.Child(child.Name)));
            }
        }
        return pairs;
    }

    /// <summary>Baseline samples whose stack has no frame to draw them on in the candidate's tree.</summary>
    private static long AbsentFrom(CallTree candidate, FoldedStacks baseline)
    {
        long absent = 0;
        foreach (var (stack, count) in baseline.Counts)
        {
            var node = candidate;
            foreach (var frame in FoldedStacks.Frames(stack))
            {
                node = node.Child(frame);
                if (node is null)
                {
                    absent += count;
                    break;
                }
            }
        }
        return absent;
    }
}
