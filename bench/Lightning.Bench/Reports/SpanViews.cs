using System.Text.Json;
using Lightning.Bench.Csv;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Results;
using Lightning.Bench.Tracing;
using Lightning.Bench.Tracing.Store;

namespace Lightning.Bench.Reports;

/// <summary>
/// --spans RUN: writes back what a run's zip keeps only once, in its span store (spans.lnspans): each case's
/// spans.jsonl, byte for byte, and the views the run made from them (cases/CASE/zipkin.json, zipkin.json, spans.csv),
/// with the run's own writers, from the run's manifest.json (case keys, node kinds, run id) and payments.csv (the
/// payment hashes spans join by). Reads a zip or a folder, with a store or (older runs) a spans.jsonl per case.
/// </summary>
internal static class SpanViews
{
    /// <summary>Writes the files into <paramref name="outDirectory"/> (default: the run's folder; for a zip, the folder it unzips to); returns that folder.</summary>
    public static string Write(string runPath, string? outDirectory, NodeKindCatalog kinds)
    {
        var files = RunArchive.FileNames(runPath);
        var output = Path.GetFullPath(outDirectory ?? (Directory.Exists(runPath) ? runPath : DefaultFolder(runPath)));
        var manifest = ReadManifest(runPath);
        var hasStore = files.Contains(SpanStore.FileName);
        var cases = hasStore ? [] : SpanStore.CasesOf(files, manifest);
        if (!hasStore && cases.Count == 0)
        {
            throw new InvalidDataException(
                $"{runPath} has no spans: neither {SpanStore.FileName} nor cases/CASE/{SpanJsonLines.FileName} (was it run with traces off?)"
            );
        }
        var written = Directory.Exists(output) ? Written(output).FirstOrDefault() : null;
        if (written is not null)
        {
            throw new IOException(
                $"{Path.Combine(output, written)} already exists: give --out an empty folder (the files are never overwritten)"
            );
        }
        var payments = PaymentsByCase(runPath, files);
        var outputExisted = Directory.Exists(output);
        var createdFolders = new List<string>();
        try
        {
            void Views(string folder) => WriteViews(output, folder, manifest, payments, kinds);
            string Create(string caseFolder) => SpansPath(output, caseFolder, createdFolders);
            if (hasStore)
            {
                using var store = RunArchive.OpenRead(runPath, SpanStore.FileName);
                var name = Directory.Exists(runPath)
                    ? Path.Combine(runPath, SpanStore.FileName)
                    : $"{runPath}: {SpanStore.FileName}";
                var stored = new List<StoredCase>();
                SpanStoreReader.Read(
                    store,
                    name,
                    c =>
                    {
                        stored.Add(c);
                        return File.Create(Create(c.Folder));
                    }
                );
                foreach (var c in stored.Where(c => c.HasViews))
                {
                    Views(c.Folder);
                }
            }
            else
            {
                foreach (var c in cases)
                {
                    using (var source = RunArchive.OpenRead(runPath, $"cases/{c.Folder}/{SpanJsonLines.FileName}"))
                    using (var target = File.Create(Create(c.Folder)))
                    {
                        source.CopyTo(target);
                    }
                    if (c.HasViews)
                    {
                        Views(c.Folder);
                    }
                }
            }
            ZipkinExport.MergeCases(output);
        }
        catch
        {
            // Nothing half written stays: the files were not there before, so they are all this command's.
            foreach (var file in Written(output).ToList())
            {
                File.Delete(Path.Combine(output, file));
            }
            foreach (
                var folder in createdFolders
                    .AsEnumerable()
                    .Reverse()
                    .Where(f => Directory.Exists(f) && !Directory.EnumerateFileSystemEntries(f).Any())
            )
            {
                Directory.Delete(folder);
            }
            if (
                !outputExisted
                && Directory.Exists(output)
                && !Directory.EnumerateFileSystemEntries(output, "*", SearchOption.AllDirectories).Any(File.Exists)
            )
            {
                Directory.Delete(output, recursive: true);
            }
            throw;
        }
        return output;
    }

    /// <summary>A case's zipkin.json and its rows of spans.csv, as the run's case outputs wrote them from its spans.jsonl.</summary>
    private static void WriteViews(
        string output,
        string folder,
        Manifest? manifest,
        IReadOnlyDictionary<string, IReadOnlyList<CsvRow>> payments,
        NodeKindCatalog kinds
    )
    {
        var record =
            manifest?.Cases.LastOrDefault(c => CaseFolder.Of(c.Case) == folder)
            ?? throw new InvalidDataException(
                $"the run's manifest.json has no case for cases/{folder}, so its zipkin.json and spans.csv rows cannot be written: is the zip complete?"
            );
        var nodeKinds =
            record.NodeKinds.Count > 0
                ? record.NodeKinds
                : record.NodeImages.Keys.ToDictionary(n => n, _ => Topology.NodeSpec.DefaultKind);
        var join =
            TopologyTraceJoin.Of(nodeKinds.Select(p => (p.Key, p.Value)), kinds)
            ?? throw new InvalidDataException(
                $"cases/{folder}: none of its nodes' kinds ({string.Join(", ", nodeKinds.Values.Distinct())}) has spans, yet the run wrote their views"
            );
        // Payment ids by payment hash, the first payment of each hash (PaymentSteps.ByHash), from the case's rows.
        var byHash = (payments.GetValueOrDefault(record.Case) ?? [])
            .Where(r => r["payment_hash"].Length > 0)
            .GroupBy(r => r["payment_hash"])
            .ToDictionary(
                g => g.Key,
                g => long.Parse(g.First()["payment_id"], System.Globalization.CultureInfo.InvariantCulture)
            );
        var spansFile = SpanStore.SpansFile(output, folder);
        using (var rows = new SpansCsv().Open(output, record.Case, join))
        {
            foreach (var span in TraceAnalysis.ReadSpans(spansFile))
            {
                rows.Write(span, join.PaymentOf(span, byHash));
            }
        }
        ZipkinExport.Write(
            Path.Combine(output, "cases", folder, ZipkinExport.FileName),
            () => TraceAnalysis.ReadSpans(spansFile),
            s => join.PaymentOf(s, byHash),
            manifest.RunId
        );
    }

    /// <summary>The folder a zip unzips to: results/RUN.zip → results/RUN.</summary>
    private static string DefaultFolder(string zipPath) =>
        zipPath.EndsWith(".zip", StringComparison.OrdinalIgnoreCase) ? zipPath[..^4] : zipPath + "-spans";

    /// <summary>The files --spans writes that <paramref name="output"/> has, relative to it.</summary>
    private static IEnumerable<string> Written(string output)
    {
        foreach (
            var file in new[] { ZipkinExport.FileName, SpansCsv.FileName }.Where(f =>
                File.Exists(Path.Combine(output, f))
            )
        )
        {
            yield return file;
        }
        var cases = Path.Combine(output, "cases");
        if (!Directory.Exists(cases))
        {
            yield break;
        }
        foreach (
            var file in Directory
                .GetDirectories(cases)
                .Order(StringComparer.Ordinal)
                .SelectMany(d =>
                    new[] { SpanJsonLines.FileName, ZipkinExport.FileName }.Select(f => Path.Combine(d, f))
                )
                .Where(File.Exists)
        )
        {
            yield return Path.GetRelativePath(output, file);
        }
    }

    /// <summary>Where a case's spans.jsonl goes, its folder made (and noted in <paramref name="created"/>) if needed.</summary>
    private static string SpansPath(string output, string caseFolder, List<string> created)
    {
        var path = SpanStore.SpansFile(output, caseFolder);
        // A folder name from the store is one name under cases/, never a path out of it.
        if (caseFolder.Length == 0 || caseFolder != Path.GetFileName(caseFolder) || caseFolder is "." or "..")
        {
            throw new InvalidDataException(
                $"the span store names a case folder '{caseFolder}', which is not a folder name"
            );
        }
        var folder = Path.GetDirectoryName(path)!;
        foreach (var needed in new[] { Path.GetDirectoryName(folder)!, folder }.Where(f => !Directory.Exists(f)))
        {
            Directory.CreateDirectory(needed);
            created.Add(needed);
        }
        return path;
    }

    private static Manifest? ReadManifest(string runPath)
    {
        try
        {
            return Manifest.Read(RunArchive.ReadText(runPath, Manifest.FileName));
        }
        catch (FileNotFoundException)
        {
            return null;
        }
        catch (JsonException e)
        {
            throw new InvalidDataException(
                $"{runPath}: manifest.json does not read ({e.Message.Split('.')[0]}): is it a Lightning.Bench run?"
            );
        }
    }

    /// <summary>payments.csv's rows by case (the run's join keys); none when the run has no payments.csv.</summary>
    private static IReadOnlyDictionary<string, IReadOnlyList<CsvRow>> PaymentsByCase(
        string runPath,
        IReadOnlyList<string> files
    ) =>
        files.Contains(PaymentCsv.FileName)
            ? CsvReader
                .Parse(RunArchive.ReadText(runPath, PaymentCsv.FileName))
                .GroupBy(r => r["case"])
                .ToDictionary(g => g.Key, g => (IReadOnlyList<CsvRow>)g.ToList())
            : new Dictionary<string, IReadOnlyList<CsvRow>>();
}
