using System.Collections.Concurrent;
using Lightning.Bench.Docker;
using Lightning.Bench.Results;

namespace Lightning.Bench.Setup;

/// <summary>
/// Where a history's snapshots are kept between topologies and runs (--snapshots DIR, default under the user's cache
/// folder): one SQLite file per build image, history and size, named and keyed by them (the image's content id, so a
/// rebuilt tag is another build), so a snapshot is never used for another build, history, size or format; each use is
/// recorded for the manifest and the disk they take is reported.
/// </summary>
internal sealed class HistorySnapshotStore(string directory, DockerEngine engine)
{
    public const string Extension = ".lnbench-history.sqlite3";

    public string Directory { get; } = Path.GetFullPath(directory);

    /// <summary>What each topology did with a snapshot, in order.</summary>
    public ConcurrentQueue<SnapshotUse> Uses { get; } = new();

    /// <summary>The kinds and histories this run already said it keeps no snapshots of (said once a run, not per topology).</summary>
    public ConcurrentDictionary<string, bool> SaidUnkept { get; } = new();

    /// <summary>The key and file of the snapshot of <paramref name="rows"/> rows of <paramref name="history"/> made by <paramref name="image"/>.</summary>
    public async Task<(string Key, string File)> ForAsync(string image, string history, long rows, CancellationToken ct)
    {
        var id =
            (await engine.InspectImageAsync(image, ct))?.Id
            ?? throw new InvalidOperationException(
                $"image {image} is not on this machine: its history's snapshot has no key"
            );
        var digest = id.Replace("sha256:", "", StringComparison.Ordinal);
        return (
            $"{history} {rows} {id}",
            Path.Combine(Directory, $"{history}-{rows}-{digest[..Math.Min(16, digest.Length)]}{Extension}")
        );
    }

    /// <summary>The snapshots kept here and the bytes they take.</summary>
    public static (int Files, long Bytes) DiskUse(string directory) =>
        System.IO.Directory.Exists(directory)
            ? System
                .IO.Directory.GetFiles(directory, "*" + Extension + "*")
                .Aggregate((Files: 0, Bytes: 0L), (sum, f) => (sum.Files + 1, sum.Bytes + new FileInfo(f).Length))
            : (0, 0);

    /// <summary>Removes every snapshot (and one cut short) kept in <paramref name="directory"/>; returns what they took.</summary>
    public static (int Files, long Bytes) Clean(string directory)
    {
        var use = DiskUse(directory);
        if (System.IO.Directory.Exists(directory))
        {
            foreach (var file in System.IO.Directory.GetFiles(directory, "*" + Extension + "*"))
            {
                File.Delete(file);
            }
        }
        return use;
    }
}
