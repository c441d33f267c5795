using Lightning.Bench.Progress;

namespace Lightning.Bench.Graph;

/// <summary>
/// How the graph's records are written into the payer's gossip store (--graph-store): the harness's form (the default:
/// each HTLC maximum the snapshot calls "the capacity" written as the capacity in msat, and every record dying so the
/// node does not stream them to its peer), or upstream's, byte for byte what Core Lightning's devtools/gossmap-compress
/// decompress writes (the capacity's satoshi figure as msat, 1/1000 of it, and no dying flag), on which its own tests'
/// and its maintainers' pathfinding figures are measured.
/// </summary>
internal enum GossipStoreForm
{
    Harness,
    Upstream,
}

internal static class GossipStoreForms
{
    /// <summary>The form as the option, the manifest and the page name it.</summary>
    public static string Name(this GossipStoreForm form) => form == GossipStoreForm.Upstream ? "upstream" : "harness";

    /// <summary>What the form writes, in words.</summary>
    public static string Describe(this GossipStoreForm form) =>
        form == GossipStoreForm.Upstream
            ? "upstream: as gossmap-compress decompress writes it (HTLC maximum \"the capacity\" as the capacity's sat figure in msat, 1/1000 of it; no dying flag)"
            : "harness: HTLC maximum \"the capacity\" as the capacity in msat; every record dying, so the node does not stream the graph to its peer";

    public static GossipStoreForm Parse(string name, string value) =>
        value switch
        {
            "harness" => GossipStoreForm.Harness,
            "upstream" => GossipStoreForm.Upstream,
            _ => throw new UsageException(
                $"{name} is harness (the default: HTLC maxima as the capacity in msat) or upstream (as Core Lightning's gossmap-compress decompress writes the store), not '{value}'"
            ),
        };
}
