using System.IO.Compression;

namespace Lightning.Bench.Results;

/// <summary>A finished run's files, read from its zip (results/RUN.zip, made by Reports/ArtifactZip) or its folder: for --compare, --replay and --spans.</summary>
internal static class RunArchive
{
    /// <summary>Reads one file of a run (a path in the run's folder, such as summary.json or profiles/CASE/NODE.folded), from its zip or its folder.</summary>
    public static string ReadText(string runPath, string fileName)
    {
        using var reader = new StreamReader(OpenRead(runPath, fileName));
        return reader.ReadToEnd();
    }

    /// <summary>Opens one file of a run, from its zip or its folder; disposing the stream closes the zip.</summary>
    public static Stream OpenRead(string runPath, string fileName)
    {
        if (Directory.Exists(runPath))
        {
            var path = Path.Combine(runPath, fileName);
            return File.Exists(path)
                ? File.OpenRead(path)
                : throw new FileNotFoundException(
                    $"{runPath} has no {fileName}: is it a Lightning.Bench run folder?",
                    path
                );
        }
        var archive = OpenZip(runPath);
        // Entries are RUN/PATH: the run's folder, then the file's path in it.
        var entry = archive.Entries.FirstOrDefault(e => PathInRun(e.FullName) == fileName.Replace('\\', '/'));
        if (entry is null)
        {
            archive.Dispose();
            throw new FileNotFoundException($"{runPath} has no {fileName}: is it a Lightning.Bench run zip?", runPath);
        }
        try
        {
            return new EntryStream(runPath, archive, entry.Open());
        }
        catch (InvalidDataException e)
        {
            archive.Dispose();
            throw Damaged(runPath, e);
        }
    }

    /// <summary>Every file of a run, by its path in the run's folder ('/' between folders).</summary>
    public static IReadOnlyList<string> FileNames(string runPath)
    {
        if (Directory.Exists(runPath))
        {
            return Directory
                .GetFiles(runPath, "*", SearchOption.AllDirectories)
                .Select(f => Path.GetRelativePath(runPath, f).Replace('\\', '/'))
                .ToList();
        }
        using var archive = OpenZip(runPath);
        return archive
            .Entries.Where(e => !e.FullName.EndsWith('/'))
            .Select(e => PathInRun(e.FullName))
            .OfType<string>()
            .ToList();
    }

    /// <summary>All files of a run zip below a folder (e.g. the compose files under cases/), by their path in the run.</summary>
    public static IReadOnlyDictionary<string, string> ReadAll(string zipPath, string suffix)
    {
        using var archive = OpenZip(zipPath);
        var files = new Dictionary<string, string>();
        foreach (var entry in archive.Entries.Where(e => e.FullName.EndsWith(suffix, StringComparison.Ordinal)))
        {
            try
            {
                using var reader = new StreamReader(entry.Open());
                files[entry.FullName[(entry.FullName.IndexOf('/') + 1)..]] = reader.ReadToEnd();
            }
            catch (InvalidDataException e)
            {
                throw Damaged(zipPath, e);
            }
        }
        return files;
    }

    /// <summary>
    /// Opens a run's zip; one cut short (a run stopped while zipping, a copy that did not finish) is named as damaged in
    /// one line that says to give the run's folder, which holds every file the zip has.
    /// </summary>
    public static ZipArchive OpenZip(string runPath)
    {
        if (!File.Exists(runPath))
        {
            throw new FileNotFoundException(
                $"{runPath} does not exist: give a run's zip or folder (results/RUN.zip)",
                runPath
            );
        }
        try
        {
            return ZipFile.OpenRead(runPath);
        }
        catch (InvalidDataException e)
        {
            throw LooksLikeZip(runPath)
                ? Damaged(runPath, e)
                : new InvalidDataException($"{runPath} is not a zip: give a run's zip or folder (results/RUN.zip)");
        }
    }

    /// <summary>
    /// "'PATH' is a damaged zip (...): give the run's folder instead": a zip whose end (its central directory) or one of
    /// whose entries cannot be read; names the folder beside it when there is one.
    /// </summary>
    public static InvalidDataException Damaged(string zipPath, Exception problem)
    {
        var length = File.Exists(zipPath) ? new FileInfo(zipPath).Length : 0;
        var folder = Path.ChangeExtension(zipPath, null);
        var instead = Directory.Exists(folder) ? folder : "results/RUN-SCENARIO, the folder it was made from";
        var why = length == 0 ? "empty" : $"{length:N0} bytes, {problem.Message.TrimEnd('.').ToLowerInvariant()}";
        return new InvalidDataException(
            $"'{zipPath}' is a damaged zip ({why}; cut short while it was written or copied?): give the run's folder instead ({instead})",
            problem
        );
    }

    /// <summary>Whether a file that did not open as a zip begins as one (a zip's first local header) or is empty: a zip cut short.</summary>
    private static bool LooksLikeZip(string path)
    {
        using var file = File.OpenRead(path);
        Span<byte> start = stackalloc byte[4];
        var read = file.ReadAtLeast(start, 4, throwOnEndOfStream: false);
        return read == 0
            || (
                read == 4 && start[0] == (byte)'P' && start[1] == (byte)'K' && start[2] is 3 or 5 && start[3] is 4 or 6
            );
    }

    /// <summary>An entry's path in the run's folder (RUN/PATH → PATH), or null for an entry outside one.</summary>
    private static string? PathInRun(string entryName) =>
        entryName.IndexOf('/') is > 0 and var slash ? entryName[(slash + 1)..] : null;

    /// <summary>A zip entry's stream that also closes its zip.</summary>
    private sealed class EntryStream(string zipPath, ZipArchive archive, Stream entry) : Stream
    {
        public override bool CanRead => true;

        public override bool CanSeek => false;

        public override bool CanWrite => false;

        public override long Length => entry.Length;

        public override long Position
        {
            get => entry.Position;
            set => throw new NotSupportedException();
        }

        public override int Read(byte[] buffer, int offset, int count) => Read(buffer.AsSpan(offset, count));

        public override int Read(Span<byte> buffer)
        {
            try
            {
                return entry.Read(buffer);
            }
            catch (InvalidDataException e)
            {
                throw Damaged(zipPath, e);
            }
        }

        public override void Flush() { }

        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

        public override void SetLength(long value) => throw new NotSupportedException();

        public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();

        protected override void Dispose(bool disposing)
        {
            if (disposing)
            {
                entry.Dispose();
                archive.Dispose();
            }
            base.Dispose(disposing);
        }
    }
}
