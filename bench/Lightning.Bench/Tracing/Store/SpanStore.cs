using System.Security.Cryptography;
using System.Text;
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
/// stored length and bytes) and one 'E' (line count, the bytes after the last newline, the SHA-256 of the case's folder
/// name, flags and file);
/// 'Z' ends the store. Numbers are LEB128 varints.
/// </para>
/// </summary>
internal static class SpanStore
{
    public const string FileName = "spans.lnspans";

    /// <summary>A case's spans as Zipkin JSON (Reports/ZipkinExport.cs writes it): a case that has it has its span views.</summary>
    public const string ZipkinViewFile = "zipkin.json";

    /// <summary>The format this harness writes; it reads this one and older.</summary>
    public const ulong Version = 1;

    public static ReadOnlySpan<byte> Magic => "LNSPANS\0"u8;

    public const byte CaseRecord = (byte)'C';
    public const byte BlockRecord = (byte)'B';
    public const byte CaseEndRecord = (byte)'E';
    public const byte EndRecord = (byte)'Z';

    /// <summary>The hash a case ends with, over its folder's name, its flags and then its file: damage to any of them is found.</summary>
    public static IncrementalHash CaseHash(StoredCase stored)
    {
        var hash = IncrementalHash.CreateHash(HashAlgorithmName.SHA256);
        hash.AppendData(Encoding.UTF8.GetBytes($"{stored.Folder}\n{(int)stored.Flags}\n"));
        return hash;
    }

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

    /// <summary>The cases of the run folder <paramref name="runDirectory"/> that have a spans.jsonl (see <see cref="CasesOf(IReadOnlyList{string}, Manifest?)"/>).</summary>
    public static IReadOnlyList<StoredCase> CasesOf(string runDirectory)
    {
        var path = Path.Combine(runDirectory, Manifest.FileName);
        Manifest? manifest = null;
        try
        {
            manifest = File.Exists(path) ? Manifest.Read(File.ReadAllText(path)) : null;
        }
        catch (Exception e) when (e is JsonException or InvalidDataException)
        {
            // Without a readable manifest the cases go by name; the store still holds every line.
        }
        return CasesOf(
            Directory.Exists(runDirectory)
                ? Directory
                    .GetFiles(runDirectory, "*", SearchOption.AllDirectories)
                    .Select(f => Path.GetRelativePath(runDirectory, f).Replace('\\', '/'))
                    .ToList()
                : [],
            manifest
        );
    }

    /// <summary>
    /// The cases among a run's <paramref name="files"/> (paths in the run's folder) that have a spans.jsonl, in the order
    /// the run read them (its manifest's, which the rows of spans.csv follow), then any others by name; each marked with
    /// whether the run wrote its views (cases/CASE/zipkin.json).
    /// </summary>
    public static IReadOnlyList<StoredCase> CasesOf(IReadOnlyList<string> files, Manifest? manifest)
    {
        var present = files.ToHashSet(StringComparer.Ordinal);
        var withSpans = files.Select(CaseOfSpansFile).OfType<string>().Order(StringComparer.Ordinal).ToList();
        var ordered = (manifest?.Cases.Select(c => CaseFolder.Of(c.Case)) ?? [])
            .Where(withSpans.Contains)
            .Distinct()
            .ToList();
        return ordered
            .Concat(withSpans.Except(ordered))
            .Select(folder => new StoredCase(
                folder,
                present.Contains($"cases/{folder}/{ZipkinViewFile}") ? StoredCaseFlags.Views : StoredCaseFlags.None
            ))
            .ToList();
    }

    public static string SpansFile(string runDirectory, string caseFolder) =>
        Path.Combine(runDirectory, "cases", caseFolder, SpanJsonLines.FileName);

    /// <summary>CASE of "cases/CASE/spans.jsonl", else null.</summary>
    private static string? CaseOfSpansFile(string path) =>
        path.Split('/') is ["cases", var folder, SpanJsonLines.FileName] ? folder : null;
}
