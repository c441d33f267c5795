namespace Lightning.Bench.Instructions;

/// <summary>
/// Where one node's instructions went: per function of each of its processes (lightningd, each subdaemon, each
/// plugin), self and inclusive counts, and the calls between functions. Built from the callgrind dumps of a window,
/// then turned into a per-payment profile: divided by the window's payments, with the node's idle profile (scaled to
/// the window's length) subtracted. Immutable: every operation returns a new profile.
/// </summary>
internal sealed class InstructionProfile
{
    private InstructionProfile(
        Dictionary<InstructionFunction, FunctionInstructions> functions,
        Dictionary<(InstructionFunction Caller, InstructionFunction Callee), CallInstructions> calls,
        Dictionary<string, double> processes
    )
    {
        Functions = functions.AsReadOnly();
        Calls = calls.AsReadOnly();
        Processes = processes.AsReadOnly();
        Total = processes.Values.Sum();
    }

    public static InstructionProfile Empty { get; } = new([], [], new(StringComparer.Ordinal));

    public IReadOnlyDictionary<InstructionFunction, FunctionInstructions> Functions { get; }

    public IReadOnlyDictionary<
        (InstructionFunction Caller, InstructionFunction Callee),
        CallInstructions
    > Calls { get; }

    /// <summary>Instructions per process: the sum of its functions' self counts.</summary>
    public IReadOnlyDictionary<string, double> Processes { get; }

    /// <summary>All the node's instructions.</summary>
    public double Total { get; }

    /// <summary>The sum of the dumps, each under its process's name; processes of the same name are summed.</summary>
    public static InstructionProfile FromDumps(IEnumerable<CallgrindDump> dumps)
    {
        var functions = new Dictionary<InstructionFunction, FunctionInstructions>();
        var calls = new Dictionary<(InstructionFunction, InstructionFunction), CallInstructions>();
        var processes = new Dictionary<string, double>(StringComparer.Ordinal);
        foreach (var dump in dumps)
        {
            var process = dump.ProcessName;
            InstructionFunction Key(CallgrindFunction f) => new(process, f.Name, f.ObjectName);
            foreach (var function in dump.Functions.Values)
            {
                Add(functions, Key(function), new FunctionInstructions(function.SelfIr, function.InclusiveIr));
            }
            foreach (var call in dump.Calls)
            {
                Add(
                    calls,
                    (Key(dump.Functions[call.Caller]), Key(dump.Functions[call.Callee])),
                    new CallInstructions(call.Calls, call.InclusiveIr)
                );
            }
            processes[process] = processes.GetValueOrDefault(process) + dump.TotalIr;
        }
        return new InstructionProfile(functions, calls, processes);
    }

    /// <summary>Function by function, call by call, process by process sums (the windows of a topology, say).</summary>
    public static InstructionProfile Sum(IEnumerable<InstructionProfile> profiles) =>
        profiles.Aggregate(Empty, (sum, profile) => sum.Plus(profile, 1));

    public InstructionProfile Add(InstructionProfile other) => Plus(other, 1);

    /// <summary>Every count multiplied by <paramref name="factor"/> (1/payments for a per-payment profile).</summary>
    public InstructionProfile Scale(double factor)
    {
        if (!double.IsFinite(factor))
        {
            throw new ArgumentOutOfRangeException(nameof(factor), factor, "The factor must be a finite number.");
        }
        return Empty.Plus(this, factor);
    }

    /// <summary>Instructions per payment: every count divided by <paramref name="payments"/>.</summary>
    public InstructionProfile PerPayment(double payments)
    {
        if (!(payments > 0) || !double.IsFinite(payments))
        {
            throw new ArgumentOutOfRangeException(
                nameof(payments),
                payments,
                "The payments must be a positive number."
            );
        }
        return Scale(1 / payments);
    }

    /// <summary>
    /// This profile less <paramref name="idle"/> × <paramref name="scale"/>: a window's count with the node's
    /// background work (timers, chain polling) over the same time taken out, <paramref name="scale"/> being the
    /// window's length over the idle measurement's. A function busier at idle than in the window ends negative: the
    /// subtraction is an estimate and is kept as such, not clipped, so sums stay sums.
    /// </summary>
    public InstructionProfile Subtract(InstructionProfile idle, double scale = 1)
    {
        if (!double.IsFinite(scale) || scale < 0)
        {
            throw new ArgumentOutOfRangeException(
                nameof(scale),
                scale,
                "The scale must be a finite number, 0 or more."
            );
        }
        return Plus(idle, -scale);
    }

    /// <summary>The function's counts; zero for one the profile never saw.</summary>
    public FunctionInstructions this[InstructionFunction function] => Functions.GetValueOrDefault(function);

    private InstructionProfile Plus(InstructionProfile other, double factor)
    {
        var functions = new Dictionary<InstructionFunction, FunctionInstructions>(Functions);
        var calls = new Dictionary<(InstructionFunction, InstructionFunction), CallInstructions>(Calls);
        var processes = new Dictionary<string, double>(Processes, StringComparer.Ordinal);
        foreach (var (function, counts) in other.Functions)
        {
            Add(functions, function, counts.Times(factor));
        }
        foreach (var (call, counts) in other.Calls)
        {
            Add(calls, call, counts.Times(factor));
        }
        foreach (var (process, count) in other.Processes)
        {
            processes[process] = processes.GetValueOrDefault(process) + count * factor;
        }
        return new InstructionProfile(functions, calls, processes);
    }

    private static void Add(
        Dictionary<InstructionFunction, FunctionInstructions> functions,
        InstructionFunction key,
        FunctionInstructions value
    ) => functions[key] = functions.GetValueOrDefault(key) + value;

    private static void Add(
        Dictionary<(InstructionFunction, InstructionFunction), CallInstructions> calls,
        (InstructionFunction, InstructionFunction) key,
        CallInstructions value
    ) => calls[key] = calls.GetValueOrDefault(key) + value;
}
