using System.Text;
using System.Text.RegularExpressions;

namespace Lightning.Bench.Profiling;

/// <summary>
/// Folds the text of <c>perf script -F comm,pid,tid,period,ip,sym,dso</c> (call graphs on) into folded stacks, one
/// sample counted once whatever its period, in the conventions of stackcollapse-perf.pl: kernel frames carry
/// <c>_[k]</c>, frames without a symbol are named after their binary, <c>[libsqlite3.so.0.8.6]</c>. Reads line by
/// line: a capture's text runs to tens of megabytes.
/// </summary>
internal static partial class PerfScriptFolder
{
    /// <summary>The pseudo-frame of a sample perf recorded without any frame.</summary>
    public const string NoStackFrame = "[no stack]";

    public const string KernelSuffix = "_[k]";

    private const string KernelDso = "[kernel.kallsyms]";

    /// <summary>The root frame of samples whose process perf knew only by its pid.</summary>
    public const string UnnamedProcess = "[unnamed process]";

    /// <summary>The kernel keeps 15 characters of a process name (TASK_COMM_LEN − 1).</summary>
    private const int CommLength = 15;

    /// <returns>The folded profile; its <see cref="FoldedStacks.Total"/> is the number of samples read.</returns>
    /// <exception cref="InvalidDataException">A frame line comes before any sample header.</exception>
    public static FoldedStacks Fold(TextReader perfScript)
    {
        var counts = new Dictionary<string, long>(StringComparer.Ordinal);
        var frames = new List<Frame>();
        string? comm = null;
        var number = 0;

        void EndSample()
        {
            if (comm is not null)
            {
                var stack = Stack(comm, frames);
                counts[stack] = counts.GetValueOrDefault(stack) + 1;
            }
            comm = null;
            frames.Clear();
        }

        while (perfScript.ReadLine() is { } line)
        {
            number++;
            if (string.IsNullOrWhiteSpace(line))
            {
                EndSample();
            }
            else if (char.IsWhiteSpace(line[0]))
            {
                if (comm is null)
                {
                    throw new InvalidDataException(
                        $"Line {number}: a frame outside any sample (no 'comm pid/tid period' header before it)."
                    );
                }
                frames.Add(ParseFrame(line));
            }
            else
            {
                // Some perf versions leave no blank line between samples.
                EndSample();
                comm = CommOf(line);
            }
        }
        EndSample();
        return new FoldedStacks(counts);
    }

    /// <summary>
    /// The process name of a header line <c>comm pid/tid period</c>: everything before the <c>pid/tid</c> field, since
    /// a comm may hold spaces.
    /// </summary>
    internal static string CommOf(string header)
    {
        var fields = header.Split((char[]?)null, StringSplitOptions.RemoveEmptyEntries);
        for (var i = fields.Length - 1; i > 0; i--)
        {
            if (PidTid().IsMatch(fields[i]))
            {
                return string.Join(' ', fields[..i]);
            }
        }
        // Without a tid the header ends in pid and period.
        return fields.Length > 2 ? string.Join(' ', fields[..^2]) : header.Trim();
    }

    private static string Stack(string comm, List<Frame> leafFirst)
    {
        var text = new StringBuilder(Sanitized(ProcessName(comm, leafFirst)));
        if (leafFirst.Count == 0)
        {
            return text.Append(';').Append(NoStackFrame).ToString();
        }
        string? previous = null;
        for (var i = leafFirst.Count - 1; i >= 0; i--)
        {
            var frame = leafFirst[i];
            var name = frame.Name;
            // Unwinding through a binary without symbols yields a run of [unknown]s that say nothing more than one.
            if (frame.IsUnknown && name == previous)
            {
                continue;
            }
            text.Append(';').Append(Sanitized(name));
            previous = frame.IsUnknown ? name : null;
        }
        return text.ToString();
    }

    /// <summary>
    /// The comm, or the name of the binary it was cut from: <c>lightning_chann</c> becomes <c>lightning_channeld</c>
    /// when a user-space frame (the outermost first) runs in <c>…/lightning_channeld</c>.
    /// </summary>
    private static string ProcessName(string comm, List<Frame> leafFirst)
    {
        if (comm.Length > 1 && comm[0] == ':' && comm.Skip(1).All(char.IsAsciiDigit))
        {
            // perf names a process it saw no COMM event for ":PID" (a child sampled between fork and exec, or gone
            // before perf looked): one name for all of them, else every such pid is a process of its own.
            return UnnamedProcess;
        }
        if (comm.Length != CommLength)
        {
            return comm;
        }
        for (var i = leafFirst.Count - 1; i >= 0; i--)
        {
            var frame = leafFirst[i];
            if (
                !frame.IsKernel
                && frame.DsoName.Length > CommLength
                && frame.DsoName.StartsWith(comm, StringComparison.Ordinal)
            )
            {
                return frame.DsoName;
            }
        }
        return comm;
    }

    private static Frame ParseFrame(string line)
    {
        var text = line.AsSpan().Trim();
        var space = text.IndexOfAny(' ', '\t');
        if (space < 0)
        {
            // An address alone: nothing to name the frame after.
            return new Frame("[unknown]", "[unknown]", IsKernel: false, IsUnknown: true);
        }
        var rest = text[(space + 1)..].Trim();
        var dso = "";
        if (rest.EndsWith(")") && DsoStart(rest) is var open and >= 0)
        {
            dso = rest[(open + 1)..^1].ToString();
            rest = rest[..open].TrimEnd();
        }
        var symbol = Offset().Replace(rest.ToString(), "");
        var isKernel = dso == KernelDso;
        var dsoName = DsoName(dso);
        var isUnknown = symbol.Length == 0 || symbol == "[unknown]";
        var name = isUnknown ? (dsoName.StartsWith('[') ? dsoName : $"[{dsoName}]") : symbol;
        if (isKernel)
        {
            name += KernelSuffix;
        }
        return new Frame(name, dsoName, isKernel, isUnknown);
    }

    /// <summary>
    /// Where the final parenthesised dso starts, by balancing parentheses from the end: C++ symbols hold their own
    /// (<c>operator()(int) const</c>) and a dso may end in <c>(deleted)</c>.
    /// </summary>
    private static int DsoStart(ReadOnlySpan<char> text)
    {
        var depth = 0;
        for (var i = text.Length - 1; i >= 0; i--)
        {
            if (text[i] == ')')
            {
                depth++;
            }
            else if (text[i] == '(' && --depth == 0)
            {
                return i;
            }
        }
        return -1;
    }

    private static string DsoName(string dso)
    {
        if (dso.Length == 0)
        {
            return "unknown";
        }
        if (dso.StartsWith('['))
        {
            return dso;
        }
        var deleted = dso.EndsWith(" (deleted)", StringComparison.Ordinal) ? dso[..^" (deleted)".Length] : dso;
        var slash = deleted.LastIndexOf('/');
        return slash < 0 || slash == deleted.Length - 1 ? deleted : deleted[(slash + 1)..];
    }

    /// <summary>';' separates frames and a line break ends a folded line, so neither may stay inside a name.</summary>
    private static string Sanitized(string name) => name.Replace(';', ':').Replace('\n', ' ').Replace('\r', ' ');

    [GeneratedRegex(@"^-?\d+/-?\d+$")]
    private static partial Regex PidTid();

    [GeneratedRegex(@"\+0x[0-9a-fA-F]+$")]
    private static partial Regex Offset();

    private sealed record Frame(string Name, string DsoName, bool IsKernel, bool IsUnknown);
}
