namespace Lightning.Bench.Results;

/// <summary>One reading of a node container's resources (from its cgroup and its processes).</summary>
/// <param name="CpuNanoseconds">User + system CPU time of all its processes so far.</param>
/// <param name="MemoryBytes">Memory charged to the container (anonymous memory and page cache).</param>
/// <param name="RssBytes">Its anonymous (resident, not file-backed) memory: what grows when a process leaks.</param>
/// <param name="PeakBytes">The most memory it has had charged at once (the kernel's high-water mark).</param>
/// <param name="WrittenBytes">Bytes its processes caused to be written to storage (read from its processes where the cgroup does not count them).</param>
/// <param name="OpenFiles">File descriptors its processes hold open.</param>
/// <param name="Processes">Processes in the container.</param>
/// <param name="DataBytes">Size of the node's data files (its database), when its kind names them.</param>
internal sealed record NodeResourceSample(
    long CpuNanoseconds,
    long MemoryBytes,
    long RssBytes,
    long PeakBytes,
    long WrittenBytes,
    int OpenFiles,
    int Processes,
    long DataBytes
);
