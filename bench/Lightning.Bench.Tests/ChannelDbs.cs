using Lightning.Bench.NodeKinds.Lnd;
using Lightning.Bench.NodeKinds.Lnd.Bolt;

namespace Lightning.Bench.Tests;

/// <summary>An LND node's channel.db for tests of its key-value histories: a root written where the node keeps it.</summary>
internal static class ChannelDbs
{
    /// <summary>Writes <paramref name="root"/> as the channel.db of a node folder <paramref name="nodeDirectory"/> (4 KB pages); returns its path.</summary>
    public static string Write(string nodeDirectory, BoltBucket root)
    {
        var path = Path.Combine(nodeDirectory, LndKvStore.ChannelDbPath);
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        BoltWriter.Write(new BoltDatabase(4096, 20, false, root), path);
        return path;
    }
}
