using System.Text.Json;
using Docker.DotNet.Models;

namespace Lightning.Bench.Docker;

/// <summary>The engine's event stream, as the death watch needs it.</summary>
internal sealed class EngineEvents(EngineConnection connection)
{
    /// <summary>
    /// Streams the engine's "die" events of containers matching the label filter and calls <paramref name="onDie"/>
    /// with each container id, until cancelled. A line that is not an event is skipped: the library's typed stream
    /// would end at it, so the lines of its raw stream are read here.
    /// </summary>
    public async Task WatchDeathsAsync(string labelFilter, Func<string, Task> onDie, CancellationToken ct)
    {
        var parameters = new ContainerEventsParameters
        {
            Filters = EngineFilters.Of(("type", "container"), ("event", "die"), ("label", labelFilter)),
        };
#pragma warning disable CS0618 // The raw stream, on purpose: see above.
        await using var stream = await connection.CallAsync(
            "stream events",
            (client, t) => client.System.MonitorEventsAsync(parameters, t),
            ct,
            Timeout.InfiniteTimeSpan
        );
#pragma warning restore CS0618
        using var reader = new StreamReader(stream);
        while (await reader.ReadLineAsync(ct) is { } line)
        {
            if (ContainerOf(line) is { } id)
            {
                await onDie(id);
            }
        }
    }

    /// <summary>The container an event line is about (its Actor), or null for a line that is not an event.</summary>
    private static string? ContainerOf(string line)
    {
        try
        {
            using var document = JsonDocument.Parse(line);
            return
                document.RootElement.ValueKind == JsonValueKind.Object
                && document.RootElement.TryGetProperty("Actor", out var actor)
                && actor.ValueKind == JsonValueKind.Object
                && actor.TryGetProperty("ID", out var id)
                && id.ValueKind == JsonValueKind.String
                ? id.GetString()
                : null;
        }
        catch (JsonException)
        {
            return null;
        }
    }
}
