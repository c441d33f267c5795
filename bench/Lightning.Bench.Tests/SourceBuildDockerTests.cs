using System.Text.Json;
using Lightning.Bench.Bisection;
using Lightning.Bench.Compose;
using Lightning.Bench.Csv;
using Lightning.Bench.Docker;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Progress;
using Lightning.Bench.Reports;
using Lightning.Bench.Results;
using Lightning.Bench.Sources;
using Lightning.Bench.Tests.Support.StandIn;

namespace Lightning.Bench.Tests;

/// <summary>
/// Builds from source refs, the gate and a bisection on the real engine: a throwaway repository whose tree is a
/// stand-in node's image and whose commits change what the node does (one makes every payment a second slower, one
/// does not build), made into images by a tiny image command the test writes (a tar of the tree, imported).
/// </summary>
[Trait("Category", "Docker")]
[Collection(DockerCollection.Name)]
public sealed class SourceBuildDockerTests : IDisposable
{
    private readonly ThrowawayRepository repository = new();
    private readonly string work = Directory.CreateTempSubdirectory("lnb-").FullName;
    private readonly string results = Directory.CreateTempSubdirectory("lnbench-results-").FullName;
    private readonly string fragments = Directory.CreateTempSubdirectory("lnbench-fragments-").FullName;

    /// <summary>GOOD (0) to BAD (7): 3 does not build, 4 builds again, 5 makes payments slower.</summary>
    private readonly List<string> commits = [];

    private const int Culprit = 5;

    private string CheckoutName => GitCheckout.NameOf(repository.Path);

    private async Task ReadyAsync()
    {
        Requirements.Docker();
        await FakeNodeImage.EnsureBuiltAsync();
        // Every shipped kind's fragment too: a build whose kind is recognised from its image may be any kind.
        foreach (var fragment in Directory.GetFiles(ComposeFragments.DefaultDirectory, "*.yml"))
        {
            File.Copy(fragment, Path.Combine(fragments, Path.GetFileName(fragment)));
        }
        File.Copy(StandInKind.FragmentSource, Path.Combine(fragments, StandInKind.Fragment));
        commits.Add(StandInSource.CommitNode(repository));
        commits.Add(
            repository.Commit(
                "docs: say what the node is",
                new Dictionary<string, string?> { ["README"] = "a stand-in node\n" }
            )
        );
        commits.Add(
            repository.Commit(
                "docs: say how it pays",
                new Dictionary<string, string?> { ["README"] = "a stand-in node that pays\n" }
            )
        );
        commits.Add(
            repository.Commit(
                "build: half of a change",
                new Dictionary<string, string?> { ["BROKEN"] = "the other half is missing\n" }
            )
        );
        commits.Add(repository.Commit("build: the other half", new Dictionary<string, string?> { ["BROKEN"] = null }));
        commits.Add(
            repository.Commit(
                "pay: wait a second before each payment",
                new Dictionary<string, string?> { ["etc/standin/delay"] = "1\n" }
            )
        );
        commits.Add(
            repository.Commit(
                "docs: a typo",
                new Dictionary<string, string?> { ["README"] = "a stand-in node that pays.\n" }
            )
        );
        commits.Add(
            repository.Commit(
                "docs: another",
                new Dictionary<string, string?> { ["README"] = "A stand-in node that pays.\n" }
            )
        );
    }

    /// <summary>
    /// Commit 4 (the base) against <paramref name="candidate"/> (<c>NAME=git:REF</c>) under <c>--fail-on slower</c>, which
    /// must fail the run with exit 3: its folder and its verdicts.json.
    /// </summary>
    private async Task<(string Run, string Json)> GateRunAsync(string candidate, params string[] extra)
    {
        var exit = await RunAsync([
            .. Measure(),
            "--build",
            $"base=git:{commits[4][..12]}",
            "--build",
            candidate,
            "--fail-on",
            "slower",
            .. extra,
        ]);
        Assert.True(exit == HarnessExit.Gate, $"exit {exit}: {Errors}");
        var run = Assert.Single(Directory.GetDirectories(results, "*-AlicePaysBob"));
        return (run, File.ReadAllText(Path.Combine(run, VerdictsFile.FileName)));
    }

    /// <summary>A branch off commit 4 (the gate's base) with one commit that writes <paramref name="file"/>; main stays checked out.</summary>
    private void BranchOffBase(string branch, string message, string file, string content)
    {
        repository.Git("checkout", "-q", "-b", branch, commits[4]);
        repository.Commit(message, new Dictionary<string, string?> { [file] = content });
        repository.Git("checkout", "-q", "main");
    }

    /// <summary>
    /// What every run here measures: one payment at a time, times only, topology pairs added until the verdicts are
    /// decided (a second more per payment is `slower` at once; two builds that pay alike come out `same` against a 90 %
    /// threshold within a round or two, however busy the machine), within a budget far beyond that.
    /// </summary>
    private string[] Measure() =>
        [
            "AlicePaysBob",
            "--source",
            repository.Path,
            "--image-command",
            StandInSource.ImageCommand,
            "--bitcoind-image",
            FakeNodeImage.StandIn,
            "--no-pull",
            "--concurrency",
            "1",
            "--warmups",
            "1",
            "--iterations",
            "4",
            "--max-time",
            "5m",
            "--traces",
            "off",
            "--threshold",
            "90",
            "--results",
            results,
            "--work-dir",
            work,
            "--setup-timeout",
            "60",
            "--no-zip",
        ];

    /// <summary>
    /// The harness in this process with the stand-in kind (which its steps and runs need), on the thread pool; its
    /// error lines are kept for the assertions' messages (the tests of this collection run one at a time).
    /// </summary>
    private async Task<int> RunAsync(params string[] args)
    {
        var errors = new StringWriter();
        var before = Console.Error;
        Console.SetError(TextWriter.Synchronized(errors));
        try
        {
            return await Task.Run(() => Program.Run(args, NodeKindCatalog.Default.With(new StandInKind()), fragments));
        }
        finally
        {
            Console.SetError(before);
            Errors = errors.ToString();
        }
    }

    /// <summary>What the last in-process run said on standard error.</summary>
    private string Errors { get; set; } = "";

    [SkippableFact]
    public async Task A_bisection_finds_the_commit_that_made_payments_slower_past_one_that_does_not_build_and_resumes_without_measuring_again()
    {
        await ReadyAsync();

        var exit = await RunAsync(["bisect", commits[0][..10], "main", .. Measure(), "--metric", "mean time"]);

        Assert.True(exit == 0, $"exit {exit}: {Errors}");
        var folder = Assert.Single(Directory.GetDirectories(results, "bisect-*"));
        var record = BisectRecord.Read(Path.Combine(folder, BisectRecord.FileName));
        Assert.Equal(BisectRecord.Found, record.Status);
        Assert.Equal("slower", record.Direction);
        Assert.Equal(commits, record.Commits.Select(c => c.Hash));
        var culprit = record.Culprit!;
        Assert.Equal(
            (commits[Culprit], "pay: wait a second before each payment", "A Developer"),
            (culprit.Commit.Hash, culprit.Commit.Subject, culprit.Commit.Author)
        );
        Assert.Equal(
            [("etc/standin/delay", (int?)1, (int?)1)],
            culprit.Files.Select(f => (f.Path, f.Added, f.Deleted))
        );
        // BAD first, then 3 (the middle: it does not build, so skipped), 4 (as near: good), 5 (bad).
        Assert.Equal([7, 3, 4, 5], record.Steps.Select(s => s.Index));
        Assert.Equal(
            [StepOutcome.Bad, StepOutcome.Skip, StepOutcome.Good, StepOutcome.Bad],
            record.Steps.Select(s => s.Outcome)
        );
        Assert.Contains("this commit does not build: the other half is missing", record.Steps[1].Measurement.Skipped);
        Assert.All(
            new[] { record.Steps[0], record.Steps[3] },
            s => Assert.True(s.Measurement.Low > 1.9, $"{s.Measurement.Low}")
        );
        Assert.Equal("same", record.Steps[2].Measurement.Verdict);

        // The page, the chain and the plot; each step's run in its folder with its verdicts and its builds' logs.
        var markdown = File.ReadAllText(Path.Combine(folder, BisectReport.MarkdownFile));
        Assert.Contains($"`{commits[Culprit]}` \"pay: wait a second before each payment\"", markdown);
        Assert.Contains("| `etc/standin/delay` | 1 | 1 |", markdown);
        var page = File.ReadAllText(Path.Combine(folder, BisectReport.PageFile));
        Assert.Contains("<svg", page);
        Assert.Equal(
            4,
            System
                .Text.RegularExpressions.Regex.Matches(
                    File.ReadAllText(Path.Combine(folder, BisectReport.PlotFile)),
                    "class=\"step "
                )
                .Count
        );
        var culpritStep = Path.Combine(folder, record.Steps[3].Measurement.Folder!);
        var run = Assert.Single(Directory.GetDirectories(culpritStep));
        var verdicts = VerdictsFile.Read(File.ReadAllText(Path.Combine(run, VerdictsFile.FileName)));
        Assert.Equal(commits[Culprit], verdicts.Builds.Single(b => b.Name == "candidate").Commit);
        Assert.True(File.Exists(Path.Combine(run, BuildLogs.Folder, $"{commits[Culprit][..12]}.log")));
        Assert.True(
            File.Exists(Path.Combine(folder, SourceBuilds.LogFolder, $"{CheckoutName}-{commits[3][..12]}.log"))
        );
        // The commit that did not build left nothing but its log: no image, no worktree.
        using (var engine = new DockerEngine())
        {
            Assert.Null(await engine.InspectImageAsync(BuiltImageName.For(CheckoutName, commits[3])));
            Assert.NotNull(await engine.InspectImageAsync(BuiltImageName.For(CheckoutName, commits[Culprit])));
        }
        Assert.Single((await GitCheckout.OpenAsync(repository.Path)).WorktreesAsync().Result);

        // Stopped after its third step: it goes on from bisect.json, and the fourth step, whose step.json is there, is neither built nor measured again.
        (
            record with
            {
                Steps = record.Steps.Take(3).ToList(),
                Status = BisectRecord.Measuring,
                Culprit = null,
                Conclusion = null,
            }
        ).Write(folder);
        var untouched = Path.Combine(culpritStep, "untouched");
        File.WriteAllText(untouched, "a step measured again would be made afresh");
        var log = Path.Combine(folder, SourceBuilds.LogFolder, $"{CheckoutName}-{commits[Culprit][..12]}.log");
        var logged = File.GetLastWriteTimeUtc(log);

        Assert.Equal(0, await RunAsync("bisect", "--resume", folder));
        Assert.True(File.Exists(untouched));
        Assert.Equal(logged, File.GetLastWriteTimeUtc(log));
        var resumed = BisectRecord.Read(Path.Combine(folder, BisectRecord.FileName));
        Assert.Equal((BisectRecord.Found, commits[Culprit]), (resumed.Status, resumed.Culprit!.Commit.Hash));
        Assert.Equal(record.Steps.Select(s => (s.Index, s.Outcome)), resumed.Steps.Select(s => (s.Index, s.Outcome)));

        // A second run with refs whose images are made builds nothing, and says so in one line before anything else.
        var again = await HarnessProcess.RunAsync(
            [
                "AlicePaysBob",
                "--source",
                repository.Path,
                "--build",
                $"good=git:{commits[0]}",
                "--build",
                "slow=git:main~2",
                "--image-command",
                "exit 1",
                "--results",
                results,
                "--no-pull",
            ],
            TimeSpan.FromMinutes(5)
        );
        var lines = again.StandardOutput.Split('\n');
        Assert.Contains(
            lines,
            l =>
                l.Contains(
                    $"built nothing: git:{commits[0]} is {BuiltImageName.For(CheckoutName, commits[0])}, git:main~2 is {BuiltImageName.For(CheckoutName, commits[Culprit])}, made earlier",
                    StringComparison.Ordinal
                )
        );
        Assert.DoesNotContain(lines, l => l.Contains("building ", StringComparison.Ordinal));

        // The cache, listed with each image's commit and subject, and pruned: this checkout's images and their records go.
        var listed = await HarnessProcess.RunAsync(
            ["--built-images", "--source", repository.Path],
            TimeSpan.FromMinutes(2)
        );
        Assert.True(listed.Succeeded, listed.Tail());
        Assert.Contains($"4 image(s) made from source refs from {repository.Path}", listed.StandardOutput);
        Assert.Contains($"{BuiltImageName.For(CheckoutName, commits[Culprit])}  ", listed.StandardOutput);
        Assert.Contains($"{commits[Culprit]} \"pay: wait a second before each payment\"", listed.StandardOutput);
        var pruned = await HarnessProcess.RunAsync(
            ["--prune-built", "--source", repository.Path],
            TimeSpan.FromMinutes(2)
        );
        Assert.True(pruned.Succeeded, pruned.Tail());
        Assert.Contains($"built images from {repository.Path}: removed 4", pruned.StandardOutput);
        using var after = new DockerEngine();
        Assert.Empty(await new BuiltImageCache(after).ListAsync(CheckoutName));
        Assert.Null(new BuiltImageCache(after).Find(BuiltImageName.For(CheckoutName, commits[0])));
    }

    [SkippableFact]
    public async Task The_gate_fails_a_comparison_whose_commit_fails_every_payment_on_its_payments_per_second()
    {
        await ReadyAsync();
        // A commit off main that breaks paying: the payer refuses every payment, fast.
        BranchOffBase("broken", "pay: refuse every payment", "etc/standin/refuse", "a bug\n");

        var (_, json) = await GateRunAsync("broken=git:broken");

        Assert.Empty(VerdictsSchema.Errors(json));
        var verdicts = VerdictsFile.Read(json);
        // No mean time to compare (none of its payments ended as expected); its payments/s is 0 in every pair.
        Assert.DoesNotContain(verdicts.Verdicts, v => v.Metric == "mean time");
        var rate = Assert.Single(verdicts.Verdicts, v => v.Primary);
        Assert.Equal(("payments/s", "slower", 0.0), (rate.Metric, rate.Verdict, rate.Ratio));
        Assert.True(rate.Pairs >= 2, $"{rate.Pairs} pairs");
        Assert.Equal((1, true), (verdicts.Gate!.Tripped, verdicts.Gate.Failed));
        Assert.Contains("no operation of it ended as expected, in every pair", Errors);
    }

    [SkippableFact]
    public async Task A_payment_no_node_answers_is_given_up_at_the_operation_timeout_counted_failed_once_and_the_gate_trips()
    {
        await ReadyAsync();
        // A commit off main whose payer holds every payment for an hour: no answer, as LND's when its link failed.
        BranchOffBase("held", "pay: hold every payment", "etc/standin/delay", "3600\n");

        var (run, _) = await GateRunAsync("held=git:held", "--operation-timeout", "2");

        // The run went on past every held payment: each one failed with its reason, once, and none of base's did.
        var rows = CsvReader.Read(Path.Combine(run, PaymentCsv.FileName)).Where(r => r["phase"] == "measured").ToList();
        var held = rows.Where(r => r["case"].Contains("Build=held", StringComparison.Ordinal)).ToList();
        Assert.True(held.Count >= 8, $"{held.Count} measured payments of held");
        Assert.All(
            held,
            r =>
                Assert.Equal(
                    ("failed", "no answer in 2 s (--operation-timeout): given up; the node may still hold it"),
                    (r["outcome"], r["error"])
                )
        );
        Assert.Equal(held.Count, held.Select(r => r["payment_id"]).Distinct().Count());
        Assert.All(rows.Except(held), r => Assert.Equal("succeeded", r["outcome"]));
        Assert.Contains("payments/s of held slower 0.000", Errors);
        // A payment long unanswered is said while the run waits on it (at half the limit here).
        Assert.Contains(
            "no answer yet after 1 s; given up at 2 s (--operation-timeout)",
            File.ReadAllText(Path.Combine(run, "console.log"))
        );
    }

    [SkippableFact]
    public async Task A_GOOD_off_BADs_line_is_bisected_from_their_merge_base_measured_right_after_BAD_and_BAD_before_GOOD_is_refused()
    {
        await ReadyAsync();
        // A point release made on a branch from commit 1: GOOD is not an ancestor of BAD, as v25.02.2 is not of v25.05.
        repository.Git("checkout", "-q", "-b", "release", commits[1]);
        var point = repository.Commit(
            "release: a point release",
            new Dictionary<string, string?> { ["NEWS"] = "a point release\n" }
        );
        repository.Git("checkout", "-q", "main");

        var backwards = await RunAsync(["bisect", "main", commits[2], .. Measure(), "--metric", "mean time"]);
        Assert.Equal(2, backwards);
        Assert.Contains($"bisect BAD {commits[2][..12]} is older than GOOD", Errors);
        Assert.Empty(Directory.GetDirectories(results, "bisect-*"));

        var exit = await RunAsync(["bisect", "release", "main", .. Measure(), "--metric", "mean time"]);

        Assert.True(exit == 0, $"exit {exit}: {Errors}");
        var folder = Assert.Single(Directory.GetDirectories(results, "bisect-*"));
        var record = BisectRecord.Read(Path.Combine(folder, BisectRecord.FileName));
        Assert.Equal(commits[1], record.MergeBase);
        Assert.Equal([point, .. commits.Skip(1)], record.Commits.Select(c => c.Hash));
        Assert.Equal((BisectRecord.Found, commits[Culprit]), (record.Status, record.Culprit!.Commit.Hash));
        // BAD, then the merge base (good: the point release pays as it does), then 4 (good) and 5 (bad).
        Assert.Equal([7, 1, 4, 5], record.Steps.Select(s => s.Index));
        Assert.Equal(
            [StepOutcome.Bad, StepOutcome.Good, StepOutcome.Good, StepOutcome.Bad],
            record.Steps.Select(s => s.Outcome)
        );
        Assert.Contains(
            $"from their merge base {commits[1][..12]} on",
            File.ReadAllText(Path.Combine(folder, BisectReport.MarkdownFile))
        );
    }

    [SkippableFact]
    public async Task Ctrl_C_during_a_build_stops_the_command_and_leaves_nothing_but_its_log()
    {
        await ReadyAsync();
        using var harness = HarnessProcess.Start(
            "AlicePaysBob",
            "--source",
            repository.Path,
            "--build",
            $"a=git:{commits[1]}",
            "--build",
            $"b=git:{commits[2]}",
            "--image-command",
            "echo compiling; touch {source}/started; sleep 60; echo never",
            "--results",
            results,
            "--no-pull"
        );
        await harness.WaitForOutputAsync("building ", TimeSpan.FromMinutes(2));
        // The command has started in its tree when its file is there.
        var deadline = DateTime.UtcNow + TimeSpan.FromMinutes(1);
        while (
            !Directory
                .GetDirectories(Path.GetTempPath(), $"lnbench-src-{CheckoutName}-*")
                .Any(d => File.Exists(Path.Combine(d, "started")))
        )
        {
            Assert.True(DateTime.UtcNow < deadline, $"the image command did not start:\n{harness.Output}");
            await Task.Delay(100);
        }

        await harness.SignalAsync("INT");

        Assert.Equal(HarnessExit.Interrupted, await harness.WaitForExitAsync(TimeSpan.FromMinutes(1)));
        Assert.Contains("stopped while making images from source refs", harness.Output);
        Assert.Empty(Directory.GetDirectories(Path.GetTempPath(), $"lnbench-src-{CheckoutName}-*"));
        Assert.Equal([repository.Path], await (await GitCheckout.OpenAsync(repository.Path)).WorktreesAsync());
        using var engine = new DockerEngine();
        Assert.Null(await engine.InspectImageAsync(BuiltImageName.For(CheckoutName, commits[1])));
        var log = File.ReadAllText(
            Path.Combine(results, SourceBuilds.LogFolder, $"{CheckoutName}-{commits[1][..12]}.log")
        );
        // The command's own words (not the harness's lines about it): what it said before it was stopped, nothing after.
        Assert.Equal(
            ["compiling"],
            log.Split('\n', StringSplitOptions.RemoveEmptyEntries)
                .Where(l => !l.StartsWith("# lnbench:", StringComparison.Ordinal))
        );
        Assert.Contains("# lnbench: stopped (Ctrl+C or SIGTERM)", log);
        // No sleep of the command outlives it.
        var left = await Lightning.Bench.Processes.ProcessRunner.RunAsync(
            "pgrep",
            ["-f", "sleep 60; echo never"],
            TimeSpan.FromSeconds(10)
        );
        Assert.Equal("", left.StandardOutput.Trim());
    }

    [SkippableFact]
    public async Task The_gate_fails_a_comparison_whose_commit_is_slower_with_exit_3_and_its_verdicts_json_meets_its_schema()
    {
        await ReadyAsync();

        var (run, json) = await GateRunAsync("slow=git:HEAD~2");

        Assert.Empty(VerdictsSchema.Errors(json));
        var verdicts = VerdictsFile.Read(json);
        Assert.True(verdicts.Complete);
        // Both primary verdicts tripped it: mean time and payments/s.
        Assert.Equal((2, true), (verdicts.Gate!.Tripped, verdicts.Gate.Failed));
        Assert.Equal(["slower"], verdicts.Gate.FailOn);
        Assert.Equal(
            [(commits[4], "build: the other half"), (commits[Culprit], "pay: wait a second before each payment")],
            verdicts.Builds.Select(b => (b.Commit!, b.Subject!))
        );
        var meanTime = verdicts.Verdicts.Single(v => v.Primary && v.Metric == "mean time");
        Assert.Equal(("slower", "Concurrency=1", "slow"), (meanTime.Verdict, meanTime.Case, meanTime.Candidate));
        Assert.Contains(
            "**`--fail-on slower`: failed**",
            File.ReadAllText(Path.Combine(run, VerdictsReport.MarkdownFile))
        );

        // The manifest and the page say which commit each image was made from.
        using var manifest = JsonDocument.Parse(File.ReadAllText(Path.Combine(run, Manifest.FileName)));
        var slow = manifest
            .RootElement.GetProperty("images")
            .EnumerateArray()
            .Single(i => i.GetProperty("name").GetString() == BuiltImageName.For(CheckoutName, commits[Culprit]));
        Assert.Equal(
            ("HEAD~2", commits[Culprit], "pay: wait a second before each payment"),
            (
                slow.GetProperty("source").GetProperty("ref").GetString(),
                slow.GetProperty("source").GetProperty("commit").GetString(),
                slow.GetProperty("source").GetProperty("subject").GetString()
            )
        );
        Assert.Equal(
            slow.GetProperty("id").GetString(),
            slow.GetProperty("source").GetProperty("image_id").GetString()
        );
        Assert.True(File.Exists(Path.Combine(run, BuildLogs.Folder, $"{commits[Culprit][..12]}.log")));
    }

    [SkippableFact]
    public async Task Bad_input_of_a_build_from_source_is_one_line_and_exit_2_before_any_topology_and_leaves_nothing_but_its_log()
    {
        await ReadyAsync();
        var notGit = Directory.CreateTempSubdirectory("lnbench-not-git-").FullName;
        try
        {
            async Task<string> RefusedAsync(string command, params string[] builds)
            {
                var run = await HarnessProcess.RunAsync(
                    [
                        "AlicePaysBob",
                        "--source",
                        builds[0] == "not-git" ? notGit : repository.Path,
                        "--image-command",
                        command,
                        .. builds.Skip(1).SelectMany(b => new[] { "--build", b }),
                        "--results",
                        results,
                        "--no-pull",
                    ],
                    TimeSpan.FromMinutes(5)
                );
                Assert.Equal(HarnessExit.Usage, run.ExitCode);
                var error = Assert.Single(run.StandardError.Split('\n', StringSplitOptions.RemoveEmptyEntries));
                Assert.StartsWith("lnbench: error: ", error);
                // Before any topology: the run proper (its engine line, its folder) never started.
                Assert.DoesNotContain("Docker engine", run.StandardOutput);
                Assert.Empty(Directory.GetDirectories(results, "*-AlicePaysBob"));
                return error;
            }

            Assert.Contains(
                "'v9.9' names no commit in",
                await RefusedAsync(StandInSource.ImageCommand, "repo", "a=git:v9.9", $"b=git:{commits[0]}")
            );
            Assert.Contains(
                $"--source {notGit} is not a git checkout",
                await RefusedAsync(StandInSource.ImageCommand, "not-git", "a=git:HEAD", "b=git:HEAD~1")
            );
            var failed = await RefusedAsync(
                StandInSource.ImageCommand,
                "repo",
                $"a=git:{commits[0]}",
                $"b=git:{commits[3]}"
            );
            Assert.Contains(
                $"git:{commits[3]} ({commits[3][..12]} \"build: half of a change\"): the image command (--image-command) failed (exit 1): this commit does not build: the other half is missing",
                failed
            );
            var noImage = await RefusedAsync("echo made nothing", "repo", $"a=git:{commits[1]}", $"b=git:{commits[2]}");
            Assert.Contains($"exited 0 but left no image {BuiltImageName.For(CheckoutName, commits[1])}", noImage);

            // Nothing of the failed builds is left but their logs.
            using var engine = new DockerEngine();
            foreach (var commit in new[] { commits[1], commits[3] })
            {
                Assert.Null(await engine.InspectImageAsync(BuiltImageName.For(CheckoutName, commit)));
                Assert.True(
                    File.Exists(Path.Combine(results, SourceBuilds.LogFolder, $"{CheckoutName}-{commit[..12]}.log"))
                );
            }
            Assert.Equal([repository.Path], await (await GitCheckout.OpenAsync(repository.Path)).WorktreesAsync());
            Assert.Empty(Directory.GetDirectories(Path.GetTempPath(), $"lnbench-src-{CheckoutName}-*"));
        }
        finally
        {
            Directory.Delete(notGit, recursive: true);
        }
    }

    public void Dispose()
    {
        if (Requirements.DockerAvailable)
        {
            using var engine = new DockerEngine();
            new BuiltImageCache(engine).PruneAsync(CheckoutName).GetAwaiter().GetResult();
        }
        repository.Dispose();
        foreach (var directory in new[] { work, results, fragments })
        {
            Directory.Delete(directory, recursive: true);
        }
    }
}
