using System.Globalization;
using System.Text;

namespace Lightning.Bench.Tests.Support;

/// <summary>Datagrams shaped like Core Lightning's trace_emit(), good and bad.</summary>
internal static class SpanPayloads
{
    public static string Valid(
        string name,
        long timestampUs,
        long durationUs,
        string? id = null,
        string? parentId = null,
        params (string Key, string Value)[] tags
    )
    {
        var tagText = string.Join(", ", tags.Select(t => $"\"{t.Key}\":\"{t.Value}\""));
        var parent = parentId is null ? "" : $"\"parentId\":\"{parentId}\",";
        return $"[{{\"id\":\"{id ?? RandomId()}\",\"name\":\"{name}\",\"timestamp\":{timestampUs.ToString(CultureInfo.InvariantCulture)},\"duration\":{durationUs.ToString(CultureInfo.InvariantCulture)},"
            + $"\"localEndpoint\":{{\"serviceName\":\"lightningd\"}},{parent}\"tags\":{{{tagText}}},\"traceId\":\"{RandomId()}{RandomId()}\"}}]";
    }

    /// <summary>What Core Lightning sends when a span does not fit: the first 2047 bytes and a NUL.</summary>
    public static byte[] Truncated()
    {
        var full = Encoding.UTF8.GetBytes(Valid("db_exec_prepared", 1, 2, tags: ("query", new string('x', 3000))));
        var cut = full.AsSpan(0, 2048).ToArray();
        cut[2047] = 0;
        return cut;
    }

    /// <summary>A tag value with a quote in it, sent unescaped as Core Lightning does.</summary>
    public static string UnescapedQuote() => Valid("db_query_prepared", 1, 2, tags: ("query", "SELECT \"x\" FROM t"));

    public static byte[] Oversized() =>
        Encoding.UTF8.GetBytes(Valid("jsonrpc", 1, 2, tags: ("id", new string('y', 5000))));

    public static byte[] InvalidUtf8() => [0x5b, 0x7b, 0xff, 0xfe, 0x22, 0x7d, 0x5d];

    private static string RandomId() => Random.Shared.NextInt64().ToString("x16", CultureInfo.InvariantCulture);
}
