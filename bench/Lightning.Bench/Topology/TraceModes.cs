namespace Lightning.Bench.Topology;

/// <summary>The values of the Traces parameter: how a topology's nodes trace (to the harness, not at all, or to a socket nobody reads).</summary>
internal static class TraceModes
{
    public const string On = "on";
    public const string Off = "off";
    public const string Unread = "unread";

    public static readonly IReadOnlyList<string> All = [On, Off, Unread];
}
