using System.Net;
using System.Net.Http.Headers;
using System.Net.Security;
using System.Net.Sockets;
using System.Security.Cryptography.X509Certificates;
using System.Text;
using System.Text.Json;
using System.Text.Json.Nodes;

namespace Lightning.Bench.NodeKinds.Lnd;

/// <summary>
/// LND's documented REST API (the gRPC gateway) over HTTPS: every call carries the node's admin macaroon, and the
/// server must present the very certificate the node wrote into its folder (pinned, so no CA is trusted). Errors come
/// back as <see cref="NodeCallException"/> naming the node and the call (its REST path), in LND's own words.
/// </summary>
internal sealed class LndRestClient : IAsyncDisposable
{
    private readonly HttpClient http;

    public string Node { get; }

    public LndRestClient(string node, Uri endpoint, byte[] macaroon, X509Certificate2 certificate)
    {
        Node = node;
        var handler = new SocketsHttpHandler
        {
            // Payments hold a connection each while they stream: no pool limit below the concurrency a run asks for.
            MaxConnectionsPerServer = int.MaxValue,
            PooledConnectionIdleTimeout = TimeSpan.FromMinutes(5),
            SslOptions = new SslClientAuthenticationOptions
            {
                RemoteCertificateValidationCallback = (_, presented, _, _) =>
                    presented is not null && presented.GetRawCertData().AsSpan().SequenceEqual(certificate.RawData),
            },
        };
        http = new HttpClient(handler) { BaseAddress = endpoint, Timeout = Timeout.InfiniteTimeSpan };
        http.DefaultRequestHeaders.Add("Grpc-Metadata-macaroon", Convert.ToHexStringLower(macaroon));
        http.DefaultRequestHeaders.Accept.Add(new MediaTypeWithQualityHeaderValue("application/json"));
    }

    /// <summary>A GET whose answer <paramref name="read"/> turns into what the call returns (<see cref="NodeAnswer.Read"/>).</summary>
    public async Task<T> GetAsync<T>(string path, Func<JsonElement, T> read, CancellationToken ct = default) =>
        NodeAnswer.Read(Node, path, await SendAsync(HttpMethod.Get, path, null, ct), read);

    /// <summary>A POST whose answer <paramref name="read"/> turns into what the call returns (<see cref="NodeAnswer.Read"/>).</summary>
    public async Task<T> PostAsync<T>(
        string path,
        JsonObject body,
        Func<JsonElement, T> read,
        CancellationToken ct = default
    ) => NodeAnswer.Read(Node, path, await SendAsync(HttpMethod.Post, path, body, ct), read);

    /// <summary>A POST whose answer does not matter beyond its success.</summary>
    public Task PostAsync(string path, JsonObject body, CancellationToken ct = default) =>
        SendAsync(HttpMethod.Post, path, body, ct);

    /// <summary>
    /// A server-streaming call (SendPaymentV2): each line is {"result": …} or {"error": …}; returns the first result
    /// <paramref name="final"/> accepts (the stream is closed then).
    /// </summary>
    public async Task<JsonElement> StreamUntilAsync(
        string path,
        JsonObject body,
        Func<JsonElement, bool> final,
        CancellationToken ct = default
    )
    {
        using var request = Request(HttpMethod.Post, path, body);
        using var response = await Transport(
            path,
            () => http.SendAsync(request, HttpCompletionOption.ResponseHeadersRead, ct),
            ct
        );
        if (!response.IsSuccessStatusCode)
        {
            throw Failure(path, response.StatusCode, await response.Content.ReadAsStringAsync(ct));
        }
        using var reader = new StreamReader(await response.Content.ReadAsStreamAsync(ct), Encoding.UTF8);
        while (true)
        {
            var line = await Transport(path, async () => await reader.ReadLineAsync(ct), ct);
            if (line is null)
            {
                throw new NodeCallException(
                    Node,
                    path,
                    NodeCallFailure.ConnectionLost,
                    $"{Node}: {path} ended its stream without a final answer"
                );
            }
            if (string.IsNullOrWhiteSpace(line))
            {
                continue;
            }
            var message = Parse(path, line);
            if (message.TryGetProperty("error", out var error))
            {
                throw Failure(path, HttpStatusCode.OK, error.GetRawText());
            }
            if (message.TryGetProperty("result", out var result) && final(result))
            {
                return result.Clone();
            }
        }
    }

    private async Task<JsonElement> SendAsync(HttpMethod method, string path, JsonObject? body, CancellationToken ct)
    {
        using var request = Request(method, path, body);
        using var response = await Transport(path, () => http.SendAsync(request, ct), ct);
        var text = await Transport(path, () => response.Content.ReadAsStringAsync(ct), ct);
        return response.IsSuccessStatusCode ? Parse(path, text) : throw Failure(path, response.StatusCode, text);
    }

    private static HttpRequestMessage Request(HttpMethod method, string path, JsonObject? body)
    {
        var request = new HttpRequestMessage(method, path.TrimStart('/'));
        if (body is not null)
        {
            request.Content = new StringContent(body.ToJsonString(), Encoding.UTF8, "application/json");
        }
        return request;
    }

    /// <summary>A refused or lost connection, or a broken stream: the node may have died.</summary>
    private async Task<T> Transport<T>(string path, Func<Task<T>> call, CancellationToken ct)
    {
        try
        {
            return await call();
        }
        catch (Exception e)
            when (e is HttpRequestException or IOException or SocketException && !ct.IsCancellationRequested)
        {
            throw new NodeCallException(Node, path, NodeCallFailure.ConnectionLost, $"{Node}: {path}: {e.Message}", e);
        }
    }

    private JsonElement Parse(string path, string text)
    {
        try
        {
            using var document = JsonDocument.Parse(text);
            return document.RootElement.Clone();
        }
        catch (JsonException e)
        {
            throw new NodeCallException(
                Node,
                path,
                NodeCallFailure.BadAnswer,
                $"{Node}: {path} answered with something that is not JSON ({e.Message})",
                e
            );
        }
    }

    /// <summary>
    /// LND's error body ({"code": gRPC status, "message": …}): 12 (unimplemented) or an HTTP 404/405/501 is a call this
    /// build does not know; anything else the node refused.
    /// </summary>
    private NodeCallException Failure(string path, HttpStatusCode status, string body)
    {
        var (code, message) = ErrorOf(body);
        var unsupported =
            code == 12
            || status is HttpStatusCode.NotFound or HttpStatusCode.MethodNotAllowed or HttpStatusCode.NotImplemented;
        return new NodeCallException(
            Node,
            path,
            unsupported ? NodeCallFailure.Unsupported : NodeCallFailure.Refused,
            $"{Node}: {path} failed ({(int)status}{(code is null ? "" : $", code {code}")}): {message}"
        );
    }

    public static (int? Code, string Message) ErrorOf(string body)
    {
        try
        {
            using var document = JsonDocument.Parse(body);
            var root = document.RootElement;
            return (
                root.TryGetProperty("code", out var c) && c.ValueKind == JsonValueKind.Number ? c.GetInt32() : null,
                root.TryGetProperty("message", out var m) ? m.GetString() ?? "" : body.Trim()
            );
        }
        catch (JsonException)
        {
            return (null, body.Trim());
        }
    }

    public ValueTask DisposeAsync()
    {
        http.Dispose();
        return ValueTask.CompletedTask;
    }
}
