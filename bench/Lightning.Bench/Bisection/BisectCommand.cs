using System.Globalization;
using System.Runtime.CompilerServices;
using Lightning.Bench.Docker;
using Lightning.Bench.Options;
using Lightning.Bench.Processes;
using Lightning.Bench.Progress;
using Lightning.Bench.Results;
using Lightning.Bench.Sources;

namespace Lightning.Bench.Bisection;

/// <summary>
/// ./run.sh bisect GOOD BAD SCENARIO … --metric NAME: which commit of --source made a metric step. The range is BAD's
/// first-parent line after GOOD; every step is a run of the harness itself (in this process, with the same node kinds)
/// comparing GOOD's commit with one commit as two builds from source, in its own folder (steps/INDEX-COMMIT12/), read
/// back from its verdicts.json; <see cref="BisectSearch"/> decides which commit comes next. A commit that does not build
/// or whose workload cannot run is skipped; a verdict that stays unknown is said as such. bisect.json is rewritten after
/// every step, so bisect --resume DIR goes on without building or measuring a step again.
/// </summary>
internal static class BisectCommand
{
    /// <summary>A finished step's record in its folder: a step without one is measured again.</summary>
    public const string StepFile = "step.json";

    /// <param name="runStep">The harness on one step's command line (Program.Run with this process's node kinds); returns its exit code.</param>
    public static int Run(HarnessOptions options, Func<string[], int> runStep, RunProgress? progress = null)
    {
        using var stop = new StopSignals();
        // The bisection's folder once known, for the line that says how to go on.
        var folder = new StrongBox<string?>();
        try
        {
            return RunAsync(options, runStep, progress ?? RunProgress.Console, folder, stop.Token)
                .GetAwaiter()
                .GetResult();
        }
        catch (UsageException e)
        {
            return HarnessExit.Fail(HarnessExit.Usage, e.Message);
        }
        catch (Exception e)
            when (e
                    is SourceUnavailableException
                        or DockerUnavailableException
                        or DockerApiException
                        or IOException
                        or UnauthorizedAccessException
                        or InvalidDataException
            )
        {
            return HarnessExit.Fail(HarnessExit.Failure, e.Message + Resume(folder.Value));
        }
        catch (OperationCanceledException) when (stop.Token.IsCancellationRequested)
        {
            return HarnessExit.Fail(HarnessExit.Interrupted, "the bisection was stopped" + Resume(folder.Value));
        }
        catch (StepInterruptedException)
        {
            return HarnessExit.Fail(HarnessExit.Interrupted, "a step was stopped" + Resume(folder.Value));
        }
    }

    private static string Resume(string? folder) =>
        folder is null ? "" : $"; ./run.sh bisect --resume {folder} goes on from the steps done";

    private static async Task<int> RunAsync(
        HarnessOptions options,
        Func<string[], int> runStep,
        RunProgress progress,
        StrongBox<string?> folderOut,
        CancellationToken ct
    )
    {
        BisectRecord record;
        string folder;
        if (options.BisectResume is { } resume)
        {
            folder = Path.GetFullPath(resume);
            var file = Path.Combine(folder, BisectRecord.FileName);
            if (!File.Exists(file))
            {
                throw new UsageException(
                    $"--resume {resume}: no {BisectRecord.FileName} there; give the folder a bisection made (results/bisect-…)"
                );
            }
            record = BisectRecord.Read(file);
            options = OptionParser.Parse(record.Arguments);
            progress.Info($"bisect: going on in {folder}, {record.Steps.Count} step(s) done");
        }
        else
        {
            (record, folder) = await StartAsync(options, ct);
        }
        folderOut.Value = folder;
        // A step stopped by a signal ends this process from its run's shutdown: the way on is said there.
        HarnessExit.InterruptedNote = "the bisection was stopped during a step" + Resume(folder);
        // The checkout as the bisection found it (a full path): a resumed one may run from another folder.
        var checkout = await GitCheckout.OpenAsync(record.Source, ct);
        var commits = record.Commits;
        var search = new BisectSearch(commits.Select(c => c.Hash).ToList(), record.MergeBase is not null);
        foreach (var done in record.Steps)
        {
            search.Record(done.Index, done.Measurement);
        }
        if (record.MergeBase is not null)
        {
            progress.Info(
                $"bisect: GOOD {commits[0].Short} is not an ancestor of BAD {commits[^1].Short}; the range starts at their merge base {commits[1].Short} \"{commits[1].Subject}\", measured against GOOD right after BAD (as git bisect tests a merge base first)"
            );
        }
        progress.Info(
            $"bisect {options.BisectMetric}: {commits.Count - 1} commit(s) after GOOD {commits[0].Short} up to BAD {commits[^1].Short} on BAD's first-parent line; "
                + $"about {StepsLeft(commits.Count - 1) + (search.Direction is null ? 1 : 0)} step(s), each a run of GOOD against one commit; "
                + $"the bisection's folder: {folder} (./run.sh bisect --resume {folder} goes on if it stops)"
        );
        using var engine = new DockerEngine(DockerEndpoint.Resolve());
        var images = new SourceImages(
            checkout,
            options.ImageCommand,
            engine,
            Path.Combine(folder, SourceBuilds.LogFolder),
            progress
        );
        var (good, goodFailed) = await images.EnsureAsync(ToCommit(commits[0]), record.Good, ct);
        if (good is null)
        {
            throw new UsageException(
                $"GOOD ({commits[0].Short} \"{commits[0].Subject}\") must build, as every step's baseline: {goodFailed!.Describe(images.Command.From)}"
            );
        }
        var arguments = WithOptions(
            StepArguments(options.CommandLine),
            [
                "--source",
                record.Source,
                // A step's rounds wait for the bisected metric's verdict, not only mean time's and operations/s'.
                .. options.MaxTime is not null && options.DecideOn.Count == 0
                    ? ["--decide-on", record.Metric]
                    : Array.Empty<string>(),
            ]
        );
        await search.RunAsync(
            (index, t) => MeasureAsync(index, search, record, folder, arguments, images, runStep, progress, t),
            step =>
            {
                record = record with { Steps = search.Steps, Direction = search.Direction };
                record.Write(folder);
                progress.Info(StepLine(step, search, commits));
            },
            ct
        );
        record = await ConcludeAsync(record, search, checkout, ct);
        record.Write(folder);
        BisectReport.Write(folder, record);
        foreach (var line in BisectReport.Summary(record))
        {
            progress.Info(line);
        }
        progress.Info($"the bisection's page: {Path.Combine(folder, BisectReport.PageFile)}");
        return 0;
    }

    /// <summary>A new bisection: GOOD and BAD resolved and checked, the range listed, its folder made.</summary>
    private static async Task<(BisectRecord Record, string Folder)> StartAsync(
        HarnessOptions options,
        CancellationToken ct
    )
    {
        var refs = options.Bisect!;
        var checkout = await GitCheckout.OpenAsync(options.SourceDirectory!, ct);
        async Task<CommitInfo> ResolveAsync(string name, string reference) =>
            await checkout.CommitAsync(
                await checkout.ResolveAsync(reference, ct)
                    ?? throw new UsageException(
                        $"bisect {name} '{reference}' names no commit in {checkout.Path}: give a tag, branch or commit of that checkout"
                    ),
                ct
            );
        var good = await ResolveAsync("GOOD", refs.Good);
        var bad = await ResolveAsync("BAD", refs.Bad);
        if (good.Hash == bad.Hash)
        {
            throw new UsageException(
                $"bisect GOOD and BAD are the same commit ({good.Short}): give BAD a later commit"
            );
        }
        CommitInfo? mergeBase = null;
        if (!await checkout.IsAncestorAsync(good.Hash, bad.Hash, ct))
        {
            if (await checkout.IsAncestorAsync(bad.Hash, good.Hash, ct))
            {
                throw new UsageException(
                    $"bisect BAD {bad.Short} is older than GOOD {good.Short} (an ancestor of it): give GOOD first, the older commit, then BAD"
                );
            }
            mergeBase = await checkout.MergeBaseAsync(good.Hash, bad.Hash, ct) is { } hash
                ? await checkout.CommitAsync(hash, ct)
                : throw new UsageException(
                    $"bisect GOOD {good.Short} and BAD {bad.Short} share no history in {checkout.Path}: give two commits of one project"
                );
        }
        var from = mergeBase ?? good;
        var range = await checkout.FirstParentRangeAsync(from.Hash, bad.Hash, ct);
        if (range.Count == 0 || range[^1].Hash != bad.Hash)
        {
            throw new SourceUnavailableException(
                $"git log --ancestry-path --first-parent {from.Short}..{bad.Short} did not end at BAD in {checkout.Path}"
            );
        }
        var started = DateTimeOffset.Now;
        var folder = Path.GetFullPath(
            Path.Combine(options.ResultsRoot, $"bisect-{started:yyyyMMdd-HHmmss}-{good.Short[..8]}-{bad.Short[..8]}")
        );
        Directory.CreateDirectory(folder);
        var record = new BisectRecord
        {
            Arguments = options.CommandLine,
            Source = checkout.Path,
            Good = refs.Good,
            Bad = refs.Bad,
            Metric = options.BisectMetric!,
            Case = options.BisectCase,
            Commits =
            [
                BisectCommit.Of(good),
                .. mergeBase is null ? [] : new[] { BisectCommit.Of(mergeBase) },
                .. range.Select(BisectCommit.Of),
            ],
            MergeBase = mergeBase?.Hash,
            Started = started,
        };
        record.Write(folder);
        return (record, folder);
    }

    /// <summary>One step: the commit's image (made unless there; a build that fails is a skip), then GOOD against it, read from the step's verdicts.json.</summary>
    private static async Task<StepMeasurement> MeasureAsync(
        int index,
        BisectSearch search,
        BisectRecord record,
        string folder,
        IReadOnlyList<string> arguments,
        SourceImages images,
        Func<string[], int> runStep,
        RunProgress progress,
        CancellationToken ct
    )
    {
        var commit = record.Commits[index];
        var width = (record.Commits.Count - 1).ToString(CultureInfo.InvariantCulture).Length;
        var relative = Path.Combine(
            "steps",
            $"{index.ToString(CultureInfo.InvariantCulture).PadLeft(width, '0')}-{commit.Short}"
        );
        var stepFolder = Path.Combine(folder, relative);
        var done = Path.Combine(stepFolder, StepFile);
        if (File.Exists(done))
        {
            progress.Info(
                $"step {search.Steps.Count + 1}: {commit.Short} was measured before (its {StepFile}): not again"
            );
            return System.Text.Json.JsonSerializer.Deserialize<StepMeasurement>(
                File.ReadAllText(done),
                BisectRecord.Json
            )!;
        }
        if (Directory.Exists(stepFolder))
        {
            // A step stopped half way is measured again from the start.
            Directory.Delete(stepFolder, recursive: true);
        }
        var isBad = index == record.Commits.Count - 1;
        progress.Info(
            $"step {search.Steps.Count + 1}: {(isBad ? "BAD " : "")}{commit.Short} \"{commit.Subject}\" ({commit.AuthorDate:yyyy-MM-dd}), commit {index} of {record.Commits.Count - 1} after GOOD"
        );
        var (image, failed) = await images.EnsureAsync(ToCommit(commit), commit.Hash, ct);
        StepMeasurement measurement;
        if (image is null)
        {
            if (failed!.Result == BuildResult.NoImage)
            {
                throw new UsageException($"{commit.Short}: {failed.Describe(images.Command.From)}");
            }
            measurement = StepMeasurement.Skip($"does not build: {failed.Describe(images.Command.From)}", relative);
        }
        else
        {
            Directory.CreateDirectory(stepFolder);
            var step = WithOptions(
                    arguments,
                    [
                        "--build",
                        $"{BisectRefs.GoodBuild}=git:{record.Commits[0].Hash}",
                        "--build",
                        $"{BisectRefs.CandidateBuild}=git:{commit.Hash}",
                        "--results",
                        stepFolder,
                        "--no-zip",
                    ]
                )
                .ToArray();
            progress.Info($"step {search.Steps.Count + 1}: ./run.sh {string.Join(' ', step.Select(Quote))}");
            var exitCode = runStep(step);
            measurement = Read(exitCode, stepFolder, relative, record, isBad);
        }
        Directory.CreateDirectory(stepFolder);
        await File.WriteAllTextAsync(
            done,
            System.Text.Json.JsonSerializer.Serialize(measurement, BisectRecord.Json),
            ct
        );
        return measurement;
    }

    /// <summary>The metric's verdict in the step's verdicts.json, or why the step has none.</summary>
    internal static StepMeasurement Read(
        int exitCode,
        string stepFolder,
        string relative,
        BisectRecord record,
        bool isBad
    )
    {
        if (exitCode == HarnessExit.Interrupted)
        {
            throw new StepInterruptedException();
        }
        var file = Directory.Exists(stepFolder)
            ? Directory.GetFiles(stepFolder, VerdictsFile.FileName, SearchOption.AllDirectories).FirstOrDefault()
            : null;
        if (exitCode != 0 || file is null)
        {
            var log = Directory.Exists(stepFolder)
                ? Directory.GetFiles(stepFolder, "console.log", SearchOption.AllDirectories).FirstOrDefault()
                : null;
            var where = log is null
                ? "its line above"
                : Path.GetRelativePath(Path.GetDirectoryName(Path.GetDirectoryName(stepFolder)!)!, log);
            return StepMeasurement.Skip(
                exitCode switch
                {
                    HarnessExit.Usage => $"the step refused this commit's build as bad input (exit 2; see {where})",
                    HarnessExit.Failure =>
                        $"the workload could not run on this commit (exit 1: a case failed; see {where})",
                    _ => $"the step ended with exit {exitCode} (see {where})",
                },
                relative
            );
        }
        var verdicts = VerdictsFile.Read(File.ReadAllText(file));
        var rows = verdicts
            .Verdicts.Where(v =>
                v.Kind == "build"
                && v.Candidate == BisectRefs.CandidateBuild
                && v.Metric == record.Metric
                && (record.Case is null || v.Case == record.Case)
            )
            .ToList();
        if (rows.Count == 0)
        {
            var metrics = verdicts.Verdicts.Where(v => v.Kind == "build").Select(v => v.Metric).Distinct().ToList();
            var cases = verdicts.Verdicts.Select(v => v.Case).Distinct().ToList();
            var message =
                $"--metric {record.Metric}{(record.Case is null ? "" : $" --case {record.Case}")}: the step has no such verdict (its metrics: {string.Join(", ", metrics)}; its cases: {string.Join("; ", cases)})";
            return isBad ? throw new UsageException(message) : StepMeasurement.Skip(message, relative);
        }
        if (rows.Count > 1)
        {
            throw new UsageException(
                $"--metric {record.Metric} has a verdict in {rows.Count} cases of a step ({string.Join("; ", rows.Select(r => r.Case))}): give --case with one of them"
            );
        }
        var row = rows[0];
        return new StepMeasurement(
            row.Verdict,
            row.Ratio,
            row.Interval?.Low,
            row.Interval?.High,
            row.DetectsPercent,
            null,
            relative,
            row.ThresholdPercent
        );
    }

    /// <summary>The bisection's command line without "bisect GOOD BAD" and its own options: what every step runs, with its two builds added.</summary>
    internal static IReadOnlyList<string> StepArguments(IReadOnlyList<string> commandLine)
    {
        var rest = commandLine.Skip(3).ToList();
        var arguments = new List<string>();
        for (var i = 0; i < rest.Count; i++)
        {
            if (rest[i] == "--")
            {
                arguments.AddRange(rest.Skip(i));
                break;
            }
            var name = rest[i].Split('=', 2)[0];
            // --source too: every step is given the checkout's full path (a resumed bisection may run elsewhere).
            if (BisectRefs.OwnOptions.Contains(name) || name == "--source")
            {
                i += rest[i].Contains('=') ? 0 : 1;
                continue;
            }
            arguments.Add(rest[i]);
        }
        return arguments;
    }

    /// <summary>The command line with <paramref name="options"/> after its own (so they win) and before any `--` (BenchmarkDotNet's part).</summary>
    internal static IReadOnlyList<string> WithOptions(IReadOnlyList<string> commandLine, IReadOnlyList<string> options)
    {
        var dashes = commandLine.ToList().IndexOf("--");
        return dashes < 0
            ? [.. commandLine, .. options]
            : [.. commandLine.Take(dashes), .. options, .. commandLine.Skip(dashes)];
    }

    private static async Task<BisectRecord> ConcludeAsync(
        BisectRecord record,
        BisectSearch search,
        GitCheckout checkout,
        CancellationToken ct
    )
    {
        var end = search.End!;
        record = record with { Steps = search.Steps, Direction = search.Direction };
        if (end is { MergeBaseMoved: true, NoStep: { } onGoods })
        {
            return record with { Status = BisectRecord.OnGoodsLine, Conclusion = onGoods };
        }
        if (end.NoStep is { } why)
        {
            return record with { Status = BisectRecord.NoStep, Conclusion = why };
        }
        var commits = record.Commits;
        if (end.Culprit is { } index)
        {
            var commit = await checkout.CommitAsync(commits[index].Hash, ct);
            var culprit = new BisectCulprit(
                commits[index],
                await checkout.FilesAsync(commit, ct),
                (await checkout.MergedAsync(commit, ct)).Select(BisectCommit.Of).ToList()
            );
            return record with
            {
                Status = BisectRecord.Found,
                Culprit = culprit,
                CandidateCommits = [commits[index].Hash],
                Conclusion =
                    $"{commits[index].Short} \"{commits[index].Subject}\" is the first commit whose {record.Metric} is {search.Direction} than GOOD's"
                    + (
                        commit.IsMerge
                            ? $" (a merge of {culprit.Merged.Count} commit(s): the step is in one of them or in the merge)"
                            : ""
                    ),
            };
        }
        var passed = end
            .Candidates.Take(end.Candidates.Count - 1)
            .Select(i =>
                $"{commits[i].Short} ({search.Steps.First(s => s.Index == i).Outcome.ToString().ToLowerInvariant()})"
            );
        return record with
        {
            Status = BisectRecord.Candidates,
            CandidateCommits = end.Candidates.Select(i => commits[i].Hash).ToList(),
            Conclusion =
                $"the first commit whose {record.Metric} is {search.Direction} than GOOD's is one of {end.Candidates.Count}: {commits[end.Candidates[^1]].Short} "
                + $"(bad) or a commit before it that could not be judged: {string.Join(", ", passed)}",
        };
    }

    private static string StepLine(BisectStep step, BisectSearch search, IReadOnlyList<BisectCommit> commits)
    {
        var m = step.Measurement;
        var what = m.Skipped is { } why
            ? $"skipped: {why}"
            : $"{m.Verdict} {F(m.Ratio)}{(m.Low is { } low && m.High is { } high ? $" ({F(low)}–{F(high)})" : "")}{(m.DetectsPercent is { } d ? $", detects ≥ {d:0.#} %" : "")}";
        var open = search.Open.Count;
        var next =
            search.End is not null || search.Direction is null ? ""
            : open == 0 ? "; nothing open"
            : $"; {open} commit(s) open between {commits[search.GoodIndex].Short} (good) and {commits[search.BadIndex].Short} (bad), about {StepsLeft(open + 1)} step(s) more";
        return $"step {step.Number}: {commits[step.Index].Short}: {what}: {step.Outcome.ToString().ToLowerInvariant()}{next}";
    }

    /// <summary>The steps a search over <paramref name="commits"/> commits takes when none is skipped: log2, rounded up.</summary>
    private static int StepsLeft(int commits) => commits <= 1 ? 0 : (int)Math.Ceiling(Math.Log2(commits));

    private static CommitInfo ToCommit(BisectCommit commit) =>
        new(commit.Hash, [], commit.Subject, commit.Author, commit.AuthorDate);

    private static string F(double? value) => value is { } v ? v.ToString("0.000", CultureInfo.InvariantCulture) : "-";

    private static string Quote(string argument) =>
        argument.Length > 0 && argument.All(c => char.IsLetterOrDigit(c) || "-_=.,:/@+".Contains(c))
            ? argument
            : ImageCommand.Quote(argument);

    /// <summary>A step's run was stopped by Ctrl+C or SIGTERM (it exited 130).</summary>
    private sealed class StepInterruptedException : Exception;
}
