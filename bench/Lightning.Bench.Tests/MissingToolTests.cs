using Lightning.Bench.Compose;
using Lightning.Bench.Docker;
using Lightning.Bench.Options;
using Lightning.Bench.Progress;
using Lightning.Bench.Reports;
using Lightning.Bench.Run;

namespace Lightning.Bench.Tests;

/// <summary>What the harness says when a tool or resource it needs is missing; each is one line that says what to do.</summary>
[Trait("Category", "Unit")]
public class MissingToolTests
{
    [Fact]
    public async Task Without_r_the_plots_are_skipped_with_how_to_install_it()
    {
        var output = new StringWriter();
        var plots = await new PlotRenderer(new RunProgress(output), "/nonexistent/Rscript").RenderAsync(
            Path.GetTempPath()
        );
        Assert.Empty(plots);
        Assert.Contains(
            "plots skipped: R is not installed (Rscript not on PATH): install r-base-core and r-cran-ggplot2",
            output.ToString()
        );
    }

    [Fact]
    public async Task Without_any_compose_the_error_says_what_to_install()
    {
        var error = await Assert.ThrowsAsync<DockerUnavailableException>(() =>
            ComposeCli.DetectAsync(
                DockerEndpoint.Resolve(),
                [("/nonexistent/docker", ["compose"]), ("/nonexistent/docker-compose", [])]
            )
        );
        Assert.Contains("neither 'docker compose' (v2) nor 'docker-compose' (v1) was found: install", error.Message);
    }

    [Fact]
    public async Task LNBENCH_COMPOSE_picks_one_compose_and_a_missing_or_unknown_one_is_named()
    {
        Assert.Equal([ComposeCli.V2, ComposeCli.V1], ComposeCli.CandidatesFor(null));
        Assert.Equal([ComposeCli.V2], ComposeCli.CandidatesFor("v2"));
        Assert.Equal([ComposeCli.V1], ComposeCli.CandidatesFor("v1"));
        Assert.Contains(
            "give v2 (docker compose) or v1 (docker-compose)",
            Assert.Throws<DockerUnavailableException>(() => ComposeCli.CandidatesFor("2")).Message
        );

        var error = await Assert.ThrowsAsync<DockerUnavailableException>(() =>
            ComposeCli.DetectAsync(DockerEndpoint.Resolve(), [("/nonexistent/docker", ["compose"])])
        );
        Assert.Equal("'/nonexistent/docker compose' was not found or did not answer 'version --short'", error.Message);
    }

    [Fact]
    public void A_results_folder_without_enough_space_is_refused_before_anything_starts()
    {
        var results = Directory.CreateTempSubdirectory("lnbench-space-").FullName;
        var error = Assert.Throws<UsageException>(() =>
            Preflight.Check(new HarnessOptions { ResultsRoot = results }, minimumFreeBytes: long.MaxValue)
        );
        Assert.Contains("MB free; a run needs at least", error.Message);
        Assert.Contains("--", error.Message);
    }

    [Fact]
    public async Task A_docker_host_that_is_not_a_socket_or_tcp_is_refused_with_the_forms_that_work()
    {
        var error = Assert.Throws<DockerUnavailableException>(() => new DockerEngine("ssh://somewhere"));
        Assert.Contains("use unix:///path/to/docker.sock or tcp://host:port", error.Message);
        using var missing = new DockerEngine($"unix://{Path.Combine(Path.GetTempPath(), "lnbench-no-such.sock")}");
        var unavailable = await Assert.ThrowsAsync<DockerUnavailableException>(() => missing.GetVersionAsync());
        Assert.Contains("start it", unavailable.Message);
    }
}
