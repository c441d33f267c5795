using System.Diagnostics;
using Lightning.Bench.Docker;
using Lightning.Bench.Options;
using Lightning.Bench.Results;

namespace Lightning.Bench.Instructions;

/// <summary>
/// A case's instruction counts: every Lightning node's processes zeroed and dumped through vgdb around an idle window
/// (before the first payment) and around the measured invocations, so the counts are exactly those windows' and
/// setup and warmups are left out. The dumps stay in the node folders until the case reads them (<see cref="Dumps"/>).
/// </summary>
internal sealed class CaseInstructions
{
    public const string IdleHint = "lnbench-idle";

    /// <summary>
    /// How long the idle instructions are counted, in <see cref="IdleSlices"/> slices: each slice holds three of the
    /// nodes' one-second chain polls, and each node's idle counts are those of its median slice, so a one-off chore
    /// that falls into the idle window (a block processed late: 7 M instructions of lightningd, against 1 M of polls)
    /// is not subtracted from every payment.
    /// </summary>
    public static readonly TimeSpan IdleWindow = TimeSpan.FromSeconds(9);

    public const int IdleSlices = 3;

    /// <summary>The payments a topology's window aims at (--instructions' default --iterations: <see cref="HarnessOptions.InstructionWindowPayments"/>).</summary>
    public const int WindowPayments = HarnessOptions.InstructionWindowPayments;

    /// <summary>The nodes count as quiet when, over this long, they used less than <see cref="SettleBusyShare"/> of a core above their idle rate.</summary>
    public static readonly TimeSpan SettleQuiet = TimeSpan.FromMilliseconds(150);

    /// <summary>See <see cref="SettleQuiet"/>.</summary>
    public const double SettleBusyShare = 0.05;

    /// <summary>The longest wait for quiet nodes before a payment goes ahead anyway (counted in summary.json).</summary>
    public static readonly TimeSpan SettleLimit = TimeSpan.FromSeconds(3);

    /// <summary>
    /// How many measured invocations a topology's window spans: enough for <see cref="WindowPayments"/> payments, at most
    /// the run's iterations (Concurrency=1: forty invocations; 10: the first four). The invocations after it pay nothing.
    /// </summary>
    public static int WindowInvocations(int iterations, int paymentsPerInvocation) =>
        Math.Min(iterations, Math.Max(1, (WindowPayments + paymentsPerInvocation - 1) / paymentsPerInvocation));

    public const string WindowHint = "lnbench-window";

    private readonly IReadOnlyList<NodeCallgrind> nodes;
    private readonly IReadOnlyDictionary<string, IReadOnlyList<NodeKinds.RetryLoop>> retryLoops;
    private readonly Dictionary<string, IReadOnlyList<int>> windowPids = new();
    private readonly Stopwatch window = new();
    private IReadOnlyDictionary<string, IReadOnlyList<CallgrindDump>>? idleDumps;
    private IReadOnlyDictionary<string, double>? idleSeconds;

    private CaseInstructions(
        IReadOnlyList<NodeCallgrind> nodes,
        IReadOnlyDictionary<string, IReadOnlyList<NodeKinds.RetryLoop>> retryLoops
    )
    {
        this.nodes = nodes;
        this.retryLoops = retryLoops;
    }

    /// <param name="containers">Lightning node → container id.</param>
    /// <param name="nodeFolder">Node → its folder on the host (the callgrind folder is inside).</param>
    /// <param name="retryLoops">Node → its kind's retry loops, counted at their mean.</param>
    /// <param name="forkedWork">Node → its kind's functions a forked child's work starts in (<see cref="NodeKinds.InstructionCounting.ForkedWork"/>).</param>
    public static CaseInstructions For(
        DockerEngine engine,
        IReadOnlyDictionary<string, string> containers,
        Func<string, string> nodeFolder,
        string? user,
        IReadOnlyDictionary<string, IReadOnlyList<NodeKinds.RetryLoop>>? retryLoops = null,
        IReadOnlyDictionary<string, IReadOnlyList<string>>? forkedWork = null
    ) =>
        new(
            containers
                .Select(c => new NodeCallgrind(
                    engine,
                    c.Key,
                    c.Value,
                    Path.Combine(nodeFolder(c.Key), ValgrindWrapping.Folder),
                    user,
                    forkedWork?.GetValueOrDefault(c.Key)
                ))
                .ToList(),
            retryLoops ?? new Dictionary<string, IReadOnlyList<NodeKinds.RetryLoop>>()
        );

    /// <summary>The idle window's and the measured window's dumps per node, once both are taken.</summary>
    public (
        IReadOnlyDictionary<string, IReadOnlyList<CallgrindDump>> Idle,
        IReadOnlyDictionary<string, IReadOnlyList<CallgrindDump>> Window
    )? Dumps { get; private set; }

    /// <summary>
    /// Counts every node at rest for <paramref name="length"/> in <see cref="IdleSlices"/> slices (a dump zeroes the
    /// counts, so each slice's dump is that slice's): its timers and chain polls, subtracted from the window later.
    /// Each node keeps the slice whose total is its median.
    /// </summary>
    public async Task MeasureIdleAsync(TimeSpan length, CancellationToken ct = default)
    {
        var zeroed = await ZeroAllAsync(ct);
        var slices = new List<(IReadOnlyDictionary<string, IReadOnlyList<CallgrindDump>> Dumps, double Seconds)>();
        var clock = Stopwatch.StartNew();
        for (var slice = 1; slice <= IdleSlices; slice++)
        {
            await Task.Delay(length / IdleSlices, ct);
            var seconds = clock.Elapsed.TotalSeconds;
            var dumps = Read(await DumpAllAsync(zeroed, IdleHint, ct));
            // The slice ends when its dump was asked for; the next starts when the dumps (which zero) are done.
            slices.Add((dumps, seconds));
            clock.Restart();
        }
        var median = nodes.ToDictionary(
            n => n.Node,
            n => slices.OrderBy(s => s.Dumps[n.Node].Sum(d => d.TotalIr) / s.Seconds).ElementAt(IdleSlices / 2)
        );
        idleDumps = median.ToDictionary(m => m.Key, m => m.Value.Dumps[m.Key]);
        idleSeconds = median.ToDictionary(m => m.Key, m => m.Value.Seconds);
    }

    /// <summary>Opens the measured window: zeroes every process (what warmups and setup did is dropped).</summary>
    public async Task OpenWindowAsync(CancellationToken ct = default)
    {
        foreach (var (node, pids) in await ZeroAllAsync(ct))
        {
            windowPids[node] = pids;
        }
        window.Restart();
    }

    /// <summary>Closes the measured window: dumps every process zeroed when it opened; returns each node's counts.</summary>
    public async Task<IReadOnlyDictionary<string, NodeInstructions>> CloseWindowAsync(CancellationToken ct = default)
    {
        window.Stop();
        var windowDumps = Read(await DumpAllAsync(windowPids, WindowHint, ct));
        var idle = idleDumps ?? throw new InvalidOperationException("the idle window was not measured");
        Dumps = (idle, windowDumps);
        return nodes.ToDictionary(
            n => n.Node,
            n => new NodeInstructions(
                ByProcess(windowDumps[n.Node]),
                window.Elapsed.TotalSeconds,
                ByProcess(idle[n.Node]),
                idleSeconds![n.Node]
            )
            {
                Retries = RetryAdjustment.Of(windowDumps[n.Node], retryLoops.GetValueOrDefault(n.Node) ?? []),
            }
        );
    }

    private static IReadOnlyDictionary<string, double> ByProcess(IReadOnlyList<CallgrindDump> dumps) =>
        dumps.GroupBy(d => d.ProcessName).ToDictionary(g => g.Key, g => (double)g.Sum(d => d.TotalIr));

    /// <summary>Each node's dumps, read (and then deleted: a node's folder holds only the dumps not yet read).</summary>
    private static IReadOnlyDictionary<string, IReadOnlyList<CallgrindDump>> Read(
        IReadOnlyDictionary<string, IReadOnlyDictionary<int, string>> files
    ) =>
        files.ToDictionary(
            n => n.Key,
            n =>
                (IReadOnlyList<CallgrindDump>)
                    n
                        .Value.Values.Select(f =>
                        {
                            var dump = CallgrindDump.Read(f);
                            File.Delete(f);
                            return dump;
                        })
                        .ToList()
        );

    private async Task<IReadOnlyDictionary<string, IReadOnlyList<int>>> ZeroAllAsync(CancellationToken ct)
    {
        var zeroed = await Task.WhenAll(nodes.Select(async n => (n.Node, Pids: await n.ZeroAsync(ct))));
        return zeroed.ToDictionary(z => z.Node, z => z.Pids);
    }

    private async Task<IReadOnlyDictionary<string, IReadOnlyDictionary<int, string>>> DumpAllAsync(
        IReadOnlyDictionary<string, IReadOnlyList<int>> pids,
        string hint,
        CancellationToken ct
    )
    {
        var dumped = await Task.WhenAll(
            nodes.Select(async n => (n.Node, Files: await n.DumpAsync(pids[n.Node], hint, ct)))
        );
        return dumped.ToDictionary(d => d.Node, d => d.Files);
    }
}
