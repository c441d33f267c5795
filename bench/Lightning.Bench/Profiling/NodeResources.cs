using System.Globalization;
using Lightning.Bench.Docker;
using Lightning.Bench.Processes;
using Lightning.Bench.Results;

namespace Lightning.Bench.Profiling;

/// <summary>
/// Reads a container's resources through its cgroup, found from its first process: cgroup v2 (cpu.stat, memory.current,
/// memory.peak, memory.stat anon, io.stat wbytes) or v1 (cpuacct.usage, memory.usage_in_bytes,
/// memory.max_usage_in_bytes, memory.stat total_rss). Storage writes on v1: the blkio controller does not see buffered
/// writes, so they are the sum of /proc/PID/io write_bytes over the container's live processes (a process that has
/// exited, such as a short bitcoin-cli call, takes its count with it; a node's database writer lives for the whole run).
/// </summary>
internal sealed class NodeResources
{
    private const string CgroupRoot = ProcessCgroups.Root;
    private readonly string cpuFile;
    private readonly string memoryDirectory;
    private readonly bool unified;
    private readonly Func<IReadOnlyList<string>> dataFiles;
    private readonly string procRoot;
    private readonly int firstPid;
    private long peak;

    private NodeResources(
        string cpuFile,
        string memoryDirectory,
        bool unified,
        Func<IReadOnlyList<string>> dataFiles,
        string procRoot,
        int firstPid
    )
    {
        this.firstPid = firstPid;
        this.cpuFile = cpuFile;
        this.memoryDirectory = memoryDirectory;
        this.unified = unified;
        this.dataFiles = dataFiles;
        this.procRoot = procRoot;
    }

    /// <summary>The reader of the container whose first process is in <paramref name="cgroups"/>, or null with why not.</summary>
    /// <param name="procRoot">Where the /proc of the cgroups' pids is: an agent in a container reads the host's (v1 counts storage writes per process there).</param>
    public static (NodeResources? Reader, string Problem) Of(
        ProcessCgroups cgroups,
        Func<IReadOnlyList<string>>? dataFiles = null,
        string procRoot = "/proc"
    )
    {
        var (cpu, problem) = CgroupCpu.UsageFileOf(cgroups);
        if (cpu is null)
        {
            return (null, problem);
        }
        if (
            cgroups.PathOf("memory") is { } memory
            && Directory.Exists(Path.Combine(CgroupRoot, "memory", memory.TrimStart('/')))
        )
        {
            return (
                new NodeResources(
                    cpu,
                    Path.Combine(CgroupRoot, "memory", memory.TrimStart('/')),
                    false,
                    dataFiles ?? (() => []),
                    procRoot,
                    cgroups.Pid
                ),
                ""
            );
        }
        if (
            cgroups.Unified is { } unified
            && File.Exists(Path.Combine(CgroupRoot, unified.TrimStart('/'), "memory.current"))
        )
        {
            return (
                new NodeResources(
                    cpu,
                    Path.Combine(CgroupRoot, unified.TrimStart('/')),
                    true,
                    dataFiles ?? (() => []),
                    procRoot,
                    cgroups.Pid
                ),
                ""
            );
        }
        return (null, $"no memory accounting found for process {cgroups.Pid} under {CgroupRoot}");
    }

    public static async Task<(NodeResources? Reader, string Problem)> OfContainerAsync(
        DockerEngine engine,
        string containerId,
        Func<IReadOnlyList<string>>? dataFiles = null,
        CancellationToken ct = default
    )
    {
        var details = await engine.InspectContainerAsync(containerId, ct);
        var (cgroups, problem) = ProcessCgroups.Of(details?.Pid ?? 0);
        return cgroups is null ? (null, problem) : Of(cgroups, dataFiles);
    }

    /// <summary>Reads everything once (open files only when asked: listing every process's descriptors takes longest); throws IOException when the container is gone.</summary>
    public NodeResourceSample Read(bool countFiles = true)
    {
        var cpu = CgroupCpu.ReadNanoseconds(cpuFile);
        var pids = ReadPids();
        long memory,
            rss,
            written = 0;
        if (unified)
        {
            memory = ReadLong("memory.current");
            rss = StatValue(File.ReadAllText(Path.Combine(memoryDirectory, "memory.stat")), "anon");
            var peakFile = Path.Combine(memoryDirectory, "memory.peak");
            peak = Math.Max(peak, File.Exists(peakFile) ? ReadLong("memory.peak") : memory);
            var io = Path.Combine(memoryDirectory, "io.stat");
            if (File.Exists(io))
            {
                written = File.ReadAllLines(io)
                    .SelectMany(l => l.Split(' '))
                    .Where(f => f.StartsWith("wbytes=", StringComparison.Ordinal))
                    .Sum(f => long.Parse(f["wbytes=".Length..], CultureInfo.InvariantCulture));
            }
        }
        else
        {
            memory = ReadLong("memory.usage_in_bytes");
            var stat = File.ReadAllText(Path.Combine(memoryDirectory, "memory.stat"));
            rss = StatValue(stat, "total_rss") + StatValue(stat, "total_rss_huge");
            peak = Math.Max(peak, ReadLong("memory.max_usage_in_bytes"));
        }
        var files = 0;
        foreach (var pid in pids)
        {
            if (!unified)
            {
                written += ProcIoWriteBytes(procRoot, pid);
            }
            files += countFiles ? CountFiles(procRoot, pid) : 0;
        }
        var data = dataFiles().Sum(f => File.Exists(f) ? new FileInfo(f).Length : 0);
        return new NodeResourceSample(cpu, memory, rss, peak, written, files, pids.Count, data);
    }

    /// <summary>
    /// The container's processes. cgroup.procs names them in the reader's pid namespace: an agent in a container of
    /// its own sees none of a node's there, so with another /proc it walks the first process's descendants in it.
    /// </summary>
    private List<int> ReadPids() =>
        procRoot != "/proc"
            ? Descendants()
            : File.ReadAllLines(Path.Combine(memoryDirectory, "cgroup.procs"))
                .Select(l => int.TryParse(l, NumberStyles.None, CultureInfo.InvariantCulture, out var p) ? p : 0)
                .Where(p => p > 0)
                .ToList();

    /// <summary>The first process and its descendants, from each process's tasks' children lists in <see cref="procRoot"/>.</summary>
    private List<int> Descendants()
    {
        var found = new List<int>();
        var next = new Queue<int>([firstPid]);
        while (next.Count > 0 && found.Count < 10_000)
        {
            var pid = next.Dequeue();
            if (!Directory.Exists($"{procRoot}/{pid}"))
            {
                continue;
            }
            found.Add(pid);
            try
            {
                foreach (var task in Directory.EnumerateDirectories($"{procRoot}/{pid}/task"))
                {
                    foreach (
                        var child in File.ReadAllText(Path.Combine(task, "children"))
                            .Split(' ', StringSplitOptions.RemoveEmptyEntries)
                    )
                    {
                        if (int.TryParse(child, NumberStyles.None, CultureInfo.InvariantCulture, out var c))
                        {
                            next.Enqueue(c);
                        }
                    }
                }
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                // The process exited while it was read.
            }
        }
        return found;
    }

    private long ReadLong(string file) =>
        long.Parse(File.ReadAllText(Path.Combine(memoryDirectory, file)).Trim(), CultureInfo.InvariantCulture);

    public static long StatValue(string stat, string key)
    {
        foreach (var line in stat.Split('\n'))
        {
            if (line.StartsWith(key + " ", StringComparison.Ordinal))
            {
                return long.Parse(line[(key.Length + 1)..].Trim(), CultureInfo.InvariantCulture);
            }
        }
        return 0;
    }

    private static long ProcIoWriteBytes(string procRoot, int pid)
    {
        try
        {
            foreach (var line in File.ReadLines($"{procRoot}/{pid}/io"))
            {
                if (line.StartsWith("write_bytes:", StringComparison.Ordinal))
                {
                    return long.Parse(line["write_bytes:".Length..].Trim(), CultureInfo.InvariantCulture);
                }
            }
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // The process exited between listing and reading, or is not ours to read.
        }
        return 0;
    }

    private static int CountFiles(string procRoot, int pid)
    {
        try
        {
            return Directory.EnumerateFileSystemEntries($"{procRoot}/{pid}/fd").Count();
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return 0;
        }
    }
}
