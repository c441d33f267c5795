using System.IO.Compression;
using Lightning.Bench.Graph;

namespace Lightning.Bench.Tests;

/// <summary>
/// The GOSSMAP_COMPRESSv1 reader on the real mainnet snapshot Core Lightning's tests ship (../shared/data next to the
/// checkout, or LNBENCH_GRAPH_DATA), and on files that are not in the format.
/// </summary>
[Trait("Category", "Unit")]
public class GossmapSnapshotTests : IDisposable
{
    private readonly string directory = Directory.CreateTempSubdirectory("lnbench-gossmap-").FullName;

    [SkippableFact]
    public void The_2026_mainnet_snapshot_has_its_17324_nodes_and_50808_channels_with_sane_policies()
    {
        var path = SnapshotPath();

        var graph = GossmapSnapshot.Read(path);

        // As the snapshot's README and Core Lightning's commit 96adac48 give them.
        Assert.Equal(50_808, graph.Channels.Count);
        Assert.Equal(17_324, graph.NodeCount);
        Assert.All(graph.Channels, c => Assert.True(c.Node1 != c.Node2 && c.CapacitySat > 0, $"{c}"));
        var directions = graph.Channels.SelectMany(c => new[] { (c, c.Forward), (c, c.Backward) }).ToList();
        Assert.All(
            directions,
            d =>
                Assert.True(
                    d.Item2.HtlcMaxMsat <= d.c.CapacitySat * 1000 && d.Item2.HtlcMinMsat <= d.Item2.HtlcMaxMsat,
                    $"{d}"
                )
        );
        // 35 % of directions are disabled: gossmap-compress counts a direction with no update as disabled. The largest
        // node (index 0, ACINQ in the node map) has the most channels.
        Assert.Equal(35_806, directions.Count(d => d.Item2.Disabled));
        var degree = graph
            .Channels.SelectMany(c => new[] { c.Node1, c.Node2 })
            .GroupBy(n => n)
            .OrderByDescending(g => g.Count())
            .First();
        Assert.Equal(0, degree.Key);
    }

    [SkippableFact]
    public void A_file_that_is_not_a_snapshot_is_refused_saying_where_it_broke()
    {
        var path = SnapshotPath();
        var plain = Path.Combine(directory, "plain.txt");
        File.WriteAllText(plain, "not a snapshot");
        Assert.Contains(
            "is not a gzip file",
            Assert.Throws<InvalidDataException>(() => GossmapSnapshot.Read(plain)).Message
        );

        var otherHeader = Path.Combine(directory, "other.gz");
        using (var gzip = new GZipStream(File.Create(otherHeader), CompressionLevel.Fastest))
        {
            gzip.Write("GOSSMAP_COMPRESSv9\0"u8);
        }
        Assert.Contains(
            "header is not GOSSMAP_COMPRESSv1",
            Assert.Throws<InvalidDataException>(() => GossmapSnapshot.Read(otherHeader)).Message
        );

        // The real snapshot cut short.
        byte[] data;
        using (var whole = new GZipStream(File.OpenRead(path), CompressionMode.Decompress))
        using (var copy = new MemoryStream())
        {
            whole.CopyTo(copy);
            data = copy.ToArray();
        }
        var truncated = Path.Combine(directory, "truncated.gz");
        using (var gzip = new GZipStream(File.Create(truncated), CompressionLevel.Fastest))
        {
            gzip.Write(data.AsSpan(0, data.Length / 2));
        }
        Assert.Contains(
            "ends in the middle of its data",
            Assert.Throws<InvalidDataException>(() => GossmapSnapshot.Read(truncated)).Message
        );
    }

    [Fact]
    public void Bigsize_reads_every_width_and_refuses_a_value_not_minimally_encoded()
    {
        Assert.Equal(0xfcUL, Bigsize.Read(new MemoryStream([0xfc])));
        Assert.Equal(0xfdUL, Bigsize.Read(new MemoryStream([0xfd, 0x00, 0xfd])));
        Assert.Equal(0x10000UL, Bigsize.Read(new MemoryStream([0xfe, 0x00, 0x01, 0x00, 0x00])));
        Assert.Equal(0x100000000UL, Bigsize.Read(new MemoryStream([0xff, 0, 0, 0, 1, 0, 0, 0, 0])));
        Assert.Throws<InvalidDataException>(() => Bigsize.Read(new MemoryStream([0xfd, 0x00, 0x10])));
        Assert.Throws<EndOfStreamException>(() => Bigsize.Read(new MemoryStream([])));
    }

    public void Dispose() => Directory.Delete(directory, recursive: true);

    private static string SnapshotPath() => Requirements.GraphData().Snapshot;
}
