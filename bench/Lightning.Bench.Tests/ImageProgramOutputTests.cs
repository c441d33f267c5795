using Lightning.Bench.Docker;

namespace Lightning.Bench.Tests;

/// <summary>A program run in an image to check it (a version, an option list) is read whole when asked to be.</summary>
[Trait("Category", "Docker")]
[Collection(DockerCollection.Name)]
public class ImageProgramOutputTests
{
    [SkippableFact]
    public async Task A_long_option_list_is_read_whole_where_a_version_takes_its_last_lines()
    {
        Requirements.Docker();
        await FakeNodeImage.EnsureBuiltAsync();
        using var engine = new DockerEngine();
        var labels = new Dictionary<string, string> { ["lnbench.test"] = "image-program-output" };
        // 400 lines, as lightningd --help prints 367: the option sought is near the middle.
        string[] script = ["-c", "i=1; while [ $i -le 400 ]; do echo \"--option-$i\"; i=$((i+1)); done"];

        var (exitCode, whole) = await engine.RunToCompletionAsync(
            FakeNodeImage.Busybox,
            ["sh"],
            script,
            labels,
            TimeSpan.FromSeconds(60),
            outputLines: 100_000
        );
        var (_, tail) = await engine.RunToCompletionAsync(
            FakeNodeImage.Busybox,
            ["sh"],
            script,
            labels,
            TimeSpan.FromSeconds(60)
        );

        Assert.Equal(0, exitCode);
        Assert.Equal(400, whole.Split('\n', StringSplitOptions.RemoveEmptyEntries).Length);
        Assert.Contains("--option-253\n", whole);
        Assert.Equal(50, tail.Split('\n', StringSplitOptions.RemoveEmptyEntries).Length);
        Assert.DoesNotContain("--option-253\n", tail);
    }
}
