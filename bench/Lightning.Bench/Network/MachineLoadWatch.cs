using System.Diagnostics;
using Lightning.Bench.Docker;
using Lightning.Bench.Processes;
using Lightning.Bench.Results;

namespace Lightning.Bench.Network;

/// <summary>
/// Samples the machine while a run measures, once a second (<see cref="MachineLoadSample"/>): the host's CPU time and
/// its busy part (<see cref="HostReading"/>), the run's containers' CPU time (each container labelled with the run, read
/// from its cgroup as it comes and goes), and the harness's own. What neither the run's containers nor the harness
/// took is other work; <see cref="MachineLoad"/> says from it whether the machine was busy. On a swarm it samples the
/// harness's host only.
/// </summary>
internal sealed class MachineLoadWatch : IAsyncDisposable
{
    private readonly RunContainersCpu containers;
    private readonly TimeSpan every;

    // Not disposed: a sample the engine holds past the stop's limit may still be running.
    private readonly CancellationTokenSource stop = new();
    private readonly List<MachineLoadSample> samples = [];
    private readonly Lock gate = new();
    private readonly long started = Stopwatch.GetTimestamp();
    private Task? loop;
    private HostReading? last;

    private MachineLoadWatch(RunContainersCpu containers, TimeSpan every)
    {
        this.containers = containers;
        this.every = every;
    }

    /// <summary>Starts sampling the machine for the run whose containers carry <paramref name="labelFilter"/> ("lnbench.run=ID").</summary>
    public static async Task<MachineLoadWatch> StartAsync(
        DockerEngine engine,
        string labelFilter,
        TimeSpan? every = null,
        CancellationToken ct = default
    ) => await StartAsync(new RunContainersCpu(engine, labelFilter), every, ct);

    internal static async Task<MachineLoadWatch> StartAsync(
        RunContainersCpu containers,
        TimeSpan? every,
        CancellationToken ct
    )
    {
        var watch = new MachineLoadWatch(containers, every ?? TimeSpan.FromSeconds(1));
        // The containers' CPU before the first reading is not the interval's: read it once as the baseline.
        await containers.ReadSecondsAsync(ct);
        watch.last = HostReading.Read();
        watch.loop = Task.Run(() => watch.SampleAsync(watch.stop.Token));
        return watch;
    }

    /// <summary>The samples so far.</summary>
    public IReadOnlyList<MachineLoadSample> Samples
    {
        get
        {
            lock (gate)
            {
                return samples.ToList();
            }
        }
    }

    /// <summary>The record of the samples so far (null before the first).</summary>
    public MachineLoad? Record(double thresholdPercent = MachineLoad.DefaultBusyThresholdPercent) =>
        MachineLoad.Of(Samples, Environment.ProcessorCount, thresholdPercent) is { } load
            ? load with
            {
                Problem = containers.Problem,
            }
            : null;

    /// <summary>
    /// Stops sampling, after one last sample; again, it returns at once. It never holds up the run's end: a sample
    /// the engine does not answer within <see cref="StopLimit"/> is left out.
    /// </summary>
    public async Task StopAsync()
    {
        if (!stop.IsCancellationRequested)
        {
            await stop.CancelAsync();
            if (loop is not null)
            {
                await Task.WhenAny(loop, Task.Delay(StopLimit));
            }
            using var last = new CancellationTokenSource(StopLimit);
            await TakeAsync(last.Token);
        }
    }

    private static readonly TimeSpan StopLimit = TimeSpan.FromSeconds(5);

    private async Task SampleAsync(CancellationToken ct)
    {
        using var timer = new PeriodicTimer(every);
        try
        {
            while (await timer.WaitForNextTickAsync(ct))
            {
                await TakeAsync(ct);
            }
        }
        catch (OperationCanceledException) { }
    }

    private readonly SemaphoreSlim taking = new(1, 1);

    private async Task TakeAsync(CancellationToken ct)
    {
        try
        {
            await taking.WaitAsync(ct);
        }
        catch (OperationCanceledException)
        {
            return;
        }
        try
        {
            var runSeconds = await containers.ReadSecondsAsync(ct);
            var now = HostReading.Read();
            if (now is null || last is null || now.TotalSeconds <= last.TotalSeconds)
            {
                return;
            }
            var sample = new MachineLoadSample(
                Stopwatch.GetElapsedTime(started, now.Timestamp).TotalSeconds,
                now.TotalSeconds - last.TotalSeconds,
                now.BusySeconds - last.BusySeconds,
                runSeconds,
                Math.Max(0, now.HarnessCpuSeconds - last.HarnessCpuSeconds),
                now.LoadAverage,
                now.MemoryPressure,
                now.MemAvailableMb,
                now.CpuMhz
            );
            last = now;
            lock (gate)
            {
                samples.Add(sample);
            }
        }
        catch (Exception e)
        {
            // A sample is never worth a run (the engine gone, a cgroup unreadable): the record says why it has fewer.
            if (!(e is OperationCanceledException && ct.IsCancellationRequested))
            {
                containers.NoteProblem($"a sample failed ({e.GetType().Name}: {e.Message})");
            }
        }
        finally
        {
            taking.Release();
        }
    }

    public async ValueTask DisposeAsync()
    {
        await StopAsync();
    }
}

/// <summary>
/// The CPU time of a run's containers on this host, from their cgroups: the containers are listed by the run's label at
/// each reading, a new one's cgroup found once through its first process; a container that ended keeps what it had
/// used at the last reading (what it used after it is lost: at most a second of a container's end).
/// </summary>
internal sealed class RunContainersCpu(DockerEngine engine, string labelFilter)
{
    private readonly Dictionary<string, (string? File, long Ns)> known = [];

    /// <summary>Why a container's CPU could not be read (then it counts as other work), or null.</summary>
    public string? Problem { get; private set; }

    /// <summary>Keeps the first problem met.</summary>
    public void NoteProblem(string problem) => Problem ??= problem;

    /// <summary>The seconds of CPU the run's containers used since the last call (all a new container used so far).</summary>
    public async Task<double> ReadSecondsAsync(CancellationToken ct)
    {
        IReadOnlyList<ContainerSummary> listed;
        try
        {
            listed = await engine.ListContainersAsync(labelFilter, ct);
        }
        catch (Exception e) when (e is DockerApiException or IOException or HttpRequestException or TimeoutException)
        {
            Problem ??= $"the run's containers could not be listed ({e.Message})";
            return 0;
        }
        var used = 0L;
        foreach (var container in listed)
        {
            // A container listed before it started has no cgroup yet: looked for again once it runs.
            if (!known.TryGetValue(container.Id, out var entry) || (entry.File is null && container.State == "running"))
            {
                entry = (await UsageFileAsync(container.Id, ct), 0);
            }
            if (entry.File is not null && ReadNs(entry.File) is { } ns && ns > entry.Ns)
            {
                used += ns - entry.Ns;
                entry.Ns = ns;
            }
            known[container.Id] = entry;
        }
        return used / 1e9;
    }

    private async Task<string?> UsageFileAsync(string id, CancellationToken ct)
    {
        var details = await engine.InspectContainerAsync(id, ct);
        if (details is null || details.Pid <= 0)
        {
            // Not running (created, or already gone): nothing to read.
            return null;
        }
        var (cgroups, missing) = ProcessCgroups.Of(details.Pid);
        var (file, problem) = cgroups is null ? (null, missing) : CgroupCpu.UsageFileOf(cgroups);
        if (file is null)
        {
            Problem ??= problem;
        }
        return file;
    }

    private static long? ReadNs(string file)
    {
        try
        {
            return CgroupCpu.ReadNanoseconds(file);
        }
        catch (Exception e)
            when (e is IOException or UnauthorizedAccessException or FormatException or InvalidDataException)
        {
            return null;
        }
    }
}
