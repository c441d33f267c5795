using System.Text.Json.Nodes;

namespace Lightning.Bench.Tests.Support;

/// <summary>One HTTP request as <see cref="CannedHttpServer"/> read it off the wire.</summary>
internal sealed record CannedHttpRequest(string RequestLine, IReadOnlyDictionary<string, string> Headers, string Body)
{
    /// <summary>The body as JSON (a JSON-RPC request's), or null when it is none.</summary>
    public JsonNode? Json
    {
        get
        {
            try
            {
                return JsonNode.Parse(Body);
            }
            catch (System.Text.Json.JsonException)
            {
                return null;
            }
        }
    }

    /// <summary>The JSON-RPC method asked for, or "" when the body names none.</summary>
    public string RpcMethod => Json?["method"]?.GetValue<string>() ?? "";
}
