using Docker.DotNet.Models;
using Lightning.Bench.Cleanup;
using Lightning.Bench.Docker;

namespace Lightning.Bench.Tests.Support;

/// <summary>Busybox containers running a shell script, labelled with a test's run id (no network), and their removal by that label.</summary>
internal static class ScriptContainers
{
    /// <summary>
    /// A container that never stops working: three loops, since on a loaded 2-core machine one or two may be
    /// descheduled for a whole short window (the timed settle's is 10 ms), three hardly.
    /// </summary>
    public const string Busy = "while :; do :; done & while :; do :; done & while :; do :; done";

    public static async Task<string> StartAsync(DockerEngine engine, string runId, string name, string script)
    {
        var id = await engine.CreateContainerAsync($"{runId}-{name}", new CreateContainerParameters
        {
            Image = FakeNodeImage.Busybox,
            Entrypoint = ["sh", "-c", script],
            Labels = RunLabels.For(runId).ToDictionary(),
            HostConfig = new HostConfig { NetworkMode = "none" },
        });
        await engine.StartContainerAsync(id);
        return id;
    }

    public static async Task RemoveAsync(DockerEngine engine, string runId)
    {
        foreach (var container in await engine.ListContainersAsync($"{RunLabels.Run}={runId}"))
        {
            await engine.RemoveContainerAsync(container.Id);
        }
    }
}
