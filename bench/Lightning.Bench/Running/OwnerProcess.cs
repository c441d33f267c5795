using System.Diagnostics;

namespace Lightning.Bench.Running;

/// <summary>Whether the harness that left something behind (containers, a raised sysctl) is still running.</summary>
public static class OwnerProcess
{
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
}
