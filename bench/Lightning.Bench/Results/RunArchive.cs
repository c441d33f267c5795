using System.IO.Compression;

namespace Lightning.Bench.Results;

/// <summary>A finished run's files, read from its zip (results/RUN.zip, made by Reports/ArtifactZip) or its folder: for --compare and --replay.</summary>
internal static class RunArchive
{
    /// <summary>Reads one file of a run (a path in the run's folder, such as summary.json or profiles/CASE/NODE.folded), from its zip or its folder.</summary>
    public static string ReadText(string runPath, string fileName)
    {
        if (Directory.Exists(runPath))
        {
            var path = Path.Combine(runPath, fileName);
            return File.Exists(path) ? File.ReadAllText(path) : throw new FileNotFoundException($"{runPath} has no {fileName}: is it a Lightning.Bench run folder?", path);
        }
        if (!File.Exists(runPath))
        {
            throw new FileNotFoundException($"{runPath} does not exist: give a run's zip or folder (results/RUN.zip)", runPath);
        }
        using var archive = ZipFile.OpenRead(runPath);
        // Entries are RUN/PATH: the run's folder, then the file's path in it.
        var entry = archive.Entries.FirstOrDefault(e => e.FullName.IndexOf('/') is > 0 and var slash && e.FullName[(slash + 1)..] == fileName.Replace('\\', '/'))
            ?? throw new FileNotFoundException($"{runPath} has no {fileName}: is it a Lightning.Bench run zip?", runPath);
        using var reader = new StreamReader(entry.Open());
        return reader.ReadToEnd();
    }

    /// <summary>All files of a run zip below a folder (e.g. the compose files under cases/), by their path in the run.</summary>
    public static IReadOnlyDictionary<string, string> ReadAll(string zipPath, string suffix)
    {
        using var archive = ZipFile.OpenRead(zipPath);
        var files = new Dictionary<string, string>();
        foreach (var entry in archive.Entries.Where(e => e.FullName.EndsWith(suffix, StringComparison.Ordinal)))
        {
            using var reader = new StreamReader(entry.Open());
            files[entry.FullName[(entry.FullName.IndexOf('/') + 1)..]] = reader.ReadToEnd();
        }
        return files;
    }
}
