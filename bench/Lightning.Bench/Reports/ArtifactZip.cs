using System.IO.Compression;
using Lightning.Bench.Processes;
using Lightning.Bench.Tracing;
using Lightning.Bench.Tracing.Store;

namespace Lightning.Bench.Reports;

/// <summary>
/// The run folder as one zip beside it (results/RUN.zip), for someone else to read and replay; made last, unless --no-zip.
/// Each fact is in it once: every case's spans.jsonl goes into one span store (spans.lnspans, a sixteenth of their size),
/// and the views made from them (cases/CASE/zipkin.json, zipkin.json, spans.csv) are left out, as `--spans RUN.zip`
/// writes them all back. The run folder keeps everything.
/// </summary>
internal sealed class ArtifactZip : IRunEndOutput
{
    public IReadOnlyList<string> Files => ["../RUN.zip"];

    /// <summary>
    /// Test-only: a file path; the zip step, its first entries written to its temporary file, says so on the console
    /// ("zip: held for a test") and waits (up to 2 minutes) until that file exists, so a test can signal the harness
    /// while it zips (docs/tests.md).
    /// </summary>
    public const string TestHoldVariable = "LNBENCH_TEST_HOLD_ZIP";

    public Task WriteAsync(RunOutputContext context, CancellationToken ct = default)
    {
        if (context.Options.Zip)
        {
            context.Progress.Info($"artifact: {Create(context.ResultsDirectory, midway: TestHold(context.Progress))}");
        }
        return Task.CompletedTask;
    }

    /// <summary>
    /// Zips the run folder <paramref name="runDirectory"/> into <paramref name="zipPath"/> (default: beside it, RUN.zip),
    /// through a temporary file renamed when the zip is whole (<see cref="AtomicFile"/>): a zip under that name is never
    /// cut short. Returns the zip's path.
    /// </summary>
    /// <param name="midway">Called once the first entries are on disk (a test's hold).</param>
    public static string Create(string runDirectory, string? zipPath = null, Action? midway = null)
    {
        runDirectory = Path.GetFullPath(runDirectory).TrimEnd(Path.DirectorySeparatorChar);
        var zip = zipPath ?? runDirectory + ".zip";
        AtomicFile.Write(zip, file => Write(runDirectory, file, midway));
        return zip;
    }

    private static void Write(string runDirectory, FileStream file, Action? midway)
    {
        var root = Path.GetFileName(runDirectory);
        var stored = SpanStore.CasesOf(runDirectory);
        var leftOut = LeftOut(runDirectory, stored);
        using var archive = new ZipArchive(file, ZipArchiveMode.Create, leaveOpen: true);
        var files = new List<string>();
        if (stored.Count > 0)
        {
            // Already compressed, column by column.
            using var store = archive
                .CreateEntry($"{root}/{SpanStore.FileName}", CompressionLevel.NoCompression)
                .Open();
            SpanStore.Write(runDirectory, store);
            files.Add(SpanStore.FileName);
        }
        foreach (
            var entry in new DirectoryInfo(runDirectory).EnumerateFileSystemInfos("*", SearchOption.AllDirectories)
        )
        {
            var relative = Path.GetRelativePath(runDirectory, entry.FullName).Replace(Path.DirectorySeparatorChar, '/');
            if (entry is DirectoryInfo directory)
            {
                if (!directory.EnumerateFileSystemInfos().Any())
                {
                    archive.CreateEntry($"{root}/{relative}/");
                }
            }
            else if (
                !leftOut.Contains(relative)
                && relative != ReportHtml.FileName
                && !(stored.Count > 0 && relative == SpanStore.FileName)
                && !AtomicFile.IsUnfinished(relative)
            )
            {
                // Optimal, not Fastest: the other files of a default run (AlicePaysBob, 3 concurrencies × 8 topologies)
                // shrink from 3.9 MB to 0.8 MB.
                archive.CreateEntryFromFile(entry.FullName, $"{root}/{relative}", CompressionLevel.Optimal);
                files.Add(relative);
                if (midway is not null)
                {
                    file.Flush();
                    midway();
                    midway = null;
                }
            }
        }
        if (File.Exists(Path.Combine(runDirectory, ReportHtml.FileName)))
        {
            // The zip's page links to the zip's files (the folder's page also lists the views the zip leaves out).
            using var page = new StreamWriter(
                archive.CreateEntry($"{root}/{ReportHtml.FileName}", CompressionLevel.Optimal).Open()
            );
            page.Write(ReportHtml.Render(runDirectory, files));
        }
    }

    private static Action? TestHold(Progress.RunProgress progress)
    {
        if (Environment.GetEnvironmentVariable(TestHoldVariable) is not { Length: > 0 } marker)
        {
            return null;
        }
        return () =>
        {
            progress.Info($"zip: held for a test until {marker} exists");
            var deadline = DateTime.UtcNow + TimeSpan.FromMinutes(2);
            while (!File.Exists(marker) && DateTime.UtcNow < deadline)
            {
                Thread.Sleep(50);
            }
        };
    }

    /// <summary>
    /// The files `--spans` writes back from the store and the run's manifest.json and payments.csv: every stored
    /// spans.jsonl, and the views of the cases the store marks as having them, the run-wide ones only if every case
    /// with views is stored.
    /// </summary>
    private static HashSet<string> LeftOut(string runDirectory, IReadOnlyList<StoredCase> stored)
    {
        var leftOut = stored
            .Select(c => $"cases/{c.Folder}/{SpanJsonLines.FileName}")
            .ToHashSet(StringComparer.Ordinal);
        if (
            stored.Count == 0
            || !File.Exists(Path.Combine(runDirectory, Results.Manifest.FileName))
            || !File.Exists(Path.Combine(runDirectory, PaymentCsv.FileName))
        )
        {
            return leftOut;
        }
        var withViews = stored.Where(c => c.HasViews).Select(c => c.Folder).ToHashSet(StringComparer.Ordinal);
        leftOut.UnionWith(withViews.Select(folder => $"cases/{folder}/{ZipkinExport.FileName}"));
        var casesWithViews = Directory
            .GetDirectories(Path.Combine(runDirectory, "cases"))
            .Where(d => File.Exists(Path.Combine(d, ZipkinExport.FileName)))
            .Select(Path.GetFileName);
        if (casesWithViews.All(folder => withViews.Contains(folder!)))
        {
            leftOut.Add(ZipkinExport.FileName);
            leftOut.Add(SpansCsv.FileName);
        }
        return leftOut;
    }
}
