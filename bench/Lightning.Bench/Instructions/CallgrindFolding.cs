using Lightning.Bench.Profiling;

namespace Lightning.Bench.Instructions;

/// <summary>
/// Callgrind dumps as folded stacks (first frame the process, counts in instructions), so the flame graphs drawn for
/// <c>--profile</c> draw instruction counts too.
/// <para>
/// Callgrind keeps a call graph (who called whom, at what inclusive cost), not the stacks, so the stacks are
/// reconstructed: from each function no other function calls (a root), with its inclusive count, walk down the calls;
/// a function reached with an amount A keeps A·self/(self + its calls' cost) as its own stack's count and passes
/// A·call/(self + its calls' cost) down each call. A function with several callers therefore has its cost split in
/// proportion to what each call cost: exact for a function with one caller, an estimate otherwise (a callee that is
/// cheap when called from one place and dear from another gets the average split). A call back into a function
/// already on the path (recursion) or a path deeper than <see cref="MaxDepth"/> ends there, its amount counted as self
/// of the last frame; amounts below the floor are summed into the process's <c>[other stacks]</c> frame, so the
/// output has at most about 1/floor lines per dump. Each process's counts add up to its dump's total exactly.
/// </para>
/// </summary>
internal static class CallgrindFolding
{
    public const int MaxDepth = 64;

    /// <summary>Amounts below this share of a dump's total go to <c>[other stacks]</c>.</summary>
    public const double DefaultFloorShare = 1e-4;

    /// <summary>One dump's stacks; their counts sum to <see cref="CallgrindDump.TotalIr"/>.</summary>
    public static FoldedStacks ToFolded(CallgrindDump dump, double floorShare = DefaultFloorShare)
    {
        if (!(floorShare >= 0) || floorShare >= 1)
        {
            throw new ArgumentOutOfRangeException(
                nameof(floorShare),
                floorShare,
                "The floor is a share of the total, 0 or more and below 1."
            );
        }
        if (dump.TotalIr <= 0)
        {
            return FoldedStacks.Empty;
        }
        var walk = new Walk(dump, Math.Max(1, (long)Math.Ceiling(dump.TotalIr * floorShare)));
        return new FoldedStacks(walk.Run());
    }

    /// <summary>The dumps' stacks summed: a window of a node, processes of the same name together.</summary>
    public static FoldedStacks ToFolded(IEnumerable<CallgrindDump> dumps, double floorShare = DefaultFloorShare) =>
        FoldedStacks.Merge(dumps.Select(d => ToFolded(d, floorShare)));

    /// <summary>A function name as a frame: a ';' would split it into two frames.</summary>
    internal static string Frame(string name) => name.Replace(';', ',');

    private sealed class Walk
    {
        private readonly CallgrindDump dump;
        private readonly long floor;
        private readonly string process;
        private readonly Dictionary<string, List<(string Callee, long Ir)>> callees = new(StringComparer.Ordinal);
        private readonly Dictionary<string, long> stacks = new(StringComparer.Ordinal);
        private readonly List<string> path = [];
        private readonly HashSet<string> onPath = new(StringComparer.Ordinal);
        private long other;

        public Walk(CallgrindDump dump, long floor)
        {
            this.dump = dump;
            this.floor = floor;
            process = Frame(dump.ProcessName);
            foreach (
                var call in dump
                    .Calls.Where(c => c.Caller != c.Callee && c.InclusiveIr > 0)
                    .OrderBy(c => c.Callee, StringComparer.Ordinal)
            )
            {
                if (!callees.TryGetValue(call.Caller, out var list))
                {
                    callees[call.Caller] = list = [];
                }
                list.Add((call.Callee, call.InclusiveIr));
            }
        }

        public Dictionary<string, long> Run()
        {
            var called = dump
                .Calls.Where(c => c.Caller != c.Callee)
                .Select(c => c.Callee)
                .ToHashSet(StringComparer.Ordinal);
            var roots = dump
                .Functions.Values.Where(f => !called.Contains(f.Key) && f.InclusiveIr > 0)
                .OrderBy(f => f.Key, StringComparer.Ordinal)
                .ToList();
            // Roots' costs are disjoint, but a cycle can make inclusive counts overlap: never hand out more than the total.
            var rootSum = roots.Sum(r => r.InclusiveIr);
            var budget = Math.Min(rootSum, dump.TotalIr);
            var amounts = Split(budget, roots.Select(r => r.InclusiveIr).ToList(), rootSum);
            for (var i = 0; i < roots.Count; i++)
            {
                Visit(roots[i].Key, amounts[i]);
            }
            // What no root reaches (functions only called from within a cycle) is counted, though not placed.
            other += dump.TotalIr - budget;
            if (other > 0)
            {
                stacks[process + ";" + FoldedStacks.OtherStacksFrame] =
                    stacks.GetValueOrDefault(process + ";" + FoldedStacks.OtherStacksFrame) + other;
            }
            return stacks;
        }

        private void Visit(string function, long amount)
        {
            if (amount < floor)
            {
                other += amount;
                return;
            }
            path.Add(Frame(function));
            onPath.Add(function);
            var outgoing = callees.GetValueOrDefault(function) ?? [];
            var selfIr = dump.Functions[function].SelfIr;
            var weights = outgoing.Select(c => c.Ir).Append(selfIr).ToList();
            var parts = Split(amount, weights, weights.Sum());
            var self = parts[^1];
            for (var i = 0; i < outgoing.Count; i++)
            {
                var (callee, _) = outgoing[i];
                if (onPath.Contains(callee) || path.Count >= MaxDepth)
                {
                    self += parts[i];
                }
                else
                {
                    Visit(callee, parts[i]);
                }
            }
            if (self >= floor)
            {
                var stack = process + ";" + string.Join(';', path);
                stacks[stack] = stacks.GetValueOrDefault(stack) + self;
            }
            else
            {
                other += self;
            }
            onPath.Remove(function);
            path.RemoveAt(path.Count - 1);
        }

        /// <summary>
        /// <paramref name="amount"/> split in proportion to <paramref name="weights"/> (summing to
        /// <paramref name="weightSum"/>) in whole instructions that add up to it: the rounding remainder goes to the last part.
        /// </summary>
        private static long[] Split(long amount, IReadOnlyList<long> weights, long weightSum)
        {
            var parts = new long[weights.Count];
            if (parts.Length == 0)
            {
                return parts;
            }
            if (weightSum <= 0)
            {
                parts[^1] = amount;
                return parts;
            }
            long given = 0;
            for (var i = 0; i < parts.Length - 1; i++)
            {
                parts[i] = (long)((Int128)amount * weights[i] / weightSum);
                given += parts[i];
            }
            parts[^1] = amount - given;
            return parts;
        }
    }
}
