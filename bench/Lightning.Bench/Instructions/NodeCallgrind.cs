using System.Globalization;
using System.Text.RegularExpressions;
using Lightning.Bench.Docker;

namespace Lightning.Bench.Instructions;

/// <summary>
/// One node's processes under callgrind, driven through vgdb run inside the node's container (its pid namespace:
/// vgdb wakes a process blocked in a system call with ptrace): each process's counts zeroed, or dumped to a file in
/// the node's folder. The processes are those whose vgdb FIFOs are in that folder.
/// </summary>
/// <param name="forkedWork">Functions a forked child's own work starts in (<see cref="NodeKinds.InstructionCounting.ForkedWork"/>).</param>
internal sealed partial class NodeCallgrind(
    DockerEngine engine,
    string node,
    string container,
    string hostFolder,
    string? user,
    IReadOnlyList<string>? forkedWork = null
)
{
    private const int Attempts = 5;

    /// <summary>Whether the node's image has a shell (its batch exec ran): single calls then go through it too.</summary>
    private bool shell;
    private static readonly TimeSpan CallTimeout = TimeSpan.FromSeconds(60);

    public string Node => node;

    /// <summary>The processes running under Valgrind now (pids in the container).</summary>
    public IReadOnlyList<int> Pids() =>
        Directory
            .EnumerateFiles(hostFolder, "vgdb-from-vgdb-to-*")
            .Select(f => VgdbFifo().Match(Path.GetFileName(f)))
            .Where(m => m.Success)
            .Select(m => int.Parse(m.Groups[1].Value, CultureInfo.InvariantCulture))
            .Distinct()
            .Order()
            .ToList();

    /// <summary>
    /// Zeroes every process's counts; returns the pids that were zeroed. A process gone before it was reached (a child
    /// forked to run bitcoin-cli, between its fork and its exec) is not one of them.
    /// </summary>
    public async Task<IReadOnlyList<int>> ZeroAsync(CancellationToken ct = default)
    {
        var pids = Pids();
        var done = await BatchAsync(pids, "zero", ct);
        var zeroed = await Task.WhenAll(
            pids.Select(async p => (Pid: p, Answered: done.Contains(p) || await MonitorAsync(p, "zero", ct)))
        );
        return zeroed.Where(z => z.Answered).Select(z => z.Pid).ToList();
    }

    /// <summary>
    /// Dumps (and zeroes) the counts of <paramref name="pids"/> (those zeroed when the window opened: a process forked
    /// since would carry its parent's counts), each to a new file whose trigger names <paramref name="hint"/>.
    /// </summary>
    public async Task<IReadOnlyDictionary<int, string>> DumpAsync(
        IReadOnlyList<int> pids,
        string hint,
        CancellationToken ct = default
    )
    {
        await ForkedChildrenEndedAsync(pids, ct);
        var alive = Pids().Intersect(pids).ToList();
        var before = alive.ToDictionary(p => p, p => DumpFiles(p).ToHashSet());
        var done = await BatchAsync(alive, $"dump {hint}", ct);
        var dumps = await Task.WhenAll(
            alive.Select(async p =>
            {
                if (!done.Contains(p) && !await MonitorAsync(p, $"dump {hint}", ct))
                {
                    return (Pid: p, File: Ended(p));
                }
                var file =
                    DumpFiles(p).Where(f => !before[p].Contains(f)).OrderByDescending(Part).FirstOrDefault()
                    ?? throw new IOException(
                        $"{node}: callgrind of process {p} answered the dump but wrote no file in {hostFolder}"
                    );
                return (Pid: p, File: file);
            })
        );
        // A process that ended inside the window wrote its counts since the zeroing when it exited; one that has no
        // such file was a child that exec'd a program not counted (bitcoin-cli), whose counts were its parent's. A
        // child forked and ended since the zeroing counts when its work zeroed its parent's counts (--zero-before).
        return dumps
            .Concat(pids.Except(alive).Select(p => (Pid: p, File: Ended(p))))
            .Concat(ForkedAndEnded(pids))
            .Where(d => d.File is not null)
            .ToDictionary(d => d.Pid, d => d.File!);
    }

    /// <summary>
    /// Before a window's dump, up to <see cref="ForkedChildrenGrace"/> for the children forked within it to end (a routing
    /// child answers, then exits and writes its counts): one still running would be counted in no window.
    /// </summary>
    private async Task ForkedChildrenEndedAsync(IReadOnlyList<int> zeroed, CancellationToken ct)
    {
        if (forkedWork is not { Count: > 0 })
        {
            return;
        }
        var until = DateTime.UtcNow + ForkedChildrenGrace;
        while (Pids().Except(zeroed).Any() && DateTime.UtcNow < until)
        {
            await Task.Delay(50, ct);
        }
    }

    /// <summary>How long a window's dump waits for its forked children to end.</summary>
    public static readonly TimeSpan ForkedChildrenGrace = TimeSpan.FromSeconds(3);

    /// <summary>
    /// Children forked since the window's processes were zeroed and ended since (their exit dumps in the folder), whose
    /// counts start at one of <c>forkedWork</c>'s functions; others carry their parent's counts and are left.
    /// </summary>
    internal IEnumerable<(int Pid, string? File)> ForkedAndEnded(IReadOnlyList<int> zeroed)
    {
        if (forkedWork is not { Count: > 0 })
        {
            yield break;
        }
        var running = Pids().ToHashSet();
        foreach (var file in Directory.EnumerateFiles(hostFolder, "cg.*"))
        {
            if (
                !int.TryParse(
                    Path.GetFileName(file)["cg.".Length..],
                    NumberStyles.None,
                    CultureInfo.InvariantCulture,
                    out var pid
                )
                || zeroed.Contains(pid)
                || running.Contains(pid)
            )
            {
                continue;
            }
            // A function's name is written once, where it first appears: as a function (fn=) or as a callee (cfn=).
            if (File.ReadLines(file).Any(line => FunctionName(line) is { } name && forkedWork.Contains(name)))
            {
                yield return (pid, file);
            }
        }
    }

    /// <summary>The name in a callgrind "fn=(ID) NAME" or "cfn=(ID) NAME" line (names are written once, then by id alone); null for other lines.</summary>
    private static string? FunctionName(string line)
    {
        var prefix =
            line.StartsWith("fn=", StringComparison.Ordinal) ? 3
            : line.StartsWith("cfn=", StringComparison.Ordinal) ? 4
            : -1;
        if (prefix < 0)
        {
            return null;
        }
        var name = line[prefix..];
        return name.StartsWith('(') && name.IndexOf(") ", StringComparison.Ordinal) is var close and > 0
            ? name[(close + 2)..]
            : name;
    }

    /// <summary>
    /// One command to every process at once, through one exec of the node's shell that starts a vgdb per process (an
    /// exec costs the engine a few hundred milliseconds; a node has a dozen processes). Returns the pids that took it;
    /// the others are retried one by one (<see cref="MonitorAsync"/>), as is everything when the image has no shell.
    /// </summary>
    private async Task<IReadOnlySet<int>> BatchAsync(IReadOnlyList<int> pids, string command, CancellationToken ct)
    {
        if (pids.Count == 0)
        {
            return new HashSet<int>();
        }
        // A process gone (a forked child that exited) may leave its FIFOs: vgdb would wait on them for ever, so they
        // are removed instead, and the process is not one that took the command.
        const string script =
            "c=$1; shift; for p in \"$@\"; do if [ ! -d /proc/$p ]; then rm -f \"$VGDB_PREFIX\"*-$p-by-*; echo \"gone $p\"; continue; fi; (\""
            + HostValgrind.ContainerVgdb
            + "\" --vgdb-prefix=\""
            + "$VGDB_PREFIX"
            + "\" --pid=$p $c >/dev/null 2>&1; echo \"took $p $?\") & done; wait";
        try
        {
            var (exitCode, output) = await engine.ExecAsync(
                container,
                [
                    "/bin/sh",
                    "-c",
                    script.Replace("$VGDB_PREFIX", ValgrindWrapping.VgdbPrefix, StringComparison.Ordinal),
                    "sh",
                    command,
                    .. pids.Select(p => p.ToString(CultureInfo.InvariantCulture)),
                ],
                user,
                CallTimeout,
                ct
            );
            shell = exitCode == 0;
            return exitCode != 0
                ? new HashSet<int>()
                : output
                    .Split('\n', StringSplitOptions.TrimEntries)
                    .Select(l => l.Split(' '))
                    .Where(w => w is ["took", _, "0"])
                    .Select(w => int.Parse(w[1], CultureInfo.InvariantCulture))
                    .ToHashSet();
        }
        catch (Docker.DockerApiException)
        {
            shell = false;
            return new HashSet<int>();
        }
    }

    /// <summary>The counts a process wrote when it exited, or null when it wrote none.</summary>
    private string? Ended(int pid)
    {
        var file = new FileInfo(Path.Combine(hostFolder, $"cg.{pid}"));
        return file.Exists && file.Length > 0 ? file.FullName : null;
    }

    private IEnumerable<string> DumpFiles(int pid) => Directory.EnumerateFiles(hostFolder, $"cg.{pid}.*");

    private static int Part(string file) =>
        int.TryParse(
            Path.GetExtension(file).TrimStart('.'),
            NumberStyles.None,
            CultureInfo.InvariantCulture,
            out var part
        )
            ? part
            : 0;

    /// <summary>
    /// One callgrind monitor command to one process; retried, since only one vgdb may speak with a process at a time
    /// and a process that is being woken may miss one. A process that never answers fails the call: its count is
    /// never taken as zero. False when the process is gone (its FIFOs removed).
    /// </summary>
    private async Task<bool> MonitorAsync(int pid, string command, CancellationToken ct)
    {
        string output = "";
        for (var attempt = 1; attempt <= Attempts; attempt++)
        {
            // Through the node's shell where it has one: a process gone has its FIFOs removed rather than waited on.
            string[] vgdb =
            [
                HostValgrind.ContainerVgdb,
                $"--vgdb-prefix={ValgrindWrapping.VgdbPrefix}",
                $"--pid={pid}",
                .. command.Split(' '),
            ];
            var (exitCode, text) = await engine.ExecAsync(
                container,
                shell
                    ?
                    [
                        "/bin/sh",
                        "-c",
                        $"[ -d /proc/{pid} ] || {{ rm -f '{ValgrindWrapping.VgdbPrefix}'*-{pid}-by-*; echo 'no FIFO found matching pid {pid}'; exit 42; }}; exec \"$0\" \"$@\"",
                        .. vgdb,
                    ]
                    : vgdb,
                user,
                CallTimeout,
                ct
            );
            if (exitCode == 0)
            {
                return true;
            }
            // A child forked to exec a program that is not counted (bcli's bitcoin-cli) leaves its FIFOs behind: vgdb then
            // finds no Valgrind behind them.
            if (!Pids().Contains(pid) || text.Contains("no FIFO found matching pid", StringComparison.Ordinal))
            {
                return false;
            }
            output = text.Trim();
            await Task.Delay(TimeSpan.FromMilliseconds(200 * attempt), ct);
        }
        throw new IOException(
            $"{node}: callgrind of process {pid} did not take `{command}` after {Attempts} attempts: {output.Split('\n').LastOrDefault()}"
        );
    }

    [GeneratedRegex(@"^vgdb-from-vgdb-to-(\d+)-by-")]
    private static partial Regex VgdbFifo();
}
