using System.Globalization;
using Lightning.Bench.Running;

namespace Lightning.Bench.Tracing;

/// <summary>
/// net.unix.max_dgram_qlen: how many datagrams the kernel queues on a Unix socket before a sender gets EAGAIN (and
/// Core Lightning drops the span). It is read when the harness binds a trace socket. The default, 10, loses about 5 %
/// of the spans of 10 concurrent payments on 2 cores; 1024 loses none. Raised for the run when the harness may
/// write it (root), otherwise the run says how to raise it.
/// </summary>
public sealed class DatagramQueueLimit
{
    public const string SysctlPath = "/proc/sys/net/unix/max_dgram_qlen";
    public const int Wanted = 1024;

    private readonly int? original;

    private DatagramQueueLimit(int? original) => this.original = original;

    /// <summary>The limit in force now (sockets bound from now on get it), or 0 when it cannot be read.</summary>
    public static int Current => Read() ?? 0;

    private static int? Read() =>
        File.Exists(SysctlPath) && int.TryParse(File.ReadAllText(SysctlPath).Trim(), NumberStyles.None, CultureInfo.InvariantCulture, out var value) ? value : null;

    /// <summary>
    /// Where a run that raised the limit notes the value to restore and its process id, until it restores it: a harness
    /// killed with SIGKILL cannot restore, so the next run does (<see cref="RestoreLeftover"/>).
    /// </summary>
    public static string MarkerPath => Path.Combine(Path.GetTempPath(), "lnbench-max_dgram_qlen");

    /// <summary>Puts back a limit that a run whose harness is gone raised and never restored; says so.</summary>
    public static void RestoreLeftover(RunProgress progress)
    {
        try
        {
            var parts = File.Exists(MarkerPath) ? File.ReadAllText(MarkerPath).Split(' ', StringSplitOptions.RemoveEmptyEntries) : [];
            if (parts.Length != 2 || !int.TryParse(parts[0], NumberStyles.None, CultureInfo.InvariantCulture, out var original)
                || !int.TryParse(parts[1], NumberStyles.None, CultureInfo.InvariantCulture, out var pid) || OwnerProcess.IsAlive(pid))
            {
                return;
            }
            var current = Current;
            File.WriteAllText(SysctlPath, original.ToString(CultureInfo.InvariantCulture));
            File.Delete(MarkerPath);
            progress.Info($"restored net.unix.max_dgram_qlen to {original} (an earlier run whose harness is gone left it at {current})");
        }
        catch (Exception e) when (e is UnauthorizedAccessException or IOException)
        {
        }
    }

    public static DatagramQueueLimit Ensure(RunProgress progress)
    {
        if (Read() is not { } current || current >= Wanted)
        {
            return new DatagramQueueLimit(null);
        }
        try
        {
            File.WriteAllText(SysctlPath, Wanted.ToString(CultureInfo.InvariantCulture));
            File.WriteAllText(MarkerPath, FormattableString.Invariant($"{current} {Environment.ProcessId}"));
            progress.Info($"raised net.unix.max_dgram_qlen from {current} to {Wanted} for the trace sockets (restored at the end)");
            return new DatagramQueueLimit(current);
        }
        catch (Exception e) when (e is UnauthorizedAccessException or IOException)
        {
            progress.Info($"warning: net.unix.max_dgram_qlen is {current}: nodes drop spans in bursts (about 5 % at 10 concurrent payments); " +
                $"raise it with 'sudo sysctl -w net.unix.max_dgram_qlen={Wanted}' (or run with --no-traces)");
            return new DatagramQueueLimit(null);
        }
    }

    public void Restore()
    {
        if (original is { } value)
        {
            try
            {
                File.WriteAllText(SysctlPath, value.ToString(CultureInfo.InvariantCulture));
                File.Delete(MarkerPath);
            }
            catch (Exception e) when (e is UnauthorizedAccessException or IOException)
            {
            }
        }
    }
}
