using Docker.DotNet.Models;
using Lightning.Bench.Cleanup;
using Lightning.Bench.Docker;
using Lightning.Bench.Processes;

namespace Lightning.Bench.Tests;

/// <summary>
/// The tests' check and sweep of a run's resources (<see cref="RunResources"/>) on the real engine: the check fails,
/// naming each, while a container, network or volume of the run is left, and another run's are neither named nor removed.
/// </summary>
[Trait("Category", "Docker")]
[Collection(DockerCollection.Name)]
public sealed class RunResourcesTests : IAsyncLifetime
{
    private readonly string runId = $"test-{Guid.NewGuid():N}"[..17];
    private readonly DockerEngine engine = new();

    private string Other => $"{runId}-other";

    public Task InitializeAsync() => Task.CompletedTask;

    public async Task DisposeAsync()
    {
        try
        {
            if (Requirements.DockerAvailable)
            {
                await RunResources.Of(engine, runId).RemoveAsync();
                await RunResources.Of(engine, Other).RemoveAsync();
            }
        }
        finally
        {
            engine.Dispose();
        }
    }

    [SkippableFact]
    public async Task What_a_run_left_fails_the_check_by_name_until_removed_and_another_runs_are_kept()
    {
        Requirements.Docker();
        await FakeNodeImage.EnsureBuiltAsync();
        var run = RunResources.Of(engine, runId);
        var other = RunResources.Of(engine, Other);
        await run.AssertNoneLeftAsync();
        await engine.CreateContainerAsync(
            $"{runId}-node",
            new CreateContainerParameters
            {
                Image = FakeNodeImage.Busybox,
                Cmd = ["true"],
                Labels = RunLabels.For(runId).ToDictionary(),
            }
        );
        var network = await engine.CreateNetworkAsync($"{runId}-net", RunLabels.For(runId));
        var volume = await ProcessRunner.RunAsync(
            "docker",
            ["volume", "create", "--label", $"{RunLabels.Run}={runId}", $"{runId}-vol"],
            TimeSpan.FromSeconds(30)
        );
        Assert.True(volume.Succeeded, volume.Tail());
        await engine.CreateNetworkAsync($"{Other}-net", RunLabels.For(Other));

        var left = await Assert.ThrowsAnyAsync<Xunit.Sdk.XunitException>(() => run.AssertNoneLeftAsync());
        Assert.Contains($"{runId}-node (created)", left.Message);
        Assert.Contains($"networks {network}", left.Message);
        Assert.Contains($"volumes {runId}-vol", left.Message);
        Assert.DoesNotContain(Other, left.Message);

        Assert.Equal(3, await run.RemoveAsync());
        await run.AssertNoneLeftAsync();
        Assert.Single(await other.NetworksAsync());
    }
}
