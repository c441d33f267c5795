using Lightning.Bench.Processes;
using Lightning.Bench.Profiling;

namespace Lightning.Bench.Instructions;

/// <summary>
/// The function counts of every topology of an --instructions run, kept in memory for the run's report and written
/// per topology as they come (instructions/CASE/NODE.folded and NODE.functions.csv).
/// </summary>
internal sealed class RunInstructionProfiles
{
    public const string Folder = "instructions";
    public const string FunctionsSuffix = ".functions.csv";

    /// <summary>
    /// Paths below this share of a process's window are folded into its "[other stacks]": a tenth of the folding's
    /// default, since a window holds billions of instructions and a build's change moves which paths fall below it.
    /// </summary>
    private const double StackFloorShare = 1e-5;

    private readonly List<TopologyInstructionProfile> profiles = new();

    public IReadOnlyList<TopologyInstructionProfile> All
    {
        get
        {
            lock (profiles)
            {
                return profiles.ToList();
            }
        }
    }

    /// <summary>
    /// Reads a topology's dumps into per-payment profiles (idle subtracted, scaled to the window's length) and window
    /// stacks, keeps them and writes their files; returns the files written.
    /// </summary>
    public IReadOnlyList<string> Add(
        string runDirectory,
        string caseKey,
        IReadOnlyDictionary<string, string> parameters,
        string caseFolder,
        IReadOnlyDictionary<string, IReadOnlyList<CallgrindDump>> window,
        IReadOnlyDictionary<string, IReadOnlyList<CallgrindDump>> idle,
        IReadOnlyDictionary<string, double> idleShare,
        int payments
    )
    {
        var directory = Path.Combine(runDirectory, Folder, caseFolder);
        Directory.CreateDirectory(directory);
        var files = new List<string>();
        foreach (var (node, dumps) in window.OrderBy(w => w.Key, StringComparer.Ordinal))
        {
            var perPayment = InstructionProfile
                .FromDumps(dumps)
                .Subtract(InstructionProfile.FromDumps(idle[node]), idleShare[node])
                .PerPayment(payments);
            var stacks = CallgrindFolding.ToFolded(dumps, StackFloorShare).Bounded(ProfileFiles.MaxStacks);
            var folded = Path.Combine(directory, node + ProfileFiles.Extension);
            stacks.WriteFile(folded);
            var functions = Path.Combine(directory, node + FunctionsSuffix);
            AtomicFile.WriteAllLines(functions, FunctionRows(perPayment));
            files.Add(folded);
            files.Add(functions);
            lock (profiles)
            {
                profiles.Add(new TopologyInstructionProfile(caseKey, parameters, node, perPayment, stacks, payments));
            }
        }
        return files;
    }

    private static IEnumerable<string> FunctionRows(InstructionProfile perPayment) =>
        new[] { "process,function,object,self_per_payment,inclusive_per_payment" }.Concat(
            perPayment
                .Functions.OrderByDescending(f => f.Value.Self)
                .Select(f =>
                    string.Join(
                        ',',
                        Csv(f.Key.Process),
                        Csv(f.Key.Name),
                        Csv(f.Key.Object),
                        f.Value.Self.ToString("0.#", System.Globalization.CultureInfo.InvariantCulture),
                        f.Value.Inclusive.ToString("0.#", System.Globalization.CultureInfo.InvariantCulture)
                    )
                )
        );

    private static string Csv(string field) =>
        field.IndexOfAny([',', '"', '\n', '\r']) >= 0
            ? $"\"{field.Replace("\"", "\"\"", StringComparison.Ordinal)}\""
            : field;
}
