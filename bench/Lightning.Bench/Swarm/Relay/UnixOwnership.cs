using System.Runtime.InteropServices;

namespace Lightning.Bench.Swarm.Relay;

/// <summary>chown(2): the agent (root) hands the node folders and sockets it makes to the nodes' user; .NET has no API for it.</summary>
internal static partial class UnixOwnership
{
    public static void Set(string path, int uid, int gid)
    {
        if (Chown(path, uid, gid) != 0)
        {
            throw new IOException($"chown {uid}:{gid} {path} failed (errno {Marshal.GetLastPInvokeError()})");
        }
    }

    [LibraryImport("libc", EntryPoint = "chown", StringMarshalling = StringMarshalling.Utf8, SetLastError = true)]
    private static partial int Chown(string path, int uid, int gid);
}
