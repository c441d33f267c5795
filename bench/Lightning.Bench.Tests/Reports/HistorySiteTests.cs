using System.Globalization;
using System.Text.Json;
using System.Text.RegularExpressions;
using Lightning.Bench.Options;
using Lightning.Bench.Reports;
using Lightning.Bench.Results;

namespace Lightning.Bench.Tests.Reports;

/// <summary>
/// --publish: runs added to a static site whose index charts every case, build and metric over the runs and marks
/// where it stepped. Synthetic runs (manifest.json and summary.json as the harness writes them) with a known step.
/// </summary>
public class HistorySiteTests : IDisposable
{
    private readonly string root = Directory.CreateTempSubdirectory("lnbench-site-").FullName;

    private string Site => Path.Combine(root, "site");

    [Fact]
    [Trait("Category", "Unit")]
    public void A_step_between_runs_is_marked_where_the_build_changed_and_machines_are_never_mixed()
    {
        var random = new Random(5);
        // Eight runs of base on one machine; from the fifth on, mean time is 10 % higher. One run on another machine.
        var runs = Enumerable.Range(0, 8).Select(i => WriteRun(i, i < 4 ? 50 : 55, "AMD EPYC", random)).ToList();
        var elsewhere = WriteRun(8, 80, "Intel Xeon", random);

        var index = HistorySite.Publish(Site, [.. runs.Take(6)]);
        // One run given as its zip (entries RUN_FOLDER/PATH, as the harness makes them).
        var zip = runs[7] + ".zip";
        System.IO.Compression.ZipFile.CreateFromDirectory(
            runs[7],
            zip,
            System.IO.Compression.CompressionLevel.Fastest,
            includeBaseDirectory: true
        );
        HistorySite.Publish(Site, [runs[6], zip, elsewhere, runs[0]]);

        var html = File.ReadAllText(index);
        Assert.Equal(9, Directory.GetDirectories(Path.Combine(Site, HistorySite.RunsFolder)).Length);
        Assert.Equal(9, Regex.Matches(html, "<td><a href=\"runs/run-\\d/report.html\">").Count);
        foreach (var published in new[] { "run-3", "run-7" }.Select(r => Path.Combine(Site, HistorySite.RunsFolder, r)))
        {
            Assert.True(File.Exists(Path.Combine(published, ReportHtml.FileName)));
            // The raw spans and logs stay in the run's zip; its page, summaries and compose files are published.
            Assert.True(
                File.Exists(
                    Path.Combine(
                        published,
                        "cases",
                        "Build-base-Concurrency-1-Topology-1-Traces-on",
                        "docker-compose.yml"
                    )
                )
            );
            Assert.Empty(Directory.GetFiles(published, "spans.*", SearchOption.AllDirectories));
            Assert.Empty(Directory.GetFiles(published, "*.log", SearchOption.AllDirectories));
            Assert.Empty(Directory.GetFiles(published, "*.folded", SearchOption.AllDirectories));
            Assert.True(File.Exists(Path.Combine(published, "instructions", "Concurrency-1", "base", "bob.svg")));
        }
        // One section per machine: the other machine's run is a series of its own, with no step.
        Assert.Contains("<h2>AMD EPYC &#215; 2, 24 GiB, Debian</h2>", html);
        Assert.Contains("<h2>Intel Xeon &#215; 2, 24 GiB, Debian</h2>", html);
        var epyc = html[
            html.IndexOf("<h2>AMD EPYC", StringComparison.Ordinal)..html.IndexOf(
                "<h2>Intel Xeon",
                StringComparison.Ordinal
            )
        ];
        var meanTime = epyc[
            epyc.IndexOf("Concurrency=1, build base, traces on: mean time (ms)", StringComparison.Ordinal)..
        ];
        meanTime = meanTime[..meanTime.IndexOf("</div>", StringComparison.Ordinal)];
        Assert.Equal(8, Regex.Matches(meanTime, "<circle class=\"run\"").Count);
        Assert.Single(Regex.Matches(meanTime, "class=\"change-point\""));
        Assert.Matches(
            "<tr><td>run-3 \\(v26.06-3\\)</td><td>run-4 \\(v26.06-4\\)</td><td>[0-9.]+</td><td>[0-9.]+</td><td>\\+(9|10|11)\\.\\d %</td>",
            meanTime
        );
        Assert.DoesNotContain(
            "class=\"change-point\"",
            html[html.IndexOf("<h2>Intel Xeon", StringComparison.Ordinal)..]
        );
    }

    [Fact]
    [Trait("Category", "Unit")]
    public void A_history_of_releases_orders_its_runs_by_the_builds_version_whatever_order_they_ran_in()
    {
        var random = new Random(11);
        // Six releases, measured newest first except v24.05, which was measured again last; from v25.05 on a third faster.
        string[] releases = ["v24.05", "v24.08.2", "v24.11.2", "v25.05", "v25.09.3", "v26.06.6"];
        var ran = new[] { 5, 4, 3, 2, 1, 0 };
        var runs = ran.Select(
                (r, i) =>
                    WriteRun(
                        i,
                        releases[r].CompareTo("v25.05") >= 0 ? 40 : 60,
                        "AMD EPYC",
                        random,
                        version: releases[r],
                        noun: "attempt"
                    )
            )
            .ToList();

        var byDate = File.ReadAllText(HistorySite.Publish(Site, runs));
        var byVersion = File.ReadAllText(HistorySite.Publish(Site, [], HistoryOrder.Version));

        static string Chart(string html, string title)
        {
            var chart = html[html.IndexOf(title, StringComparison.Ordinal)..];
            return chart[..chart.IndexOf("</div>", StringComparison.Ordinal)];
        }
        var labels = Regex
            .Matches(
                Chart(byVersion, "Concurrency=1, build base, traces on: mean time (ms)"),
                "<text class=\"run-label\"[^>]*>([^<]+)</text>"
            )
            .Select(m => m.Groups[1].Value);
        Assert.Equal(releases, labels);
        // The step falls between the releases, with each side named; by date the same runs step the other way, between other neighbours.
        Assert.Matches(
            "<tr><td>run-3 \\(v24.11.2\\)</td><td>run-2 \\(v25.05\\)</td><td>[0-9.]+</td><td>[0-9.]+</td><td>-3\\d\\.\\d %</td>",
            Chart(byVersion, "Concurrency=1, build base, traces on: mean time (ms)")
        );
        Assert.Matches(
            "<tr><td>run-2 \\(v25.05\\)</td><td>run-3 \\(v24.11.2\\)</td><td>[0-9.]+</td><td>[0-9.]+</td><td>\\+[45]\\d\\.\\d %</td>",
            Chart(byDate, "Concurrency=1, build base, traces on: mean time (ms)")
        );
        // The metrics are named with what the workload counts.
        Assert.Contains("Concurrency=1, build base, traces on: attempts/s", byVersion);
        Assert.Contains("Concurrency=1, build base, traces on: storage/attempt (KB)", byVersion);
    }

    [SkippableFact]
    [Trait("Category", "Browser")]
    public async Task Chromium_shows_the_history_offline_with_its_charts()
    {
        var chromium = Requirements.Chromium();
        var random = new Random(9);
        var index = HistorySite.Publish(
            Site,
            Enumerable.Range(0, 8).Select(i => WriteRun(i, i < 4 ? 50 : 55, "AMD EPYC", random)).ToList()
        );

        var (dom, console, requests) = await ReportPageTests.RenderAsync(chromium, index);

        Assert.Empty(console);
        Assert.Empty(requests);
        Assert.Contains("<svg xmlns=\"http://www.w3.org/2000/svg\"", dom);
        Assert.Contains("class=\"change-point\"", dom);
        Assert.Contains("<table class=\"change-points\">", dom);
    }

    [Fact]
    [Trait("Category", "Unit")]
    public void A_run_measured_under_other_conditions_is_a_series_of_its_own_never_a_step_in_the_plain_runs()
    {
        var random = new Random(7);
        var plain = Enumerable.Range(0, 6).Select(i => WriteRun(i, 50, "AMD EPYC", random)).ToList();
        // The same image and case under Valgrind (--instructions): ten times the time, which is no regression.
        var counted = Enumerable
            .Range(6, 2)
            .Select(i => WriteRun(i, 550, "AMD EPYC", random, new MeasurementConditions { UnderValgrind = true }))
            .ToList();

        var html = File.ReadAllText(HistorySite.Publish(Site, [.. plain, .. counted]));

        Assert.Contains("<h3>AlicePaysBob</h3>", html);
        Assert.Contains("<h3>AlicePaysBob: one host; nodes under Valgrind (--instructions)</h3>", html);
        var plainPart = html[
            html.IndexOf("<h3>AlicePaysBob</h3>", StringComparison.Ordinal)..html.IndexOf(
                "<h3>AlicePaysBob: one host; nodes under Valgrind",
                StringComparison.Ordinal
            )
        ];
        var meanTime = plainPart[
            plainPart.IndexOf("Concurrency=1, build base, traces on: mean time (ms)", StringComparison.Ordinal)..
        ];
        meanTime = meanTime[..meanTime.IndexOf("</div>", StringComparison.Ordinal)];
        Assert.Equal(6, Regex.Matches(meanTime, "<circle class=\"run\"").Count);
        Assert.DoesNotContain("class=\"change-point\"", plainPart);
    }

    [Fact]
    [Trait("Category", "Unit")]
    public void Builds_made_from_commits_label_their_points_and_their_pages_by_the_commit()
    {
        var random = new Random(17);
        var commits = Enumerable.Range(0, 4).Select(i => $"{i}{new string((char)('a' + i), 39)}").ToList();
        var runs = commits.Select((commit, i) => WriteRun(i, 50, "AMD EPYC", random, commit: commit)).ToList();

        var html = File.ReadAllText(HistorySite.Publish(Site, runs));

        var chart = html[
            html.IndexOf("Concurrency=1, build base, traces on: mean time (ms)", StringComparison.Ordinal)..
        ];
        chart = chart[..chart.IndexOf("</div>", StringComparison.Ordinal)];
        Assert.Equal(
            commits.Select(c => c[..12]),
            Regex.Matches(chart, "<text class=\"run-label\"[^>]*>([^<]+)</text>").Select(m => m.Groups[1].Value)
        );
        Assert.Contains($"run-2 (v26.06-2) {commits[2][..12]} subject 2: ", chart);
        Assert.Contains($"base=lnbench-built/lightning:{commits[3][..12]} ({commits[3][..12]} subject 3)", html);

        // The run's page has a commit column for its builds.
        var page = ReportHtml.Render(runs[1]);
        Assert.Contains("<th>commit</th>", page);
        Assert.Contains(
            $"<td class=\"commit\"><code>{commits[1][..12]}</code> subject 1 (git:HEAD~1, 2026-01-02)</td>",
            page
        );
    }

    [Fact]
    [Trait("Category", "Unit")]
    public void Runs_on_a_busy_machine_are_drawn_apart_and_left_out_of_change_points_unless_asked()
    {
        var random = new Random(7);
        // Six runs on a quiet machine, then four 10 % slower while other work took 60 % of the CPU: the step is the
        // machine's, not the build's.
        var runs = Enumerable
            .Range(0, 10)
            .Select(i =>
                i >= 6
                    ? WriteRun(i, 55, "AMD EPYC", random, otherCpuPercent: 60)
                    : WriteRun(i, 50, "AMD EPYC", random, otherCpuPercent: 4)
            )
            .ToList();

        string MeanTime(string html)
        {
            var chart = html[
                html.IndexOf("Concurrency=1, build base, traces on: mean time (ms)", StringComparison.Ordinal)..
            ];
            return chart[..chart.IndexOf("</div>", StringComparison.Ordinal)];
        }
        var apart = MeanTime(File.ReadAllText(HistorySite.Publish(Site, runs)));
        var counted = MeanTime(
            File.ReadAllText(HistorySite.Publish(Path.Combine(root, "site-all"), runs, includeBusy: true))
        );

        foreach (var chart in new[] { apart, counted })
        {
            // Drawn apart either way: hollow, off the line (the polyline joins the six quiet runs only).
            Assert.Equal(4, Regex.Matches(chart, "<circle class=\"run busy-run\"").Count);
            Assert.Equal(6, Regex.Matches(chart, "<circle class=\"run\"").Count);
            Assert.Equal(
                5,
                Regex.Match(chart, "<polyline[^>]*points=\"([^\"]*)\"").Groups[1].Value.Count(c => c == ' ')
            );
            Assert.Contains("run-7 (v26.06-7) (other work took 60 % of its CPU, more than 25 %)", chart);
        }
        Assert.DoesNotContain("class=\"change-point\"", apart);
        Assert.Contains("left out of the change points", apart);
        // Counted (--include-busy), the machine's step is a change point where the busy runs begin.
        Assert.Single(Regex.Matches(counted, "class=\"change-point\""));
        Assert.Matches("<tr><td>run-5 \\(v26.06-5\\)</td><td>run-6 \\(v26.06-6\\)</td>", counted);
    }

    private string WriteRun(
        int i,
        double meanMs,
        string cpu,
        Random random,
        MeasurementConditions? conditions = null,
        string? version = null,
        string noun = "payment",
        string? commit = null,
        double? otherCpuPercent = null
    )
    {
        var image = commit is null ? "cln:main" : $"lnbench-built/lightning:{commit[..12]}";
        Dictionary<string, object> Image()
        {
            var record = new Dictionary<string, object>
            {
                ["name"] = image,
                ["id"] = $"sha256:{i}",
                ["versions"] = new Dictionary<string, string>
                {
                    ["lightningd"] = version ?? $"v26.06-{i}",
                    ["bitcoin-cli"] = "v31.99.0",
                },
            };
            if (commit is not null)
            {
                record["source"] = new Dictionary<string, object>
                {
                    ["ref"] = "HEAD~1",
                    ["commit"] = commit,
                    ["subject"] = $"subject {i}",
                    ["author_date"] = $"2026-01-0{i + 1}T12:00:00+00:00",
                    ["image"] = image,
                    ["image_id"] = $"sha256:{i}",
                    ["repository"] = "/src/lightning",
                    ["built"] = true,
                    ["log"] = null!,
                };
            }
            return record;
        }
        var folder = Path.Combine(root, $"results-{i}", $"run-{i}-AlicePaysBob");
        Directory.CreateDirectory(folder);
        var started = new DateTimeOffset(2026, 11, 1, 2, 0, 0, TimeSpan.Zero).AddDays(i);
        File.WriteAllText(
            Path.Combine(folder, "manifest.json"),
            JsonSerializer.Serialize(
                new Dictionary<string, object>
                {
                    ["run_id"] = $"run-{i}",
                    ["scenario"] = "AlicePaysBob",
                    ["command_line"] = "./run.sh AlicePaysBob",
                    ["started"] = started.ToString("O", CultureInfo.InvariantCulture),
                    ["harness_version"] = "1.0.0",
                    ["harness_commit"] = $"c{i}",
                    ["builds"] = new[]
                    {
                        new Dictionary<string, string> { ["name"] = "base", ["image"] = image },
                    },
                    ["images"] = new[] { Image() },
                    ["machine"] = new Dictionary<string, object>
                    {
                        ["cpu_model"] = cpu,
                        ["cpu_count"] = 2,
                        ["memory_bytes"] = 24L << 30,
                        ["os"] = "Debian",
                    },
                    ["machine_load"] = otherCpuPercent is { } other
                        ? new Dictionary<string, object>
                        {
                            ["other_cpu_percent"] = other,
                            ["busy_threshold_percent"] = MachineLoad.DefaultBusyThresholdPercent,
                            ["busy"] = MachineLoad.IsBusy(other, MachineLoad.DefaultBusyThresholdPercent),
                        }
                        : null!,
                }
            )
        );
        var cases = Enumerable
            .Range(1, 3)
            .Select(t =>
            {
                var mean = meanMs * Math.Exp(0.01 * (random.NextDouble() - 0.5));
                return new Dictionary<string, object>
                {
                    ["case"] = $"Build=base, Concurrency=1, Topology={t}, Traces=on",
                    ["parameters"] = new Dictionary<string, string>
                    {
                        ["Build"] = "base",
                        ["Concurrency"] = "1",
                        ["Topology"] = $"{t}",
                        ["Traces"] = "on",
                    },
                    ["mean_ms"] = mean,
                    ["payments_per_second"] = 1000 / mean,
                    ["cpu_ms_per_payment"] = 30.0,
                    ["written_kb_per_payment"] = 1500.0,
                    ["noun"] = noun,
                };
            });
        var summary = new Dictionary<string, object> { ["cases"] = cases.ToList() };
        if (conditions is not null)
        {
            summary["conditions"] = new Dictionary<string, object>
            {
                ["platform"] = conditions.Platform,
                ["under_valgrind"] = conditions.UnderValgrind,
            };
        }
        File.WriteAllText(Path.Combine(folder, "summary.json"), JsonSerializer.Serialize(summary));
        var caseFolder = Path.Combine(folder, "cases", "Build-base-Concurrency-1-Topology-1-Traces-on");
        Directory.CreateDirectory(Path.Combine(caseFolder, "logs"));
        File.WriteAllText(Path.Combine(caseFolder, "spans.jsonl"), "{}\n");
        File.WriteAllText(Path.Combine(caseFolder, "logs", "alice.log"), "log\n");
        File.WriteAllText(Path.Combine(caseFolder, "docker-compose.yml"), "services: {}\n");
        // An instruction run's per-topology stacks (raw, in the zip) and the flame graph drawn from them (published).
        var stacks = Path.Combine(folder, "instructions", "Build-base-Concurrency-1-Topology-1-Traces-on");
        Directory.CreateDirectory(stacks);
        File.WriteAllText(Path.Combine(stacks, "bob.folded"), "main;json_invoice 624806\n");
        Directory.CreateDirectory(Path.Combine(folder, "instructions", "Concurrency-1", "base"));
        File.WriteAllText(Path.Combine(folder, "instructions", "Concurrency-1", "base", "bob.svg"), "<svg/>");
        File.WriteAllText(Path.Combine(folder, "spans.csv"), "case\n");
        File.WriteAllText(Path.Combine(folder, Lightning.Bench.Tracing.Store.SpanStore.FileName), "LNSPANS");
        return folder;
    }

    public void Dispose() => Directory.Delete(root, recursive: true);
}
