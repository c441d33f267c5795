using System.Globalization;

namespace Lightning.Bench.Profiling;

/// <summary>
/// A CPU profile in the "folded stacks" exchange format of Brendan Gregg's stackcollapse scripts: one line per distinct
/// stack, <c>process;outer;…;leaf count</c>, outermost frame first and the process name as the first frame. Flame graph
/// tools (flamegraph.pl, inferno, speedscope) read it as is.
/// </summary>
internal sealed class FoldedStacks
{
    /// <summary>The frame that stands for the rarest stacks of a process once <see cref="Bounded"/> has merged them.</summary>
    public const string OtherStacksFrame = "[other stacks]";

    private readonly Dictionary<string, long> counts;

    /// <param name="counts">Samples per stack; stacks with no samples are dropped.</param>
    /// <exception cref="ArgumentException">A stack is not a valid folded line (empty frame, line break) or a count is negative.</exception>
    public FoldedStacks(IReadOnlyDictionary<string, long> counts)
        : this(Validated(counts), mergedStacks: 0, mergedSamples: 0) { }

    private FoldedStacks(Dictionary<string, long> counts, int mergedStacks, long mergedSamples)
    {
        this.counts = counts;
        Counts = counts.AsReadOnly();
        Total = counts.Values.Sum();
        MergedStacks = mergedStacks;
        MergedSamples = mergedSamples;
    }

    public static FoldedStacks Empty { get; } = new(new Dictionary<string, long>(StringComparer.Ordinal), 0, 0);

    /// <summary>Samples per stack, keyed by the stack without its count.</summary>
    public IReadOnlyDictionary<string, long> Counts { get; }

    /// <summary>All samples of the profile.</summary>
    public long Total { get; }

    /// <summary>How many distinct stacks <see cref="Bounded"/> folded into <c>process;[other stacks]</c> lines.</summary>
    public int MergedStacks { get; }

    /// <summary>How many samples those merged stacks held.</summary>
    public long MergedSamples { get; }

    /// <summary>The frames of a stack, outermost first; the first is the process.</summary>
    public static string[] Frames(string stack) => stack.Split(';');

    /// <summary>Reads folded lines; blank lines are skipped and a stack given twice has its counts summed.</summary>
    /// <exception cref="InvalidDataException">A line is not <c>frames count</c>; the message names its number.</exception>
    public static FoldedStacks Parse(TextReader reader)
    {
        var counts = new Dictionary<string, long>(StringComparer.Ordinal);
        var number = 0;
        while (reader.ReadLine() is { } line)
        {
            number++;
            if (string.IsNullOrWhiteSpace(line))
            {
                continue;
            }
            var trimmed = line.TrimEnd();
            // Symbols may hold spaces (C++ signatures), the count is whatever follows the last one.
            var space = trimmed.LastIndexOf(' ');
            if (space <= 0)
            {
                throw new InvalidDataException(
                    $"Line {number}: expected 'frame;frame;… count', got '{Shorten(line)}'."
                );
            }
            var stack = trimmed[..space].TrimEnd();
            if (
                !long.TryParse(
                    trimmed.AsSpan(space + 1),
                    NumberStyles.None,
                    CultureInfo.InvariantCulture,
                    out var count
                )
            )
            {
                throw new InvalidDataException(
                    $"Line {number}: the count '{Shorten(trimmed[(space + 1)..])}' is not a whole number of samples."
                );
            }
            if (StackProblem(stack) is { } problem)
            {
                throw new InvalidDataException($"Line {number}: {problem}.");
            }
            Add(counts, stack, count);
        }
        return new FoldedStacks(counts, 0, 0);
    }

    /// <exception cref="InvalidDataException">A line is malformed; the message names the file and the line.</exception>
    public static FoldedStacks Read(string path)
    {
        using var reader = File.OpenText(path);
        try
        {
            return Parse(reader);
        }
        catch (InvalidDataException e)
        {
            throw new InvalidDataException($"{path}: {e.Message}", e);
        }
    }

    /// <summary>Writes one line per stack, sorted by stack (ordinal) with '\n' line ends, so two profiles diff well.</summary>
    public void Write(TextWriter writer)
    {
        foreach (var (stack, count) in counts.OrderBy(c => c.Key, StringComparer.Ordinal))
        {
            writer.Write(stack);
            writer.Write(' ');
            writer.Write(count.ToString(CultureInfo.InvariantCulture));
            writer.Write('\n');
        }
    }

    public void WriteFile(string path)
    {
        using var writer = new StreamWriter(
            path,
            append: false,
            new System.Text.UTF8Encoding(encoderShouldEmitUTF8Identifier: false)
        );
        Write(writer);
    }

    /// <summary>Sums profiles stack by stack (several nodes, several captures); merge figures add up.</summary>
    public static FoldedStacks Merge(IEnumerable<FoldedStacks> profiles)
    {
        var counts = new Dictionary<string, long>(StringComparer.Ordinal);
        int mergedStacks = 0;
        long mergedSamples = 0;
        foreach (var profile in profiles)
        {
            foreach (var (stack, count) in profile.counts)
            {
                Add(counts, stack, count);
            }
            mergedStacks += profile.MergedStacks;
            mergedSamples += profile.MergedSamples;
        }
        return new FoldedStacks(counts, mergedStacks, mergedSamples);
    }

    /// <summary>
    /// A copy with at most <paramref name="maxStacks"/> lines, so a long capture stays a file a flame graph tool opens
    /// quickly: the most frequent stacks are kept and the rarest are summed per process into
    /// <c>process;[other stacks]</c>, so every process keeps its exact total. When there are more processes than
    /// <paramref name="maxStacks"/>, the copy still has one line per process.
    /// </summary>
    public FoldedStacks Bounded(int maxStacks)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(maxStacks);
        if (counts.Count <= maxStacks)
        {
            return this;
        }
        var byFrequency = counts.OrderByDescending(c => c.Value).ThenBy(c => c.Key, StringComparer.Ordinal).ToList();
        // processesFrom[k]: processes among the stacks from k on, i.e. the lines they take when the k first are kept.
        var processesFrom = new int[byFrequency.Count + 1];
        var seen = new HashSet<string>(StringComparer.Ordinal);
        for (var k = byFrequency.Count - 1; k >= 0; k--)
        {
            seen.Add(ProcessOf(byFrequency[k].Key));
            processesFrom[k] = seen.Count;
        }
        var kept = Math.Min(maxStacks, byFrequency.Count);
        while (kept > 0 && kept + processesFrom[kept] > maxStacks)
        {
            kept--;
        }
        var bounded = new Dictionary<string, long>(StringComparer.Ordinal);
        foreach (var (stack, count) in byFrequency.Take(kept))
        {
            Add(bounded, stack, count);
        }
        int mergedStacks = MergedStacks;
        long mergedSamples = MergedSamples;
        foreach (var dropped in byFrequency.Skip(kept).GroupBy(c => ProcessOf(c.Key), StringComparer.Ordinal))
        {
            var other = dropped.Key + ";" + OtherStacksFrame;
            // A process with a single stack left over takes a line either way: it may as well keep its frames.
            var line = dropped.Count() == 1 ? dropped.First().Key : other;
            foreach (var (stack, count) in dropped)
            {
                Add(bounded, line, count);
                // An [other stacks] line of an earlier bounding was already counted as merged.
                if (line == other && stack != other)
                {
                    mergedStacks++;
                    mergedSamples += count;
                }
            }
        }
        return new FoldedStacks(bounded, mergedStacks, mergedSamples);
    }

    internal static string ProcessOf(string stack)
    {
        var semicolon = stack.IndexOf(';');
        return semicolon < 0 ? stack : stack[..semicolon];
    }

    private static void Add(Dictionary<string, long> counts, string stack, long count)
    {
        if (count > 0)
        {
            counts[stack] = counts.GetValueOrDefault(stack) + count;
        }
    }

    private static Dictionary<string, long> Validated(IReadOnlyDictionary<string, long> source)
    {
        var counts = new Dictionary<string, long>(StringComparer.Ordinal);
        foreach (var (stack, count) in source)
        {
            if (StackProblem(stack) is { } problem)
            {
                throw new ArgumentException(problem, nameof(source));
            }
            if (count < 0)
            {
                throw new ArgumentException(
                    $"The stack '{Shorten(stack)}' has a negative count ({count}).",
                    nameof(source)
                );
            }
            Add(counts, stack, count);
        }
        return counts;
    }

    private static string? StackProblem(string stack)
    {
        if (stack.Length == 0)
        {
            return "the stack is empty";
        }
        if (stack.AsSpan().IndexOfAny('\n', '\r') >= 0)
        {
            return $"the stack '{Shorten(stack)}' holds a line break";
        }
        if (stack.StartsWith(';') || stack.EndsWith(';') || stack.Contains(";;", StringComparison.Ordinal))
        {
            return $"the stack '{Shorten(stack)}' has an empty frame";
        }
        return null;
    }

    private static string Shorten(string text) => text.Length <= 80 ? text : text[..77] + "...";
}
