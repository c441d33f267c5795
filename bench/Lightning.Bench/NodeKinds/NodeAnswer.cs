using System.Text.Json;

namespace Lightning.Bench.NodeKinds;

/// <summary>Reading what a node's call returned, whatever its transport.</summary>
internal static class NodeAnswer
{
    /// <summary>
    /// <paramref name="read"/> applied to <paramref name="answer"/>; what is missing or malformed in it becomes a
    /// <see cref="NodeCallFailure.BadAnswer"/> naming the node and the call.
    /// </summary>
    public static T Read<T>(string node, string call, JsonElement answer, Func<JsonElement, T> read)
    {
        try
        {
            return read(answer);
        }
        catch (Exception e) when (e is KeyNotFoundException or InvalidOperationException or FormatException)
        {
            throw new NodeCallException(
                node,
                call,
                NodeCallFailure.BadAnswer,
                $"{node}: {call} answered without what it returns ({e.Message})",
                e
            );
        }
    }
}
