using System.Diagnostics;
using System.Runtime.InteropServices;
using Lightning.Bench.Options;
using Lightning.Bench.Processes;
using Lightning.Bench.Waiting;

namespace Lightning.Bench.Profiling;

/// <summary>
/// One `perf record` of one container's cgroup, started with its events disabled and switched on and off through
/// perf's control FIFOs (enable/disable, each acknowledged), so it samples only the invocations it is asked to and
/// costs nothing in between. <see cref="StopAndFoldAsync"/> ends it and turns the samples into folded stacks while
/// the container still runs: perf reads the binaries of the container's processes through their mount namespaces.
/// </summary>
internal sealed partial class PerfRecording : IAsyncDisposable
{
    private static readonly TimeSpan StartTimeout = TimeSpan.FromSeconds(20);
    private static readonly TimeSpan AckTimeout = TimeSpan.FromSeconds(5);
    private static readonly TimeSpan StopTimeout = TimeSpan.FromSeconds(120);
    private static readonly TimeSpan ScriptTimeout = TimeSpan.FromMinutes(10);

    /// <summary>What `perf script` prints per sample: the header line (comm pid/tid period) and one line per frame.</summary>
    public static readonly IReadOnlyList<string> ScriptFields = ["--no-inline", "-F", "comm,pid,tid,period,ip,sym,dso"];

    private readonly ProfileSettings settings;
    private readonly string dataFile;
    private readonly string buildIdDirectory;
    private readonly IRunningProcess perf;
    private readonly IPerfRunner runner;
    private readonly FileStream control;
    private readonly StreamReader acks;
    private readonly Stopwatch enabledTime = new();
    private readonly string controlFifo;
    private readonly string ackFifo;

    private PerfRecording(
        ProfileSettings settings,
        IPerfRunner runner,
        string dataFile,
        string buildIdDirectory,
        IRunningProcess perf,
        FileStream control,
        StreamReader acks,
        string controlFifo,
        string ackFifo
    )
    {
        this.settings = settings;
        this.runner = runner;
        this.dataFile = dataFile;
        this.buildIdDirectory = buildIdDirectory;
        this.perf = perf;
        this.control = control;
        this.acks = acks;
        this.controlFifo = controlFifo;
        this.ackFifo = ackFifo;
    }

    /// <summary>Time spent enabled so far.</summary>
    public TimeSpan Enabled => enabledTime.Elapsed;

    /// <summary>Bytes of the raw recording (known once stopped).</summary>
    public long DataBytes { get; private set; }

    /// <summary>Starts perf on <paramref name="cgroup"/> with its events off; <paramref name="name"/> names its files in <paramref name="folder"/>.</summary>
    /// <param name="buildIdDirectory">perf's cache of the binaries it sampled, shared by a run's recordings: a process that has exited (a bitcoin-cli call) is resolved from it.</param>
    /// <param name="runner">Where perf runs (default: a child process, <see cref="ProfileSettings.PerfPath"/>); its FIFOs and files are in <paramref name="folder"/>, which it must see at the same path.</param>
    public static async Task<PerfRecording> StartAsync(
        ProfileSettings settings,
        string cgroup,
        string folder,
        string name,
        string buildIdDirectory,
        CancellationToken ct = default,
        IPerfRunner? runner = null
    )
    {
        runner ??= new LocalPerfRunner(settings.PerfPath);
        Directory.CreateDirectory(folder);
        var controlFifo = Path.Combine(folder, $"{name}.ctl");
        var ackFifo = Path.Combine(folder, $"{name}.ack");
        foreach (var fifo in new[] { controlFifo, ackFifo })
        {
            File.Delete(fifo);
            if (MakeFifo(fifo, Convert.ToUInt32("600", 8)) != 0)
            {
                throw new IOException(
                    $"cannot make the FIFO {fifo} to control perf (errno {Marshal.GetLastPInvokeError()})"
                );
            }
        }
        var dataFile = Path.Combine(folder, $"{name}.perf.data");
        var perf = await runner.StartAsync([
            "--buildid-dir",
            buildIdDirectory,
            "record",
            .. settings.RecordArguments,
            "-a",
            "-G",
            cgroup,
            "-D",
            "-1",
            "--control",
            $"fifo:{controlFifo},{ackFifo}",
            "-o",
            dataFile,
        ]);
        try
        {
            // perf opens both FIFOs read-write, so these opens return once it has started (or never, if it failed).
            var open = Task.Run(
                () =>
                {
                    var control = new FileStream(controlFifo, FileMode.Open, FileAccess.Write, FileShare.ReadWrite, 1);
                    var acks = new StreamReader(
                        new FileStream(ackFifo, FileMode.Open, FileAccess.Read, FileShare.ReadWrite, 1)
                    );
                    return (control, acks);
                },
                CancellationToken.None
            );
            try
            {
                await Wait.UntilAsync(
                    $"perf record of cgroup {cgroup} to open its control FIFO",
                    _ =>
                        Task.FromResult(
                            open.IsCompleted ? WaitState.Met()
                            : perf.HasExited
                                ? throw new WaitAbortedException(
                                    $"perf record of cgroup {cgroup} exited at start with code {perf.ExitCode}: {perf.Tail(2)}"
                                )
                            : WaitState.NotYet(perf.Tail(2))
                        ),
                    StartTimeout,
                    ct
                );
            }
            catch (WaitAbortedException e)
            {
                throw new IOException(e.Message);
            }
            catch (WaitTimeoutException e)
            {
                throw new TimeoutException(e.Message);
            }
            var (controlStream, ackReader) = await open;
            return new PerfRecording(
                settings,
                runner,
                dataFile,
                buildIdDirectory,
                perf,
                controlStream,
                ackReader,
                controlFifo,
                ackFifo
            );
        }
        catch
        {
            await perf.DisposeAsync();
            DeleteFiles(dataFile, controlFifo, ackFifo);
            throw;
        }
    }

    public async Task EnableAsync(CancellationToken ct = default)
    {
        await CommandAsync("enable", ct);
        enabledTime.Start();
    }

    public async Task DisableAsync(CancellationToken ct = default)
    {
        await CommandAsync("disable", ct);
        enabledTime.Stop();
    }

    /// <summary>Ends the recording and folds its samples (the raw file is then deleted: folded stacks are what is kept).</summary>
    public async Task<FoldedStacks> StopAndFoldAsync(CancellationToken ct = default)
    {
        enabledTime.Stop();
        await CommandAsync("stop", ct);
        if (!await perf.WaitForExitAsync(StopTimeout, ct))
        {
            throw new TimeoutException(
                $"perf record did not finish writing {dataFile} within {StopTimeout.TotalSeconds:0} s"
            );
        }
        if (perf.ExitCode != 0 || !File.Exists(dataFile))
        {
            throw new IOException($"perf record ended with code {perf.ExitCode}: {perf.Tail(2)}");
        }
        DataBytes = new FileInfo(dataFile).Length;
        FoldedStacks? folded = null;
        var script = await runner.RunAsync(
            ["--buildid-dir", buildIdDirectory, "script", "-i", dataFile, .. ScriptFields],
            ScriptTimeout,
            reader => folded = PerfScriptFolder.Fold(reader),
            ct
        );
        if (!script.Succeeded || folded is null)
        {
            throw new IOException($"perf script of {dataFile} failed with code {script.ExitCode}: {script.Tail(2)}");
        }
        File.Delete(dataFile);
        return folded;
    }

    private async Task CommandAsync(string command, CancellationToken ct)
    {
        if (perf.HasExited)
        {
            throw new IOException($"perf record exited with code {perf.ExitCode}: {perf.Tail(2)}");
        }
        var bytes = System.Text.Encoding.ASCII.GetBytes(command + "\n");
        await control.WriteAsync(bytes, ct);
        await control.FlushAsync(ct);
        string? ack;
        try
        {
            ack = await acks.ReadLineAsync(ct).AsTask().WaitAsync(AckTimeout, ct);
        }
        catch (TimeoutException)
        {
            throw new TimeoutException(
                $"perf record did not acknowledge '{command}' within {AckTimeout.TotalSeconds:0} s: {perf.Tail(2)}"
            );
        }
        // perf writes "ack\n" with its C string's terminating NUL, which starts the next line read.
        ack = ack?.Trim('\0', ' ');
        if (ack is null || !ack.StartsWith("ack", StringComparison.Ordinal))
        {
            throw new IOException($"perf record answered '{ack}' to '{command}': {perf.Tail(2)}");
        }
    }

    public async ValueTask DisposeAsync()
    {
        await perf.DisposeAsync();
        await control.DisposeAsync();
        acks.Dispose();
        DeleteFiles(dataFile, controlFifo, ackFifo);
    }

    private static void DeleteFiles(params string[] files)
    {
        foreach (var file in files)
        {
            try
            {
                File.Delete(file);
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                // Left for the run folder's removal.
            }
        }
    }

    [LibraryImport("libc", EntryPoint = "mkfifo", StringMarshalling = StringMarshalling.Utf8, SetLastError = true)]
    private static partial int MakeFifo(string path, uint mode);
}
