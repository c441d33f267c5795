using System.Diagnostics;
using System.Globalization;

namespace Lightning.Bench.Cleanup;

/// <summary>
/// The harness process that owns something it may leave behind (containers, node folders, a raised sysctl): its
/// machine and process id. Only an owner on this machine whose process is gone may be cleaned up after; a run on
/// another machine that shares the engine is never touched.
/// </summary>
internal sealed record OwnerProcess(string Host, int Pid)
{
    /// <summary>This process on this machine.</summary>
    public static OwnerProcess Current { get; } = new(MachineIdentity(), Environment.ProcessId);

    /// <summary>"HOST PID", the form kept in labels and files.</summary>
    public override string ToString() => FormattableString.Invariant($"{Host} {Pid}");

    /// <summary>Reads "HOST PID"; null when the text is anything else.</summary>
    public static OwnerProcess? Parse(string? text)
    {
        var parts = text?.Trim().Split(' ') ?? [];
        return
            parts.Length == 2
            && parts[0].Length > 0
            && parts[0].All(c => char.IsAsciiLetterOrDigit(c) || c is '-' or '.' or '_')
            && int.TryParse(parts[1], NumberStyles.None, CultureInfo.InvariantCulture, out var pid)
            && pid > 0
            ? new OwnerProcess(parts[0], pid)
            : null;
    }

    /// <summary>True when the owner ran on this machine and its process has ended.</summary>
    public bool IsGone => Host == Current.Host && !IsAlive(Pid);

    public static bool IsAlive(int pid)
    {
        try
        {
            using var process = Process.GetProcessById(pid);
            return !process.HasExited;
        }
        catch (ArgumentException)
        {
            return false;
        }
    }

    /// <summary>/etc/machine-id where there is one (containers of one host share it), else the host name.</summary>
    private static string MachineIdentity()
    {
        try
        {
            var id = File.Exists("/etc/machine-id") ? File.ReadAllText("/etc/machine-id").Trim() : "";
            if (id.Length > 0 && id.All(char.IsAsciiHexDigit))
            {
                return id;
            }
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException) { }
        var name = new string(
            Environment.MachineName.Where(c => char.IsAsciiLetterOrDigit(c) || c is '-' or '.' or '_').ToArray()
        );
        return name.Length > 0 ? name : "localhost";
    }
}
