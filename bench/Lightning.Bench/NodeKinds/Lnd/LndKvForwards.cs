using System.Buffers.Binary;

namespace Lightning.Bench.NodeKinds.Lnd;

/// <summary>
/// LND's forwarding log in its key-value store (<c>channeldb/forwarding_log.go</c>: the same bucket and keys in v0.18.5,
/// v0.19.3, v0.20.3 and v0.21.1): the top-level bucket <c>circuit-fwd-log</c> maps each forward's settle time (Unix
/// nanoseconds, 8 bytes big-endian) to the event: its incoming and outgoing short channel ids and the amounts in and
/// out (msat), 8 bytes each, and from v0.20 the incoming and outgoing HTLC ids (48 bytes; 32 before). A node's switch
/// writes its forwards there in batches, and flushes them when it stops. <see cref="AddCopies"/> adds copies of the newest.
/// </summary>
internal static class LndKvForwards
{
    private const string LogName = "circuit-fwd-log";

    /// <summary>An event's bytes before v0.20: channels and amounts; from v0.20 the two HTLC ids follow.</summary>
    private const int WithoutHtlcIds = 32;

    /// <summary>The copies' times are this far apart, after the newest forward's.</summary>
    public const long SpacingNanoseconds = 1_000;

    /// <summary>Why a release's forwarding log cannot be written, in one line (one outside <see cref="LndKvStore.Known"/>'s minors); or null.</summary>
    public static string? Refusal(IReadOnlyDictionary<string, string> versions) =>
        LndKvStore.Refusal(versions, "forwards");

    /// <summary>
    /// Grows the stopped node's channel.db to <paramref name="rows"/> forwards: read whole, copies added, written afresh
    /// beside it and moved over it. Returns the copies written and the forwards the log then holds (the last one's
    /// offset in ForwardingHistory).
    /// </summary>
    public static (long Written, long Last) Write(string nodeDirectory, long rows) =>
        LndKvStore.Rewrite(nodeDirectory, root => AddCopies(root, rows));

    /// <summary>The forwards a root bucket of channel.db holds.</summary>
    public static long Count(Bolt.BoltBucket root) => root.Bucket(LogName)?.Entries.Count ?? 0;

    /// <summary>
    /// Adds copies of the newest forward until the log holds <paramref name="rows"/>, each <see cref="SpacingNanoseconds"/>
    /// after the one before; from v0.20 (its events carry HTLC ids) each copy's ids are its own, from
    /// <see cref="LndInvoicesHistory.CopiedHtlcIds"/> (never a live HTLC's).
    /// </summary>
    public static (long Written, long Last) AddCopies(Bolt.BoltBucket root, long rows)
    {
        var log = root.Bucket(LogName) ?? throw NothingToCopy("no forwarding log");
        var existing = (long)log.Entries.Count;
        if (existing == 0 || log.Entries[^1] is not { Value: { Length: >= WithoutHtlcIds } template } newest)
        {
            throw NothingToCopy("an empty forwarding log");
        }
        var toWrite = Math.Max(0, rows - existing);
        var time = BinaryPrimitives.ReadUInt64BigEndian(newest.Key);
        for (var i = 1L; i <= toWrite; i++)
        {
            var value = (byte[])template.Clone();
            if (value.Length >= WithoutHtlcIds + 16)
            {
                var id = (ulong)(LndInvoicesHistory.CopiedHtlcIds + i);
                BinaryPrimitives.WriteUInt64BigEndian(value.AsSpan(WithoutHtlcIds), id);
                BinaryPrimitives.WriteUInt64BigEndian(value.AsSpan(WithoutHtlcIds + 8), id);
            }
            log.Put(LndKvStore.BigEndian64(time + (ulong)(i * SpacingNanoseconds)), value);
        }
        return (toWrite, existing + toWrite);
    }

    private static InvalidOperationException NothingToCopy(string what) =>
        new(
            $"the node has no forward to copy in its channel.db ({what}): it forwarded nothing, or its switch had not written it when it stopped"
        );
}
