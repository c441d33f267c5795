namespace Lightning.Bench.Instructions;

/// <summary>
/// One callgrind output file (a process's dump: at its exit, or at a <c>callgrind_control --dump</c>), reduced to what
/// instruction counting needs: the instructions (event <c>Ir</c>) each function executed itself, with what it
/// called, and the calls between functions. Format: https://valgrind.org/docs/manual/cl-format.html.
/// <para>
/// A <c>calls=</c> line's cost line is the call's inclusive cost and is charged to the caller as a call, never as its
/// self cost; that holds for <c>calls=0</c> too, which callgrind writes for calls still running when a dump is taken.
/// (callgrind_annotate counts those as self cost of the caller, so on a mid-run dump its self figures of the functions
/// on the stack at the dump, and the sum of its self figures, exceed the dump's total; ours add up to it.)
/// </para>
/// </summary>
internal sealed class CallgrindDump
{
    internal CallgrindDump(
        int? pid,
        string command,
        int? part,
        string? trigger,
        long? fileTotalIr,
        IReadOnlyDictionary<string, CallgrindFunction> functions,
        IReadOnlyList<CallgrindCall> calls
    )
    {
        Pid = pid;
        Command = command;
        Part = part;
        Trigger = trigger;
        FileTotalIr = fileTotalIr;
        Functions = functions;
        Calls = calls;
        TotalIr = functions.Values.Sum(f => f.SelfIr);
    }

    /// <summary>The <c>pid:</c> line, when present.</summary>
    public int? Pid { get; }

    /// <summary>The profiled command line (<c>cmd:</c>), empty when absent.</summary>
    public string Command { get; }

    /// <summary>The dump's number within its process (<c>part:</c>): 1 for the first dump.</summary>
    public int? Part { get; }

    /// <summary>Why the dump was written (<c>desc: Trigger: …</c>): "Program termination", "--dump-before=fork", …</summary>
    public string? Trigger { get; }

    /// <summary>The executable's file name: the base name of the command's first word (<c>lightningd</c>, <c>lightning_channeld</c>, <c>cln-xpay</c>).</summary>
    public string ProcessName => ProcessNameOf(Command);

    /// <summary>All instructions of the dump: the sum of the functions' self counts.</summary>
    public long TotalIr { get; }

    /// <summary>The file's own total (<c>totals:</c>, else <c>summary:</c>), when it has one; equals <see cref="TotalIr"/> for callgrind's files.</summary>
    public long? FileTotalIr { get; }

    /// <summary>
    /// Functions by key. A key is the function's name when no other function of the dump has that name, else
    /// <c>name [object]</c> with the object's file name, else <c>name [object file]</c>: a name alone is what a reader
    /// looks for, and the object tells a static <c>main</c> or <c>(below main)</c> of the executable from libc's,
    /// which callgrind keeps as different functions and whose counts must not be summed.
    /// </summary>
    public IReadOnlyDictionary<string, CallgrindFunction> Functions { get; }

    /// <summary>Calls between functions, one entry per caller and callee.</summary>
    public IReadOnlyList<CallgrindCall> Calls { get; }

    /// <exception cref="InvalidDataException">The text is not callgrind output; the message names the line.</exception>
    public static CallgrindDump Parse(TextReader reader) => new CallgrindParser().Parse(reader);

    /// <exception cref="InvalidDataException">The file is not callgrind output; the message names the file and the line.</exception>
    public static CallgrindDump Read(string path)
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

    internal static string ProcessNameOf(string command)
    {
        var trimmed = command.Trim();
        var space = trimmed.IndexOf(' ');
        var program = space < 0 ? trimmed : trimmed[..space];
        return Path.GetFileName(program) is { Length: > 0 } name ? name : "?";
    }
}
