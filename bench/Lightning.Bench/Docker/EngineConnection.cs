using System.Net;
using System.Net.Sockets;
using Docker.DotNet;
using EngineApiException = Docker.DotNet.DockerApiException;

namespace Lightning.Bench.Docker;

/// <summary>
/// One engine as Docker.DotNet reaches it, plus what the library leaves to its callers: the API version agreed with the
/// engine before the first versioned call (<see cref="EngineApiVersion"/>), a timeout on every call, and errors that
/// name the call (<see cref="DockerApiException"/>, or <see cref="DockerUnavailableException"/> when the engine cannot
/// be reached or does not answer in time).
/// </summary>
internal sealed class EngineConnection : IDisposable
{
    private readonly TimeSpan requestTimeout;
    private readonly SemaphoreSlim negotiation = new(1, 1);
    private DockerClient? client;

    public EngineConnection(DockerEndpoint endpoint, TimeSpan requestTimeout)
    {
        if (endpoint.UnixSocketPath is null && endpoint.TcpAddress is null)
        {
            throw new DockerUnavailableException(
                $"Docker host '{endpoint.Host}' is not supported: {DockerEndpoint.SupportedForms}"
            );
        }
        Endpoint = endpoint;
        this.requestTimeout = requestTimeout;
    }

    public DockerEndpoint Endpoint { get; }

    public string Host => Endpoint.Host;

    /// <summary>How long an ordinary call may take before the engine counts as not answering.</summary>
    public TimeSpan RequestTimeout => requestTimeout;

    /// <summary>The API version agreed with the engine (e.g. 1.41), once a call has been made.</summary>
    public Version? ApiVersion { get; private set; }

    /// <summary>
    /// The engine's version, after checking that an API version both know exists (the first agreement holds for the
    /// connection's life). Throws <see cref="DockerUnavailableException"/> saying why the engine cannot be used.
    /// </summary>
    public async Task<string> GetVersionAsync(CancellationToken ct = default)
    {
        await negotiation.WaitAsync(ct);
        try
        {
            return await NegotiateAsync(ct);
        }
        finally
        {
            negotiation.Release();
        }
    }

    /// <summary>One call on the agreed version, within <paramref name="timeout"/> (default: the request timeout; infinite for streams).</summary>
    /// <param name="what">The call in words, for messages: "list networks", "start container ID".</param>
    public async Task<T> CallAsync<T>(
        string what,
        Func<DockerClient, CancellationToken, Task<T>> call,
        CancellationToken ct,
        TimeSpan? timeout = null
    )
    {
        var versioned = client ?? await NegotiatedAsync(ct);
        return await RunAsync(versioned, what, call, ct, timeout ?? requestTimeout);
    }

    /// <summary>A call about one object, where the engine's "no such object" is an answer: the default (null) instead of an error.</summary>
    public Task<T?> CallIfPresentAsync<T>(
        string what,
        Func<DockerClient, CancellationToken, Task<T>> call,
        CancellationToken ct
    ) =>
        CallAsync<T?>(
            what,
            async (client, t) =>
            {
                try
                {
                    return await call(client, t);
                }
                catch (EngineApiException e) when (e.StatusCode == HttpStatusCode.NotFound)
                {
                    return default;
                }
            },
            ct
        );

    public void Dispose()
    {
        client?.Dispose();
        negotiation.Dispose();
    }

    private async Task<DockerClient> NegotiatedAsync(CancellationToken ct)
    {
        await negotiation.WaitAsync(ct);
        try
        {
            if (client is null)
            {
                await NegotiateAsync(ct);
            }
            return client!;
        }
        finally
        {
            negotiation.Release();
        }
    }

    private async Task<string> NegotiateAsync(CancellationToken ct)
    {
        // Unversioned: GET /version must work whatever version the engine speaks.
        using var unversioned = Build(apiVersion: null);
        var engine = await RunAsync(
            unversioned,
            "report its version",
            (c, t) => c.System.GetVersionAsync(t),
            ct,
            requestTimeout
        );
        var agreed = EngineApiVersion.Agree(engine, Host);
        if (client is null)
        {
            client = Build(agreed);
            ApiVersion = agreed;
        }
        return engine.Version is { Length: > 0 } version ? version : "unknown";
    }

    /// <summary>Timeouts are per call here (a followed event stream has none), so the library's own is off.</summary>
    private DockerClient Build(Version? apiVersion) =>
        new DockerClientBuilder()
            .WithEndpoint(new Uri(Endpoint.Host))
            .WithApiVersion(apiVersion)
            .WithTimeout(Timeout.InfiniteTimeSpan)
            .Build();

    private async Task<T> RunAsync<T>(
        DockerClient on,
        string what,
        Func<DockerClient, CancellationToken, Task<T>> call,
        CancellationToken ct,
        TimeSpan limit
    )
    {
        using var timeoutCts = CancellationTokenSource.CreateLinkedTokenSource(ct);
        if (limit != Timeout.InfiniteTimeSpan)
        {
            timeoutCts.CancelAfter(limit);
        }
        try
        {
            return await call(on, timeoutCts.Token);
        }
        catch (OperationCanceledException) when (!ct.IsCancellationRequested)
        {
            throw new DockerUnavailableException(
                $"the Docker engine at {Host} did not {what} within {limit.TotalSeconds:0} s"
            );
        }
        catch (EngineApiException e)
        {
            throw new DockerApiException(what, e.StatusCode, DockerApiException.MessageOf(e.ResponseBody));
        }
        catch (HttpRequestException e)
        {
            throw Unreachable(e);
        }
    }

    private DockerUnavailableException Unreachable(HttpRequestException e) =>
        (e.InnerException as SocketException)?.SocketErrorCode switch
        {
            SocketError.AccessDenied => new DockerUnavailableException(
                $"permission denied on {Host}: add your user to the 'docker' group (then log in again) or run as a user that may use Docker"
            ),
            SocketError.AddressNotAvailable or SocketError.ConnectionRefused => new DockerUnavailableException(
                $"no Docker engine answers at {Host} ({Endpoint.Source}): start it (e.g. 'sudo systemctl start docker' or 'sudo dockerd &')"
            ),
            _ => new DockerUnavailableException(
                $"cannot reach the Docker engine at {Host} ({e.InnerException?.Message ?? e.Message}): is Docker installed and running?"
            ),
        };
}
