using System.Globalization;
using Docker.DotNet.Models;
using EngineApiException = Docker.DotNet.DockerApiException;

namespace Lightning.Bench.Docker;

/// <summary>Containers through the engine: list, inspect, create, start, wait, logs, remove, and a short run to completion.</summary>
internal sealed class EngineContainers(EngineConnection connection)
{
    public Task<IReadOnlyList<ContainerSummary>> ListAsync(string labelFilter, CancellationToken ct = default) =>
        connection.CallAsync(
            "list containers",
            async (client, t) =>
                (IReadOnlyList<ContainerSummary>)
                    (
                        await client.Containers.ListContainersAsync(
                            new ContainersListParameters { All = true, Filters = EngineFilters.Label(labelFilter) },
                            t
                        )
                    )
                        .Select(ContainerSummary.From)
                        .ToList(),
            ct
        );

    /// <summary>The container's state, or null when there is no such container.</summary>
    public Task<ContainerDetails?> InspectAsync(string idOrName, CancellationToken ct = default) =>
        connection.CallIfPresentAsync(
            $"inspect container {idOrName}",
            async (client, t) => ContainerDetails.From(await client.Containers.InspectContainerAsync(idOrName, t)),
            ct
        );

    /// <summary>The last <paramref name="tail"/> lines of a container's stdout and stderr, in the order they were written.</summary>
    public Task<string> GetLogsAsync(string idOrName, int tail, CancellationToken ct = default) =>
        connection.CallAsync(
            $"read the logs of {idOrName}",
            async (client, t) =>
            {
                var parameters = new ContainerLogsParameters
                {
                    ShowStdout = true,
                    ShowStderr = true,
                    Tail = tail.ToString(CultureInfo.InvariantCulture),
                };
                try
                {
                    using var stream = await client.Containers.GetContainerLogsAsync(idOrName, parameters, t);
                    return await LogText.ReadAsync(stream, t);
                }
                catch (EngineApiException e)
                {
                    return $"(logs unavailable: {(int)e.StatusCode})";
                }
            },
            ct
        );

    /// <summary>Removes a container and its anonymous volumes, running or not (one already gone is no error).</summary>
    public Task RemoveAsync(string id, CancellationToken ct = default) =>
        connection.CallIfPresentAsync(
            $"remove container {id}",
            async (client, t) =>
            {
                await client.Containers.RemoveContainerAsync(
                    id,
                    new ContainerRemoveParameters { Force = true, RemoveVolumes = true },
                    t
                );
                return true;
            },
            ct
        );

    /// <summary>Creates a container named <paramref name="name"/> (set as the parameters' Name); returns its id.</summary>
    public Task<string> CreateAsync(string name, CreateContainerParameters parameters, CancellationToken ct = default)
    {
        parameters.Name = name;
        return SendCreateAsync($"create container {name}", parameters, ct);
    }

    /// <summary>Starts a created container (a container already running is no error).</summary>
    public Task StartAsync(string id, CancellationToken ct = default) =>
        connection.CallAsync(
            $"start container {id}",
            (client, t) => client.Containers.StartContainerAsync(id, null, t),
            ct
        );

    /// <summary>Stops a running container: SIGTERM, then SIGKILL after <paramref name="grace"/> (a stopped container is no error).</summary>
    public Task StopAsync(string id, TimeSpan grace, CancellationToken ct = default) =>
        connection.CallAsync(
            $"stop container {id}",
            (client, t) =>
                client.Containers.StopContainerAsync(
                    id,
                    new ContainerStopParameters { WaitBeforeKillSeconds = (uint)Math.Ceiling(grace.TotalSeconds) },
                    t
                ),
            ct,
            grace + TimeSpan.FromSeconds(30)
        );

    /// <summary>Waits until the container stops and returns its exit code.</summary>
    public Task<long> WaitAsync(string id, TimeSpan timeout, CancellationToken ct = default) =>
        connection.CallAsync(
            $"wait for container {id}",
            async (client, t) => (await client.Containers.WaitContainerAsync(id, t)).StatusCode,
            ct,
            timeout
        );

    /// <summary>Runs a short-lived container (no network, labelled) to completion and returns its exit code and output.</summary>
    /// <param name="binds">Host paths mounted in it ("HOST:CONTAINER[:ro]"), if any; <paramref name="environment"/> its variables;
    /// <paramref name="user"/> uid:gid it runs as, or null for the image's user; <paramref name="init"/> whether under an init process.</param>
    public async Task<(long ExitCode, string Output)> RunToCompletionAsync(
        string image,
        IReadOnlyList<string> entrypoint,
        IReadOnlyList<string> command,
        IReadOnlyDictionary<string, string> labels,
        TimeSpan timeout,
        CancellationToken ct = default,
        IReadOnlyList<string>? binds = null,
        IReadOnlyDictionary<string, string>? environment = null,
        string? user = null,
        bool init = false,
        int outputLines = 50
    )
    {
        var id = await SendCreateAsync(
            $"create a container from {image}",
            new CreateContainerParameters
            {
                Image = image,
                Entrypoint = [.. entrypoint],
                Cmd = [.. command],
                Labels = labels.ToDictionary(),
                Env = environment?.Select(e => $"{e.Key}={e.Value}").ToList()!,
                User = user!,
                HostConfig = new HostConfig
                {
                    NetworkMode = "none",
                    Binds = binds?.ToList()!,
                    Init = init ? true : null,
                },
            },
            ct
        );
        try
        {
            // A program the image lacks fails here, with the engine's words as the output.
            var startError = await connection.CallAsync(
                $"start container {id}",
                async (client, t) =>
                {
                    try
                    {
                        await client.Containers.StartContainerAsync(id, null, t);
                        return null;
                    }
                    catch (EngineApiException e)
                    {
                        return DockerApiException.MessageOf(e.ResponseBody);
                    }
                },
                ct
            );
            if (startError is not null)
            {
                return (-1, startError);
            }
            var exitCode = await WaitAsync(id, timeout, ct);
            return (exitCode, await GetLogsAsync(id, outputLines, ct));
        }
        finally
        {
            using var cleanup = new CancellationTokenSource(connection.RequestTimeout);
            await RemoveAsync(id, cleanup.Token);
        }
    }

    private Task<string> SendCreateAsync(string what, CreateContainerParameters parameters, CancellationToken ct) =>
        connection.CallAsync(
            what,
            async (client, t) => (await client.Containers.CreateContainerAsync(parameters, t)).ID,
            ct
        );
}
