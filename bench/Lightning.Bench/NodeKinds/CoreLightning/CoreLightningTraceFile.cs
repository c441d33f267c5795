using System.Globalization;
using System.Text.RegularExpressions;

namespace Lightning.Bench.NodeKinds.CoreLightning;

/// <summary>
/// --trace-check: Core Lightning's own trace file (CLN_DEV_TRACE_FILE, a "span_emit ID PAYLOAD" line per span) is the
/// ground truth. Spans that ended before the harness stopped collecting were sent while it listened; each of them
/// whose id never reached the socket was lost. Spans of the teardown (after the stop) are not counted.
/// </summary>
internal static partial class CoreLightningTraceFile
{
    /// <summary>Counts the spans in <paramref name="traceFileLines"/> that ended by <paramref name="stoppedUnixMicros"/>, and how many of them arrived.</summary>
    public static (long Emitted, long Arrived) Count(
        IEnumerable<string> traceFileLines,
        long stoppedUnixMicros,
        IReadOnlySet<string> receivedIds
    )
    {
        long emitted = 0,
            arrived = 0;
        foreach (var line in traceFileLines)
        {
            if (!line.StartsWith("span_emit ", StringComparison.Ordinal))
            {
                continue;
            }
            var end = Times().Match(line);
            if (
                end.Success
                && long.Parse(end.Groups[1].Value, CultureInfo.InvariantCulture)
                    + long.Parse(end.Groups[2].Value, CultureInfo.InvariantCulture)
                    > stoppedUnixMicros
            )
            {
                continue;
            }
            emitted++;
            var id = line.AsSpan("span_emit ".Length);
            var space = id.IndexOf(' ');
            if (receivedIds.Contains((space < 0 ? id : id[..space]).ToString()))
            {
                arrived++;
            }
        }
        return (emitted, arrived);
    }

    [GeneratedRegex("\"timestamp\":([0-9]+),\"duration\":([0-9]+)")]
    private static partial Regex Times();
}
