namespace Lightning.Bench.Processes;

/// <summary>Folders and files only the harness's user can read: node folders hold the run's RPC credentials.</summary>
internal static class PrivateFiles
{
    public static string CreateDirectory(string path)
    {
        var info = Directory.CreateDirectory(path);
        if (!OperatingSystem.IsWindows())
        {
            info.UnixFileMode = UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute;
        }
        return path;
    }

    public static void Write(string path, string content)
    {
        File.WriteAllText(path, content);
        if (!OperatingSystem.IsWindows())
        {
            File.SetUnixFileMode(path, UnixFileMode.UserRead | UnixFileMode.UserWrite);
        }
    }
}
