using Docker.DotNet.Models;
using Lightning.Bench.Cleanup;
using Lightning.Bench.Docker;
using Lightning.Bench.Processes;
using Lightning.Bench.Swarm;
using Lightning.Bench.Waiting;

namespace Lightning.Bench.Tests;

/// <summary>
/// A swarm of two engines: this one, its manager, and a second engine joined as a worker (on this machine,
/// `.ci/swarm-second-host up`, in namespaces of its own; LNBENCH_SECOND_HOST names its socket). The worker is drained
/// outside these tests, so the other swarm tests see one host; each test here makes it active and drains it again.
/// What only a second engine shows: the image check naming the host that lacks an image, and what a run leaves there.
/// </summary>
[Trait("Category", "Docker")]
[Collection(DockerCollection.Name)]
public sealed class SecondHostTests : IAsyncLifetime
{
    private const string ScopeLabel = "lnbench.test-scope";
    private readonly string runId = $"t2h{Guid.NewGuid():N}"[..12];
    private DockerEngine? engine;
    private DockerEngine? second;
    private SwarmNode? worker;

    private string Scope => $"{ScopeLabel}={runId}";

    private IReadOnlyDictionary<string, string> Labels => new Dictionary<string, string> { [ScopeLabel] = runId };

    public Task InitializeAsync() => Task.CompletedTask;

    /// <summary>The two engines, the worker made active; skipped (or failed where required) without a second host.</summary>
    private async Task ReadyAsync()
    {
        Requirements.Docker();
        (engine, second, worker) = await Requirements.SecondHostAsync();
        await AvailabilityAsync("active");
        await FakeNodeImage.EnsureBuiltAsync();
    }

    [SkippableFact]
    public async Task The_image_check_names_the_other_host_that_lacks_an_image_and_leaves_no_container_on_either()
    {
        await ReadyAsync();
        // An image only this engine has (its content is this test's own), and one both have.
        var only = $"lnbench-test/only-here:{runId}";
        await using (var tar = OneFileImage($"made by {runId}"))
        {
            await engine!.ImportImageAsync(tar, only.Split(':')[0], runId, []);
        }
        await CopyToSecondAsync(FakeNodeImage.Busybox);
        try
        {
            var manager = await SwarmManager.RequireAsync(engine);
            Assert.Contains(manager.Hosts, h => h.Id == worker!.Id);

            var error = await Assert.ThrowsAsync<SwarmUnavailableException>(() =>
                SwarmImageCheck.RequireSameAsync(
                    engine,
                    manager,
                    [FakeNodeImage.Busybox, only],
                    new ImageJobProbe(engine, Labels, SwarmRun.ProbeTimeout)
                )
            );

            var id = SwarmImageCheck.Short((await engine.InspectImageAsync(only))!.Id);
            Assert.StartsWith(
                $"host {worker!.Hostname} lacks image {only} as {id} (the manager's): load the same image on every host",
                error.Message
            );
            Assert.DoesNotContain(FakeNodeImage.Busybox, error.Message);
            // The probes ran on the host asked only, and each host's job container goes with the run's sweep there.
            var here = new RunResources(engine, Scope);
            Assert.Empty(await here.ContainersAsync());
            Assert.Empty(await here.ServicesAsync());
        }
        finally
        {
            await engine.TryRemoveImageAsync(only);
        }
    }

    [SkippableFact]
    public async Task The_end_of_a_run_removes_a_dead_runs_containers_and_work_volume_on_the_other_host_and_leaves_no_container_of_its_own()
    {
        await ReadyAsync();
        var image = await HarnessImage.EnsureAsync(engine!);
        await CopyToSecondAsync(image);
        var (dead, single) = ($"{runId}d", $"{runId}s");
        // On the other host: a dead run's work volume and the container of its job there (never started), and a
        // single-host run's container, which no swarm sweep may touch.
        var made = await ProcessRunner.RunAsync(
            "docker",
            [
                "-H",
                second!.Host,
                "volume",
                "create",
                "--label",
                $"{RunLabels.Run}={dead}",
                "--label",
                Scope,
                SwarmNames.WorkVolume(dead),
            ],
            TimeSpan.FromSeconds(30)
        );
        Assert.True(made.Succeeded, made.Tail());
        foreach (var (name, run, task) in new[] { ("dead-job", dead, true), ("single-host-node", single, false) })
        {
            var labels = new Dictionary<string, string>(Labels) { [RunLabels.Run] = run };
            if (task)
            {
                labels["com.docker.swarm.task.id"] = $"task-{name}";
            }
            await second.CreateContainerAsync(
                $"{runId}-{name}",
                new CreateContainerParameters
                {
                    Image = FakeNodeImage.Busybox,
                    Cmd = ["true"],
                    Labels = labels,
                }
            );
        }

        var failed = await WorkVolumeSweep.OnEveryHostAsync(
            engine!,
            image,
            new HashSet<string>(),
            Labels,
            TimeSpan.FromSeconds(120),
            scope: Scope
        );

        Assert.Empty(failed);
        var there = new RunResources(second, Scope);
        Assert.Empty(await there.VolumesAsync());
        // The job's container there is removed once it has exited, by a container that then removes itself.
        await Wait.UntilAsync(
            "only the single-host run's container to be left on the other host",
            async c =>
            {
                var left = (await there.ContainersAsync(c)).Select(x => x.Name).ToList();
                return left.SequenceEqual([$"{runId}-single-host-node"])
                    ? WaitState.Met()
                    : WaitState.NotYet(string.Join(", ", left));
            },
            TimeSpan.FromSeconds(60)
        );
        Assert.Empty(await new RunResources(engine!, Scope).ContainersAsync());
    }

    public async Task DisposeAsync()
    {
        try
        {
            // The worker's own containers and volumes (a worker has no services or secrets to sweep), then the manager's.
            if (second is not null)
            {
                await new RunResources(second, Scope).RemoveAsync();
            }
            if (engine is not null)
            {
                await new RunResources(engine, Scope).RemoveAsync();
            }
        }
        finally
        {
            if (worker is not null)
            {
                await AvailabilityAsync("drain");
            }
            engine?.Dispose();
            second?.Dispose();
        }
    }

    private async Task AvailabilityAsync(string availability)
    {
        var result = await ProcessRunner.RunAsync(
            "docker",
            ["node", "update", "--availability", availability, worker!.Id],
            TimeSpan.FromSeconds(30)
        );
        Assert.True(result.Succeeded, result.Tail());
    }

    /// <summary>docker save here | docker load there, as a user loads an image on each host.</summary>
    private async Task CopyToSecondAsync(string image)
    {
        var copied = await ProcessRunner.RunAsync(
            "sh",
            ["-c", "docker save \"$1\" | docker -H \"$2\" load -q", "copy", image, second!.Host],
            TimeSpan.FromMinutes(5)
        );
        Assert.True(copied.Succeeded, copied.Tail());
    }

    /// <summary>A tar of one file: an image whose id no other host has.</summary>
    private static Stream OneFileImage(string content)
    {
        var tar = new MemoryStream();
        using (var writer = new System.Formats.Tar.TarWriter(tar, leaveOpen: true))
        {
            var entry = new System.Formats.Tar.PaxTarEntry(System.Formats.Tar.TarEntryType.RegularFile, "marker")
            {
                DataStream = new MemoryStream(System.Text.Encoding.UTF8.GetBytes(content)),
            };
            writer.WriteEntry(entry);
        }
        tar.Position = 0;
        return tar;
    }
}
