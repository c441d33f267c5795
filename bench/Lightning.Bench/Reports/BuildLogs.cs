namespace Lightning.Bench.Reports;

/// <summary>
/// builds/COMMIT12.log: the image command's output for each build the run made from a commit, or, for an image made
/// earlier (the cache), the log it was made with while that is still where it was written.
/// </summary>
internal sealed class BuildLogs : IRunEndOutput
{
    public const string Folder = "builds";

    public IReadOnlyList<string> Files => [Folder + "/"];

    public Task WriteAsync(RunOutputContext context, CancellationToken ct = default)
    {
        foreach (
            var source in context
                .Options.Sources.DistinctBy(s => s.Image)
                .Where(s => s.Log is not null && File.Exists(s.Log))
        )
        {
            var folder = Path.Combine(context.ResultsDirectory, Folder);
            Directory.CreateDirectory(folder);
            File.Copy(source.Log!, Path.Combine(folder, $"{source.Short}.log"), overwrite: true);
        }
        return Task.CompletedTask;
    }
}
