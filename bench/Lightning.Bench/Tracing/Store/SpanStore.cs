using System.Text.Json;
using Lightning.Bench.Results;

namespace Lightning.Bench.Tracing.Store;

/// <summary>
/// spans.lnspans: every case's spans.jsonl of a run in one file, columnar, from which each comes back byte for byte.
/// The run's zip keeps spans only here (Reports/ArtifactZip); `--spans` writes the files and views back (Reports/SpanViews).
/// <para>
/// Layout: "LNSPANS" and a zero byte, the format version (a varint), then records, each starting with one byte:
/// 'C' a case (its folder under cases/ as a length-prefixed UTF-8 string, then <see cref="StoredCaseFlags"/>), followed
/// by its 'B' blocks (lines, column count, then per <see cref="SpanColumn"/> its <see cref="ColumnCodec"/>, raw length,
/// stored length and bytes) and one 'E' (line count, the bytes after the last newline, the SHA-256 of the case's file);
/// 'Z' ends the store. Numbers are LEB128 varints.
/// </para>
/// </summary>
internal static class SpanStore
{
    public const string FileName = "spans.lnspans";

    /// <summary>The format this harness writes; it reads this one and older.</summary>
    public const ulong Version = 1;

    public static ReadOnlySpan<byte> Magic => "LNSPANS\0"u8;

    public const byte CaseRecord = (byte)'C';
    public const byte BlockRecord = (byte)'B';
    public const byte CaseEndRecord = (byte)'E';
    public const byte EndRecord = (byte)'Z';

    /// <summary>Writes the store of the run folder <paramref name="runDirectory"/> to <paramref name="output"/>.</summary>
    public static StoreContents Write(string runDirectory, Stream output, ColumnCodec codec = ColumnCodec.Brotli)
    {
        var writer = new SpanStoreWriter(output, codec);
        foreach (var stored in CasesOf(runDirectory))
        {
            using var spans = File.OpenRead(SpansFile(runDirectory, stored.Folder));
            writer.AddCase(stored, spans);
        }
        return writer.Finish();
    }

    /// <summary>
    /// The run's cases that have a spans.jsonl, in the order the run read them (its manifest's; the rows of spans.csv
    /// follow it), then any others by name; each marked with whether the run wrote its views.
    /// </summary>
    public static IReadOnlyList<StoredCase> CasesOf(string runDirectory)
    {
        var casesDirectory = Path.Combine(runDirectory, "cases");
        if (!Directory.Exists(casesDirectory))
        {
            return [];
        }
        var withSpans = Directory.GetDirectories(casesDirectory).Select(Path.GetFileName).OfType<string>()
            .Where(folder => File.Exists(SpansFile(runDirectory, folder)))
            .Order(StringComparer.Ordinal).ToList();
        var ordered = RunOrder(runDirectory).Where(withSpans.Contains).Distinct().ToList();
        return ordered.Concat(withSpans.Except(ordered))
            .Select(folder => new StoredCase(folder, File.Exists(Path.Combine(casesDirectory, folder, Reports.ZipkinExport.FileName)) ? StoredCaseFlags.Views : StoredCaseFlags.None))
            .ToList();
    }

    public static string SpansFile(string runDirectory, string caseFolder) => Path.Combine(runDirectory, "cases", caseFolder, SpanJsonLines.FileName);

    private static IEnumerable<string> RunOrder(string runDirectory)
    {
        var path = Path.Combine(runDirectory, Manifest.FileName);
        try
        {
            return File.Exists(path) ? Manifest.Read(File.ReadAllText(path)).Cases.Select(c => CaseFolder.Of(c.Case)).ToList() : [];
        }
        catch (Exception e) when (e is JsonException or InvalidDataException)
        {
            // Without a readable manifest the cases go by name; the store still holds every line.
            return [];
        }
    }
}
