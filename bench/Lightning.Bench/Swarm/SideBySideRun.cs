using System.Diagnostics;
using System.Globalization;
using System.Runtime.InteropServices;
using System.Text.Json;
using Lightning.Bench.Docker;
using Lightning.Bench.Options;
using Lightning.Bench.Processes;
using Lightning.Bench.Progress;
using Lightning.Bench.Reports;
using Lightning.Bench.Results;
using Lightning.Bench.Statistics;

namespace Lightning.Bench.Swarm;

/// <summary>
/// A `--swarm` comparison measured in shares side by side: the topology indices split into contiguous shares, each
/// measured by its own harness process (`--swarm-host HOST --topology-range FIRST-LAST`, the same seed), the shares on
/// the swarm's hosts in turn, all at once. Each share is a whole run of its own (its agent, gate, stacks, results and
/// tables; both arms of each of its pairs on its host, so every pair stays paired within a host); when all have ended,
/// the run judges every pair together from the shares' summaries (<see cref="ArmComparer.Of(IReadOnlyList{CaseSummary}, IReadOnlyList{string}, IReadOnlyList{string}, double, int, double)"/>)
/// and writes comparison.md, comparisons.csv, topologies.csv and side-by-side.json in its own folder.
/// BenchmarkDotNet measures one case at a time in a process, hence a process per share.
/// </summary>
internal static class SideBySideRun
{
    /// <summary>The environment variable this run sets on its shares: "stdin", the share's lifeline (a share stops when its standard input ends).</summary>
    public const string Lifeline = "LNBENCH_LIFELINE";

    public const string ManifestFile = "side-by-side.json";

    /// <summary>The shares' topology ranges: <paramref name="topologies"/> indices in <paramref name="shares"/> contiguous runs, sizes differing by one at most.</summary>
    public static IReadOnlyList<(int First, int Last)> Ranges(int topologies, int shares)
    {
        shares = Math.Min(shares, topologies);
        return Enumerable
            .Range(0, shares)
            .Select(k => (k * topologies / shares + 1, (k + 1) * topologies / shares))
            .ToList();
    }

    /// <summary>A share's command line: the user's, less --side-by-side and --results, with its host, topologies, seed and folder.</summary>
    public static IReadOnlyList<string> ShareArguments(
        IReadOnlyList<string> args,
        string host,
        (int First, int Last) range,
        int seed,
        string results
    )
    {
        var kept = new List<string>();
        for (var i = 0; i < args.Count; i++)
        {
            if (args[i] is "--side-by-side" or "--results" or "--seed")
            {
                i++;
                continue;
            }
            if (
                args[i].StartsWith("--side-by-side=", StringComparison.Ordinal)
                || args[i].StartsWith("--results=", StringComparison.Ordinal)
                || args[i].StartsWith("--seed=", StringComparison.Ordinal)
            )
            {
                continue;
            }
            kept.Add(args[i]);
        }
        return
        [
            .. kept,
            "--swarm-host",
            host,
            "--topology-range",
            Invariant($"{range.First}-{range.Last}"),
            "--seed",
            seed.ToString(CultureInfo.InvariantCulture),
            "--results",
            results,
        ];
    }

    /// <summary>
    /// Runs the comparison side by side when it is a --swarm run with more than one share (--side-by-side, or the
    /// swarm's hosts); null when it is not (then it runs as one process).
    /// </summary>
    public static async Task<int?> TryRunAsync(HarnessOptions options, IReadOnlyList<string> args)
    {
        if (
            !options.Swarm
            || options.SwarmHost is not null
            || options.TopologyRange is not null
            || options.MaxTime is not null
            || options.SideBySide is 1
        )
        {
            return null;
        }
        IReadOnlyList<string> hosts;
        try
        {
            using var engine = new DockerEngine(DockerEndpoint.Resolve());
            // The pairs' hosts: those its placed nodes go to are left to them when others remain.
            hosts = (await SwarmManager.RequireAsync(engine))
                .Placing(options.Placements.Values)
                .PairHosts.Select(h => h.Hostname)
                .ToList();
        }
        catch (Exception e)
            when (e
                    is DockerUnavailableException
                        or DockerApiException
                        or SwarmUnavailableException
                        or HttpRequestException
                        or IOException
            )
        {
            // The run as one process says what is wrong, in its words.
            return null;
        }
        var ranges = Ranges(options.Topologies, options.SideBySide ?? hosts.Count);
        if (ranges.Count <= 1)
        {
            return null;
        }
        return await RunAsync(options, args, hosts, ranges);
    }

    private static async Task<int> RunAsync(
        HarnessOptions options,
        IReadOnlyList<string> args,
        IReadOnlyList<string> hosts,
        IReadOnlyList<(int First, int Last)> ranges
    )
    {
        var progress = RunProgress.Console;
        var started = DateTimeOffset.UtcNow;
        var runId = $"{started:yyyyMMdd-HHmmss}-{Guid.NewGuid().ToString("N")[..4]}";
        var seed = options.Seed ?? Random.Shared.Next();
        var folder = Path.GetFullPath(Path.Combine(options.ResultsRoot, $"{runId}-{options.Scenario}"));
        Directory.CreateDirectory(folder);
        var shares = ranges
            .Select(
                (range, k) =>
                    new Share(
                        k + 1,
                        hosts[k % hosts.Count],
                        range,
                        Path.Combine(folder, "shares", Invariant($"{k + 1}-{hosts[k % hosts.Count]}"))
                    )
            )
            .ToList();
        progress.Info(
            $"side by side: {shares.Count} shares of {options.Topologies} topology pairs on {shares.Select(s => s.Host).Distinct().Count()} of the swarm's {hosts.Count} host(s), "
                + $"seed {seed}: {string.Join("; ", shares.Select(s => $"share {s.Number} on {s.Host}, topologies {s.Range.First}–{s.Range.Last}"))}"
        );
        if (shares.Count > hosts.Count)
        {
            progress.Info(
                $"side by side: {shares.Count} shares on {hosts.Count} host(s): shares on one host share its cores, and each share's times are measured beside the others' load"
            );
        }
        var harness = typeof(SideBySideRun).Assembly.Location;
        var running = new List<(Share Share, Process Process, Task Output)>();
        using var interrupt = new ShareSignals(() => running.Select(r => r.Process));
        foreach (var share in shares)
        {
            Directory.CreateDirectory(share.Folder);
            var start = new ProcessStartInfo(Environment.ProcessPath ?? "dotnet")
            {
                UseShellExecute = false,
                RedirectStandardOutput = true,
                RedirectStandardError = true,
                RedirectStandardInput = true,
            };
            start.ArgumentList.Add(harness);
            foreach (var argument in ShareArguments(args, share.Host, share.Range, seed, share.Folder))
            {
                start.ArgumentList.Add(argument);
            }
            // Its lifeline: standard input, held open and never written; if this process dies (kill -9), the share sees
            // it end and stops as on SIGTERM, removing what it made.
            start.Environment[Lifeline] = "stdin";
            var process = Process.Start(start)!;
            running.Add((share, process, ForwardAsync(share, process)));
        }
        foreach (var (share, process, output) in running)
        {
            await process.WaitForExitAsync();
            await output;
            share.ExitCode = process.ExitCode;
            share.Ended = DateTimeOffset.UtcNow;
            progress.Info(
                $"side by side: share {share.Number} on {share.Host} ended with code {share.ExitCode} after {(share.Ended - started).TotalMinutes:0.0} min"
            );
        }
        return Merge(options, runId, seed, folder, started, shares, interrupt.Interrupted);
    }

    /// <summary>Each share's output in its harness.log; its progress and error lines on the console, named by share.</summary>
    private static async Task ForwardAsync(Share share, Process process)
    {
        await using var log = new StreamWriter(Path.Combine(share.Folder, "harness.log")) { AutoFlush = true };
        var gate = new object();
        async Task Pump(StreamReader reader)
        {
            while (await reader.ReadLineAsync() is { } line)
            {
                lock (gate)
                {
                    log.WriteLine(line);
                    if (
                        line.StartsWith("// lnbench", StringComparison.Ordinal)
                        || line.StartsWith("lnbench:", StringComparison.Ordinal)
                    )
                    {
                        Console.WriteLine($"[share {share.Number} on {share.Host}] {line}");
                    }
                }
            }
        }
        await Task.WhenAll(Pump(process.StandardOutput), Pump(process.StandardError));
    }

    /// <summary>Every pair of every share judged together, written and printed; non-zero when a share failed or none left a summary.</summary>
    private static int Merge(
        HarnessOptions options,
        string runId,
        int seed,
        string folder,
        DateTimeOffset started,
        IReadOnlyList<Share> shares,
        bool interrupted
    )
    {
        var ended = DateTimeOffset.UtcNow;
        var cases = new List<CaseSummary>();
        var topologyRows = new List<string>();
        foreach (var share in shares)
        {
            var summaryFile = Directory.Exists(share.Folder)
                ? Directory.GetFiles(share.Folder, RunSummary.FileName, SearchOption.AllDirectories).FirstOrDefault()
                : null;
            if (summaryFile is null)
            {
                share.Problem = "no summary.json (see its harness.log)";
                continue;
            }
            var summary = RunSummary.Read(File.ReadAllText(summaryFile));
            share.RunFolder = Path.GetRelativePath(folder, Path.GetDirectoryName(summaryFile)!);
            // A pair: one topology index of one cell (its arms), as SwarmRecord counts them.
            share.Pairs = summary
                .Cases.Where(c => c.IterationsMs.Count > 0)
                .Select(c => (c.Id.Cell.Label, c.Id.Topology))
                .Distinct()
                .Count();
            cases.AddRange(summary.Cases);
            var topologies = Path.Combine(Path.GetDirectoryName(summaryFile)!, ComparisonReport.TopologiesCsv);
            if (File.Exists(topologies))
            {
                var lines = File.ReadAllLines(topologies);
                topologyRows.AddRange(topologyRows.Count == 0 ? lines : lines.Skip(1));
            }
        }
        var builds = options.Builds.Select(b => b.Name).ToList();
        var comparisons = ArmComparer.Of(
            cases,
            builds,
            options.Traces,
            options.ThresholdPercent,
            seed,
            options.InstructionsThresholdPercent
        );
        var markdown = ComparisonReport.Markdown(comparisons);
        AtomicFile.WriteAllText(Path.Combine(folder, ComparisonReport.MarkdownFile), markdown);
        AtomicFile.WriteAllLines(
            Path.Combine(folder, ComparisonReport.ComparisonsCsv),
            ComparisonReport.ComparisonRows(comparisons)
        );
        AtomicFile.WriteAllLines(Path.Combine(folder, ComparisonReport.TopologiesCsv), topologyRows);
        var minutes = (ended - started).TotalMinutes;
        var pairs = shares.Sum(s => s.Pairs);
        var record = new SideBySideRecord(
            runId,
            options.Scenario,
            seed,
            started,
            ended,
            shares.Select(s => s.Host).Distinct().Count(),
            pairs,
            Math.Round(minutes, 2),
            minutes > 0 ? Math.Round(pairs / minutes, 2) : 0,
            interrupted,
            shares
                .Select(s => new SideBySideShare(
                    s.Number,
                    s.Host,
                    s.Range.First,
                    s.Range.Last,
                    s.ExitCode,
                    s.Pairs,
                    s.RunFolder,
                    s.Problem,
                    Math.Round((s.Ended - started).TotalMinutes, 2)
                ))
                .ToList()
        );
        AtomicFile.WriteAllText(Path.Combine(folder, ManifestFile), JsonSerializer.Serialize(record, RunSummary.Json));
        Console.WriteLine();
        Console.WriteLine(
            $"All {pairs} topology pairs of the {shares.Count} shares, judged together (each pair within its host):"
        );
        Console.WriteLine(markdown);
        RunProgress.Console.Info(
            $"side by side: {shares.Count} shares on {record.Hosts} host(s): {pairs} topology pairs in {minutes:0.0} min, {record.PairsPerMinute:0.00} pairs per minute; results in {folder}"
        );
        if (interrupted)
        {
            return HarnessExit.Fail(130, $"stopped by a signal: the shares' results so far are in {folder}");
        }
        if (shares.FirstOrDefault(s => s.ExitCode != 0 || s.Problem is not null) is { } failed)
        {
            return HarnessExit.Fail(
                HarnessExit.Failure,
                $"share {failed.Number} on {failed.Host} ended with code {failed.ExitCode}{(failed.Problem is null ? "" : $", {failed.Problem}")}: see {Path.Combine(failed.Folder, "harness.log")}"
            );
        }
        return 0;
    }

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);

    private sealed class Share(int number, string host, (int First, int Last) range, string folder)
    {
        public int Number { get; } = number;

        public string Host { get; } = host;

        public (int First, int Last) Range { get; } = range;

        public string Folder { get; } = folder;

        public int ExitCode { get; set; } = -1;

        public DateTimeOffset Ended { get; set; }

        public int Pairs { get; set; }

        public string? RunFolder { get; set; }

        public string? Problem { get; set; }
    }

    /// <summary>
    /// Ctrl+C, SIGTERM, SIGHUP or SIGQUIT: each share is told to stop (SIGTERM, which a share takes as Ctrl+C: its
    /// results so far are kept, its topologies removed); the run waits for them. A second signal ends this process at
    /// once; its shares, whose standard input then ends, stop on their own.
    /// </summary>
    private sealed class ShareSignals : IDisposable
    {
        private readonly IReadOnlyList<PosixSignalRegistration> registrations;

        public ShareSignals(Func<IEnumerable<Process>> processes)
        {
            void Stop(PosixSignalContext context)
            {
                if (Interrupted)
                {
                    // Not cancelled: the signal ends the process.
                    return;
                }
                context.Cancel = true;
                Interrupted = true;
                foreach (var process in processes())
                {
                    try
                    {
                        if (!process.HasExited)
                        {
                            _ = Processes.ProcessSignal.Send(process.Id, Processes.ProcessSignal.Terminate);
                        }
                    }
                    catch (InvalidOperationException) { }
                }
            }
            registrations = Processes
                .StopSignals.Stopping.Select(s => PosixSignalRegistration.Create(s, Stop))
                .ToList();
        }

        public bool Interrupted { get; private set; }

        public void Dispose()
        {
            foreach (var registration in registrations)
            {
                registration.Dispose();
            }
        }
    }
}
