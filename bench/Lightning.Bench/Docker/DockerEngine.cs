using System.Net.Http.Json;
using System.Net.Sockets;
using System.Net;
using System.Text.Json;
using System.Text;

namespace Lightning.Bench.Docker;

/// <summary>
/// A small typed client for the Docker Engine API (unix socket or plain tcp), shaped like Docker.DotNet's so that library
/// can replace it where it is served (it is not on this project's package feed). It negotiates the API version as
/// Docker's own clients do, and every call has a timeout.
/// </summary>
internal sealed class DockerEngine : IDisposable
{
    /// <summary>The newest API version this client speaks (Docker Engine 29); it asks for less when the engine is older.</summary>
    public static readonly Version NewestApiVersion = new(1, 52);

    /// <summary>The oldest API version it was tested with (Docker Engine 20.10); an engine that offers less is refused.</summary>
    public static readonly Version OldestApiVersion = new(1, 41);

    /// <summary>How long an ordinary call may take before the engine counts as not answering.</summary>
    public static readonly TimeSpan DefaultRequestTimeout = TimeSpan.FromSeconds(60);

    private readonly HttpClient http;
    private readonly TimeSpan requestTimeout;
    private readonly SemaphoreSlim negotiation = new(1, 1);
    private string? versionPrefix;

    public DockerEngine(DockerEndpoint? endpoint = null, TimeSpan? requestTimeout = null)
    {
        Endpoint = endpoint ?? DockerEndpoint.Resolve();
        this.requestTimeout = requestTimeout ?? DefaultRequestTimeout;
        if (Endpoint.UnixSocketPath is { } socketPath)
        {
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
            http = new HttpClient(handler) { BaseAddress = new Uri("http://docker/") };
        }
        else if (Endpoint.TcpAddress is { } address)
        {
            http = new HttpClient { BaseAddress = new Uri($"http://{address}/") };
        }
        else
        {
            throw new DockerUnavailableException($"Docker host '{Endpoint.Host}' is not supported: {DockerEndpoint.SupportedForms}");
        }
        // Timeouts are per call (a followed event stream has none).
        http.Timeout = Timeout.InfiniteTimeSpan;
    }

    /// <summary>A client for a given host string, e.g. "unix:///run/user/1000/docker.sock".</summary>
    public DockerEngine(string host, TimeSpan? requestTimeout = null)
        : this(new DockerEndpoint(host, "the caller"), requestTimeout)
    {
    }

    public DockerEndpoint Endpoint { get; }

    public string Host => Endpoint.Host;

    /// <summary>The API version agreed with the engine (e.g. 1.41), once a call has been made.</summary>
    public Version? ApiVersion { get; private set; }

    /// <summary>
    /// Engine version, after agreeing on the API version (the unversioned GET /version gives the engine's newest and
    /// oldest; the client speaks the newest both support). Throws <see cref="DockerUnavailableException"/> saying why
    /// the engine cannot be used.
    /// </summary>
    public Task<string> GetVersionAsync(CancellationToken ct = default) => NegotiateAsync(ct);

    /// <summary>Agrees on the API version (kept for every later call) and returns the engine's version.</summary>
    private async Task<string> NegotiateAsync(CancellationToken ct)
    {
        JsonDocument document;
        try
        {
            // Unversioned: GET /version must work whatever version the engine speaks.
            document = await CallAsync(HttpMethod.Get, "version", "report its version",
                (response, c) => ReadJsonAsync(response, "report its version", c), ct, versioned: false);
        }
        catch (HttpRequestException e) when (e.InnerException is SocketException socketError)
        {
            throw socketError.SocketErrorCode switch
            {
                SocketError.AccessDenied => new DockerUnavailableException(
                    $"permission denied on {Host}: add your user to the 'docker' group (then log in again) or run as a user that may use Docker"),
                SocketError.AddressNotAvailable or SocketError.ConnectionRefused => new DockerUnavailableException(
                    $"no Docker engine answers at {Host} ({Endpoint.Source}): start it (e.g. 'sudo systemctl start docker' or 'sudo dockerd &')"),
                _ => new DockerUnavailableException($"cannot reach the Docker engine at {Host} ({socketError.Message}): is Docker installed and running?"),
            };
        }
        catch (HttpRequestException e)
        {
            throw new DockerUnavailableException($"cannot reach the Docker engine at {Host} ({e.Message}): is Docker installed and running?");
        }
        using (document)
        {
            var root = document.RootElement;
            var engineVersion = root.TryGetProperty("Version", out var v) ? v.GetString() ?? "unknown" : "unknown";
            var newest = ParseApiVersion(root, "ApiVersion") ?? OldestApiVersion;
            var oldest = ParseApiVersion(root, "MinAPIVersion") ?? newest;
            var agreed = newest < NewestApiVersion ? newest : NewestApiVersion;
            if (agreed < oldest || agreed < OldestApiVersion)
            {
                throw new DockerUnavailableException(agreed < oldest
                    ? $"the Docker engine at {Host} (Docker {engineVersion}) needs API {oldest} or newer; this harness speaks up to {NewestApiVersion}: update Lightning.Bench"
                    : $"the Docker engine at {Host} (Docker {engineVersion}) speaks API up to {newest}; this harness needs {OldestApiVersion} or newer (Docker 20.10+): update Docker");
            }
            ApiVersion = agreed;
            versionPrefix = $"v{agreed.Major}.{agreed.Minor}/";
            return engineVersion;
        }
    }

    private static Version? ParseApiVersion(JsonElement root, string property) =>
        root.TryGetProperty(property, out var value) && value.ValueKind == JsonValueKind.String && Version.TryParse(value.GetString(), out var parsed)
            ? new Version(parsed.Major, parsed.Minor)
            : null;

    public Task<IReadOnlyList<ContainerSummary>> ListContainersAsync(string labelFilter, CancellationToken ct = default) =>
        GetJsonAsync($"containers/json?all=true&filters={LabelFilter(labelFilter)}", "list containers",
            root => (IReadOnlyList<ContainerSummary>)root.EnumerateArray().Select(ContainerSummary.FromJson).ToList(), ct);

    public Task<ContainerDetails?> InspectContainerAsync(string idOrName, CancellationToken ct = default) =>
        GetJsonOrNullAsync($"containers/{Uri.EscapeDataString(idOrName)}/json", $"inspect container {idOrName}", ContainerDetails.FromJson, ct);

    /// <summary>The last <paramref name="tail"/> lines of a container's stdout and stderr, demultiplexed.</summary>
    public Task<string> GetLogsAsync(string idOrName, int tail, CancellationToken ct = default) =>
        CallAsync(HttpMethod.Get, $"containers/{Uri.EscapeDataString(idOrName)}/logs?stdout=true&stderr=true&tail={tail}", $"read the logs of {idOrName}",
            async (response, c) => response.IsSuccessStatusCode
                ? DockerLogFrames.Demultiplex(await response.Content.ReadAsByteArrayAsync(c))
                : $"(logs unavailable: {(int)response.StatusCode})", ct);

    public Task RemoveContainerAsync(string id, CancellationToken ct = default) =>
        DeleteAsync($"containers/{Uri.EscapeDataString(id)}?force=true&v=true", $"remove container {id}", ct);

    public Task<IReadOnlyList<string>> ListNetworksAsync(string labelFilter, CancellationToken ct = default) =>
        GetJsonAsync($"networks?filters={LabelFilter(labelFilter)}", "list networks",
            root => (IReadOnlyList<string>)root.EnumerateArray().Select(n => n.GetProperty("Id").GetString()!).ToList(), ct);

    public Task RemoveNetworkAsync(string id, CancellationToken ct = default) =>
        DeleteAsync($"networks/{Uri.EscapeDataString(id)}", $"remove network {id}", ct);

    public Task<IReadOnlyList<string>> ListVolumesAsync(string labelFilter, CancellationToken ct = default) =>
        GetJsonAsync($"volumes?filters={LabelFilter(labelFilter)}", "list volumes",
            root => root.GetProperty("Volumes") is { ValueKind: JsonValueKind.Array } volumes
                ? (IReadOnlyList<string>)volumes.EnumerateArray().Select(v => v.GetProperty("Name").GetString()!).ToList()
                : [], ct);

    public Task RemoveVolumeAsync(string name, CancellationToken ct = default) =>
        DeleteAsync($"volumes/{Uri.EscapeDataString(name)}?force=true", $"remove volume {name}", ct);

    /// <summary>The image's id (digest of its config) when it is present locally, otherwise null.</summary>
    public Task<ImageDetails?> InspectImageAsync(string image, CancellationToken ct = default) =>
        GetJsonOrNullAsync($"images/{Uri.EscapeDataString(image)}/json", $"inspect image {image}", ImageDetails.FromJson, ct);

    /// <summary>
    /// Pulls an image. The engine streams progress as JSON lines and reports failures inside that stream; the lines are
    /// read one at a time (a pull's whole answer is never held), and a pull that goes quiet for <paramref name="idle"/> fails.
    /// </summary>
    public async Task PullImageAsync(string image, CancellationToken ct = default, TimeSpan? idle = null)
    {
        var reference = ImageReference.Parse(image);
        var quiet = idle ?? TimeSpan.FromMinutes(5);
        await EnsureNegotiatedAsync(ct);
        using var watchdog = CancellationTokenSource.CreateLinkedTokenSource(ct);
        watchdog.CancelAfter(quiet);
        try
        {
            using var request = new HttpRequestMessage(HttpMethod.Post,
                $"{versionPrefix}images/create?fromImage={Uri.EscapeDataString(reference.Repository)}&tag={Uri.EscapeDataString(reference.Tag)}");
            using var response = await http.SendAsync(request, HttpCompletionOption.ResponseHeadersRead, watchdog.Token);
            if (!response.IsSuccessStatusCode)
            {
                throw new DockerApiException($"pull {image}", response.StatusCode, await ReadBoundedAsync(response, watchdog.Token));
            }
            await using var stream = await response.Content.ReadAsStreamAsync(watchdog.Token);
            using var reader = new StreamReader(stream);
            while (await reader.ReadLineAsync(watchdog.Token) is { } line)
            {
                watchdog.CancelAfter(quiet);
                if (line.Length == 0)
                {
                    continue;
                }
                using var progressLine = JsonDocument.Parse(line);
                if (progressLine.RootElement.TryGetProperty("error", out var error))
                {
                    throw new DockerApiException($"pull {image}", HttpStatusCode.OK, error.GetString() ?? line);
                }
            }
        }
        catch (OperationCanceledException) when (!ct.IsCancellationRequested)
        {
            throw new DockerUnavailableException($"pulling {image} made no progress for {quiet.TotalSeconds:0} s: check the network and the engine at {Host}");
        }
    }

    /// <summary>Creates a bridge network with these labels; returns its id.</summary>
    public Task<string> CreateNetworkAsync(string name, IReadOnlyDictionary<string, string> labels, CancellationToken ct = default) =>
        PostForIdAsync("networks/create", $"create network {name}",
            new Dictionary<string, object> { ["Name"] = name, ["Driver"] = "bridge", ["Labels"] = labels, ["CheckDuplicate"] = true }, ct);

    /// <summary>Creates a container from an Engine API create body (Config with HostConfig and NetworkingConfig); returns its id.</summary>
    public Task<string> CreateContainerAsync(string name, IReadOnlyDictionary<string, object> body, CancellationToken ct = default) =>
        PostForIdAsync($"containers/create?name={Uri.EscapeDataString(name)}", $"create container {name}", body, ct);

    /// <summary>Starts a created container (a container already running is no error).</summary>
    public Task StartContainerAsync(string id, CancellationToken ct = default) =>
        CallAsync(HttpMethod.Post, $"containers/{Uri.EscapeDataString(id)}/start", $"start container {id}", async (response, c) =>
        {
            if (!response.IsSuccessStatusCode && response.StatusCode != HttpStatusCode.NotModified)
            {
                throw new DockerApiException($"start container {id}", response.StatusCode, await ReadBoundedAsync(response, c));
            }
            return true;
        }, ct);

    /// <summary>Waits until the container stops and returns its exit code.</summary>
    public Task<long> WaitContainerAsync(string id, TimeSpan timeout, CancellationToken ct = default) =>
        CallAsync(HttpMethod.Post, $"containers/{Uri.EscapeDataString(id)}/wait", $"wait for container {id}",
            async (response, c) =>
            {
                using var doc = await ReadJsonAsync(response, $"wait for container {id}", c);
                return doc.RootElement.GetProperty("StatusCode").GetInt64();
            }, ct, timeout: timeout);

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
        var id = await PostForIdAsync("containers/create", $"create a container from {image}", body, ct);
        try
        {
            var startError = await CallAsync(HttpMethod.Post, $"containers/{id}/start", $"start container {id}",
                async (response, c) => response.IsSuccessStatusCode ? null : await ReadBoundedAsync(response, c), ct);
            if (startError is not null)
            {
                return (-1, startError);
            }
            var exitCode = await WaitContainerAsync(id, timeout, ct);
            return (exitCode, await GetLogsAsync(id, 50, ct));
        }
        finally
        {
            using var cleanup = new CancellationTokenSource(requestTimeout);
            await RemoveContainerAsync(id, cleanup.Token);
        }
    }

    /// <summary>
    /// Streams the engine's "die" events of containers matching the label filter and calls <paramref name="onDie"/>
    /// with each container id, until cancelled. A line that is not an event is skipped.
    /// </summary>
    public async Task WatchDeathsAsync(string labelFilter, Func<string, Task> onDie, CancellationToken ct)
    {
        var filters = JsonSerializer.Serialize(new Dictionary<string, string[]>
        {
            ["type"] = ["container"],
            ["event"] = ["die"],
            ["label"] = [labelFilter],
        });
        await EnsureNegotiatedAsync(ct);
        using var response = await http.GetAsync($"{versionPrefix}events?filters={Uri.EscapeDataString(filters)}", HttpCompletionOption.ResponseHeadersRead, ct);
        if (!response.IsSuccessStatusCode)
        {
            throw new DockerApiException("stream events", response.StatusCode, await ReadBoundedAsync(response, ct));
        }
        await using var stream = await response.Content.ReadAsStreamAsync(ct);
        using var reader = new StreamReader(stream);
        while (await reader.ReadLineAsync(ct) is { } line)
        {
            string? containerId;
            try
            {
                using var document = JsonDocument.Parse(line);
                containerId = document.RootElement.ValueKind == JsonValueKind.Object && document.RootElement.TryGetProperty("id", out var id)
                    ? id.GetString()
                    : null;
            }
            catch (JsonException)
            {
                continue;
            }
            if (containerId is not null)
            {
                await onDie(containerId);
            }
        }
    }

    public void Dispose()
    {
        http.Dispose();
        negotiation.Dispose();
    }

    /// <summary>The engine's filters query value for one label ("key" or "key=value").</summary>
    private static string LabelFilter(string labelFilter) =>
        Uri.EscapeDataString(JsonSerializer.Serialize(new Dictionary<string, string[]> { ["label"] = [labelFilter] }));

    private async Task EnsureNegotiatedAsync(CancellationToken ct)
    {
        if (versionPrefix is not null)
        {
            return;
        }
        await negotiation.WaitAsync(ct);
        try
        {
            if (versionPrefix is null)
            {
                await NegotiateAsync(ct);
            }
        }
        finally
        {
            negotiation.Release();
        }
    }

    private Task<T> GetJsonAsync<T>(string path, string what, Func<JsonElement, T> read, CancellationToken ct) =>
        CallAsync(HttpMethod.Get, path, what, async (response, c) =>
        {
            using var doc = await ReadJsonAsync(response, what, c);
            return read(doc.RootElement);
        }, ct);

    private Task<T?> GetJsonOrNullAsync<T>(string path, string what, Func<JsonElement, T> read, CancellationToken ct) where T : class =>
        CallAsync(HttpMethod.Get, path, what, async (response, c) =>
        {
            if (response.StatusCode == HttpStatusCode.NotFound)
            {
                return null;
            }
            using var doc = await ReadJsonAsync(response, what, c);
            return read(doc.RootElement);
        }, ct);

    /// <summary>A create call: the body as JSON, the new object's "Id" back.</summary>
    private Task<string> PostForIdAsync<TBody>(string path, string what, TBody body, CancellationToken ct) =>
        CallAsync(HttpMethod.Post, path, what, async (response, c) =>
        {
            using var doc = await ReadJsonAsync(response, what, c);
            return doc.RootElement.GetProperty("Id").GetString()!;
        }, ct, content: JsonContent.Create(body));

    private Task DeleteAsync(string path, string what, CancellationToken ct) =>
        CallAsync(HttpMethod.Delete, path, what, async (response, c) =>
        {
            if (!response.IsSuccessStatusCode && response.StatusCode != HttpStatusCode.NotFound)
            {
                throw new DockerApiException(what, response.StatusCode, await ReadBoundedAsync(response, c));
            }
            return true;
        }, ct);

    /// <summary>One call, sent and read within its timeout; a versioned call (all but GET /version) negotiates first.</summary>
    private async Task<T> CallAsync<T>(HttpMethod method, string path, string what, Func<HttpResponseMessage, CancellationToken, Task<T>> read,
        CancellationToken ct, HttpContent? content = null, TimeSpan? timeout = null, bool versioned = true)
    {
        if (versioned)
        {
            await EnsureNegotiatedAsync(ct);
        }
        var limit = timeout ?? requestTimeout;
        using var timeoutCts = CancellationTokenSource.CreateLinkedTokenSource(ct);
        timeoutCts.CancelAfter(limit);
        try
        {
            using var request = new HttpRequestMessage(method, (versioned ? versionPrefix : "") + path) { Content = content };
            using var response = await http.SendAsync(request, HttpCompletionOption.ResponseHeadersRead, timeoutCts.Token);
            return await read(response, timeoutCts.Token);
        }
        catch (OperationCanceledException) when (!ct.IsCancellationRequested)
        {
            throw new DockerUnavailableException($"the Docker engine at {Host} did not {what} within {limit.TotalSeconds:0} s");
        }
    }

    private static async Task<JsonDocument> ReadJsonAsync(HttpResponseMessage response, string what, CancellationToken ct)
    {
        if (!response.IsSuccessStatusCode)
        {
            throw new DockerApiException(what, response.StatusCode, await ReadBoundedAsync(response, ct));
        }
        await using var stream = await response.Content.ReadAsStreamAsync(ct);
        return await JsonDocument.ParseAsync(stream, cancellationToken: ct);
    }

    /// <summary>An error body, cut to its first 4 KiB: it goes into a one-line message.</summary>
    private static async Task<string> ReadBoundedAsync(HttpResponseMessage response, CancellationToken ct)
    {
        await using var stream = await response.Content.ReadAsStreamAsync(ct);
        var buffer = new byte[4096];
        var length = 0;
        int read;
        while (length < buffer.Length && (read = await stream.ReadAsync(buffer.AsMemory(length), ct)) > 0)
        {
            length += read;
        }
        var text = Encoding.UTF8.GetString(buffer, 0, length);
        try
        {
            // The engine's errors are {"message": "..."}: show the message alone.
            using var error = JsonDocument.Parse(text);
            return error.RootElement.TryGetProperty("message", out var message) ? message.GetString() ?? text : text;
        }
        catch (JsonException)
        {
            return text;
        }
    }
}
