using System.Text;
using Docker.DotNet.Models;

namespace Lightning.Bench.Docker;

/// <summary>A command run inside a running container (<c>docker exec</c>), to completion, with its exit code and output.</summary>
internal sealed class EngineExec(EngineConnection connection)
{
    /// <param name="user">uid:gid the command runs as (the container's own user when null).</param>
    public Task<(long ExitCode, string Output)> RunAsync(
        string container,
        IReadOnlyList<string> command,
        string? user,
        TimeSpan timeout,
        CancellationToken ct = default
    ) =>
        connection.CallAsync(
            $"run {command[0]} in container {container}",
            async (client, t) =>
            {
                var created = await client.Exec.CreateContainerExecAsync(
                    container,
                    new ContainerExecCreateParameters
                    {
                        Cmd = [.. command],
                        User = user ?? "",
                        AttachStdout = true,
                        AttachStderr = true,
                    },
                    t
                );
                using var stream = await client.Exec.StartContainerExecAsync(
                    created.ID,
                    new ContainerExecStartParameters(),
                    t
                );
                using var bytes = new MemoryStream();
                var buffer = new byte[16384];
                while (await stream.ReadOutputAsync(buffer, 0, buffer.Length, t) is { EOF: false } read)
                {
                    bytes.Write(buffer, 0, read.Count);
                }
                var inspected = await client.Exec.InspectContainerExecAsync(created.ID, t);
                return (inspected.ExitCode ?? -1, Encoding.UTF8.GetString(bytes.GetBuffer(), 0, (int)bytes.Length));
            },
            ct,
            timeout
        );
}
