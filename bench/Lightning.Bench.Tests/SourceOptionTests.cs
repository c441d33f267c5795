using Lightning.Bench.Options;
using Lightning.Bench.Progress;
using Lightning.Bench.Results;
using Lightning.Bench.Sources;

namespace Lightning.Bench.Tests;

/// <summary>Builds given as git:REF on the command line: what they need, what is refused in one line, and the images that stand in them.</summary>
[Trait("Category", "Unit")]
public class SourceOptionTests
{
    [Fact]
    public void A_git_ref_is_a_build_made_from_the_source_checkout_and_keeps_its_name_and_options()
    {
        var options = OptionParser.Parse([
            "AlicePaysBob",
            "--source",
            "/src/lightning",
            "--build",
            "base=git:v26.06.6",
            "--build",
            "mine=git:HEAD,carol-1=mycln:dev",
            "--image-command",
            "docker build -t {image} {source}",
        ]);

        Assert.Equal("/src/lightning", options.SourceDirectory);
        Assert.Equal("docker build -t {image} {source}", options.ImageCommand);
        Assert.Equal(["git:v26.06.6", "git:HEAD"], options.Builds.Select(b => b.Image));

        // Once made, the images stand in the refs; the node given by name keeps its own.
        var made = SourceBuilds.WithImages(
            options,
            [
                new SourceCommit(
                    "v26.06.6",
                    new string('a', 40),
                    "release",
                    DateTimeOffset.UnixEpoch,
                    "lnbench-built/lightning:aaaaaaaaaaaa",
                    "sha256:1",
                    "/src/lightning",
                    true,
                    null
                ),
                new SourceCommit(
                    "HEAD",
                    new string('b', 40),
                    "mine",
                    DateTimeOffset.UnixEpoch,
                    "lnbench-built/lightning:bbbbbbbbbbbb",
                    "sha256:2",
                    "/src/lightning",
                    false,
                    null
                ),
            ]
        );
        Assert.Equal(
            ["lnbench-built/lightning:aaaaaaaaaaaa", "lnbench-built/lightning:bbbbbbbbbbbb"],
            made.Builds.Select(b => b.Image)
        );
        Assert.Equal("mycln:dev", made.Builds[1].NodeImages["carol-1"]);
        Assert.Equal(["base", "mine"], made.Builds.Select(b => b.Name));
        Assert.Equal(2, made.Sources.Count);
    }

    [Theory]
    [InlineData("a build given as git:REF is made from a checkout's commits: add --source DIR", "--build", "a=git:v1")]
    [InlineData(
        "a build given as git:REF is made from a checkout's commits: add --source DIR",
        "--cln-image",
        "git:main"
    )]
    [InlineData("'git:' is not git:REF", "--source", "/src", "--build", "a=git:")]
    [InlineData("'git:-x' is not git:REF", "--source", "/src", "--build", "a=git:-x")]
    [InlineData(
        "--image-command makes git:REF builds from --source's commits: add --source DIR",
        "--image-command",
        "true"
    )]
    [InlineData("--source is the checkout that git:REF builds are made from", "--source", "/src", "--build", "a=img:1")]
    [InlineData("--fail-on judges the builds' verdicts: give two builds or more", "--fail-on", "slower")]
    [InlineData(
        "'sloower' is not a verdict to fail on",
        "--build",
        "a=img:1",
        "--build",
        "b=img:2",
        "--fail-on",
        "sloower"
    )]
    [InlineData(
        "--fail-on does not go with --swarm yet",
        "--build",
        "a=img:1",
        "--build",
        "b=img:2",
        "--fail-on",
        "slower",
        "--swarm"
    )]
    [InlineData(
        "--decide-on names the verdicts a budgeted run waits for: add --max-time",
        "--build",
        "a=img:1",
        "--build",
        "b=img:2",
        "--decide-on",
        "storage/payment"
    )]
    [InlineData(
        "--decide-on 'storage per payment' is no metric: give them as comparison.md names them",
        "--build",
        "a=img:1",
        "--build",
        "b=img:2",
        "--max-time",
        "5m",
        "--decide-on",
        "storage per payment"
    )]
    public void What_a_build_from_source_lacks_is_said_in_one_line(string said, params string[] args)
    {
        var error = Assert.Throws<UsageException>(() => OptionParser.Parse(["AlicePaysBob", .. args]));
        Assert.Contains(said, error.Message);
    }

    [Fact]
    public void A_budgeted_run_may_wait_for_other_metrics_and_a_bisections_steps_wait_for_its_metric()
    {
        var options = OptionParser.Parse([
            "AlicePaysBob",
            "--build",
            "a=img:1",
            "--build",
            "b=img:2",
            "--max-time",
            "5m",
            "--decide-on",
            "storage/attempt,mean time",
        ]);
        Assert.Equal(["storage/attempt", "mean time"], options.DecideOn);
        var step = Bisection.BisectCommand.WithOptions(
            Bisection.BisectCommand.StepArguments(["bisect", "v1", "v2", "AlicePaysBob", "--metric", "CPU/payment"]),
            ["--decide-on", "CPU/payment"]
        );
        Assert.Equal(["AlicePaysBob", "--decide-on", "CPU/payment"], step);
    }

    [Fact]
    public void The_cache_is_listed_and_pruned_by_switches_of_their_own()
    {
        Assert.True(OptionParser.Parse(["--built-images"]).ListBuilt);
        var prune = OptionParser.Parse(["--prune-built", "--source", "/src/lightning"]);
        Assert.True(prune.PruneBuilt);
        Assert.Equal("/src/lightning", prune.SourceDirectory);
        Assert.Throws<UsageException>(() => OptionParser.Parse(["--built-images=yes"]));
    }

    [Theory]
    [InlineData(
        "/home/me/lightning",
        "0123456789abcdef0123456789abcdef01234567",
        "lnbench-built/lightning:0123456789ab"
    )]
    public void A_commits_image_is_named_after_its_checkout_and_commit(string checkout, string commit, string image)
    {
        Assert.Equal(image, BuiltImageName.For(GitCheckout.NameOf(checkout), commit));
        Assert.True(BuiltImageName.IsBuilt(image));
        Assert.False(BuiltImageName.IsBuilt("lnbench-local/cln:v26.06.6"));
    }
}
