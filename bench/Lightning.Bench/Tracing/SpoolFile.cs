using System.Runtime.InteropServices;
using Microsoft.Win32.SafeHandles;

namespace Lightning.Bench.Tracing;

/// <summary>
/// The spool's file. On Linux it is opened with O_DIRECT where the file system allows it: segments go from the
/// harness's memory to the disk without a copy into the page cache, which under a flood of spans is CPU the receive
/// thread needs. Segments are then padded to whole blocks. Elsewhere (tmpfs, other systems) it is a plain file.
/// </summary>
internal sealed partial class SpoolFile : IDisposable
{
    private readonly SafeFileHandle handle;
    private readonly bool direct;
    private long position;

    private SpoolFile(SafeFileHandle handle, bool direct)
    {
        this.handle = handle;
        this.direct = direct;
    }

    public static SpoolFile Create(string path)
    {
        if (OperatingSystem.IsLinux())
        {
            var oDirect = RuntimeInformation.ProcessArchitecture is Architecture.Arm64 or Architecture.Arm
                ? 0x10000
                : 0x4000;
            const int writeCreateTruncate = 0x1 | 0x40 | 0x200;
            var fd = Open(path, writeCreateTruncate | oDirect, Convert.ToInt32("644", 8));
            if (fd >= 0)
            {
                return new SpoolFile(new SafeFileHandle(fd, ownsHandle: true), direct: true);
            }
        }
        return new SpoolFile(File.OpenHandle(path, FileMode.Create, FileAccess.Write, FileShare.Read), direct: false);
    }

    public void Write(SpoolSegment segment)
    {
        if (direct)
        {
            segment.PadTo(SpoolSegment.Alignment);
        }
        RandomAccess.Write(handle, segment.Buffer[..segment.Length], position);
        position += segment.Length;
    }

    public void Dispose() => handle.Dispose();

    [LibraryImport("libc", EntryPoint = "open", StringMarshalling = StringMarshalling.Utf8, SetLastError = true)]
    private static partial int Open(string path, int flags, int mode);
}
