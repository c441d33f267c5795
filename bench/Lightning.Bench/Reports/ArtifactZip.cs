using System.IO.Compression;

namespace Lightning.Bench.Reports;

/// <summary>The run folder as one zip beside it (results/RUN.zip), for someone else to read and replay; made last, unless --no-zip.</summary>
internal sealed class ArtifactZip : IRunEndOutput
{
    public IReadOnlyList<string> Files => ["../RUN.zip"];

    public Task WriteAsync(RunOutputContext context, CancellationToken ct = default)
    {
        if (context.Options.Zip)
        {
            context.Progress.Info($"artifact: {Create(context.ResultsDirectory)}");
        }
        return Task.CompletedTask;
    }

    public static string Create(string runDirectory)
    {
        var zip = runDirectory.TrimEnd(Path.DirectorySeparatorChar) + ".zip";
        File.Delete(zip);
        // Optimal, not Fastest: a default run's zip (AlicePaysBob, 3 concurrencies × 8 topologies) is 44 MB instead of 69 MB
        // for a few seconds more; most of it is spans (each kept as received, in Zipkin JSON and as CSV).
        ZipFile.CreateFromDirectory(runDirectory, zip, CompressionLevel.Optimal, includeBaseDirectory: true);
        return zip;
    }
}
