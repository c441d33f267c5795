using System.Globalization;
using System.IO.Compression;
using System.Net;
using System.Text;
using System.Text.Json;
using Lightning.Bench.Options;
using Lightning.Bench.Processes;
using Lightning.Bench.Results;
using Lightning.Bench.Statistics;

namespace Lightning.Bench.Reports;

/// <summary>
/// A static site of runs (--publish SITE RUN…): each run copied under SITE/runs/RUN_ID/ with its page (report.html),
/// without its raw spans, per-topology stacks and node logs (<see cref="StaysInTheZip"/>: most of a run's weight, and in its zip),
/// and SITE/index.html: the runs (date, scenario, builds, harness commit, node versions, machine), then per machine,
/// scenario, case, build and metric a chart of the metric over the runs in date order (or, for a history of releases, in
/// the order of the build's node version: <see cref="HistoryOrder"/>), each run's 95 % interval over its topologies, and
/// the change points (<see cref="ChangePoints"/>) marked and listed with the runs either side. Runs of different
/// machines are never one series. Plain files: any static host or `python3 -m http.server` serves them.
/// Publishing again adds runs to the site; a run already there is kept as it is.
/// </summary>
internal static class HistorySite
{
    public const string Index = "index.html";
    public const string RunsFolder = "runs";

    /// <summary>The charted metrics; NOUN is what the case's workload counts (payment, attempt).</summary>
    private static readonly (string Name, string Unit, Func<JsonElement, double?> Value)[] Metrics =
    [
        ("mean time", "ms", c => Number(c, "mean_ms")),
        ("NOUNs/s", "", c => Number(c, "payments_per_second")),
        ("CPU/NOUN", "ms", c => Number(c, "cpu_ms_per_payment")),
        ("storage/NOUN", "KB", c => Number(c, "written_kb_per_payment")),
        (
            "instructions/NOUN",
            "M",
            c =>
                c.TryGetProperty("instructions", out var i) && i.ValueKind == JsonValueKind.Object
                    ? Number(i, "total") / 1e6
                    : null
        ),
    ];

    /// <summary>Adds <paramref name="runs"/> (folders or zips) to the site and rewrites its index; returns the index's path.</summary>
    /// <param name="includeBusy">--include-busy: runs measured on a busy machine count in the change points too (they are always drawn apart).</param>
    public static string Publish(
        string site,
        IReadOnlyList<string> runs,
        HistoryOrder order = HistoryOrder.Date,
        bool includeBusy = false
    )
    {
        var runsRoot = Path.Combine(site, RunsFolder);
        Directory.CreateDirectory(runsRoot);
        foreach (var run in runs)
        {
            using var manifest = JsonDocument.Parse(RunArchive.ReadText(run, "manifest.json"));
            var id =
                manifest.RootElement.GetProperty("run_id").GetString()
                ?? throw new InvalidDataException($"{run}: manifest.json has no run_id");
            var target = Path.Combine(runsRoot, id);
            if (Directory.Exists(target))
            {
                continue;
            }
            // Copied beside its place, then renamed into it: a run on the site is whole (publishing again skips it as it is).
            var copy = AtomicFile.Begin(target);
            try
            {
                Copy(run, copy);
                AtomicFile.Commit(copy, target);
            }
            catch
            {
                AtomicFile.Abandon(copy);
                throw;
            }
        }
        var index = Path.Combine(site, Index);
        AtomicFile.WriteAllText(index, Render(runsRoot, order, includeBusy));
        return index;
    }

    /// <summary>A run (a folder or a zip) into the folder <paramref name="target"/>, without what stays in the zip, with its page.</summary>
    private static void Copy(string run, string target)
    {
        Directory.CreateDirectory(target);
        if (Directory.Exists(run))
        {
            CopyFolder(run, target);
        }
        else
        {
            // Entries are RUN_FOLDER/PATH.
            using var zip = RunArchive.OpenZip(run);
            foreach (var entry in zip.Entries.Where(e => e.Name.Length > 0 && e.FullName.IndexOf('/') > 0))
            {
                var path = entry.FullName[(entry.FullName.IndexOf('/') + 1)..];
                if (!StaysInTheZip(path))
                {
                    var file = Path.GetFullPath(Path.Combine(target, path));
                    if (
                        !file.StartsWith(
                            Path.GetFullPath(target) + Path.DirectorySeparatorChar,
                            StringComparison.Ordinal
                        )
                    )
                    {
                        throw new InvalidDataException(
                            $"{run}: entry {entry.FullName} points outside the run's folder: is it a Lightning.Bench run zip?"
                        );
                    }
                    Directory.CreateDirectory(Path.GetDirectoryName(file)!);
                    try
                    {
                        entry.ExtractToFile(file);
                    }
                    catch (InvalidDataException e)
                    {
                        throw RunArchive.Damaged(run, e);
                    }
                }
            }
        }
        if (!File.Exists(Path.Combine(target, ReportHtml.FileName)))
        {
            ReportHtml.Write(target);
        }
    }

    /// <param name="Conditions">What its figures mean beyond its cases (<see cref="MeasurementConditions.Describe"/>): runs measured differently are never one series.</param>
    /// <param name="BuildOptions">Each build's node options (--node-option), part of what the build is: a build with others is another series.</param>
    /// <param name="BuildCommits">Each build made from a source ref: its commit, as "COMMIT12 subject".</param>
    /// <param name="Busy">Why the run's machine was busy while it measured (its machine-load record's note), or null: a busy run's points are drawn apart and left out of change points.</param>
    private sealed record Run(
        string Id,
        DateTimeOffset Started,
        string Scenario,
        string Machine,
        string Builds,
        string Harness,
        string Versions,
        JsonElement Summary,
        string Conditions,
        IReadOnlyDictionary<string, string> BuildOptions,
        IReadOnlyDictionary<string, string> BuildVersions,
        IReadOnlyDictionary<string, string> BuildCommits,
        string? Busy
    );

    /// <param name="Version">The version the build's node reported in this run ("" when unknown).</param>
    /// <param name="Commit">The commit the build's image was made from, "COMMIT12 subject" ("" for an image given by name): the point's label.</param>
    private sealed record Point(Run Run, string Version, double Mean, double Low, double High, string Commit = "");

    public static string Render(string runsRoot, HistoryOrder order = HistoryOrder.Date, bool includeBusy = false)
    {
        var runs = new List<Run>();
        var documents = new List<JsonDocument>();
        foreach (
            var folder in Directory
                .GetDirectories(runsRoot)
                .Where(d => !Path.GetFileName(d).StartsWith('.') && !AtomicFile.IsUnfinished(d))
        )
        {
            var manifestPath = Path.Combine(folder, "manifest.json");
            var summaryPath = Path.Combine(folder, RunSummary.FileName);
            if (!File.Exists(manifestPath) || !File.Exists(summaryPath))
            {
                continue;
            }
            var manifestText = File.ReadAllText(manifestPath);
            var summaryText = File.ReadAllText(summaryPath);
            var manifest = JsonDocument.Parse(manifestText);
            var summary = JsonDocument.Parse(summaryText);
            documents.Add(manifest);
            documents.Add(summary);
            var m = manifest.RootElement;
            var commits = BuildCommits(m);
            var builds =
                m.TryGetProperty("builds", out var b) && b.ValueKind == JsonValueKind.Array
                    ? string.Join(
                        ", ",
                        b.EnumerateArray()
                            .Select(x =>
                                $"{Text(x, "name")}={Text(x, "image")}"
                                + (commits.TryGetValue(Text(x, "name") ?? "", out var commit) ? $" ({commit})" : "")
                            )
                    )
                    : "";
            var versions =
                m.TryGetProperty("images", out var images) && images.ValueKind == JsonValueKind.Array
                    ? string.Join(
                        "; ",
                        images
                            .EnumerateArray()
                            .SelectMany(i =>
                                i.TryGetProperty("versions", out var v) && v.ValueKind == JsonValueKind.Object
                                    ? v.EnumerateObject()
                                        .Where(p => p.Name == "lightningd")
                                        .Select(p => $"{Text(i, "name")}: {p.Value}")
                                    : []
                            )
                    )
                    : "";
            runs.Add(
                new Run(
                    Path.GetFileName(folder),
                    DateTimeOffset.TryParse(Text(m, "started"), CultureInfo.InvariantCulture, out var started)
                        ? started
                        : DateTimeOffset.MinValue,
                    Text(m, "scenario") ?? "",
                    MachineKey(m),
                    builds,
                    $"{Text(m, "harness_version")} {Text(m, "harness_commit")}".Trim(),
                    versions,
                    summary.RootElement,
                    ConditionsOf(summaryText, manifestText),
                    m.TryGetProperty("builds", out var bo) && bo.ValueKind == JsonValueKind.Array
                        ? bo.EnumerateArray()
                            .Where(x =>
                                x.TryGetProperty("node_options", out var o)
                                && o.ValueKind == JsonValueKind.Array
                                && o.GetArrayLength() > 0
                            )
                            .ToDictionary(
                                x => Text(x, "name") ?? "",
                                x =>
                                    string.Join(
                                        ' ',
                                        x.GetProperty("node_options").EnumerateArray().Select(o => o.GetString())
                                    )
                            )
                        : new Dictionary<string, string>(),
                    BuildVersions(m),
                    commits,
                    BusyNote(m)
                )
            );
        }
        try
        {
            runs.Sort((a, b) => a.Started.CompareTo(b.Started));
            var html = new StringBuilder();
            html.Append(
                "<section><h2>Runs</h2>\n<table>\n<thead><tr><th>started</th><th>scenario</th><th>builds</th><th>Core Lightning</th><th>harness</th><th>machine</th><th>page</th></tr></thead>\n<tbody>\n"
            );
            foreach (var run in runs.AsEnumerable().Reverse())
            {
                html.Append(
                    $"<tr><td>{E(run.Started.ToString("yyyy-MM-dd HH:mm", CultureInfo.InvariantCulture))}</td><td>{E(run.Scenario)}</td><td>{E(run.Builds)}</td><td>{E(run.Versions)}</td><td>{E(run.Harness)}</td><td>{E(run.Machine)}</td>"
                        + $"<td><a href=\"{RunsFolder}/{E(Uri.EscapeDataString(run.Id))}/{ReportHtml.FileName}\">{E(run.Id)}</a></td></tr>\n"
                );
            }
            html.Append("</tbody>\n</table>\n</section>\n");
            foreach (var machine in runs.GroupBy(r => r.Machine))
            {
                html.Append($"<section><h2>{E(machine.Key)}</h2>\n");
                foreach (
                    var scenario in machine
                        .GroupBy(r => (r.Scenario, r.Conditions))
                        .OrderBy(g => g.Key.Conditions == Plain ? 0 : 1)
                )
                {
                    html.Append(
                        scenario.Key.Conditions == Plain
                            ? $"<h3>{E(scenario.Key.Scenario)}</h3>\n"
                            : $"<h3>{E(scenario.Key.Scenario)}: {E(scenario.Key.Conditions)}</h3>\n<p>Measured under other conditions than a plain run: a series of its own, never joined with runs measured otherwise.</p>\n"
                    );
                    foreach (var (series, points) in Series(scenario.ToList(), order))
                    {
                        html.Append(Chart(series, points, order, includeBusy));
                    }
                }
                html.Append("</section>\n");
            }
            return ReportHtml.Page(
                "Lightning.Bench: history of runs",
                $"<p>{runs.Count} run(s). Each chart is one case, build and metric on one machine, runs in "
                    + $"{(order == HistoryOrder.Version ? "the order of the version their build's node reported (then as they started)" : "the order they started")}, each with its 95 % interval "
                    + $"over its topologies; dashed red lines are change points (E-divisive means, each split kept at Welch p &lt; "
                    + $"{ChangePoints.DefaultPValue.ToString(CultureInfo.InvariantCulture)}). Runs measured on a busy machine (other work took more than its threshold of the CPU) are hollow orange points, "
                    + $"off the line{(includeBusy ? ", and counted in the change points (--include-busy)" : " and left out of the change points (--include-busy counts them)")}.</p>\n{html}"
            );
        }
        finally
        {
            foreach (var document in documents)
            {
                document.Dispose();
            }
        }
    }

    /// <summary>The conditions of a plain run (one host, nothing around the nodes): the series most runs are in.</summary>
    private static readonly string Plain = new MeasurementConditions().Describe();

    /// <summary>A run's conditions as recorded, or as its files show them for an older run.</summary>
    private static string ConditionsOf(string summary, string manifest)
    {
        var read = RunSummary.Read(summary);
        Manifest? recorded;
        try
        {
            recorded = Manifest.Read(manifest);
        }
        catch (JsonException)
        {
            // An older manifest without what this harness's requires: the summary alone tells what it can.
            recorded = null;
        }
        return read.ConditionsOr(recorded).Describe();
    }

    /// <summary>Per case (cell and build, topologies pooled) and metric, each run's mean of topology means and its t-interval.</summary>
    private static IEnumerable<(string Title, List<Point> Points)> Series(IReadOnlyList<Run> runs, HistoryOrder order)
    {
        var series = new SortedDictionary<string, List<Point>>(StringComparer.Ordinal);
        foreach (var run in runs)
        {
            if (!run.Summary.TryGetProperty("cases", out var cases) || cases.ValueKind != JsonValueKind.Array)
            {
                continue;
            }
            var byArm = cases
                .EnumerateArray()
                .Where(c => c.TryGetProperty("parameters", out var p) && p.ValueKind == JsonValueKind.Object)
                .GroupBy(c =>
                {
                    var parameters = c.GetProperty("parameters")
                        .EnumerateObject()
                        .ToDictionary(p => p.Name, p => p.Value.ToString());
                    var (build, traces) = CaseId.Of(parameters).Arm;
                    var options = run.BuildOptions.TryGetValue(build, out var o) ? $" ({o})" : "";
                    return (
                        Title: $"{CaseId.Of(parameters).Cell.Label}, build {build}{options}, traces {traces}",
                        Build: build
                    );
                });
            foreach (var arm in byArm)
            {
                foreach (var (name, unit, value) in Metrics)
                {
                    var values = arm.Select(value).Where(v => v is > 0).Select(v => v!.Value).ToList();
                    var noun =
                        arm.Select(c => Text(c, "noun")).FirstOrDefault(n => !string.IsNullOrEmpty(n)) ?? "payment";
                    if (values.Count == 0)
                    {
                        continue;
                    }
                    var mean = values.Average();
                    var half =
                        values.Count > 1
                            ? TQuantile(values.Count - 1)
                                * SampleVariance.StandardDeviation(values)
                                / Math.Sqrt(values.Count)
                            : 0;
                    var key =
                        $"{arm.Key.Title}: {name.Replace("NOUN", noun, StringComparison.Ordinal)}{(unit.Length > 0 ? $" ({unit})" : "")}";
                    if (!series.TryGetValue(key, out var points))
                    {
                        series[key] = points = [];
                    }
                    points.Add(
                        new Point(
                            run,
                            run.BuildVersions.GetValueOrDefault(arm.Key.Build, ""),
                            mean,
                            mean - half,
                            mean + half,
                            run.BuildCommits.GetValueOrDefault(arm.Key.Build, "")
                        )
                    );
                }
            }
        }
        // Runs arrive in date order; a stable sort by version keeps that order among runs of one version.
        return series.Select(s =>
            (
                s.Key,
                order == HistoryOrder.Version
                    ? s.Value.OrderBy(p => p.Version, VersionOrder.Instance).ToList()
                    : s.Value
            )
        );
    }

    /// <summary>Each build's node version in a run: the first version its image reported (the node's program comes first), "" when none.</summary>
    private static Dictionary<string, string> BuildVersions(JsonElement manifest)
    {
        var byImage = new Dictionary<string, string>(StringComparer.Ordinal);
        if (manifest.TryGetProperty("images", out var images) && images.ValueKind == JsonValueKind.Array)
        {
            foreach (var image in images.EnumerateArray())
            {
                if (
                    Text(image, "name") is { } name
                    && image.TryGetProperty("versions", out var v)
                    && v.ValueKind == JsonValueKind.Object
                    && v.EnumerateObject().FirstOrDefault() is { Value.ValueKind: JsonValueKind.String } first
                )
                {
                    byImage.TryAdd(name, first.Value.GetString() ?? "");
                }
            }
        }
        return manifest.TryGetProperty("builds", out var builds) && builds.ValueKind == JsonValueKind.Array
            ? builds
                .EnumerateArray()
                .Where(b => Text(b, "name") is not null)
                .ToDictionary(b => Text(b, "name")!, b => byImage.GetValueOrDefault(Text(b, "image") ?? "", ""))
            : [];
    }

    /// <summary>Each build of a run whose image the harness made from a commit: "COMMIT12 subject".</summary>
    private static Dictionary<string, string> BuildCommits(JsonElement manifest)
    {
        var byImage = new Dictionary<string, string>(StringComparer.Ordinal);
        if (manifest.TryGetProperty("images", out var images) && images.ValueKind == JsonValueKind.Array)
        {
            foreach (var image in images.EnumerateArray())
            {
                if (
                    Text(image, "name") is { } name
                    && image.TryGetProperty("source", out var source)
                    && source.ValueKind == JsonValueKind.Object
                    && Text(source, "commit") is { Length: >= 12 } commit
                )
                {
                    byImage.TryAdd(name, $"{commit[..12]} {Text(source, "subject")}".TrimEnd());
                }
            }
        }
        return manifest.TryGetProperty("builds", out var builds) && builds.ValueKind == JsonValueKind.Array
            ? builds
                .EnumerateArray()
                .Where(b => Text(b, "name") is not null && byImage.ContainsKey(Text(b, "image") ?? ""))
                .ToDictionary(b => Text(b, "name")!, b => byImage[Text(b, "image")!])
            : [];
    }

    private static string Chart(string title, List<Point> points, HistoryOrder order, bool includeBusy)
    {
        const double Width = 900,
            Height = 220,
            Left = 60,
            Right = 45,
            Top = 10,
            Bottom = 40;
        // A busy run's point is drawn apart and, unless asked, takes no part in the change points: each change's
        // index is into the points that do (counted), mapped back to the chart's.
        var counted = Enumerable.Range(0, points.Count).Where(i => includeBusy || points[i].Run.Busy is null).ToList();
        var changes = (
            counted.Count >= 2 * ChangePoints.MinSegment
                ? ChangePoints.Find(counted.Select(i => points[i].Mean).ToList())
                : []
        )
            .Select(c => (Before: counted[c.Index - 1], After: counted[c.Index], Change: c))
            .ToList();
        var low = points.Min(p => Math.Min(p.Low, p.Mean));
        var high = points.Max(p => Math.Max(p.High, p.Mean));
        if (high - low < 1e-9 * Math.Max(1, Math.Abs(high)))
        {
            (low, high) = (low * 0.99, high * 1.01);
        }
        var pad = (high - low) * 0.08;
        (low, high) = (low - pad, high + pad);
        double X(int i) =>
            Left + (points.Count == 1 ? (Width - Left - Right) / 2 : i * (Width - Left - Right) / (points.Count - 1));
        double Y(double v) => Top + (high - v) / (high - low) * (Height - Top - Bottom);
        var svg = new StringBuilder(
            $"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{R(Width)}\" height=\"{R(Height)}\" viewBox=\"0 0 {R(Width)} {R(Height)}\" role=\"img\" aria-label=\"{E(title)}\">"
        );
        svg.Append(
            $"<rect x=\"{R(Left)}\" y=\"{R(Top)}\" width=\"{R(Width - Left - Right)}\" height=\"{R(Height - Top - Bottom)}\" fill=\"#fafafa\" stroke=\"#ccc\"/>"
        );
        foreach (var tick in new[] { low + pad, (low + high) / 2, high - pad })
        {
            svg.Append(
                $"<text x=\"{R(Left - 4)}\" y=\"{R(Y(tick) + 4)}\" text-anchor=\"end\">{E(tick.ToString("G4", CultureInfo.InvariantCulture))}</text>"
            );
        }
        foreach (var change in changes)
        {
            var x = (X(change.After - 1) + X(change.After)) / 2;
            svg.Append(
                $"<line class=\"change-point\" x1=\"{R(x)}\" y1=\"{R(Top)}\" x2=\"{R(x)}\" y2=\"{R(Height - Bottom)}\" stroke=\"#d22\" stroke-dasharray=\"5,4\"/>"
            );
        }
        svg.Append("<polyline fill=\"none\" stroke=\"#88a\" points=\"")
            .Append(
                string.Join(
                    ' ',
                    points
                        .Select((p, i) => (p, i))
                        .Where(x => x.p.Run.Busy is null)
                        .Select(x => $"{R(X(x.i))},{R(Y(x.p.Mean))}")
                )
            )
            .Append("\"/>");
        for (var i = 0; i < points.Count; i++)
        {
            var p = points[i];
            svg.Append(
                $"<line x1=\"{R(X(i))}\" y1=\"{R(Y(p.Low))}\" x2=\"{R(X(i))}\" y2=\"{R(Y(p.High))}\" stroke=\"#557\"/>"
            );
            var busy = p.Run.Busy is not null;
            svg.Append(
                $"<circle class=\"{(busy ? "run busy-run" : "run")}\" cx=\"{R(X(i))}\" cy=\"{R(Y(p.Mean))}\" r=\"{(busy ? "4.5" : "3.5")}\" {(busy ? "fill=\"none\" stroke=\"#e07000\" stroke-width=\"2\"" : "fill=\"#335\"")}><title>{(busy ? "busy machine: " : "")}{E(p.Run.Id)}{(p.Version.Length > 0 ? $" ({E(p.Version)})" : "")}{(p.Commit.Length > 0 ? $" {E(p.Commit)}" : "")}: {E(p.Mean.ToString("G5", CultureInfo.InvariantCulture))} ({E(p.Low.ToString("G5", CultureInfo.InvariantCulture))}–{E(p.High.ToString("G5", CultureInfo.InvariantCulture))})</title></circle>"
            );
            if (points.Count <= 16 || i % (points.Count / 8 + 1) == 0)
            {
                // A build made from a commit is labelled by it (12 hex digits; the subject is in the point's title).
                var label =
                    p.Commit.Length > 0 ? p.Commit[..12]
                    : order == HistoryOrder.Version && p.Version.Length > 0 ? p.Version
                    : p.Run.Started.ToString("MM-dd HH:mm", CultureInfo.InvariantCulture);
                svg.Append(
                    $"<text class=\"run-label\" x=\"{R(X(i))}\" y=\"{R(Height - Bottom + 16)}\" text-anchor=\"middle\">{E(label)}</text>"
                );
            }
        }
        svg.Append("</svg>");
        var html = new StringBuilder($"<div class=\"series\"><h4>{E(title)}</h4>\n{svg}\n");
        if (changes.Count > 0)
        {
            html.Append(
                "<table class=\"change-points\">\n<thead><tr><th>run before</th><th>run after</th><th>before</th><th>after</th><th>step</th><th>p</th></tr></thead>\n<tbody>\n"
            );
            foreach (var (before, after, change) in changes)
            {
                html.Append(
                    $"<tr><td>{E(Named(points[before]))}</td><td>{E(Named(points[after]))}</td><td>{E(change.Before.ToString("G4", CultureInfo.InvariantCulture))}</td>"
                        + $"<td>{E(change.After.ToString("G4", CultureInfo.InvariantCulture))}</td><td>{E(change.RelativeChange.ToString("+0.0 %;-0.0 %", CultureInfo.InvariantCulture))}</td><td>{E(change.PValue.ToString("G2", CultureInfo.InvariantCulture))}</td></tr>\n"
                );
            }
            html.Append("</tbody>\n</table>\n");
        }
        var busyRuns = points.Where(p => p.Run.Busy is not null).ToList();
        if (busyRuns.Count > 0)
        {
            html.Append(
                $"<p class=\"busy-runs\">Measured on a busy machine ({(includeBusy ? "counted in the change points" : "left out of the change points")}): "
                    + string.Join("; ", busyRuns.Select(p => $"{E(Named(p))} ({E(p.Run.Busy)})"))
                    + "</p>\n"
            );
        }
        return html.Append("</div>\n").ToString();
    }

    /// <summary>A run's busy-machine note ("other work took 63 % of its CPU …"), from its manifest's machine-load record; null for a quiet run or one from before it was recorded.</summary>
    private static string? BusyNote(JsonElement manifest) =>
        manifest.TryGetProperty("machine_load", out var load)
        && load.ValueKind == JsonValueKind.Object
        && load.TryGetProperty("busy", out var busy)
        && busy.ValueKind == JsonValueKind.True
            ? FormattableString.Invariant(
                $"other work took {Number(load, "other_cpu_percent") ?? 0:0} % of its CPU, more than {Number(load, "busy_threshold_percent") ?? 0:0} %"
            )
            : null;

    /// <summary>A point in a change-point row: its run, and its version where it has one.</summary>
    private static string Named(Point point) =>
        point.Run.Id
        + (point.Version.Length > 0 ? $" ({point.Version})" : "")
        + (point.Commit.Length > 0 ? $" {point.Commit}" : "");

    /// <summary>t(0.975, df): a few topologies get a t-interval, not a normal one.</summary>
    private static double TQuantile(int df) =>
        new Perfolizer.Mathematics.Distributions.ContinuousDistributions.StudentDistribution(df).Quantile(
            new Pragmastat.Probability(0.975)
        );

    /// <summary>What keys a machine's series: CPU model and count, memory, OS (a run on another machine starts another series).</summary>
    private static string MachineKey(JsonElement manifest)
    {
        if (!manifest.TryGetProperty("machine", out var machine) || machine.ValueKind != JsonValueKind.Object)
        {
            return "unknown machine";
        }
        var memory = Number(machine, "memory_bytes") is { } bytes ? $"{bytes / (1L << 30):0} GiB" : "";
        return string.Join(
            ", ",
            new[]
            {
                $"{Text(machine, "cpu_model")} × {Text(machine, "cpu_count")}",
                memory,
                Text(machine, "os") ?? "",
            }.Where(s => s.Length > 0)
        );
    }

    /// <summary>
    /// What a site leaves in the run's zip: the raw spans (the zip's span store, or a folder's spans.jsonl) and their
    /// views (zipkin.json, spans.csv): almost all of a run's weight; and the nodes' logs. The page, summaries, tables, plots and profiles are published.
    /// </summary>
    public static bool StaysInTheZip(string pathInRun)
    {
        var path = pathInRun.Replace('\\', '/');
        var name = path[(path.LastIndexOf('/') + 1)..];
        return name is "spans.jsonl" or "zipkin.json" or "spans.csv" or Tracing.Store.SpanStore.FileName
            || name.EndsWith(".folded", StringComparison.Ordinal)
            || path.Contains("/logs/", StringComparison.Ordinal)
            || path.StartsWith("logs/", StringComparison.Ordinal);
    }

    private static void CopyFolder(string from, string to)
    {
        Directory.CreateDirectory(to);
        foreach (var file in Directory.GetFiles(from, "*", SearchOption.AllDirectories))
        {
            var path = Path.GetRelativePath(from, file);
            if (!StaysInTheZip(path))
            {
                Directory.CreateDirectory(Path.GetDirectoryName(Path.Combine(to, path))!);
                File.Copy(file, Path.Combine(to, path));
            }
        }
    }

    private static double? Number(JsonElement element, string name) =>
        element.TryGetProperty(name, out var value) && value.ValueKind == JsonValueKind.Number
            ? value.GetDouble()
            : null;

    private static string? Text(JsonElement element, string name) =>
        element.TryGetProperty(name, out var value)
            ? value.ValueKind == JsonValueKind.String
                ? value.GetString()
                : value.ToString()
            : null;

    private static string R(double v) => v.ToString("0.#", CultureInfo.InvariantCulture);

    private static string E(string? text) => WebUtility.HtmlEncode(text ?? "");
}
