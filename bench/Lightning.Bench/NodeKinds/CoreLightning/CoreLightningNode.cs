using System.Text.Json.Nodes;
using System.Text.Json;

namespace Lightning.Bench.NodeKinds.CoreLightning;

/// <summary>A running Core Lightning node of a topology, with its RPC connection.</summary>
public sealed class LightningNode(string name, string containerId, ClnRpcClient rpc, string nodeId, string version) : IAsyncDisposable
{
    private long nextSetupId;

    public string Name { get; } = name;

    public string ContainerId { get; } = containerId;

    public string NodeId { get; } = nodeId;

    /// <summary>The version getinfo reported (kept in the run's manifest).</summary>
    public string Version { get; } = version;

    /// <summary>A call that belongs to a payment or another unit the traces should join on: the caller names the id.</summary>
    public Task<JsonElement> CallAsync(string method, JsonObject? parameters, string id, CancellationToken ct = default) =>
        rpc.CallAsync(method, parameters, id, ct);

    /// <summary>A setup call; its id says so (lnbench:method#setup-N).</summary>
    public Task<JsonElement> CallAsync(string method, JsonObject? parameters = null, CancellationToken ct = default) =>
        rpc.CallAsync(method, parameters, $"lnbench:{method}#setup-{Interlocked.Increment(ref nextSetupId)}", ct);

    public ValueTask DisposeAsync() => rpc.DisposeAsync();
}
