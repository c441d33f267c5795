namespace Lightning.Bench.NodeKinds.Lnd.Bolt;

/// <summary>
/// A bbolt file read whole (<see cref="BoltReader"/>), to be written afresh (<see cref="BoltWriter"/>): its page size,
/// the transaction id of its newer meta page, whether it keeps its freelist on disk (LND opens bbolt with
/// <c>NoFreelistSync</c>, so its files have none), and its root bucket.
/// </summary>
internal sealed record BoltDatabase(int PageSize, ulong TxId, bool FreelistSynced, BoltBucket Root);
