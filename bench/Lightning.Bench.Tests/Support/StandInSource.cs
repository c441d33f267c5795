using Lightning.Bench.Tests.Support.StandIn;

namespace Lightning.Bench.Tests.Support;

/// <summary>
/// A throwaway repository of a stand-in node's "source": its tree is the stand-in image's file system (busybox, the
/// applets, the scripts of <see cref="StandInScripts"/>), and its commits change what the node does. The payer's pay
/// script first waits the seconds in etc/standin/delay, so a commit that writes 1 there makes every payment a second
/// slower, and one that writes a reason in etc/standin/refuse makes every payment fail; a commit with a file BROKEN does
/// not build. <see cref="ImageCommand"/> is the tiny image command a test gives:
/// the tree as a tar imported into the engine (no recipe of any real implementation).
/// </summary>
internal static class StandInSource
{
    /// <summary>Makes an image of the commit's tree, or fails (exit 1) for a commit with BROKEN.</summary>
    public const string ImageCommand =
        "if [ -e {source}/BROKEN ]; then echo \"this commit does not build: $(cat {source}/BROKEN)\"; exit 1; fi\n"
        + "chmod 1777 {source}/tmp && tar -C {source} --exclude=.git -cf - . | docker import --change 'ENV PATH=/usr/local/bin:/bin' - {image}";

    private const string Wait =
        "d=$(cat /etc/standin/delay 2>/dev/null); [ -z \"$d\" ] || [ \"$d\" = 0 ] || sleep \"$d\"\n";

    /// <summary>A payer with a reason in etc/standin/refuse fails every payment with it (a commit that breaks paying).</summary>
    private const string Refuse =
        "r=$(cat /etc/standin/refuse 2>/dev/null); [ -z \"$r\" ] || { reply \"error refused: $r\"; exit 0; }\n";

    /// <summary>The first commit: a stand-in node that pays at once.</summary>
    public static string CommitNode(ThrowawayRepository repository)
    {
        var root = repository.Path;
        Directory.CreateDirectory(Path.Combine(root, "bin"));
        File.Copy("/bin/busybox", Path.Combine(root, "bin", "busybox"));
        if (!OperatingSystem.IsWindows())
        {
            File.SetUnixFileMode(Path.Combine(root, "bin", "busybox"), (UnixFileMode)0b111_101_101);
        }
        foreach (var applet in StandInScripts.Applets)
        {
            File.CreateSymbolicLink(Path.Combine(root, "bin", applet), "busybox");
        }
        var files = StandInScripts.Files.ToDictionary(f => f.Key, f => (string?)(f.Value.Replace("\r", "") + "\n"));
        files["www/node/cgi-bin/pay"] = files["www/node/cgi-bin/pay"]!.Replace(
            ". /www/lib.sh; log pay\n",
            ". /www/lib.sh; log pay\n" + Wait + Refuse,
            StringComparison.Ordinal
        );
        files["etc/standin/delay"] = "0\n";
        files["tmp/.keep"] = "";
        files["usr/local/.keep"] = "";
        foreach (var (path, content) in files)
        {
            var full = Path.Combine(root, path);
            Directory.CreateDirectory(Path.GetDirectoryName(full)!);
            File.WriteAllText(full, content);
            if (content!.StartsWith("#!", StringComparison.Ordinal) && !OperatingSystem.IsWindows())
            {
                File.SetUnixFileMode(full, (UnixFileMode)0b111_101_101);
            }
        }
        repository.Git("add", "-A");
        return repository.CommitStaged("a stand-in node that pays at once");
    }
}
