using System.Text;

namespace Lightning.Bench.Profiling;

/// <summary>
/// The flat view of a profile: which functions burn the CPU themselves (self) and under which ones it is spent
/// (total), and how the samples split between processes. The first frame of a stack is its process, not a function.
/// </summary>
internal static class FunctionTable
{
    /// <summary>The <paramref name="count"/> functions with the most self samples, then the most total samples.</summary>
    public static IReadOnlyList<FunctionShare> Top(FoldedStacks stacks, int count)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        var total = (double)stacks.Total;
        return Tally(stacks)
            .Select(f => new FunctionShare(
                f.Key,
                f.Value.Self,
                f.Value.Total,
                f.Value.Self / total,
                f.Value.Total / total
            ))
            .OrderByDescending(f => f.SelfSamples)
            .ThenByDescending(f => f.TotalSamples)
            .ThenBy(f => f.Function, StringComparer.Ordinal)
            .Take(count)
            .ToList();
    }

    /// <summary>Samples per process (the first frame of each stack), most first.</summary>
    public static IReadOnlyList<(string Process, long Samples, double Share)> Processes(FoldedStacks stacks)
    {
        var total = (double)stacks.Total;
        return stacks
            .Counts.GroupBy(c => FoldedStacks.ProcessOf(c.Key), StringComparer.Ordinal)
            .Select(g => (Process: g.Key, Samples: g.Sum(c => c.Value)))
            .OrderByDescending(p => p.Samples)
            .ThenBy(p => p.Process, StringComparer.Ordinal)
            .Select(p => (p.Process, p.Samples, p.Samples / total))
            .ToList();
    }

    /// <summary>
    /// A markdown section: the process breakdown on one line, then the top functions with their shares and their CPU
    /// milliseconds per payment (samples ÷ <paramref name="samplesPerSecond"/> × 1000 ÷ <paramref name="payments"/>;
    /// "–" without payments).
    /// </summary>
    public static string Markdown(
        string title,
        FoldedStacks stacks,
        double samplesPerSecond,
        double payments,
        int count
    )
    {
        ProfileFormat.RequirePositive(samplesPerSecond, nameof(samplesPerSecond));
        string Ms(long samples) => ProfileFormat.Ms(ProfileFormat.MsPerPayment(samples, samplesPerSecond, payments));
        var text = new StringBuilder();
        text.Append("## ").Append(title).Append('\n').Append('\n');
        if (stacks.Total == 0)
        {
            return text.Append("No samples.\n\n").ToString();
        }
        text.Append(ProfileFormat.Count(stacks.Total))
            .Append(" samples at ")
            .Append(ProfileFormat.Number(samplesPerSecond))
            .Append(" Hz. Processes: ")
            .AppendJoin(
                ", ",
                Processes(stacks)
                    .Select(p => $"{p.Process} {ProfileFormat.Percent(p.Share)} % ({Ms(p.Samples)} ms/payment)")
            )
            .Append('\n')
            .Append('\n');
        text.Append("| Function | Self % | Total % | Self ms/payment | Total ms/payment |\n");
        text.Append("|---|---:|---:|---:|---:|\n");
        foreach (var f in Top(stacks, count))
        {
            text.Append(
                $"| {ProfileFormat.Cell(f.Function)} | {ProfileFormat.Percent(f.SelfShare)} | {ProfileFormat.Percent(f.TotalShare)} | {Ms(f.SelfSamples)} | {Ms(f.TotalSamples)} |\n"
            );
        }
        return text.Append('\n').ToString();
    }

    /// <summary>Self and total samples of every function, recursion counted once per stack in the total.</summary>
    internal static Dictionary<string, (long Self, long Total)> Tally(FoldedStacks stacks)
    {
        var functions = new Dictionary<string, (long Self, long Total)>(StringComparer.Ordinal);
        var onStack = new HashSet<string>(StringComparer.Ordinal);
        foreach (var (stack, count) in stacks.Counts)
        {
            var frames = FoldedStacks.Frames(stack);
            onStack.Clear();
            for (var i = 1; i < frames.Length; i++)
            {
                if (onStack.Add(frames[i]))
                {
                    var f = functions.GetValueOrDefault(frames[i]);
                    functions[frames[i]] = (f.Self, f.Total + count);
                }
            }
            if (frames.Length > 1)
            {
                var leaf = frames[^1];
                var f = functions[leaf];
                functions[leaf] = (f.Self + count, f.Total);
            }
        }
        return functions;
    }
}
