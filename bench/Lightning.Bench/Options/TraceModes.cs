namespace Lightning.Bench.Options;

/// <summary>The values of the Traces parameter.</summary>
internal static class TraceModes
{
    public const string On = "on";
    public const string Off = "off";
    public const string Unread = "unread";

    public static readonly IReadOnlyList<string> All = [On, Off, Unread];
}
