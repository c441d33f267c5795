using System.Globalization;
using Lightning.Bench.Cleanup;
using Lightning.Bench.Progress;

namespace Lightning.Bench.Tracing;

/// <summary>
/// net.unix.max_dgram_qlen: how many datagrams the kernel queues on a Unix socket before a sender gets EAGAIN (and
/// Core Lightning drops the span). It is read when the harness binds a trace socket. The default, 10, loses about 5 %
/// of the spans of 10 concurrent payments on 2 cores; 1024 loses none. Raised for the run when the harness may
/// write it (root), otherwise the run says how to raise it.
/// </summary>
/// <remarks>
/// A harness killed with SIGKILL cannot restore the limit, so the raising run keeps a marker (the value to restore and
/// its owner) in the harness user's own state folder, which nobody else can write: a marker in a shared folder such as
/// /tmp could be replaced by a symlink (and root's write would clobber its target) or by a value that the next run
/// would write into the sysctl. What is read back is checked before it is used.
/// </remarks>
internal sealed class DatagramQueueLimit
{
    public const string DefaultSysctlPath = "/proc/sys/net/unix/max_dgram_qlen";
    public const int Wanted = 1024;
    public const string MarkerName = "max_dgram_qlen.restore";

    private readonly string sysctlPath;
    private readonly string stateDirectory;

    /// <summary>The limit this instance raised and owes back; 0 when it owes nothing.</summary>
    private int original;

    /// <param name="sysctlPath">The sysctl file (tests pass a file of their own).</param>
    /// <param name="stateDirectory">The harness user's private folder for the marker (default: <see cref="DefaultStateDirectory"/>).</param>
    public DatagramQueueLimit(string sysctlPath = DefaultSysctlPath, string? stateDirectory = null)
    {
        this.sysctlPath = sysctlPath;
        this.stateDirectory = stateDirectory ?? DefaultStateDirectory;
    }

    /// <summary>$XDG_STATE_HOME/lnbench, else ~/.local/state/lnbench: the harness user's own.</summary>
    public static string DefaultStateDirectory =>
        Path.Combine(
            Environment.GetEnvironmentVariable("XDG_STATE_HOME") is { Length: > 0 } state && Path.IsPathRooted(state)
                ? state
                : Path.Combine(Environment.GetFolderPath(Environment.SpecialFolder.UserProfile), ".local", "state"),
            "lnbench"
        );

    /// <summary>The limit in force now on this machine (sockets bound from now on get it), or 0 when it cannot be read.</summary>
    public static int Current => new DatagramQueueLimit().Read() ?? 0;

    public string MarkerPath => Path.Combine(stateDirectory, MarkerName);

    /// <summary>Whether <paramref name="value"/> can be a limit this harness replaced: the kernel's range, below what it raises to.</summary>
    public static bool IsPlausibleOriginal(int value) => value is >= 1 and < Wanted;

    public int? Read() =>
        File.Exists(sysctlPath)
        && int.TryParse(
            File.ReadAllText(sysctlPath).Trim(),
            NumberStyles.None,
            CultureInfo.InvariantCulture,
            out var value
        )
            ? value
            : null;

    /// <summary>Puts back a limit that a run whose harness is gone raised and never restored; says so.</summary>
    public void RestoreLeftover(RunProgress progress)
    {
        var marker = MarkerPath;
        try
        {
            if (!File.Exists(marker) || new FileInfo(marker).LinkTarget is not null)
            {
                return;
            }
            var parts = File.ReadAllText(marker).Split(' ', 2, StringSplitOptions.TrimEntries);
            var owner = parts.Length == 2 ? OwnerProcess.Parse(parts[1]) : null;
            if (
                parts.Length != 2
                || !int.TryParse(parts[0], NumberStyles.None, CultureInfo.InvariantCulture, out var value)
                || !IsPlausibleOriginal(value)
                || owner is null
            )
            {
                File.Delete(marker);
                progress.Info(
                    $"ignored {marker}: it does not hold a limit to restore (expected 'VALUE HOST PID' with VALUE from 1 to {Wanted - 1})"
                );
                return;
            }
            if (!owner.IsGone)
            {
                return;
            }
            var current = Read();
            File.WriteAllText(sysctlPath, value.ToString(CultureInfo.InvariantCulture));
            File.Delete(marker);
            progress.Info(
                $"restored net.unix.max_dgram_qlen to {value} (an earlier run whose harness is gone left it at {current})"
            );
        }
        catch (Exception e) when (e is UnauthorizedAccessException or IOException) { }
    }

    /// <summary>Raises the limit to <see cref="Wanted"/> when it is lower and this process may; otherwise warns how to.</summary>
    public DatagramQueueLimit Ensure(RunProgress progress)
    {
        if (Read() is not { } current || current >= Wanted)
        {
            return this;
        }
        try
        {
            // The marker first: a harness killed right after raising the limit must leave the means to restore it.
            WriteMarker(FormattableString.Invariant($"{current} {OwnerProcess.Current}"));
            File.WriteAllText(sysctlPath, Wanted.ToString(CultureInfo.InvariantCulture));
            original = current;
            progress.Info(
                $"raised net.unix.max_dgram_qlen from {current} to {Wanted} for the trace sockets (restored at the end)"
            );
        }
        catch (Exception e) when (e is UnauthorizedAccessException or IOException)
        {
            TryDelete(MarkerPath);
            progress.Info(
                $"warning: net.unix.max_dgram_qlen is {current}: nodes drop spans in bursts (about 5 % at 10 concurrent payments); "
                    + $"raise it with 'sudo sysctl -w net.unix.max_dgram_qlen={Wanted}' (or run with --no-traces)"
            );
        }
        return this;
    }

    /// <summary>Puts back what <see cref="Ensure"/> raised; safe to call more than once.</summary>
    public void Restore()
    {
        var value = Interlocked.Exchange(ref original, 0);
        if (value == 0)
        {
            return;
        }
        try
        {
            File.WriteAllText(sysctlPath, value.ToString(CultureInfo.InvariantCulture));
            TryDelete(MarkerPath);
        }
        catch (Exception e) when (e is UnauthorizedAccessException or IOException) { }
    }

    /// <summary>
    /// Writes the marker in the private state folder (made 0700, refused if it is a symlink) through a new file that
    /// replaces the old name: a symlink planted at the marker's name is replaced, never followed.
    /// </summary>
    private void WriteMarker(string content)
    {
        var directory = Directory.CreateDirectory(stateDirectory);
        if (directory.LinkTarget is not null)
        {
            throw new IOException(
                $"{stateDirectory} is a symbolic link; the harness keeps its state only in a folder of its own"
            );
        }
        if (!OperatingSystem.IsWindows())
        {
            directory.UnixFileMode = UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute;
        }
        var temporary = Path.Combine(stateDirectory, $".{MarkerName}.{Environment.ProcessId}.{Guid.NewGuid():N}");
        using (var file = new FileStream(temporary, FileMode.CreateNew, FileAccess.Write))
        using (var writer = new StreamWriter(file))
        {
            writer.Write(content);
        }
        File.Move(temporary, MarkerPath, overwrite: true);
    }

    private static void TryDelete(string path)
    {
        try
        {
            File.Delete(path);
        }
        catch (Exception e) when (e is UnauthorizedAccessException or IOException) { }
    }
}
