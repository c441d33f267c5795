using System.Collections.Concurrent;
using Lightning.Bench.Processes;
using Lightning.Bench.Profiling;
using Lightning.Bench.Waiting;

namespace Lightning.Bench.Swarm.Relay;

/// <summary>
/// What an agent reads of its host's nodes for the harness: each node's cgroup CPU time and resources (a reader per
/// node's first process, kept while it answers), and the wait for quiet nodes on those cgroups; through the host's
/// /proc (<paramref name="procRoot"/>) when the agent runs in a container.
/// </summary>
internal sealed class AgentCosts(string procRoot)
{
    private readonly ConcurrentDictionary<int, NodeResources?> readers = new();

    /// <summary>A node's CPU time and resources now; a node that cannot be read says why in the reading.</summary>
    public NodeCostReading Read(CostTarget target)
    {
        var (cgroups, file, problem) = CpuUsageOf(target);
        if (cgroups is null || file is null)
        {
            return new NodeCostReading(target.Node, problem, 0, null);
        }
        try
        {
            var resources = readers.GetOrAdd(target.Pid, _ => NodeResources.Of(cgroups, procRoot: procRoot).Reader);
            return new NodeCostReading(
                target.Node,
                "",
                CgroupCpu.ReadNanoseconds(file),
                resources?.Read(countFiles: false)
            );
        }
        catch (Exception e)
            when (e is IOException or UnauthorizedAccessException or FormatException or InvalidDataException)
        {
            readers.TryRemove(target.Pid, out _);
            return new NodeCostReading(target.Node, e.Message, 0, null);
        }
    }

    /// <summary>The harness's wait for quiet nodes, on this host's cgroups (<see cref="QuietWait"/>); a node that cannot be read is the answer's problem.</summary>
    public async Task<QuietMessage> WaitQuietAsync(QuietRequestMessage request, CancellationToken ct = default)
    {
        var files = new List<string>();
        foreach (var target in request.Targets)
        {
            var (_, file, problem) = CpuUsageOf(target);
            if (file is null)
            {
                return new QuietMessage(request.RequestId, $"{target.Node}: {problem}", TimeSpan.Zero, false);
            }
            files.Add(file);
        }
        string? failed = null;
        long? Read()
        {
            try
            {
                return files.Sum(CgroupCpu.ReadNanoseconds);
            }
            catch (Exception e)
                when (e is IOException or UnauthorizedAccessException or FormatException or InvalidDataException)
            {
                failed = e.Message;
                return null;
            }
        }
        var (waited, quiet) = await QuietWait.UntilQuietAsync(
            Read,
            request.IdleNsPerSecond,
            request.Quiet,
            request.BusyShare,
            request.Limit,
            request.Poll,
            ct
        );
        return new QuietMessage(request.RequestId, failed ?? "", waited, quiet);
    }

    /// <summary>A node's cgroups and CPU usage file on this host, or why they cannot be read.</summary>
    private (ProcessCgroups? Cgroups, string? File, string Problem) CpuUsageOf(CostTarget target)
    {
        var (cgroups, missing) = ProcessCgroups.Of(target.Pid, procRoot);
        if (cgroups is null)
        {
            return (null, null, missing);
        }
        var (file, problem) = CgroupCpu.UsageFileOf(cgroups);
        return (cgroups, file, problem);
    }
}
