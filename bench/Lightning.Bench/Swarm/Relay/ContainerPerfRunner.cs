using Docker.DotNet.Models;
using Lightning.Bench.Docker;
using Lightning.Bench.Processes;
using Lightning.Bench.Profiling;

namespace Lightning.Bench.Swarm.Relay;

/// <summary>
/// A swarm agent's perf: each perf process runs in a helper container of the harness image (which carries perf), made
/// through the agent's host's engine with the host's pid namespace, CAP_SYS_ADMIN, CAP_SYS_PTRACE and CAP_SYSLOG, the host's
/// cgroups and the run's work volume mounted where the agent has it. A swarm service (Docker 20.10) cannot join the
/// host's pid namespace, and perf in the agent's own namespace would see the nodes' samples as pid 0 and resolve none
/// of their symbols. The recording's control FIFOs, its data, perf's build-id cache and its output are files in the
/// work volume, seen at the same paths by the agent and the helper. The helper carries the run's labels (a run's sweep
/// by label removes it) and is removed when its perf is disposed; removing it kills perf too (the engine kills every
/// process of a container that shares the host's pid namespace).
/// </summary>
internal sealed class ContainerPerfRunner(DockerEngine engine, PerfContainerSettings settings, string folder)
    : IPerfRunner
{
    /// <summary>How a helper's name starts: a swarm run's sweep on every host knows its leftovers by it.</summary>
    public const string NamePrefix = "lnbench-perf-";

    private static readonly TimeSpan Forever = TimeSpan.FromHours(24);

    public async Task<IRunningProcess> StartAsync(IReadOnlyList<string> arguments, CancellationToken ct = default) =>
        await ContainerPerf.StartAsync(engine, settings, folder, arguments, ct);

    public async Task<ProcessResult> RunAsync(
        IReadOnlyList<string> arguments,
        TimeSpan timeout,
        Action<StreamReader> readOutput,
        CancellationToken ct = default
    )
    {
        await using var perf = await ContainerPerf.StartAsync(engine, settings, folder, arguments, ct);
        if (!await perf.WaitForExitAsync(timeout, ct))
        {
            throw new TimeoutException(
                $"perf {string.Join(' ', arguments.Take(4))} … did not finish within {timeout.TotalMinutes:0} min in its helper container"
            );
        }
        using (var output = new StreamReader(perf.OutputFile))
        {
            readOutput(output);
        }
        return new ProcessResult(settings.PerfPath, arguments, perf.ExitCode, "", perf.Errors);
    }

    /// <summary>One perf in its helper container.</summary>
    private sealed class ContainerPerf : IRunningProcess
    {
        private readonly DockerEngine engine;
        private readonly string id;
        private readonly string errorFile;
        private readonly CancellationTokenSource disposing = new();
        private readonly Task<long> exit;
        private int disposed;

        private ContainerPerf(DockerEngine engine, string id, string outputFile, string errorFile)
        {
            this.engine = engine;
            this.id = id;
            OutputFile = outputFile;
            this.errorFile = errorFile;
            exit = engine.WaitContainerAsync(id, Forever, disposing.Token);
        }

        public string OutputFile { get; }

        public string Errors
        {
            get
            {
                try
                {
                    using var reader = new StreamReader(
                        new FileStream(errorFile, FileMode.Open, FileAccess.Read, FileShare.ReadWrite)
                    );
                    return reader.ReadToEnd();
                }
                catch (Exception e) when (e is IOException or UnauthorizedAccessException)
                {
                    return "";
                }
            }
        }

        public bool HasExited => exit.IsCompleted;

        public int ExitCode => exit.IsCompletedSuccessfully ? (int)exit.Result : -1;

        public static async Task<ContainerPerf> StartAsync(
            DockerEngine engine,
            PerfContainerSettings settings,
            string folder,
            IReadOnlyList<string> arguments,
            CancellationToken ct
        )
        {
            Directory.CreateDirectory(folder);
            var name = $"{NamePrefix}{Guid.NewGuid():N}"[..28];
            var output = Path.Combine(folder, $"{name}.out");
            var errors = Path.Combine(folder, $"{name}.err");
            var id = await engine.CreateContainerAsync(
                name,
                new CreateContainerParameters
                {
                    Image = settings.Image,
                    Entrypoint = [.. settings.Entrypoint],
                    Cmd =
                    [
                        ExecToFiles.Command,
                        "--stdout",
                        output,
                        "--stderr",
                        errors,
                        "--",
                        settings.PerfPath,
                        .. arguments,
                    ],
                    User = "0:0",
                    Labels = new Dictionary<string, string>(settings.Labels),
                    HostConfig = new HostConfig
                    {
                        NetworkMode = "none",
                        PidMode = "host",
                        // Sampling the whole host (then scoped to a node's cgroup), reading the nodes' maps and binaries and the kernel's
                        // symbols (/proc/kallsyms shows zeros without CAP_SYSLOG), as
                        // root on the host can. Not --privileged: it asks for every capability, and an engine whose own
                        // bounding set lacks one (a container-in-VM host such as this project's) refuses to start it.
                        CapAdd = ["SYS_ADMIN", "SYS_PTRACE", "SYSLOG"],
                        Binds = [$"{settings.WorkVolume}:{settings.WorkMount}", "/sys/fs/cgroup:/sys/fs/cgroup:ro"],
                    },
                },
                ct
            );
            try
            {
                await engine.StartContainerAsync(id, ct);
            }
            catch
            {
                await engine.RemoveContainerAsync(id, CancellationToken.None);
                throw;
            }
            return new ContainerPerf(engine, id, output, errors);
        }

        public string Tail(int lines = 3) =>
            string.Join(
                " | ",
                Errors
                    .Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
                    .TakeLast(lines)
            );

        public async Task<bool> WaitForExitAsync(TimeSpan timeout, CancellationToken ct = default)
        {
            try
            {
                await exit.WaitAsync(timeout, ct);
                return true;
            }
            catch (TimeoutException)
            {
                return false;
            }
        }

        public async ValueTask DisposeAsync()
        {
            if (Interlocked.Exchange(ref disposed, 1) == 1)
            {
                return;
            }
            using var limit = new CancellationTokenSource(TimeSpan.FromSeconds(30));
            try
            {
                await engine.RemoveContainerAsync(id, limit.Token);
            }
            catch (Exception e)
                when (e is DockerApiException or OperationCanceledException or IOException or HttpRequestException)
            {
                // The run's sweep by label removes it.
            }
            await disposing.CancelAsync();
            await exit.ContinueWith(_ => { }, TaskScheduler.Default);
            disposing.Dispose();
            foreach (var file in new[] { OutputFile, errorFile })
            {
                try
                {
                    File.Delete(file);
                }
                catch (Exception e) when (e is IOException or UnauthorizedAccessException) { }
            }
        }
    }
}
