using System.Globalization;

namespace Lightning.Bench.NodeKinds.CoreLightning;

/// <summary>
/// Core Lightning's JSON-RPC id chains: each hop appends "/prefix:method#n" to the id it received, so the first
/// element is the id the harness sent (lnbench:xpay#42) and the last names the call the span measured.
/// </summary>
internal static class RpcIdChain
{
    public const string HarnessPrefix = "lnbench:";

    /// <summary>The payment id of a chain the harness started (lnbench:xpay#42/... → 42), else null.</summary>
    public static long? PaymentId(string chain)
    {
        if (!chain.StartsWith(HarnessPrefix, StringComparison.Ordinal))
        {
            return null;
        }
        var first = chain.AsSpan(0, IndexOrLength(chain, '/'));
        var hash = first.IndexOf('#');
        return
            hash > 0 && long.TryParse(first[(hash + 1)..], NumberStyles.None, CultureInfo.InvariantCulture, out var id)
            ? id
            : null;
    }

    /// <summary>The method of the last element (…/cln-xpay:getroutes#6 → getroutes).</summary>
    public static string? LastMethod(string chain)
    {
        var last = chain[(chain.LastIndexOf('/') + 1)..];
        var colon = last.IndexOf(':');
        var hash = last.LastIndexOf('#');
        if (colon < 0 || hash <= colon + 1)
        {
            return null;
        }
        return last[(colon + 1)..hash];
    }

    /// <summary>Number of hops: 1 for the harness's own request, 3 for a call a plugin made while serving it.</summary>
    public static int Depth(string chain) => chain.Count(c => c == '/') + 1;

    private static int IndexOrLength(string text, char c)
    {
        var index = text.IndexOf(c);
        return index < 0 ? text.Length : index;
    }
}
