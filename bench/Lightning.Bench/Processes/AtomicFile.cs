using System.Collections.Concurrent;
using System.Text;

namespace Lightning.Bench.Processes;

/// <summary>
/// A final file (a run's zip, summary.json, manifest.json, report.html, a site's page, a history's snapshot) written
/// whole or not at all: into a temporary file beside it, NAME.partial-PID-RANDOM, then renamed over NAME. A rename within
/// one folder is atomic, so a reader sees the file as it was, the whole new one, or none, never one cut short by a
/// signal, a full disk or a crash. The temporary name ends in neither the file's extension nor anything a reader globs
/// for (results/*.zip); the files this process has under way are removed by <see cref="RemoveUnfinished"/> when it is
/// stopped, and those a killed process left by <see cref="RemoveLeftovers"/>.
/// </summary>
internal static class AtomicFile
{
    /// <summary>What a temporary file's name has after the final name.</summary>
    public const string Marker = ".partial-";

    private static readonly UTF8Encoding Utf8 = new(encoderShouldEmitUTF8Identifier: false);

    // The temporary files being written now, removed by RemoveUnfinished when the process is stopped mid-write.
    private static readonly ConcurrentDictionary<string, byte> Unfinished = new(StringComparer.Ordinal);

    public static void WriteAllText(string path, string text) =>
        Write(
            path,
            stream =>
            {
                var bytes = Utf8.GetBytes(text);
                stream.Write(bytes);
            }
        );

    public static void WriteAllLines(string path, IEnumerable<string> lines) =>
        Write(
            path,
            stream =>
            {
                using var writer = new StreamWriter(stream, Utf8, leaveOpen: true);
                foreach (var line in lines)
                {
                    writer.WriteLine(line);
                }
            }
        );

    /// <summary>Writes <paramref name="path"/> through <paramref name="write"/> into a temporary file, synced to disk, then renamed over it.</summary>
    public static void Write(string path, Action<FileStream> write)
    {
        var temporary = Begin(path);
        try
        {
            using (
                var stream = new FileStream(temporary, FileMode.CreateNew, FileAccess.Write, FileShare.Read, 1 << 16)
            )
            {
                write(stream);
                // On disk before the rename: a crash right after it must not leave an empty file under the final name.
                stream.Flush(flushToDisk: true);
            }
            Commit(temporary, path);
        }
        catch
        {
            Abandon(temporary);
            throw;
        }
    }

    /// <summary>
    /// A temporary name beside <paramref name="path"/> for a writer that makes the file itself (SQLite attaching it, a
    /// folder copied); <see cref="Commit"/> renames it over <paramref name="path"/>, <see cref="Abandon"/> removes it.
    /// </summary>
    public static string Begin(string path)
    {
        var full = Path.GetFullPath(path);
        Directory.CreateDirectory(Path.GetDirectoryName(full)!);
        // The writer's process id in the name: what a killed process left is found by it (RemoveLeftovers).
        var temporary = FormattableString.Invariant(
            $"{full}{Marker}{Environment.ProcessId}-{Guid.NewGuid().ToString("N")[..8]}"
        );
        Unfinished[temporary] = 0;
        return temporary;
    }

    /// <summary>Renames the whole file <paramref name="temporary"/> over <paramref name="path"/>.</summary>
    public static void Commit(string temporary, string path)
    {
        if (Directory.Exists(temporary))
        {
            if (Directory.Exists(path))
            {
                Directory.Delete(path, recursive: true);
            }
            Directory.Move(temporary, path);
        }
        else
        {
            File.Move(temporary, path, overwrite: true);
        }
        Unfinished.TryRemove(temporary, out _);
    }

    /// <summary>Removes <paramref name="temporary"/> (a file or a folder) and what its writer kept beside it (SQLite's journal).</summary>
    public static void Abandon(string temporary)
    {
        Unfinished.TryRemove(temporary, out _);
        try
        {
            if (Directory.Exists(temporary))
            {
                Directory.Delete(temporary, recursive: true);
            }
            var folder = Path.GetDirectoryName(temporary)!;
            if (Directory.Exists(folder))
            {
                foreach (var file in Directory.GetFiles(folder, Path.GetFileName(temporary) + "*"))
                {
                    File.Delete(file);
                }
            }
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // Named as unfinished: no reader takes it for a result.
        }
    }

    /// <summary>
    /// Removes every temporary file this process is writing now: the process is being stopped (a signal), and what is
    /// not whole by now never will be. A writer still running then fails its rename; its final file stays as it was.
    /// </summary>
    /// <param name="under">Only those in this folder or below it (all of them when null).</param>
    /// <returns>How many were removed.</returns>
    public static int RemoveUnfinished(string? under = null)
    {
        var removed = 0;
        var folder = under is null
            ? null
            : Path.GetFullPath(under).TrimEnd(Path.DirectorySeparatorChar) + Path.DirectorySeparatorChar;
        foreach (
            var temporary in Unfinished.Keys.Where(t =>
                folder is null || t.StartsWith(folder, StringComparison.Ordinal)
            )
        )
        {
            Abandon(temporary);
            removed++;
        }
        return removed;
    }

    /// <summary>
    /// Removes the temporary files and folders (<see cref="IsUnfinished"/>) in <paramref name="folder"/> and the folders
    /// directly in it (a results folder: its zips, and its runs' files) whose writer's process is gone and which nobody
    /// wrote to for <paramref name="idle"/>: what a harness killed while writing (kill -9, a power cut) left. A process
    /// of another machine writing to a shared folder has the file changing under it, so it is never taken for gone.
    /// </summary>
    /// <returns>The paths removed.</returns>
    public static IReadOnlyList<string> RemoveLeftovers(string folder, TimeSpan idle)
    {
        if (!Directory.Exists(folder))
        {
            return [];
        }
        var removed = new List<string>();
        var folders = new[] { folder }.Concat(Directory.EnumerateDirectories(folder).Where(d => !IsUnfinished(d)));
        foreach (
            var entry in folders.SelectMany(f => Directory.EnumerateFileSystemEntries(f, "*" + Marker + "*")).ToList()
        )
        {
            if (
                WriterOf(entry) is { } pid
                && pid != Environment.ProcessId
                && !IsAlive(pid)
                && DateTime.UtcNow - File.GetLastWriteTimeUtc(entry) > idle
                && !Unfinished.ContainsKey(entry)
            )
            {
                Abandon(entry);
                removed.Add(entry);
            }
        }
        return removed;
    }

    /// <summary>The process id a temporary name carries, or null for a name that has none.</summary>
    private static int? WriterOf(string path)
    {
        var name = Path.GetFileName(path);
        var start = name.LastIndexOf(Marker, StringComparison.Ordinal) + Marker.Length;
        var end = name.IndexOf('-', start);
        return
            end > start
            && int.TryParse(
                name.AsSpan(start, end - start),
                System.Globalization.NumberStyles.None,
                System.Globalization.CultureInfo.InvariantCulture,
                out var pid
            )
            ? pid
            : null;
    }

    private static bool IsAlive(int pid)
    {
        try
        {
            using var process = System.Diagnostics.Process.GetProcessById(pid);
            return !process.HasExited;
        }
        catch (ArgumentException)
        {
            return false;
        }
    }

    /// <summary>Whether <paramref name="path"/> is a temporary file of this kind (this process's or one a killed process left).</summary>
    public static bool IsUnfinished(string path) => Path.GetFileName(path).Contains(Marker, StringComparison.Ordinal);
}
