using System.Buffers.Binary;
using System.Diagnostics;
using Lightning.Bench.Graph;

namespace Lightning.Bench.Tests;

/// <summary>
/// The gossip store the harness writes from the mainnet snapshot: its checksum, the node ids it gives the snapshot's
/// indexes, its seeded subgraphs and queries, the node map; and, with a Core Lightning image that has
/// devtools/gossmap-compress, the same bytes as that tool writes.
/// </summary>
[Collection(DockerCollection.Name)]
public class GossipStoreWriterTests : IDisposable
{
    /// <summary>The id upstream's test_real_data maps index 2134 (BLUEIRON) onto: its l2.</summary>
    private const string UpstreamMapped = "033845802d25b4e074ccfd7cd8b339a41dc75bf9978a034800444b51d42b07799a";

    private readonly string directory = Directory.CreateTempSubdirectory("lnbench-store-").FullName;

    [Fact]
    [Trait("Category", "Unit")]
    public void Crc32c_is_castagnolis()
    {
        Assert.Equal(0xE3069283u, Crc32c.Compute(0, "123456789"u8));
        Assert.Equal(0u, Crc32c.Compute(0, []));
        // Seeded, as the store seeds it with a record's timestamp.
        Assert.NotEqual(Crc32c.Compute(0, "abc"u8), Crc32c.Compute(1, "abc"u8));
    }

    [Fact]
    [Trait("Category", "Unit")]
    public void Node_ids_are_the_keys_gossmap_compress_derives_unless_mapped()
    {
        // The first lines gossmap-compress decompress prints for the 2026-02-03 snapshot.
        var ids = new GraphNodeIds(3, new Dictionary<int, byte[]> { [2] = Convert.FromHexString(UpstreamMapped) });

        Assert.Equal("03c581bf310c4c97b05e5e6fed2f82d872f388ec9ab7f1feddfd5380ddb3c6531c", ids.Hex(0));
        Assert.Equal("03091f559e2704cd80e41cd103ca4a60fd91010927674016b09f40c1d450368cf4", ids.Hex(1));
        Assert.Equal(UpstreamMapped, ids.Hex(2));
    }

    [SkippableFact]
    [Trait("Category", "Unit")]
    public void Records_append_in_the_stores_version_with_the_completed_flag_from_15_the_dying_flag_and_checksums_that_hold()
    {
        var snapshot = GossmapSnapshot.Read(Requirements.GraphData().Snapshot);
        var writer = new GossipStoreWriter(
            snapshot,
            new GraphNodeIds(snapshot.NodeCount, new Dictionary<int, byte[]>())
        );
        foreach (var version in new byte[] { 14, 15, 16 })
        {
            using var store = new MemoryStream();
            var written = writer.Append(store, version, [0, 1, 2]);
            var records = Records(store.ToArray(), 0);

            Assert.Equal(store.Length, written);
            Assert.Equal(
                [256, 4101, 258, 258, 256, 4101, 258, 258, 256, 4101, 258, 258],
                records.Select(r => (int)r.Type)
            );
            // Dying: not streamed to the payer's peers, which would throttle it for the unsigned flood.
            Assert.All(
                records,
                r =>
                    Assert.Equal(
                        (version >= 15 ? GossipStoreWriter.CompletedBit : 0) | GossipStoreWriter.DyingBit,
                        r.Flags
                    )
            );
            Assert.All(records, r => Assert.True(r.CrcHolds, $"record {r.Type}"));
        }
        Assert.Throws<InvalidDataException>(() => writer.Append(new MemoryStream(), 13, [0]));
        // A regtest chain of this harness stays below block 1,000, its funding transactions among a block's first 10 and
        // their outputs below 100: no channel of the graph takes a real channel's id.
        Assert.DoesNotContain(
            Enumerable.Range(0, snapshot.Channels.Count),
            i =>
                writer.ShortChannelId(i) is var id
                && id >> 40 < 1_000
                && ((id >> 16) & 0xFFFFFF) < 10
                && (id & 0xFFFF) < 100
        );
    }

    [SkippableFact]
    [Trait("Category", "Unit")]
    public void Subgraphs_grow_around_the_mapped_node_the_same_for_the_same_seed()
    {
        var snapshot = GossmapSnapshot.Read(Requirements.GraphData().Snapshot);

        var tenth = Subgraph.Around(snapshot, 2134, 10, seed: 7);
        var again = Subgraph.Around(snapshot, 2134, 10, seed: 7);
        var other = Subgraph.Around(snapshot, 2134, 10, seed: 8);
        var half = Subgraph.Around(snapshot, 2134, 50, seed: 7);

        Assert.Equal(5_081, tenth.Length);
        Assert.Equal(25_404, half.Length);
        Assert.Equal(tenth, again);
        Assert.NotEqual(tenth, other);
        Assert.Equal(snapshot.Channels.Count, Subgraph.Around(snapshot, 2134, 100, seed: 7).Length);
        // Every channel of the mapped node is in (the search starts there), and the share is one piece around it.
        Assert.All(
            Enumerable
                .Range(0, snapshot.Channels.Count)
                .Where(i => snapshot.Channels[i].Node1 == 2134 || snapshot.Channels[i].Node2 == 2134),
            i => Assert.Contains(i, tenth)
        );
        Assert.Equal(tenth.Length, Reachable(snapshot, tenth, 2134));
    }

    [SkippableFact]
    [Trait("Category", "Unit")]
    public void Queries_are_top_nodes_and_a_seeded_sample_at_every_amount_the_same_for_the_same_seed()
    {
        var snapshot = GossmapSnapshot.Read(Requirements.GraphData().Snapshot);
        var all = Enumerable.Range(0, snapshot.Channels.Count).ToArray();

        var queries = GraphQueries.Make(snapshot, all, source: 2134, seed: 3);

        Assert.Equal(
            (GraphQueries.TopNodes + GraphQueries.SampledNodes) * GraphQueries.AmountsSat.Count,
            queries.Count
        );
        Assert.Equal(queries, GraphQueries.Make(snapshot, all, 2134, 3));
        Assert.NotEqual(queries, GraphQueries.Make(snapshot, all, 2134, 4));
        Assert.Contains(queries, q => q.Destination == 0 && q.Top);
        Assert.DoesNotContain(queries, q => q.Destination == 2134);
        Assert.All(
            queries.GroupBy(q => q.Destination),
            g => Assert.Equal(GraphQueries.AmountsSat, g.Select(q => q.AmountSat).Order())
        );
    }

    [SkippableFact]
    [Trait("Category", "Unit")]
    public void The_node_map_names_every_node_and_a_map_of_another_snapshot_is_refused()
    {
        var (snapshotPath, mapPath) = Requirements.GraphData();
        var snapshot = GossmapSnapshot.Read(snapshotPath);

        var map = GraphNodeMap.Read(mapPath, snapshot.NodeCount);

        Assert.Equal(mapPath, GraphNodeMap.BesidePath(snapshotPath));
        Assert.Equal("BLUEIRON", map.Alias(2134));
        Assert.Equal("024b9a1fa8e006f1e3937f65f66c408e6da8e1ca728ea43222a7381df1cc449605", map.RealId(2134));
        Assert.Contains(
            "a map of another snapshot",
            Assert.Throws<InvalidDataException>(() => GraphNodeMap.Read(mapPath, 17_000)).Message
        );
        var text = Path.Combine(directory, "map.xz");
        File.WriteAllText(text, "0:abc:ALIAS\n");
        Assert.Contains(
            "not an xz file",
            Assert.Throws<InvalidDataException>(() => GraphNodeMap.Read(text, 1)).Message
        );
    }

    [SkippableFact]
    [Trait("Category", "E2E")]
    public async Task The_upstream_form_is_byte_for_byte_what_the_builds_gossmap_compress_writes_and_the_harness_form_differs_only_in_htlc_maxima_and_flags()
    {
        var (cln, _) = Requirements.NodeImages();
        var (snapshotPath, _) = Requirements.GraphData();
        File.Copy(snapshotPath, Path.Combine(directory, "graph.compressed"));
        var (exit, output) = await Docker(
            "run",
            "--rm",
            "--user",
            $"{HostUser()}",
            "-v",
            $"{directory}:/d",
            "--entrypoint",
            "sh",
            cln,
            "-c",
            $"command -v gossmap-compress >/dev/null || exit 42; gossmap-compress decompress --node-map=2134={UpstreamMapped} /d/graph.compressed /d/tool.store > /d/ids.txt"
        );
        Skip.If(exit == 42, $"{cln} has no devtools/gossmap-compress to compare with");
        Assert.True(exit == 0, output);
        var tool = await File.ReadAllBytesAsync(Path.Combine(directory, "tool.store"));
        // The writers a run makes: --graph-store upstream's, and the default's.
        var graph = Lightning.Bench.Graph.RunGraph.Load(snapshotPath, 2134, seed: 1);
        var ids = graph.Ids.Mapping(2134, Convert.FromHexString(UpstreamMapped));
        byte[] Store(string form)
        {
            graph.Form = GossipStoreForms.Parse("--graph-store", form);
            using var store = new MemoryStream();
            graph.Writer(ids).WriteStore(store, tool[0], Enumerable.Range(0, graph.Snapshot.Channels.Count));
            return store.ToArray();
        }

        var upstream = Store("upstream");
        var harness = Store("harness");

        Assert.Equal(tool.Length, upstream.Length);
        Assert.True(
            tool.AsSpan().SequenceEqual(upstream),
            $"first difference at byte {tool.AsSpan().CommonPrefixLength(upstream)}"
        );
        var printed = await File.ReadAllLinesAsync(Path.Combine(directory, "ids.txt"));
        Assert.Equal(Enumerable.Range(0, graph.Snapshot.NodeCount).Select(ids.Hex), printed);
        // The default form: the same records, each with the dying flag, and the same messages but for the HTLC maximum
        // of the directions whose maximum the snapshot gives as "the capacity" or "99 % of it": the tool writes the
        // capacity's sat figure as msat (1/1000 of the capacity), the harness the capacity in msat.
        Assert.Equal(tool.Length, harness.Length);
        var (toolRecords, harnessRecords) = (Messages(tool), Messages(harness));
        Assert.Equal(toolRecords.Count, harnessRecords.Count);
        var raised = 0;
        for (var i = 0; i < toolRecords.Count; i++)
        {
            var (toolFlags, toolMsg) = toolRecords[i];
            var (harnessFlags, harnessMsg) = harnessRecords[i];
            Assert.Equal(toolFlags | (i == 0 ? 0 : GossipStoreWriter.DyingBit), harnessFlags);
            if (BinaryPrimitives.ReadUInt16BigEndian(toolMsg) != GossipStoreWriter.ChannelUpdate)
            {
                Assert.True(toolMsg.AsSpan().SequenceEqual(harnessMsg), $"record {i}");
                continue;
            }
            // channel_update: type, signature, chain hash, scid, timestamp, flags, cltv, htlc_minimum, fees, htlc_maximum.
            const int HtlcMax = 2 + 64 + 32 + 8 + 4 + 1 + 1 + 2 + 8 + 4 + 4;
            Assert.True(toolMsg.AsSpan(0, HtlcMax).SequenceEqual(harnessMsg.AsSpan(0, HtlcMax)), $"record {i}");
            var (toolMax, harnessMax) = (
                BinaryPrimitives.ReadUInt64BigEndian(toolMsg.AsSpan(HtlcMax)),
                BinaryPrimitives.ReadUInt64BigEndian(harnessMsg.AsSpan(HtlcMax))
            );
            if (toolMax != harnessMax)
            {
                raised++;
                Assert.InRange(harnessMax, toolMax * 990, toolMax * 1000 + 1000);
            }
        }
        Assert.Equal(82_642, raised);
    }

    /// <summary>A store's records after its version byte: each one's flags and message.</summary>
    private static List<(int Flags, byte[] Message)> Messages(byte[] store)
    {
        var records = new List<(int, byte[])>();
        for (var offset = 1; offset < store.Length; )
        {
            var flags = BinaryPrimitives.ReadUInt16BigEndian(store.AsSpan(offset));
            var length = BinaryPrimitives.ReadUInt16BigEndian(store.AsSpan(offset + 2));
            records.Add((flags, store.AsSpan(offset + 12, length).ToArray()));
            offset += 12 + length;
        }
        return records;
    }

    public void Dispose() => Directory.Delete(directory, recursive: true);

    private static string HostUser() => Lightning.Bench.Network.HostUser.ContainerUser ?? "0:0";

    private static async Task<(int, string)> Docker(params string[] arguments)
    {
        var start = new ProcessStartInfo("docker") { RedirectStandardOutput = true, RedirectStandardError = true };
        foreach (var a in arguments)
        {
            start.ArgumentList.Add(a);
        }
        using var process = Process.Start(start)!;
        var error = process.StandardError.ReadToEndAsync();
        var output = await process.StandardOutput.ReadToEndAsync();
        await process.WaitForExitAsync();
        return (process.ExitCode, output + await error);
    }

    private static int Reachable(GossmapSnapshot snapshot, int[] channels, int from)
    {
        var reached = new HashSet<int> { from };
        var taken = new HashSet<int>();
        for (var grew = true; grew; )
        {
            grew = false;
            foreach (var i in channels)
            {
                var c = snapshot.Channels[i];
                if (!taken.Contains(i) && (reached.Contains(c.Node1) || reached.Contains(c.Node2)))
                {
                    taken.Add(i);
                    reached.Add(c.Node1);
                    reached.Add(c.Node2);
                    grew = true;
                }
            }
        }
        return taken.Count;
    }

    private sealed record StoreRecord(ushort Flags, ushort Type, bool CrcHolds);

    private static List<StoreRecord> Records(byte[] store, int offset)
    {
        var records = new List<StoreRecord>();
        while (offset < store.Length)
        {
            var span = store.AsSpan(offset);
            var flags = System.Buffers.Binary.BinaryPrimitives.ReadUInt16BigEndian(span);
            var length = System.Buffers.Binary.BinaryPrimitives.ReadUInt16BigEndian(span[2..]);
            var crc = System.Buffers.Binary.BinaryPrimitives.ReadUInt32BigEndian(span[4..]);
            var timestamp = System.Buffers.Binary.BinaryPrimitives.ReadUInt32BigEndian(span[8..]);
            var msg = span.Slice(12, length);
            records.Add(
                new StoreRecord(
                    flags,
                    System.Buffers.Binary.BinaryPrimitives.ReadUInt16BigEndian(msg),
                    Crc32c.Compute(timestamp, msg) == crc
                )
            );
            offset += 12 + length;
        }
        return records;
    }
}
