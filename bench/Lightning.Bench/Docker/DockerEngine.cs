using System.Net;
using System.Net.Http.Json;
using System.Net.Sockets;
using System.Text;
using System.Text.Json;

namespace Lightning.Bench.Docker;

/// <summary>
/// A small typed client for the Docker Engine API (unix socket or plain tcp DOCKER_HOST).
/// Docker.DotNet is not served by this project's package feed; the handful of endpoints the harness needs are here.
/// </summary>
public sealed class DockerEngine : IDisposable
{
    private const string ApiVersion = "v1.41";
    private readonly HttpClient http;

    public DockerEngine(string? dockerHost = null)
    {
        Host = dockerHost ?? Environment.GetEnvironmentVariable("DOCKER_HOST") ?? "unix:///var/run/docker.sock";
        if (Host.StartsWith("unix://", StringComparison.Ordinal))
        {
            var socketPath = Host["unix://".Length..];
            var handler = new SocketsHttpHandler
            {
                ConnectCallback = async (_, ct) =>
                {
                    var socket = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
                    try
                    {
                        await socket.ConnectAsync(new UnixDomainSocketEndPoint(socketPath), ct);
                    }
                    catch
                    {
                        socket.Dispose();
                        throw;
                    }
                    return new NetworkStream(socket, ownsSocket: true);
                },
            };
            http = new HttpClient(handler) { BaseAddress = new Uri($"http://docker/{ApiVersion}/") };
        }
        else if (Host.StartsWith("tcp://", StringComparison.Ordinal))
        {
            http = new HttpClient { BaseAddress = new Uri($"http://{Host["tcp://".Length..].TrimEnd('/')}/{ApiVersion}/") };
        }
        else
        {
            throw new DockerUnavailableException($"DOCKER_HOST '{Host}' is not supported: use unix:///path/to/docker.sock or tcp://host:port");
        }
        http.Timeout = Timeout.InfiniteTimeSpan;
    }

    public string Host { get; }

    /// <summary>Engine version, or a <see cref="DockerUnavailableException"/> that says why the engine cannot be used.</summary>
    public async Task<string> GetVersionAsync(CancellationToken ct = default)
    {
        try
        {
            using var timeout = CancellationTokenSource.CreateLinkedTokenSource(ct);
            timeout.CancelAfter(TimeSpan.FromSeconds(10));
            using var response = await http.GetAsync("version", timeout.Token);
            using var doc = await ReadJsonAsync(response, "version", timeout.Token);
            return doc.RootElement.GetProperty("Version").GetString() ?? "unknown";
        }
        catch (HttpRequestException e) when (e.InnerException is SocketException socketError)
        {
            throw socketError.SocketErrorCode switch
            {
                SocketError.AccessDenied => new DockerUnavailableException(
                    $"permission denied on {Host}: add your user to the 'docker' group (then log in again) or run as a user that may use Docker"),
                SocketError.AddressNotAvailable or SocketError.ConnectionRefused => new DockerUnavailableException(
                    $"no Docker engine answers at {Host}: start it (e.g. 'sudo systemctl start docker' or 'sudo dockerd &')"),
                _ => new DockerUnavailableException($"cannot reach the Docker engine at {Host} ({socketError.Message}): is Docker installed and running?"),
            };
        }
        catch (OperationCanceledException) when (!ct.IsCancellationRequested)
        {
            throw new DockerUnavailableException($"the Docker engine at {Host} did not answer within 10 s");
        }
    }

    public async Task<IReadOnlyList<ContainerSummary>> ListContainersAsync(string labelFilter, CancellationToken ct = default)
    {
        using var response = await http.GetAsync($"containers/json?all=true&filters={LabelFilter(labelFilter)}", ct);
        using var doc = await ReadJsonAsync(response, "list containers", ct);
        return doc.RootElement.EnumerateArray().Select(ContainerSummary.FromJson).ToList();
    }

    public async Task<ContainerDetails?> InspectContainerAsync(string idOrName, CancellationToken ct = default)
    {
        using var response = await http.GetAsync($"containers/{Uri.EscapeDataString(idOrName)}/json", ct);
        if (response.StatusCode == HttpStatusCode.NotFound)
        {
            return null;
        }
        using var doc = await ReadJsonAsync(response, $"inspect container {idOrName}", ct);
        return ContainerDetails.FromJson(doc.RootElement);
    }

    /// <summary>The last <paramref name="tail"/> lines of a container's stdout and stderr, demultiplexed.</summary>
    public async Task<string> GetLogsAsync(string idOrName, int tail, CancellationToken ct = default)
    {
        using var response = await http.GetAsync(
            $"containers/{Uri.EscapeDataString(idOrName)}/logs?stdout=true&stderr=true&tail={tail}", ct);
        if (!response.IsSuccessStatusCode)
        {
            return $"(logs unavailable: {(int)response.StatusCode})";
        }
        var bytes = await response.Content.ReadAsByteArrayAsync(ct);
        return DockerLogFrames.Demultiplex(bytes);
    }

    public async Task RemoveContainerAsync(string id, CancellationToken ct = default)
    {
        using var response = await http.DeleteAsync($"containers/{Uri.EscapeDataString(id)}?force=true&v=true", ct);
        if (!response.IsSuccessStatusCode && response.StatusCode != HttpStatusCode.NotFound)
        {
            throw new DockerApiException($"remove container {id}", response.StatusCode, await response.Content.ReadAsStringAsync(ct));
        }
    }

    public async Task<IReadOnlyList<string>> ListNetworksAsync(string labelFilter, CancellationToken ct = default)
    {
        using var response = await http.GetAsync($"networks?filters={LabelFilter(labelFilter)}", ct);
        using var doc = await ReadJsonAsync(response, "list networks", ct);
        return doc.RootElement.EnumerateArray().Select(n => n.GetProperty("Id").GetString()!).ToList();
    }

    public async Task RemoveNetworkAsync(string id, CancellationToken ct = default)
    {
        using var response = await http.DeleteAsync($"networks/{Uri.EscapeDataString(id)}", ct);
        if (!response.IsSuccessStatusCode && response.StatusCode != HttpStatusCode.NotFound)
        {
            throw new DockerApiException($"remove network {id}", response.StatusCode, await response.Content.ReadAsStringAsync(ct));
        }
    }

    public async Task<IReadOnlyList<string>> ListVolumesAsync(string labelFilter, CancellationToken ct = default)
    {
        using var response = await http.GetAsync($"volumes?filters={LabelFilter(labelFilter)}", ct);
        using var doc = await ReadJsonAsync(response, "list volumes", ct);
        return doc.RootElement.GetProperty("Volumes") is { ValueKind: JsonValueKind.Array } volumes
            ? volumes.EnumerateArray().Select(v => v.GetProperty("Name").GetString()!).ToList()
            : [];
    }

    public async Task RemoveVolumeAsync(string name, CancellationToken ct = default)
    {
        using var response = await http.DeleteAsync($"volumes/{Uri.EscapeDataString(name)}?force=true", ct);
        if (!response.IsSuccessStatusCode && response.StatusCode != HttpStatusCode.NotFound)
        {
            throw new DockerApiException($"remove volume {name}", response.StatusCode, await response.Content.ReadAsStringAsync(ct));
        }
    }

    /// <summary>The image's id (digest of its config) when it is present locally, otherwise null.</summary>
    public async Task<ImageDetails?> InspectImageAsync(string image, CancellationToken ct = default)
    {
        using var response = await http.GetAsync($"images/{Uri.EscapeDataString(image)}/json", ct);
        if (response.StatusCode == HttpStatusCode.NotFound)
        {
            return null;
        }
        using var doc = await ReadJsonAsync(response, $"inspect image {image}", ct);
        return ImageDetails.FromJson(doc.RootElement);
    }

    /// <summary>Pulls an image; the engine streams progress as JSON lines and reports failures inside that stream.</summary>
    public async Task PullImageAsync(string image, CancellationToken ct = default)
    {
        var reference = ImageReference.Parse(image);
        using var request = new HttpRequestMessage(HttpMethod.Post,
            $"images/create?fromImage={Uri.EscapeDataString(reference.Repository)}&tag={Uri.EscapeDataString(reference.Tag)}");
        using var response = await http.SendAsync(request, HttpCompletionOption.ResponseHeadersRead, ct);
        var body = await response.Content.ReadAsStringAsync(ct);
        if (!response.IsSuccessStatusCode)
        {
            throw new DockerApiException($"pull {image}", response.StatusCode, body);
        }
        foreach (var line in body.Split('\n', StringSplitOptions.RemoveEmptyEntries))
        {
            using var doc = JsonDocument.Parse(line);
            if (doc.RootElement.TryGetProperty("error", out var error))
            {
                throw new DockerApiException($"pull {image}", HttpStatusCode.OK, error.GetString() ?? line);
            }
        }
    }

    /// <summary>Waits until the container stops and returns its exit code.</summary>
    public async Task<long> WaitContainerAsync(string id, CancellationToken ct = default)
    {
        using var response = await http.PostAsync($"containers/{Uri.EscapeDataString(id)}/wait", content: null, ct);
        using var doc = await ReadJsonAsync(response, $"wait for container {id}", ct);
        return doc.RootElement.GetProperty("StatusCode").GetInt64();
    }

    /// <summary>Runs a short-lived container (no network, labelled) to completion and returns its exit code and output.</summary>
    public async Task<(long ExitCode, string Output)> RunToCompletionAsync(
        string image, IReadOnlyList<string> entrypoint, IReadOnlyList<string> command,
        IReadOnlyDictionary<string, string> labels, TimeSpan timeout, CancellationToken ct = default)
    {
        var body = new Dictionary<string, object>
        {
            ["Image"] = image,
            ["Entrypoint"] = entrypoint,
            ["Cmd"] = command,
            ["Labels"] = labels,
            ["HostConfig"] = new Dictionary<string, object> { ["NetworkMode"] = "none" },
        };
        string id;
        using (var created = await http.PostAsJsonAsync("containers/create", body, ct))
        {
            using var doc = await ReadJsonAsync(created, $"create a container from {image}", ct);
            id = doc.RootElement.GetProperty("Id").GetString()!;
        }
        try
        {
            using (var started = await http.PostAsync($"containers/{id}/start", content: null, ct))
            {
                if (!started.IsSuccessStatusCode)
                {
                    return (-1, await started.Content.ReadAsStringAsync(ct));
                }
            }
            using var timeoutCts = CancellationTokenSource.CreateLinkedTokenSource(ct);
            timeoutCts.CancelAfter(timeout);
            var exitCode = await WaitContainerAsync(id, timeoutCts.Token);
            return (exitCode, await GetLogsAsync(id, 50, ct));
        }
        finally
        {
            await RemoveContainerAsync(id, CancellationToken.None);
        }
    }

    /// <summary>
    /// Streams the engine's "die" events of containers matching the label filter and calls <paramref name="onDie"/>
    /// with each container id, until cancelled.
    /// </summary>
    public async Task WatchDeathsAsync(string labelFilter, Func<string, Task> onDie, CancellationToken ct)
    {
        var filters = JsonSerializer.Serialize(new Dictionary<string, string[]>
        {
            ["type"] = ["container"],
            ["event"] = ["die"],
            ["label"] = [labelFilter],
        });
        using var response = await http.GetAsync($"events?filters={Uri.EscapeDataString(filters)}", HttpCompletionOption.ResponseHeadersRead, ct);
        response.EnsureSuccessStatusCode();
        await using var stream = await response.Content.ReadAsStreamAsync(ct);
        using var reader = new StreamReader(stream);
        while (await reader.ReadLineAsync(ct) is { } line)
        {
            if (line.Length == 0)
            {
                continue;
            }
            using var document = JsonDocument.Parse(line);
            if (document.RootElement.TryGetProperty("id", out var id) && id.GetString() is { } containerId)
            {
                await onDie(containerId);
            }
        }
    }

    public void Dispose() => http.Dispose();

    /// <summary>The engine's filters query value for one label ("key" or "key=value").</summary>
    private static string LabelFilter(string labelFilter) =>
        Uri.EscapeDataString(JsonSerializer.Serialize(new Dictionary<string, string[]> { ["label"] = [labelFilter] }));

    private static async Task<JsonDocument> ReadJsonAsync(HttpResponseMessage response, string what, CancellationToken ct)
    {
        if (!response.IsSuccessStatusCode)
        {
            throw new DockerApiException(what, response.StatusCode, await response.Content.ReadAsStringAsync(ct));
        }
        await using var stream = await response.Content.ReadAsStreamAsync(ct);
        return await JsonDocument.ParseAsync(stream, cancellationToken: ct);
    }
}
