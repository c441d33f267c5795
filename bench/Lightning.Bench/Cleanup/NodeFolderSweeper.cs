namespace Lightning.Bench.Cleanup;

/// <summary>
/// A topology's folder under the work root holds its nodes' configs, with the bitcoind RPC password in plain text.
/// A harness removes its own at teardown; one killed with -9 cannot, so the next run removes the folders whose owner
/// is gone (<see cref="OwnerProcess"/>, kept in <see cref="OwnerFile"/>).
/// </summary>
internal static class NodeFolderSweeper
{
    public const string OwnerFile = ".lnbench-owner";

    /// <summary>Folders of harness versions that wrote no owner file count as left behind once they are this old.</summary>
    public static readonly TimeSpan UnownedAge = TimeSpan.FromHours(1);

    /// <summary>Marks a topology folder as this process's, before anything secret is written into it.</summary>
    public static void Claim(string topologyFolder) =>
        File.WriteAllText(Path.Combine(topologyFolder, OwnerFile), OwnerProcess.Current.ToString());

    /// <summary>Removes the topology folders under <paramref name="workRoot"/> whose owner is gone; returns their names.</summary>
    public static IReadOnlyList<string> RemoveStale(string workRoot)
    {
        if (!Directory.Exists(workRoot))
        {
            return [];
        }
        var removed = new List<string>();
        foreach (var folder in Directory.GetDirectories(workRoot, "lnbench-*"))
        {
            if (new FileInfo(folder).LinkTarget is not null || !IsLeftBehind(folder))
            {
                continue;
            }
            try
            {
                Directory.Delete(folder, recursive: true);
                removed.Add(Path.GetFileName(folder));
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                // Another user's folder, or one still in use: not ours to force.
            }
        }
        return removed;
    }

    private static bool IsLeftBehind(string folder)
    {
        var ownerPath = Path.Combine(folder, OwnerFile);
        try
        {
            if (File.Exists(ownerPath))
            {
                return OwnerProcess.Parse(File.ReadAllText(ownerPath)) is { IsGone: true };
            }
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return false;
        }
        return DateTime.UtcNow - Directory.GetLastWriteTimeUtc(folder) > UnownedAge;
    }
}
