namespace Lightning.Bench.NodeKinds.Lnd.Bolt;

/// <summary>One key of a bbolt bucket: a value, or a nested bucket (<see cref="Bucket"/> set, <see cref="Value"/> null).</summary>
internal readonly record struct BoltEntry(byte[] Key, byte[]? Value, BoltBucket? Bucket);
