using System.IO.Compression;
using System.Text.RegularExpressions;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Progress;
using Lightning.Bench.Reports;
using Lightning.Bench.Results;
using Lightning.Bench.Tracing;
using Lightning.Bench.Tracing.Store;

namespace Lightning.Bench.Tests;

/// <summary>
/// The zip keeps each span once, in its span store, and `--spans` writes back each case's spans.jsonl and the views
/// (cases/CASE/zipkin.json, zipkin.json, spans.csv) exactly as the run folder has them; from a new zip, an older zip
/// and a folder. The run folder here is written by the run's own case outputs from the real spans of SpanSamples/.
/// </summary>
[Trait("Category", "Unit")]
public partial class SpanViewsTests : IDisposable
{
    private const string RunId = "20261124-024902-7680";

    /// <summary>The cases in the order the run read them (not the order of their names); the third was cut off by a signal.</summary>
    private static readonly string[] CaseKeys =
    [
        "Build=cln:v26.06.6-O2, Concurrency=4, Topology=2, Traces=on",
        "Build=cln:v26.06.6-O2, Concurrency=1, Topology=1, Traces=on",
        "Build=cln:v26.06.6-O2, Concurrency=4, Topology=9, Traces=on",
        "Build=cln:v26.06.6-O2, Concurrency=10, Topology=3, Traces=on",
    ];

    private static readonly string[] ViewFiles = [ZipkinExport.FileName, SpansCsv.FileName];

    private readonly string directory = Directory.CreateTempSubdirectory("lnbench-span-views-").FullName;

    [Fact]
    public void The_zip_keeps_spans_once_and_spans_writes_back_what_the_run_folder_has()
    {
        var run = WriteRun();
        var zip = ArtifactZip.Create(run);

        using (var archive = ZipFile.OpenRead(zip))
        {
            var names = archive.Entries.Select(e => e.FullName).ToList();
            Assert.Contains($"{Path.GetFileName(run)}/{SpanStore.FileName}", names);
            Assert.DoesNotContain(
                names,
                n =>
                    n.EndsWith($"/{SpanJsonLines.FileName}", StringComparison.Ordinal)
                    || n.EndsWith($"/{ZipkinExport.FileName}", StringComparison.Ordinal)
                    || n.EndsWith($"/{SpansCsv.FileName}", StringComparison.Ordinal)
            );
            // Everything else stays, each file once.
            var kept = RunFiles(run)
                .Where(f => !IsSpanFile(f))
                .Select(f => $"{Path.GetFileName(run)}/{f}")
                .Append($"{Path.GetFileName(run)}/{SpanStore.FileName}");
            Assert.Equal(kept.Order(StringComparer.Ordinal), names.Order(StringComparer.Ordinal));
            using var page = new StreamReader(
                archive.GetEntry($"{Path.GetFileName(run)}/{ReportHtml.FileName}")!.Open()
            );
            var html = page.ReadToEnd();
            Assert.Contains("./run.sh --spans RUN.zip", html);
            Assert.DoesNotContain($"href=\"{SpansCsv.FileName}\"", html);
            Assert.Contains($"href=\"{SpanStore.FileName}\"", html);
        }

        var output = Path.Combine(directory, "out");
        Assert.Equal(0, Program.Run(["--spans", zip, "--out", output], NodeKindCatalog.Default));

        AssertSameSpanFiles(run, output);
        Assert.False(
            File.Exists(Path.Combine(output, "cases", CaseFolder.Of(CaseKeys[2]), ZipkinExport.FileName)),
            "the case cut off by a signal had no views"
        );
    }

    [Fact]
    public void Spans_reads_an_older_zip_and_an_unzipped_folder_and_writes_into_that_folder_by_default()
    {
        var run = WriteRun();
        var older = Path.Combine(directory, "older.zip");
        ZipFile.CreateFromDirectory(run, older, CompressionLevel.Fastest, includeBaseDirectory: true);
        Assert.Equal(
            0,
            Program.Run(["--spans", older, "--out", Path.Combine(directory, "from-older")], NodeKindCatalog.Default)
        );
        AssertSameSpanFiles(run, Path.Combine(directory, "from-older"));

        var unzipped = Path.Combine(directory, "unzipped");
        ZipFile.ExtractToDirectory(ArtifactZip.Create(run), unzipped);
        var folder = Path.Combine(unzipped, Path.GetFileName(run));
        Assert.Equal(0, Program.Run(["--spans", folder], NodeKindCatalog.Default));
        AssertSameSpanFiles(run, folder);
        Assert.True(File.Exists(Path.Combine(folder, SpanStore.FileName)));

        // That folder zipped again: one store, made anew, and the same files back from it.
        var again = ArtifactZip.Create(folder, Path.Combine(directory, "again.zip"));
        using (var archive = ZipFile.OpenRead(again))
        {
            Assert.Single(archive.Entries, e => e.FullName.EndsWith(SpanStore.FileName, StringComparison.Ordinal));
        }
        Assert.Equal(
            0,
            Program.Run(["--spans", again, "--out", Path.Combine(directory, "from-again")], NodeKindCatalog.Default)
        );
        AssertSameSpanFiles(run, Path.Combine(directory, "from-again"));
    }

    [Fact]
    public void Spans_refuses_bad_input_saying_what_to_do_and_leaves_nothing_half_written()
    {
        var run = WriteRun();
        var zip = ArtifactZip.Create(run);
        string Refused<T>(string path, string? output = null)
            where T : Exception =>
            Assert.Throws<T>(() => SpanViews.Write(path, output, NodeKindCatalog.Default)).Message;

        Assert.Equal(
            $"{run}/missing.zip does not exist: give a run's zip or folder (results/RUN.zip)",
            Refused<FileNotFoundException>(Path.Combine(run, "missing.zip"))
        );
        Assert.Equal(
            $"{run}/manifest.json is not a zip: give a run's zip or folder (results/RUN.zip)",
            Refused<InvalidDataException>(Path.Combine(run, Manifest.FileName))
        );
        var empty = Directory.CreateDirectory(Path.Combine(directory, "empty")).FullName;
        Assert.StartsWith(
            $"{empty} has no spans: neither spans.lnspans nor cases/CASE/spans.jsonl",
            Refused<InvalidDataException>(empty)
        );
        // The run folder has every file --spans writes: it is never written over.
        Assert.Equal(
            $"{run}/{ZipkinExport.FileName} already exists: give --out an empty folder (the files are never overwritten)",
            Refused<IOException>(zip, run)
        );

        // A store cut short: nothing of it stays in the folder it was to go to.
        var unzipped = Path.Combine(directory, "unzipped");
        ZipFile.ExtractToDirectory(zip, unzipped);
        var folder = Path.Combine(unzipped, Path.GetFileName(run));
        var store = Path.Combine(folder, SpanStore.FileName);
        File.WriteAllBytes(store, File.ReadAllBytes(store)[..^40]);
        var before = RunFiles(folder);
        Assert.Equal(
            $"{store} ends early: the span store is cut short (copy it again)",
            Refused<InvalidDataException>(folder)
        );
        Assert.Equal(before, RunFiles(folder));
        Assert.Equal(HarnessExit.Usage, Program.Run(["--spans", folder], NodeKindCatalog.Default));
        Assert.Equal(HarnessExit.Failure, Program.Run(["--spans", zip, "--out", run], NodeKindCatalog.Default));
    }

    [Fact]
    public async Task A_bad_run_path_is_one_line_on_stderr_and_exit_code_2()
    {
        using var harness = HarnessProcess.Start("--spans", Path.Combine(directory, "missing.zip"));

        Assert.Equal(HarnessExit.Usage, await harness.WaitForExitAsync(TimeSpan.FromMinutes(2)));
        Assert.Equal(
            $"lnbench: error: {directory}/missing.zip does not exist: give a run's zip or folder (results/RUN.zip)",
            harness.Output
        );
    }

    [Fact]
    public void Out_needs_spans()
    {
        Assert.Equal(
            "--out says where --spans writes: add --spans RUN.zip (or drop --out)",
            Assert
                .Throws<Lightning.Bench.Progress.UsageException>(() => Options.OptionParser.Parse(["--out", "x"]))
                .Message
        );
        Assert.Equal(
            ("run.zip", "x"),
            (
                Options.OptionParser.Parse(["--spans", "run.zip", "--out", "x"]).Spans,
                Options.OptionParser.Parse(["--spans", "run.zip", "--out", "x"]).SpansOut
            )
        );
    }

    /// <summary>
    /// A run folder as a run leaves it: the sample cases' spans.jsonl (one case with a payment_hash span and a malformed
    /// line added, one cut off by a signal), read by the run's case outputs in the run's order, the run-end zipkin.json
    /// and manifest.json, and its page.
    /// </summary>
    private string WriteRun()
    {
        var run = Directory.CreateDirectory(Path.Combine(directory, $"{RunId}-AlicePaysBob")).FullName;
        var samples = SpanStoreTests.SampleCases().ToDictionary(c => c.Folder, c => c.Spans);
        foreach (var key in CaseKeys)
        {
            var folder = CaseFolder.Of(key);
            var caseDirectory = Directory.CreateDirectory(Path.Combine(run, "cases", folder)).FullName;
            File.WriteAllText(Path.Combine(caseDirectory, "docker-compose.yml"), "services: {}\n");
            var spansFile = Path.Combine(caseDirectory, SpanJsonLines.FileName);
            var spans = samples.TryGetValue(folder, out var sample) ? sample : samples.Values.First()[..2000];
            File.WriteAllBytes(spansFile, spans);
            var payments = XpayId()
                .Matches(System.Text.Encoding.UTF8.GetString(spans))
                .Select(m => long.Parse(m.Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture))
                .Distinct()
                .Select(id => Payment(key, id, $"{id:x64}"))
                .ToList();
            if (key == CaseKeys[1])
            {
                // A span that names its payment by hash (xpay/* of later Core Lightning), and a payload that is no span.
                payments.Add(Payment(key, 9999, new string('e', 64)));
                File.AppendAllText(
                    spansFile,
                    "{\"node\":\"alice\",\"recv_us\":1795488550300000,\"payload\":\""
                        + SpanPayloads
                            .Valid(
                                "xpay/pay",
                                1795488550200000,
                                1000,
                                "00000000000000aa",
                                null,
                                ("payment_hash", new string('e', 64))
                            )
                            .Replace("\"", "\\\"", StringComparison.Ordinal)
                        + "\"}\n"
                );
                File.AppendAllText(
                    spansFile,
                    "{\"node\":\"bob\",\"recv_us\":1795488550300001,\"payload\":\""
                        + SpanPayloads.UnescapedQuote().Replace("\"", "\\\"", StringComparison.Ordinal)
                        + "\"}\n"
                );
            }
            if (key != CaseKeys[2])
            {
                Report(run, key, spansFile, payments);
            }
        }
        ZipkinExport.MergeCases(run);
        WriteManifest(run);
        ReportHtml.Write(run);
        return run;
    }

    /// <summary>What CaseReporter does at a case's end: the spans read once into the span outputs, then the case outputs.</summary>
    private static void Report(string run, string key, string spansFile, IReadOnlyList<OperationRecord> payments)
    {
        var results = new CaseResults(key, 1);
        foreach (var payment in payments)
        {
            results.StartInvocation();
            results.Add(payment);
        }
        results.Complete(warmups: 0, iterations: payments.Count);
        var join = TopologyTraceJoin.Of(
            [("alice", NodeKindCatalog.DefaultKind), ("bob", NodeKindCatalog.DefaultKind)],
            NodeKindCatalog.Default
        )!;
        var byHash = PaymentSteps.ByHash(results.Records);
        var steps = new PaymentSteps(join, byHash);
        var writers = RunOutputs.Spans.Select(o => o.Open(run, key, join)).ToList();
        var analysis = TraceAnalysis.Scan(
            spansFile,
            span =>
            {
                var payment = steps.Add(span);
                writers.ForEach(w => w.Write(span, payment));
            }
        );
        writers.ForEach(w => w.Dispose());
        var spans = new CaseSpans(
            Path.GetDirectoryName(spansFile)!,
            spansFile,
            join,
            byHash,
            steps,
            [],
            [],
            double.NaN,
            [],
            analysis.MalformedSamples
        );
        RunOutputs.WriteCase(new CaseOutputContext(RunId, run, results, spans));
    }

    private static OperationRecord Payment(string key, long id, string hash)
    {
        var start = DateTimeOffset.UnixEpoch.AddSeconds(1_795_488_550 + id);
        return new OperationRecord(
            key,
            1,
            id,
            "alice",
            "bob",
            start,
            start.AddMilliseconds(3),
            start.AddMilliseconds(50),
            hash,
            OperationOutcome.Succeeded,
            null
        );
    }

    private static void WriteManifest(string run) =>
        new Manifest
        {
            RunId = RunId,
            HarnessVersion = "1.0.0",
            Arguments = ["AlicePaysBob"],
            CommandLine = "./run.sh AlicePaysBob",
            Scenario = "AlicePaysBob",
            Parameters = new Dictionary<string, IReadOnlyList<int>> { ["Concurrency"] = [1, 4, 10] },
            Iterations = 10,
            Warmups = 1,
            AmountMsat = 1000,
            Traces = ["on"],
            Invoices = "in payment",
            Builds =
            [
                new BuildRecord("cln:v26.06.6-O2", "lnbench-local/cln:v26.06.6-O2", new Dictionary<string, string>()),
            ],
            BitcoindImage = "lnbench-local/bitcoind:31.99",
            Images = [],
            Cases = CaseKeys
                .Select(key => new CaseRecord(
                    key,
                    "lnbench-1",
                    new Dictionary<string, string> { ["alice"] = "x", ["bob"] = "x" },
                    new Dictionary<string, string>(),
                    DateTimeOffset.UnixEpoch,
                    DateTimeOffset.UnixEpoch
                )
                {
                    NodeKinds = new Dictionary<string, string>
                    {
                        ["alice"] = NodeKindCatalog.DefaultKind,
                        ["bob"] = NodeKindCatalog.DefaultKind,
                    },
                })
                .ToList(),
            Machine = MachineRecord.Collect("29.0", "1.51", "docker compose 2.40"),
            Started = DateTimeOffset.UnixEpoch,
            Ended = DateTimeOffset.UnixEpoch,
            Partial = false,
        }.Write(run);

    /// <summary>Every span file and view of <paramref name="expected"/> is in <paramref name="actual"/> with the same bytes, and no other.</summary>
    private static void AssertSameSpanFiles(string expected, string actual)
    {
        var files = RunFiles(expected).Where(IsSpanFile).ToList();
        Assert.Equal(4 + 3 + 2, files.Count);
        Assert.Equal(files, RunFiles(actual).Where(IsSpanFile));
        foreach (var file in files)
        {
            Assert.True(
                File.ReadAllBytes(Path.Combine(expected, file))
                    .AsSpan()
                    .SequenceEqual(File.ReadAllBytes(Path.Combine(actual, file))),
                $"{file} differs"
            );
        }
    }

    private static bool IsSpanFile(string path) =>
        ViewFiles.Contains(path) || path.Split('/') is ["cases", _, SpanJsonLines.FileName or ZipkinExport.FileName];

    private static List<string> RunFiles(string folder) =>
        Directory
            .GetFiles(folder, "*", SearchOption.AllDirectories)
            .Select(f => Path.GetRelativePath(folder, f).Replace('\\', '/'))
            .Order(StringComparer.Ordinal)
            .ToList();

    [GeneratedRegex(@"lnbench:xpay#(\d+)/")]
    private static partial Regex XpayId();

    public void Dispose() => Directory.Delete(directory, recursive: true);
}
