using Lightning.Bench.Reports;

namespace Lightning.Bench.Tests;

/// <summary>The run's outputs when one cannot be written: the others still are, and the one is said in one line.</summary>
[Trait("Category", "Unit")]
public sealed class RunOutputsTests : IDisposable
{
    private readonly string directory = Directory.CreateTempSubdirectory("lnbench-outputs-").FullName;

    public void Dispose() => Directory.Delete(directory, recursive: true);

    [Fact]
    public async Task An_output_that_cannot_be_written_is_said_in_one_line_and_the_others_are_still_written()
    {
        // A folder where the file should go: as unwritable as a full disk, whoever runs the test (root included).
        Directory.CreateDirectory(Path.Combine(directory, "zipkin.json"));
        var error = new StringWriter();
        IReadOnlyList<string> Files(string name) => [name];
        Func<CancellationToken, Task> Write(string name) =>
            ct => File.WriteAllTextAsync(Path.Combine(directory, name), "{}", ct);

        var failed = await RunOutputs.WriteEachAsync(
            [
                (Files("summary.json"), Write("summary.json")),
                (Files("zipkin.json"), Write("zipkin.json")),
                (Files("manifest.json"), Write("manifest.json")),
            ],
            directory,
            error
        );

        Assert.Equal(1, failed);
        Assert.True(File.Exists(Path.Combine(directory, "summary.json")));
        Assert.True(File.Exists(Path.Combine(directory, "manifest.json")));
        var line = Assert.Single(error.ToString().Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.StartsWith(
            "lnbench: error: could not write zipkin.json (what was written of it may be cut short): ",
            line
        );
        Assert.EndsWith(
            $"the other results are written in {directory} (free some space or choose --results elsewhere)",
            line.TrimEnd('\r')
        );
    }

    [Theory]
    [InlineData(14, 12, 12)]
    [InlineData(3, 12, 3)]
    [InlineData(0, 12, 0)]
    [InlineData(2, 0, 2)]
    public void The_failed_cases_said_are_never_more_than_the_run_declared(int failed, int declared, int said) =>
        Assert.Equal(said, Lightning.Bench.Run.RunTables.FailedCount(failed, declared));
}
