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
    public static int Current =>
        File.Exists(SysctlPath) && int.TryParse(File.ReadAllText(SysctlPath).Trim(), NumberStyles.None, CultureInfo.InvariantCulture, out var value) ? value : 0;

    public static DatagramQueueLimit Ensure(RunProgress progress)
    {
        if (!File.Exists(SysctlPath) || !int.TryParse(File.ReadAllText(SysctlPath).Trim(), NumberStyles.None, CultureInfo.InvariantCulture, out var current) || current >= Wanted)
        {
            return new DatagramQueueLimit(null);
        }
        try
        {
            File.WriteAllText(SysctlPath, Wanted.ToString(CultureInfo.InvariantCulture));
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
            }
            catch (Exception e) when (e is UnauthorizedAccessException or IOException)
            {
            }
        }
    }
}
