namespace Lightning.Bench.Network;

/// <summary>The uid:gid containers run as, so that what nodes write into the bind-mounted run folder belongs to the harness user.</summary>
internal static class HostUser
{
    /// <summary>uid:gid of this process on Linux (read from /proc), null elsewhere (the image's user is kept).</summary>
    public static string? ContainerUser { get; } = Read();

    private static string? Read()
    {
        const string status = "/proc/self/status";
        if (!OperatingSystem.IsLinux() || !File.Exists(status))
        {
            return null;
        }
        string? Field(string name) =>
            File.ReadLines(status)
                .Where(l => l.StartsWith(name, StringComparison.Ordinal))
                .Select(l =>
                    l[name.Length..]
                        .Split('\t', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)[0]
                )
                .FirstOrDefault();
        var uid = Field("Uid:");
        var gid = Field("Gid:");
        return uid is null || gid is null ? null : $"{uid}:{gid}";
    }
}
