using System.Net;
using System.Text.Json;

namespace Lightning.Bench.Docker;

/// <summary>The engine answered a call with an error; the message names the call and gives the engine's own words.</summary>
internal sealed class DockerApiException(string operation, HttpStatusCode status, string message)
    : Exception($"Docker engine refused to {operation}: {(int)status} {message.Trim()}")
{
    public HttpStatusCode Status { get; } = status;

    /// <summary>An error answer of the engine, {"message": "..."}, as the message alone, cut to 4 KiB: it goes into one line.</summary>
    public static string MessageOf(string? body)
    {
        var text = body ?? "";
        try
        {
            using var error = JsonDocument.Parse(text);
            if (
                error.RootElement.ValueKind == JsonValueKind.Object
                && error.RootElement.TryGetProperty("message", out var message)
                && message.GetString() is { } words
            )
            {
                text = words;
            }
        }
        catch (JsonException) { }
        return text.Length > 4096 ? text[..4096] : text;
    }
}
