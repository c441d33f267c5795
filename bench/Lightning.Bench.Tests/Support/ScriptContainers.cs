using Docker.DotNet.Models;
using Lightning.Bench.Cleanup;
using Lightning.Bench.Docker;

namespace Lightning.Bench.Tests.Support;

/// <summary>
/// A Docker test's busybox containers running shell scripts (no network), labelled with a run id of the test's own:
/// opened once Docker and the image are there (or the test is skipped), and removed, every one, when disposed.
/// </summary>
internal sealed class ScriptContainers : IAsyncDisposable
{
    /// <summary>
    /// A container that never stops working: three loops, since on a loaded 2-core machine one or two may be
    /// descheduled for a whole short window (the timed settle's is 10 ms), three hardly.
    /// </summary>
    public const string Busy = "while :; do :; done & while :; do :; done & while :; do :; done";

    private ScriptContainers() { }

    public DockerEngine Engine { get; } = new();

    public string RunId { get; } = $"test-{Guid.NewGuid():N}"[..16];

    /// <summary>Skips the test without Docker; builds the stand-in images when missing.</summary>
    public static async Task<ScriptContainers> OpenAsync()
    {
        Requirements.Docker();
        await FakeNodeImage.EnsureBuiltAsync();
        return new ScriptContainers();
    }

    /// <summary>Starts a container running <paramref name="script"/>; returns its id.</summary>
    public async Task<string> StartAsync(string name, string script)
    {
        var id = await Engine.CreateContainerAsync(
            $"{RunId}-{name}",
            new CreateContainerParameters
            {
                Image = FakeNodeImage.Busybox,
                Entrypoint = ["sh", "-c", script],
                Labels = RunLabels.For(RunId).ToDictionary(),
                HostConfig = new HostConfig { NetworkMode = "none" },
            }
        );
        await Engine.StartContainerAsync(id);
        return id;
    }

    public async ValueTask DisposeAsync()
    {
        try
        {
            await RunResources.Of(Engine, RunId).RemoveAsync();
        }
        finally
        {
            Engine.Dispose();
        }
    }
}
