using System.Diagnostics;
using System.Globalization;
using Lightning.Bench.Reports;
using Lightning.Bench.Tracing.Store;

namespace Lightning.Bench.TraceStress;

/// <summary>
/// The span store on a real run folder (benchmarks/span-store.sh): encodes every case's spans.jsonl, decodes the store
/// and compares each case with its file byte for byte, then makes the run's zip as a run would (in a scratch folder, or
/// --zip FILE: the run's folder may be read-only) and, to compare, a zip of every file as runs made it before the
/// store, and prints the figures. Figures, not a test: the times depend on the machine.
/// </summary>
public static class StoreBenchmark
{
    public static int Run(string runDirectory, string codecName, string? zipPath)
    {
        if (!Directory.Exists(Path.Combine(runDirectory, "cases")))
        {
            Console.Error.WriteLine(
                $"trace-stress: {runDirectory} has no cases/ folder: give a run's folder (results/RUN-SCENARIO)"
            );
            return 2;
        }
        ColumnCodec? chosen = codecName switch
        {
            "brotli" => ColumnCodec.Brotli,
            "deflate" => ColumnCodec.Deflate,
            "stored" => ColumnCodec.Stored,
            _ => null,
        };
        if (chosen is not { } codec)
        {
            Console.Error.WriteLine($"trace-stress: --codec {codecName}: give brotli, deflate or stored");
            return 2;
        }
        var scratch = Directory.CreateTempSubdirectory("lnbench-store-").FullName;
        try
        {
            var cases = SpanStore.CasesOf(runDirectory);
            var raw = cases.Sum(c => new FileInfo(SpanStore.SpansFile(runDirectory, c.Folder)).Length);
            var storePath = Path.Combine(scratch, SpanStore.FileName);
            var clock = Stopwatch.StartNew();
            StoreContents contents;
            long[] columnBytes;
            using (var output = File.Create(storePath))
            {
                var writer = new SpanStoreWriter(output, codec);
                foreach (var stored in cases)
                {
                    using var spans = File.OpenRead(SpanStore.SpansFile(runDirectory, stored.Folder));
                    writer.AddCase(stored, spans);
                }
                contents = writer.Finish();
                columnBytes = writer.ColumnBytes;
            }
            var encodeSeconds = clock.Elapsed.TotalSeconds;

            clock.Restart();
            var decodedDirectory = Directory.CreateDirectory(Path.Combine(scratch, "decoded")).FullName;
            using (var input = File.OpenRead(storePath))
            {
                SpanStoreReader.Read(
                    input,
                    storePath,
                    stored => File.Create(Path.Combine(decodedDirectory, stored.Folder + ".jsonl"))
                );
            }
            var decodeSeconds = clock.Elapsed.TotalSeconds;
            var differing = new List<string>();
            var exactLines = 0L;
            foreach (var stored in cases)
            {
                var original = SpanStore.SpansFile(runDirectory, stored.Folder);
                if (
                    File.ReadAllBytes(Path.Combine(decodedDirectory, stored.Folder + ".jsonl"))
                        .AsSpan()
                        .SequenceEqual(File.ReadAllBytes(original))
                )
                {
                    exactLines += File.ReadLines(original).LongCount();
                }
                else
                {
                    differing.Add(stored.Folder);
                }
            }

            clock.Restart();
            var zip = ArtifactZip.Create(
                runDirectory,
                zipPath ?? Path.Combine(scratch, Path.GetFileName(Path.GetFullPath(runDirectory).TrimEnd('/')) + ".zip")
            );
            var zipSeconds = clock.Elapsed.TotalSeconds;
            // The zip as it was before the store: every file of the folder, spans three times.
            var everything = Path.Combine(scratch, "everything.zip");
            clock.Restart();
            System.IO.Compression.ZipFile.CreateFromDirectory(
                runDirectory,
                everything,
                System.IO.Compression.CompressionLevel.Optimal,
                includeBaseDirectory: true
            );
            var everythingSeconds = clock.Elapsed.TotalSeconds;
            var storeBytes = new FileInfo(storePath).Length;
            static string Mb(long bytes) => (bytes / 1e6).ToString("0.00", CultureInfo.InvariantCulture);
            Console.WriteLine(
                string.Create(
                    CultureInfo.InvariantCulture,
                    $"""
                    run: {runDirectory}
                    cases: {contents.Cases}; lines: {contents.Lines} ({contents.SpanLines} as span columns, {contents.PayloadLines} with their payload verbatim, {contents.VerbatimLines} verbatim)
                    spans.jsonl: {Mb(raw)} MB; store ({codecName}): {Mb(storeBytes)} MB ({(double)raw
                        / storeBytes:0.0}x)
                    encode: {encodeSeconds:0.0} s; decode: {decodeSeconds:0.0} s
                    decoded byte for byte: {exactLines} of {contents.Lines} lines; cases that differ: {(
                        differing.Count == 0 ? "none" : string.Join(", ", differing)
                    )}
                    zip: {Mb(
                        new FileInfo(zip).Length
                    )} MB in {zipSeconds:0.0} s (its store, brotli, and the other files); every file zipped as before: {Mb(
                        new FileInfo(everything).Length
                    )} MB in {everythingSeconds:0.0} s
                    columns (MB): {string.Join(
                        ", ",
                        Enum.GetValues<SpanColumn>().Select(c => $"{c} {Mb(columnBytes[(int)c])}")
                    )}
                    """
                )
            );
            return differing.Count == 0 && exactLines == contents.Lines ? 0 : 1;
        }
        finally
        {
            Directory.Delete(scratch, recursive: true);
        }
    }
}
