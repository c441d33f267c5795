using System.Text.Json;

namespace Lightning.Bench.NodeKinds.CoreLightning;

/// <summary>Finds where the first complete JSON value in a stream buffer ends (Core Lightning writes values back to back).</summary>
internal static class JsonFraming
{
    /// <summary>Returns the length of the first complete value including leading whitespace, or 0 if the buffer holds none yet.</summary>
    public static int CompleteValueLength(ReadOnlySpan<byte> buffer)
    {
        var reader = new Utf8JsonReader(buffer, isFinalBlock: false, state: default);
        if (!reader.Read())
        {
            return 0;
        }
        if (reader.TokenType is JsonTokenType.StartObject or JsonTokenType.StartArray)
        {
            return reader.TrySkip() ? (int)reader.BytesConsumed : 0;
        }
        return (int)reader.BytesConsumed;
    }
}
