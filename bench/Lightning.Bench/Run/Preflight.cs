using Lightning.Bench.Options;
using Lightning.Bench.Progress;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Run;

/// <summary>Checks of the user's folders that must fail before any container starts, each with one line that says what to do.</summary>
internal static class Preflight
{
    /// <summary>Space a run needs at the least for logs, spans and the zip.</summary>
    public const long MinimumFreeBytes = 200L * 1024 * 1024;

    /// <summary>As long as any compose project name a run makes (lnbench-RUNID-CASE).</summary>
    private const string LongestProject = "lnbench-20261121-101010-abcd-999";

    public static void Check(HarnessOptions options, long minimumFreeBytes = MinimumFreeBytes)
    {
        try
        {
            _ = new RunLayout(Path.Combine(options.WorkRoot, LongestProject));
        }
        catch (ArgumentException e)
        {
            throw new UsageException(e.Message);
        }
        CheckWritable(options.WorkRoot, "--work-dir", minimumFreeBytes);
        CheckWritable(options.ResultsRoot, "--results", minimumFreeBytes);
    }

    private static void CheckWritable(string directory, string option, long minimumFreeBytes)
    {
        var full = Path.GetFullPath(directory);
        try
        {
            Directory.CreateDirectory(full);
            var probe = Path.Combine(full, $".lnbench-probe-{Environment.ProcessId}");
            File.WriteAllText(probe, "probe");
            File.Delete(probe);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            throw new UsageException(
                $"cannot write to {full} ({e.Message.TrimEnd('.')}): choose another folder with {option}"
            );
        }
        var free = new DriveInfo(full).AvailableFreeSpace;
        if (free < minimumFreeBytes)
        {
            throw new UsageException(
                $"{full} has only {free / (1024 * 1024)} MB free; a run needs at least {minimumFreeBytes / (1024 * 1024)} MB: free some space or choose another folder with {option}"
            );
        }
    }
}
