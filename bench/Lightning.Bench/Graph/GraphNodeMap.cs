using SharpCompress.Compressors.Xz;

namespace Lightning.Bench.Graph;

/// <summary>
/// A snapshot's node map (Core Lightning's tests/data/gossip-store-*-node-map.xz): xz over one line per node,
/// <c>IDX:NODEID:ALIAS</c>, indexes from 0 in order: which real node each index of the snapshot was. Read to name the
/// destinations in results, and to check that map and snapshot belong together.
/// </summary>
internal sealed class GraphNodeMap
{
    private readonly string[] ids;
    private readonly string[] aliases;

    private GraphNodeMap(string[] ids, string[] aliases)
    {
        this.ids = ids;
        this.aliases = aliases;
    }

    public int Count => ids.Length;

    /// <summary>The real node's id, hex.</summary>
    public string RealId(int index) => ids[index];

    public string Alias(int index) => aliases[index];

    /// <summary>The map beside a snapshot (NAME.compressed → NAME-node-map.xz), or null when there is none.</summary>
    public static string? BesidePath(string snapshotPath)
    {
        var name = Path.GetFileName(snapshotPath);
        var stem = name.EndsWith(".compressed", StringComparison.Ordinal)
            ? name[..^".compressed".Length]
            : Path.GetFileNameWithoutExtension(name);
        var path = Path.Combine(Path.GetDirectoryName(Path.GetFullPath(snapshotPath))!, $"{stem}-node-map.xz");
        return File.Exists(path) ? path : null;
    }

    /// <summary>Reads a map and checks it names every node of a snapshot of <paramref name="nodeCount"/> nodes, in order; else <see cref="InvalidDataException"/> with the first thing wrong.</summary>
    public static GraphNodeMap Read(string path, int nodeCount)
    {
        var ids = new List<string>(nodeCount);
        var aliases = new List<string>(nodeCount);
        try
        {
            using var file = File.OpenRead(path);
            using var xz = new XZStream(file);
            using var reader = new StreamReader(xz);
            for (string? line; (line = reader.ReadLine()) is not null; )
            {
                if (line.Length == 0)
                {
                    continue;
                }
                var fields = line.Split(':', 3);
                if (
                    fields.Length < 2
                    || !int.TryParse(fields[0], out var index)
                    || fields[1].Length != 66
                    || !fields[1].All(char.IsAsciiHexDigit)
                )
                {
                    throw new InvalidDataException($"line {ids.Count + 1} is not IDX:NODEID:ALIAS: {Shorten(line)}");
                }
                if (index != ids.Count)
                {
                    throw new InvalidDataException(
                        $"line {ids.Count + 1} gives index {index} where {ids.Count} was next"
                    );
                }
                ids.Add(fields[1]);
                aliases.Add(fields.Length > 2 ? fields[2] : "");
            }
        }
        catch (Exception e) when (e is not InvalidDataException and not IOException and not UnauthorizedAccessException)
        {
            throw new InvalidDataException($"not an xz file of IDX:NODEID:ALIAS lines ({e.Message})");
        }
        if (ids.Count != nodeCount)
        {
            throw new InvalidDataException(
                $"it names {ids.Count:N0} nodes and the snapshot has {nodeCount:N0}: a map of another snapshot"
            );
        }
        return new GraphNodeMap([.. ids], [.. aliases]);
    }

    private static string Shorten(string line) => line.Length <= 80 ? line : line[..80] + "…";
}
