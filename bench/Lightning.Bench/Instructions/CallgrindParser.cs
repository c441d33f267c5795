using System.Globalization;

namespace Lightning.Bench.Instructions;

/// <summary>
/// Reads callgrind's format line by line into a <see cref="CallgrindDump"/>: the header, name compression
/// (<c>(N) name</c> defines, <c>(N)</c> refers; objects, files and functions each have their own numbers), relative
/// positions (<c>+N</c>, <c>-N</c>, <c>*</c>) and calls. Only the Ir column is kept; missing trailing cost columns are 0.
/// One parser reads one file.
/// </summary>
internal sealed class CallgrindParser
{
    private const string Unknown = "???";

    private readonly Dictionary<long, string> objects = [];
    private readonly Dictionary<long, string> files = [];
    private readonly Dictionary<long, string> functionNames = [];
    private readonly Dictionary<FunctionId, long> self = [];
    private readonly Dictionary<(FunctionId Caller, FunctionId Callee), (long Calls, long Ir)> calls = [];

    private int lineNumber;
    private int? pid;
    private int? part;
    private string command = "";
    private string? trigger;
    private long? totals;
    private long? summary;
    private int positionCount = 1;
    private int eventCount;
    private int irColumn = -1;
    private readonly long[] lastPosition = new long[2];

    private string currentObject = Unknown;
    private string currentFile = Unknown;
    private FunctionId? currentFunction;
    private string? calleeObject;
    private string? calleeFile;
    private string? calleeName;
    private (FunctionId Callee, long Count, int Line)? pendingCall;

    private readonly record struct FunctionId(string Object, string File, string Name);

    public CallgrindDump Parse(TextReader reader)
    {
        while (reader.ReadLine() is { } raw)
        {
            lineNumber++;
            var line = raw.Trim();
            if (line.Length == 0 || line[0] == '#')
            {
                continue;
            }
            if (IsCostLine(line))
            {
                CostLine(line);
            }
            else if (pendingCall is { } call)
            {
                throw Malformed($"the call at line {call.Line} is not followed by its cost line");
            }
            else if (Assignment(line) is var (key, value))
            {
                BodyLine(key, value);
            }
            else if (HeaderField(line) is var (name, text))
            {
                HeaderLine(name, text);
            }
            else
            {
                throw Malformed("expected a header line (name: value), a specification (name=value) or a cost line");
            }
        }
        if (pendingCall is { } open)
        {
            throw new InvalidDataException($"Line {open.Line}: the call is not followed by its cost line.");
        }
        if (irColumn < 0)
        {
            throw new InvalidDataException(
                $"Line {lineNumber}: no 'events:' line naming the Ir event; not callgrind output."
            );
        }
        return Build();
    }

    private static bool IsCostLine(string line) => line[0] is (>= '0' and <= '9') or '+' or '-' or '*';

    private static (string Key, string Value)? Assignment(string line)
    {
        var equals = line.IndexOf('=');
        if (equals <= 0)
        {
            return null;
        }
        var key = line[..equals];
        return key.All(char.IsAsciiLetterLower) ? (key, line[(equals + 1)..].Trim()) : null;
    }

    private static (string Name, string Text)? HeaderField(string line)
    {
        var colon = line.IndexOf(':');
        if (colon <= 0)
        {
            return null;
        }
        var name = line[..colon];
        return name.All(c => char.IsAsciiLetterOrDigit(c) || c is '_' or '-')
            ? (name, line[(colon + 1)..].Trim())
            : null;
    }

    private void HeaderLine(string name, string text)
    {
        switch (name)
        {
            case "version":
                if (
                    !int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var version)
                    || version > 1
                )
                {
                    throw Malformed($"format version '{text}' is not 1");
                }
                break;
            case "pid":
                pid = WholeNumber(text, "pid");
                break;
            case "part":
                part = WholeNumber(text, "part");
                break;
            case "cmd":
                command = text;
                break;
            case "desc":
                if (text.StartsWith("Trigger:", StringComparison.Ordinal))
                {
                    trigger = text["Trigger:".Length..].Trim();
                }
                break;
            case "positions":
                Positions(text);
                break;
            case "events":
                Events(text);
                break;
            case "summary":
                summary = TotalLine(text);
                break;
            case "totals":
                totals = TotalLine(text);
                break;
            // creator, thread, event (long event names) and any later addition carry nothing counted here.
            default:
                break;
        }
    }

    private void Positions(string text)
    {
        var kinds = Words(text);
        if (kinds.Length is 0 or > 2 || kinds.Any(k => k is not ("line" or "instr" or "addr")))
        {
            throw Malformed($"positions '{text}' are not 'line', 'instr' or 'instr line'");
        }
        positionCount = kinds.Length;
    }

    private void Events(string text)
    {
        var events = Words(text);
        irColumn = Array.IndexOf(events, "Ir");
        eventCount = events.Length;
        if (irColumn < 0)
        {
            throw Malformed($"the events '{text}' do not include Ir (instructions executed)");
        }
    }

    /// <summary>A <c>summary:</c> or <c>totals:</c> line, whose columns are the events in order.</summary>
    private long TotalLine(string text)
    {
        if (irColumn < 0)
        {
            throw Malformed("a total before the 'events:' line");
        }
        var costs = Words(text);
        if (costs.Length > eventCount)
        {
            throw Malformed($"{costs.Length} totals for {eventCount} events");
        }
        return irColumn < costs.Length ? Cost(costs[irColumn]) : 0;
    }

    private void BodyLine(string key, string value)
    {
        switch (key)
        {
            case "ob":
                currentObject = Name(objects, value, key);
                break;
            case "fl":
            case "fi":
            case "fe":
                // fi/fe switch the source file of the following cost lines (inlined code) within the same function.
                currentFile = Name(files, value, key);
                break;
            case "fn":
                currentFunction = new FunctionId(currentObject, currentFile, Name(functionNames, value, key));
                self.TryAdd(currentFunction.Value, 0);
                break;
            case "cob":
                calleeObject = Name(objects, value, key);
                break;
            case "cfi":
            case "cfl":
                calleeFile = Name(files, value, key);
                break;
            case "cfn":
                calleeName = Name(functionNames, value, key);
                break;
            case "calls":
                Call(value);
                break;
            case "jfi":
                Name(files, value, key);
                break;
            case "jfn":
                Name(functionNames, value, key);
                break;
            // Jumps (--collect-jumps) carry no cost of their own.
            case "jump":
            case "jcnd":
                break;
            default:
                throw Malformed($"unknown specification '{key}='");
        }
    }

    private void Call(string value)
    {
        if (currentFunction is null)
        {
            throw Malformed("a call before any 'fn=' line");
        }
        if (calleeName is null)
        {
            throw Malformed("a call with no 'cfn=' line naming the called function");
        }
        var words = Words(value);
        if (words.Length < 2 || words.Length > 1 + positionCount)
        {
            throw Malformed($"expected 'calls=COUNT TARGET', got 'calls={value}'");
        }
        var count = Cost(words[0]);
        var target = new long[positionCount];
        for (var i = 1; i < words.Length; i++)
        {
            target[i - 1] = Position(words[i], lastPosition[i - 1]);
        }
        // A callee's object and file default to the caller's object and to the file in effect (callgrind writes
        // cob=/cfi= only when they differ), and every cob/cfi/cfn applies to this one call.
        var callee = new FunctionId(calleeObject ?? currentObject, calleeFile ?? currentFile, calleeName);
        calleeObject = null;
        calleeFile = null;
        calleeName = null;
        pendingCall = (callee, count, lineNumber);
    }

    private void CostLine(string line)
    {
        var words = Words(line);
        if (words.Length < positionCount)
        {
            throw Malformed($"a cost line with fewer than {positionCount} position(s)");
        }
        if (irColumn < 0)
        {
            throw Malformed("a cost line before the 'events:' line");
        }
        if (words.Length - positionCount > eventCount)
        {
            throw Malformed($"{words.Length - positionCount} costs for {eventCount} events");
        }
        for (var i = 0; i < positionCount; i++)
        {
            lastPosition[i] = Position(words[i], lastPosition[i]);
        }
        var column = positionCount + irColumn;
        var ir = 0L;
        for (var i = positionCount; i < words.Length; i++)
        {
            var cost = Cost(words[i]);
            if (i == column)
            {
                ir = cost;
            }
        }
        if (currentFunction is not { } function)
        {
            throw Malformed("a cost line before any 'fn=' line");
        }
        if (pendingCall is { } call)
        {
            var edge = (function, call.Callee);
            var (count, sum) = calls.GetValueOrDefault(edge);
            calls[edge] = (count + call.Count, sum + ir);
            self.TryAdd(call.Callee, 0);
            pendingCall = null;
        }
        else
        {
            self[function] += ir;
        }
    }

    /// <summary>Resolves name compression: "(N) name" defines N, "(N)" refers to it, a bare name is itself.</summary>
    private string Name(Dictionary<long, string> names, string value, string key)
    {
        if (!value.StartsWith('('))
        {
            return value.Length > 0 ? value : throw Malformed($"'{key}=' names nothing");
        }
        var close = value.IndexOf(')');
        if (
            close < 0
            || !long.TryParse(value.AsSpan(1, close - 1), NumberStyles.None, CultureInfo.InvariantCulture, out var id)
        )
        {
            throw Malformed($"'{key}={value}' is not '(number) name' or '(number)'");
        }
        var name = value[(close + 1)..].Trim();
        if (name.Length > 0)
        {
            names[id] = name;
            return name;
        }
        return names.TryGetValue(id, out var known)
            ? known
            : throw Malformed($"'{key}=({id})' refers to a name never defined");
    }

    /// <summary>An absolute (decimal or 0x hexadecimal) or relative (+N, -N, * for the same) position.</summary>
    private long Position(string word, long last)
    {
        if (word == "*")
        {
            return last;
        }
        if (word[0] is '+' or '-')
        {
            var delta = long.TryParse(word.AsSpan(1), NumberStyles.None, CultureInfo.InvariantCulture, out var d)
                ? d
                : throw Malformed($"the position '{word}' is not a number");
            return word[0] == '+' ? last + delta : last - delta;
        }
        if (word.StartsWith("0x", StringComparison.OrdinalIgnoreCase))
        {
            return long.TryParse(
                word.AsSpan(2),
                NumberStyles.AllowHexSpecifier,
                CultureInfo.InvariantCulture,
                out var address
            )
                ? address
                : throw Malformed($"the position '{word}' is not a hexadecimal number");
        }
        return long.TryParse(word, NumberStyles.None, CultureInfo.InvariantCulture, out var position)
            ? position
            : throw Malformed($"the position '{word}' is not a number");
    }

    private long Cost(string word) =>
        long.TryParse(word, NumberStyles.None, CultureInfo.InvariantCulture, out var cost)
            ? cost
            : throw Malformed($"the count '{word}' is not a whole number");

    private int WholeNumber(string text, string name) =>
        int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var number)
            ? number
            : throw Malformed($"{name} '{text}' is not a whole number");

    private static string[] Words(string text) => text.Split((char[]?)null, StringSplitOptions.RemoveEmptyEntries);

    private InvalidDataException Malformed(string problem) => new($"Line {lineNumber}: {problem}.");

    private CallgrindDump Build()
    {
        var keys = Keys(self.Keys);
        var total = self.Values.Sum();
        var callCost = new Dictionary<FunctionId, long>();
        foreach (var ((caller, callee), (_, ir)) in calls)
        {
            // A function's calls to itself are already inside its own cost: counting them again would count twice.
            if (caller != callee)
            {
                callCost[caller] = callCost.GetValueOrDefault(caller) + ir;
            }
        }
        var functions = self.ToDictionary(
            f => keys[f.Key],
            f => new CallgrindFunction(
                keys[f.Key],
                f.Key.Name,
                f.Key.Object,
                f.Key.File,
                f.Value,
                Math.Min(total, f.Value + callCost.GetValueOrDefault(f.Key))
            ),
            StringComparer.Ordinal
        );
        var edges = calls
            .Select(c => new CallgrindCall(keys[c.Key.Caller], keys[c.Key.Callee], c.Value.Calls, c.Value.Ir))
            .ToList();
        return new CallgrindDump(pid, command, part, trigger, totals ?? summary, functions, edges);
    }

    /// <summary>The shortest unambiguous key of each function: name, then name [object], then name [object file].</summary>
    private static Dictionary<FunctionId, string> Keys(IEnumerable<FunctionId> functions)
    {
        var keys = new Dictionary<FunctionId, string>();
        foreach (var sameName in functions.GroupBy(f => f.Name, StringComparer.Ordinal))
        {
            var group = sameName.ToList();
            if (group.Count == 1)
            {
                keys[group[0]] = group[0].Name;
                continue;
            }
            Func<FunctionId, string>[] candidates =
            [
                f => $"{f.Name} [{BaseName(f.Object)}]",
                f => $"{f.Name} [{BaseName(f.Object)} {BaseName(f.File)}]",
                f => $"{f.Name} [{f.Object} {f.File}]",
            ];
            foreach (var function in group)
            {
                // The identity (object, file, name) is unique, so the last candidate always is.
                keys[function] = candidates
                    .Select(candidate =>
                        (
                            Key: candidate(function),
                            Unique: group.Count(other => candidate(other) == candidate(function)) == 1
                        )
                    )
                    .Where(c => c.Unique)
                    .Select(c => c.Key)
                    .DefaultIfEmpty(candidates[^1](function))
                    .First();
            }
        }
        return keys;
    }

    private static string BaseName(string path) => Path.GetFileName(path) is { Length: > 0 } name ? name : path;
}
