using System.Collections.Concurrent;
using System.Security.Cryptography;
using Lightning.Bench.Progress;

namespace Lightning.Bench.Graph;

/// <summary>
/// The run's mainnet graph (--graph): the snapshot read and checked once before any container starts, its node map
/// when one lies beside it, the index mapped onto a real node (--graph-node), and per share of the channels
/// (GraphPercent) the seeded subgraph and route queries, made once and used by every build and topology alike.
/// </summary>
internal sealed class RunGraph
{
    /// <summary>The index Core Lightning's tests/test_askrene.py::test_real_data maps onto its payer's peer (BLUEIRON in the 2026-02-03 map).</summary>
    public const int DefaultMappedIndex = 2134;

    private readonly ConcurrentDictionary<int, int[]> channels = new();
    private readonly ConcurrentDictionary<int, IReadOnlyList<GraphQuery>> queries = new();

    private RunGraph(
        string path,
        GossmapSnapshot snapshot,
        GraphNodeMap? map,
        string? mapPath,
        int mappedIndex,
        int seed,
        string sha256
    )
    {
        Path = path;
        Snapshot = snapshot;
        Map = map;
        MapPath = mapPath;
        MappedIndex = mappedIndex;
        Seed = seed;
        Sha256 = sha256;
        Ids = new GraphNodeIds(snapshot.NodeCount, new Dictionary<int, byte[]>());
    }

    public string Path { get; }

    public GossmapSnapshot Snapshot { get; }

    public GraphNodeMap? Map { get; }

    public string? MapPath { get; }

    public int MappedIndex { get; }

    /// <summary>Seeds the subgraphs and the queries (the run's seed).</summary>
    public int Seed { get; }

    public string Sha256 { get; }

    /// <summary>--graph-store: how the records are written into the payer's store.</summary>
    public GossipStoreForm Form { get; set; }

    /// <summary>A writer of the graph's records in the run's form, with <paramref name="ids"/>.</summary>
    public GossipStoreWriter Writer(GraphNodeIds ids) =>
        new(Snapshot, ids) { AsDecompressWrites = Form == GossipStoreForm.Upstream };

    /// <summary>The ids the store gives the snapshot's nodes, none mapped (derived once for the run).</summary>
    public GraphNodeIds Ids { get; }

    /// <summary>Reads and checks the snapshot and its node map; what is wrong with them is a <see cref="UsageException"/> in one line.</summary>
    public static RunGraph Load(string path, int mappedIndex, int seed)
    {
        if (!File.Exists(path))
        {
            throw new UsageException(
                $"--graph {path}: no such file; give Core Lightning's tests/data/gossip-store-2026-02-03.compressed (or another GOSSMAP_COMPRESSv1 snapshot)"
            );
        }
        GossmapSnapshot snapshot;
        try
        {
            snapshot = GossmapSnapshot.Read(path);
        }
        catch (InvalidDataException e)
        {
            throw new UsageException(
                $"--graph {e.Message}; give a GOSSMAP_COMPRESSv1 snapshot (Core Lightning's tests/data/gossip-store-*.compressed)"
            );
        }
        if (mappedIndex < 0 || mappedIndex >= snapshot.NodeCount)
        {
            throw new UsageException(
                $"--graph-node {mappedIndex}: {path} has nodes 0 to {snapshot.NodeCount - 1}; give one of them (default {DefaultMappedIndex})"
            );
        }
        var mapPath = GraphNodeMap.BesidePath(path);
        GraphNodeMap? map = null;
        if (mapPath is not null)
        {
            try
            {
                map = GraphNodeMap.Read(mapPath, snapshot.NodeCount);
            }
            catch (InvalidDataException e)
            {
                throw new UsageException(
                    $"--graph: the node map {mapPath} does not match {System.IO.Path.GetFileName(path)}: {e.Message}; put the snapshot's own map beside it, or none"
                );
            }
        }
        using var file = File.OpenRead(path);
        return new RunGraph(
            System.IO.Path.GetFullPath(path),
            snapshot,
            map,
            mapPath,
            mappedIndex,
            seed,
            Convert.ToHexStringLower(SHA256.HashData(file))
        );
    }

    /// <summary>The channels (indexes) of a share of the graph around the mapped node.</summary>
    public int[] Channels(int percent) =>
        channels.GetOrAdd(percent, p => Subgraph.Around(Snapshot, MappedIndex, p, Seed));

    /// <summary>The route queries into that share.</summary>
    public IReadOnlyList<GraphQuery> Queries(int percent) =>
        queries.GetOrAdd(percent, p => GraphQueries.Make(Snapshot, Channels(p), MappedIndex, Seed));

    /// <summary>A destination as results name it: its index, and its alias where the map gives one ("graph-0 (ACINQ)").</summary>
    public string Name(int index) =>
        Map?.Alias(index) is { Length: > 0 } alias ? $"graph-{index} ({alias.Trim()})" : $"graph-{index}";
}
