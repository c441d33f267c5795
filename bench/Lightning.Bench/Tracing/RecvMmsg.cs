using System.Runtime.InteropServices;

namespace Lightning.Bench.Tracing;

/// <summary>
/// Linux's recvmmsg(2): many datagrams per system call. At Core Lightning's burst rates one recv per span
/// spends the receive thread on syscalls and the kernel queue (10 datagrams by default) overflows.
/// </summary>
internal static unsafe partial class RecvMmsg
{
    public const int MsgDontWait = 0x40;
    public const int MsgWaitForOne = 0x10000;
    private const int FGetFl = 3;
    private const int FSetFl = 4;
    private const int ONonBlock = 0x800;
    private const int SolSocket = 1;
    private const int SoRcvTimeo = 20;
    public const int MsgTrunc = 0x20;
    public const int EAgain = 11;
    public const int EIntr = 4;

    [StructLayout(LayoutKind.Sequential)]
    public struct IoVec
    {
        public void* Base;
        public nuint Length;
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct MsgHdr
    {
        public void* Name;
        public uint NameLength;
        public IoVec* Iov;
        public nuint IovLength;
        public void* Control;
        public nuint ControlLength;
        public int Flags;
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct MMsgHdr
    {
        public MsgHdr Header;
        public uint Length;
    }

    [LibraryImport("libc", EntryPoint = "recvmmsg", SetLastError = true)]
    public static partial int Receive(int fd, MMsgHdr* messages, uint count, int flags, void* timeout);

    [StructLayout(LayoutKind.Sequential)]
    private struct TimeVal
    {
        public long Seconds;
        public long Microseconds;
    }

    [LibraryImport("libc", EntryPoint = "fcntl", SetLastError = true)]
    private static partial int Fcntl(int fd, int command, int argument);

    [LibraryImport("libc", EntryPoint = "setsockopt", SetLastError = true)]
    private static partial int SetSocketOption(int fd, int level, int name, TimeVal* value, uint length);

    /// <summary>
    /// Makes receives on <paramref name="fd"/> block, for at most <paramref name="timeoutMs"/> at a time: one recvmmsg
    /// with MSG_WAITFORONE then waits and drains in a single system call, and the timeout lets the loop see a stop.
    /// </summary>
    public static bool MakeBlockingWithTimeout(int fd, int timeoutMs)
    {
        var flags = Fcntl(fd, FGetFl, 0);
        if (flags < 0 || Fcntl(fd, FSetFl, flags & ~ONonBlock) < 0)
        {
            return false;
        }
        var timeout = new TimeVal { Seconds = timeoutMs / 1000, Microseconds = timeoutMs % 1000 * 1000 };
        return SetSocketOption(fd, SolSocket, SoRcvTimeo, &timeout, (uint)sizeof(TimeVal)) == 0;
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct PollFd
    {
        public int Descriptor;
        public short Events;
        public short ReturnedEvents;
    }

    public const short PollIn = 1;

    /// <summary>poll(2): waits until one of the descriptors is readable, or the timeout.</summary>
    [LibraryImport("libc", EntryPoint = "poll", SetLastError = true)]
    public static partial int Poll(PollFd* descriptors, nuint count, int timeoutMs);

    [LibraryImport("libc", EntryPoint = "gettid")]
    public static partial int GetThreadId();

    [LibraryImport("libc", EntryPoint = "setpriority", SetLastError = true)]
    public static partial int SetPriority(int which, int who, int priority);

    /// <summary>Lowers the calling thread's scheduling priority (nice 19); allowed without privileges.</summary>
    public static void LowerCurrentThreadPriority()
    {
        if (Available)
        {
            SetPriority(
                0 /* PRIO_PROCESS: on Linux a thread id names one thread */
                ,
                GetThreadId(),
                19
            );
        }
    }

    public static bool Available => OperatingSystem.IsLinux();
}
