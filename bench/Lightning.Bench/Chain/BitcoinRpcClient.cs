using System.Net;
using Lightning.Bench.Rpc;
using NBitcoin.RPC;
using Newtonsoft.Json.Linq;

namespace Lightning.Bench.Chain;

/// <summary>
/// bitcoind's JSON-RPC through NBitcoin's <see cref="RPCClient"/>: its typed calls where they fit, its untyped
/// SendCommandAsync for the rest. What RPCClient leaves to its callers is here: the HTTP client (its connect callback
/// reaches a swarm's bitcoind through the run's gate), a bound on every whole call (RPCClient retries a full work queue
/// until cancelled), and errors that name bitcoind and the call, as the harness's <c>Rpc/</c> exceptions.
/// </summary>
internal sealed class BitcoinRpcClient : IDisposable
{
    public const string NodeName = "bitcoind";

    public static readonly TimeSpan DefaultCallTimeout = TimeSpan.FromSeconds(60);

    private readonly HttpClient http;
    private readonly RPCClient rpc;
    private readonly TimeSpan callTimeout;

    /// <param name="connect">How to reach the endpoint's host and port, when not directly (a swarm's bitcoind, through the run's gate).</param>
    /// <param name="callTimeout">How long one call may take, answer included; <see cref="DefaultCallTimeout"/> unless given.</param>
    public BitcoinRpcClient(
        Uri endpoint,
        string user,
        string password,
        Func<string, int, CancellationToken, ValueTask<Stream>>? connect = null,
        TimeSpan? callTimeout = null
    )
    {
        var handler = new SocketsHttpHandler();
        if (connect is not null)
        {
            handler.ConnectCallback = (context, ct) => connect(context.DnsEndPoint.Host, context.DnsEndPoint.Port, ct);
        }
        // No client-wide timeout: CallAsync bounds each call with its own token, so a timeout says which call it was.
        http = new HttpClient(handler) { Timeout = Timeout.InfiniteTimeSpan };
        // Regtest is the only chain the harness runs: the typed calls read their addresses for it. The credentials are
        // given whole (not as a "user:password" string to parse), and with them RPCClient never looks for a cookie file.
        rpc = new RPCClient(
            new RPCCredentialString { UserPassword = new NetworkCredential(user, password) },
            endpoint,
            NBitcoin.Network.RegTest
        )
        {
            HttpClient = http,
        };
        Endpoint = endpoint;
        this.callTimeout = callTimeout ?? DefaultCallTimeout;
    }

    public Uri Endpoint { get; }

    /// <summary>One call of NBitcoin's, typed: <paramref name="method"/> names it in errors.</summary>
    public async Task<T> CallAsync<T>(
        RPCOperations method,
        Func<RPCClient, CancellationToken, Task<T>> call,
        CancellationToken ct = default
    )
    {
        using var bounded = CancellationTokenSource.CreateLinkedTokenSource(ct);
        bounded.CancelAfter(callTimeout);
        try
        {
            return await call(rpc, bounded.Token);
        }
        catch (OperationCanceledException e) when (!ct.IsCancellationRequested)
        {
            throw new RpcConnectionException(
                $"{NodeName}: {method} got no answer within {callTimeout.TotalSeconds:0.###} s",
                e
            );
        }
        catch (RPCException e)
        {
            // RPCException's own message is a stock text when bitcoind's is empty: the answer's is what bitcoind said.
            throw new JsonRpcException(
                NodeName,
                method.ToString(),
                (long)e.RPCCode,
                e.RPCResult?.Error?.Message ?? e.Message
            );
        }
        catch (HttpRequestException e) when (e.StatusCode is { } status)
        {
            // An HTTP error without a JSON-RPC body: bitcoind refused the login (401) or its HTTP server the request.
            throw new RpcConnectionException(
                $"{NodeName}: {method} answered HTTP {(int)status} without a JSON-RPC answer",
                e
            );
        }
        catch (HttpRequestException e)
        {
            throw new RpcConnectionException(
                $"{NodeName}: cannot reach RPC at {Endpoint} for {method} ({e.Message})",
                e
            );
        }
        catch (Newtonsoft.Json.JsonException e)
        {
            throw new RpcConnectionException($"{NodeName}: {method} answered with no JSON-RPC answer ({e.Message})", e);
        }
        catch (FormatException e)
        {
            // A typed call could not read the answer (an address of another chain, say).
            throw new InvalidDataException($"{NodeName}: {method} answered what NBitcoin cannot read ({e.Message})", e);
        }
    }

    /// <summary>One call of NBitcoin's that has no result to read.</summary>
    public Task CallAsync(
        RPCOperations method,
        Func<RPCClient, CancellationToken, Task> call,
        CancellationToken ct = default
    ) =>
        CallAsync(
            method,
            async (client, c) =>
            {
                await call(client, c);
                return true;
            },
            ct
        );

    /// <summary>A call NBitcoin has no typed form for, or whose typed form does not fit: its result as bitcoind sent it.</summary>
    public async Task<JToken> CallAsync(RPCOperations method, object[] parameters, CancellationToken ct = default) =>
        (await CallAsync(method, (client, c) => client.SendCommandAsync(method, c, parameters), ct)).Result;

    public void Dispose() => http.Dispose();
}
