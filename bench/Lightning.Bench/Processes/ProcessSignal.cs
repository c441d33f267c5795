using System.Runtime.InteropServices;

namespace Lightning.Bench.Processes;

/// <summary>kill(2): a signal to another process by pid (false when it is gone or not ours).</summary>
internal static partial class ProcessSignal
{
    public const int Interrupt = 2;
    public const int Terminate = 15;

    public static bool Send(int pid, int signal) => Kill(pid, signal) == 0;

    [LibraryImport("libc", EntryPoint = "kill", SetLastError = true)]
    private static partial int Kill(int pid, int signal);
}
