using System.Buffers.Binary;
using Lightning.Bench.NodeKinds.Lnd.Bolt;

namespace Lightning.Bench.NodeKinds.Lnd;

/// <summary>
/// LND's key-value store on bbolt as its histories write it: where channel.db is, which releases' layouts were read
/// (invoices, payments and forwards alike), the file read whole, changed and written afresh, and its big-endian keys.
/// </summary>
internal static class LndKvStore
{
    /// <summary>Where lnd keeps its channel state and invoices in bbolt, under its --lnddir (regtest).</summary>
    public const string ChannelDbPath = "data/graph/regtest/channel.db";

    /// <summary>The releases whose key-value invoices, payments and forwards were read (the same layout in each).</summary>
    public static readonly (LndRelease From, LndRelease Through) Known = (new(0, 18, 0), new(0, 21, 2));

    /// <summary>"v0.18 to v0.21": the minors of <see cref="Known"/>.</summary>
    public static string KnownText =>
        $"v{Known.From.Major}.{Known.From.Minor} to v{Known.Through.Major}.{Known.Through.Minor}";

    /// <summary>The node's release when its layout was not read (outside <see cref="Known"/>'s minors); null when it was, or is unknown.</summary>
    public static LndRelease? Unread(IReadOnlyDictionary<string, string> versions) =>
        LndRelease.Parse(versions.GetValueOrDefault("lnd", "")) is { } release
        && (release < Known.From || release.Major != 0 || release.Minor > Known.Through.Minor)
            ? release
            : null;

    /// <summary>
    /// Why a release's key-value <paramref name="history"/> cannot be written, in one line (one outside
    /// <see cref="Known"/>'s minors), ending in what to do (<paramref name="give"/>: by default, the history to one of
    /// those releases); or null.
    /// </summary>
    public static string? Refusal(IReadOnlyDictionary<string, string> versions, string history, string? give = null) =>
        Unread(versions) is { } release
            ? $"its LND (v{release}) keeps {history} in a key-value layout the harness has not read (it writes that of {KnownText}): {give ?? $"give a history of {history} to one of those releases"}"
            : null;

    /// <summary>
    /// The stopped node's channel.db read whole, changed by <paramref name="add"/> (copies written and the last index),
    /// and, if it wrote any, written afresh beside the old file and moved over it.
    /// </summary>
    internal static (long Written, long Last) Rewrite(string nodeDirectory, Func<BoltBucket, (long, long)> add)
    {
        var path = Path.Combine(nodeDirectory, ChannelDbPath);
        if (!File.Exists(path))
        {
            throw new InvalidOperationException($"{path} does not exist: the node keeps no bbolt channel.db there");
        }
        var database = BoltReader.Read(path);
        var (written, last) = add(database.Root);
        if (written > 0)
        {
            var fresh = path + ".lnbench-new";
            BoltWriter.Write(database, fresh);
            if (!OperatingSystem.IsWindows())
            {
                File.SetUnixFileMode(fresh, File.GetUnixFileMode(path));
            }
            File.Move(fresh, path, overwrite: true);
        }
        return (written, last);
    }

    /// <summary>LND's key-value keys: invoice numbers (4 bytes) and indexes (8 bytes), big-endian.</summary>
    internal static byte[] BigEndian32(uint value)
    {
        var bytes = new byte[4];
        BinaryPrimitives.WriteUInt32BigEndian(bytes, value);
        return bytes;
    }

    internal static byte[] BigEndian64(ulong value)
    {
        var bytes = new byte[8];
        BinaryPrimitives.WriteUInt64BigEndian(bytes, value);
        return bytes;
    }
}
