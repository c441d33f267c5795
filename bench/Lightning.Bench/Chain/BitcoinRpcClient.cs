using System.Net.Http.Headers;
using System.Net.Http.Json;
using System.Text.Json.Nodes;
using System.Text.Json;
using System.Text;
using Lightning.Bench.Rpc;

namespace Lightning.Bench.Chain;

/// <summary>bitcoind's JSON-RPC over HTTP (NBitcoin is not served by this project's package feed; the harness needs a few calls).</summary>
internal sealed class BitcoinRpcClient : IDisposable
{
    private readonly HttpClient http;
    private long nextId;

    /// <param name="connect">How to reach the endpoint's host and port, when not directly (a swarm's bitcoind, through the run's gate).</param>
    public BitcoinRpcClient(Uri endpoint, string user, string password, Func<string, int, CancellationToken, ValueTask<Stream>>? connect = null)
    {
        var handler = new SocketsHttpHandler();
        if (connect is not null)
        {
            handler.ConnectCallback = (context, ct) => connect(context.DnsEndPoint.Host, context.DnsEndPoint.Port, ct);
        }
        http = new HttpClient(handler) { BaseAddress = endpoint, Timeout = TimeSpan.FromSeconds(60) };
        http.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue(
            "Basic", Convert.ToBase64String(Encoding.UTF8.GetBytes($"{user}:{password}")));
        Endpoint = endpoint;
    }

    public Uri Endpoint { get; }

    public async Task<JsonElement> CallAsync(string method, params JsonNode?[] parameters) =>
        await CallAsync(method, parameters, CancellationToken.None);

    public async Task<JsonElement> CallAsync(string method, JsonNode?[] parameters, CancellationToken ct)
    {
        var request = new JsonObject
        {
            ["jsonrpc"] = "1.0",
            ["id"] = $"lnbench:{method}#{Interlocked.Increment(ref nextId)}",
            ["method"] = method,
            ["params"] = new JsonArray(parameters.Select(p => p?.DeepClone()).ToArray()),
        };
        HttpResponseMessage response;
        try
        {
            // A body with its length, not chunked: any HTTP/1.1 server reads it (bitcoind does either way).
            using var content = new StringContent(request.ToJsonString(), Encoding.UTF8, "application/json");
            response = await http.PostAsync("/", content, ct);
        }
        catch (HttpRequestException e)
        {
            throw new RpcConnectionException($"bitcoind: cannot reach RPC at {Endpoint} ({e.Message})", e);
        }
        using (response)
        {
            var body = await response.Content.ReadAsStringAsync(ct);
            if (body.Length == 0)
            {
                throw new RpcConnectionException($"bitcoind: {method} answered HTTP {(int)response.StatusCode} with no body");
            }
            using var document = JsonDocument.Parse(body);
            var root = document.RootElement;
            if (root.TryGetProperty("error", out var error) && error.ValueKind == JsonValueKind.Object)
            {
                throw new JsonRpcException("bitcoind", method, error.GetProperty("code").GetInt64(), error.GetProperty("message").GetString() ?? "");
            }
            return root.GetProperty("result").Clone();
        }
    }

    public void Dispose() => http.Dispose();
}
