using System.Security.Cryptography;
using System.Text.Json;

namespace Lightning.Bench.NodeKinds.Lnd;

/// <summary>
/// What a payment ListPayments lists must show to be a whole copy of a succeeded one: succeeded, a settled HTLC
/// attempt with its route's hops, and a preimage whose hash is the payment's (each copy has its own pair).
/// </summary>
internal static class LndListedPayment
{
    /// <summary>What is missing or wrong in <paramref name="payment"/> (a ListPayments entry), or null.</summary>
    public static string? Problem(JsonElement payment)
    {
        var status = Text(payment, "status");
        if (status != "SUCCEEDED")
        {
            return $"its status is {status}, not SUCCEEDED";
        }
        List<JsonElement> settled =
            payment.TryGetProperty("htlcs", out var htlcs) && htlcs.ValueKind == JsonValueKind.Array
                ? htlcs.EnumerateArray().Where(h => Text(h, "status") == "SUCCEEDED").ToList()
                : [];
        if (settled.Count == 0)
        {
            return "it has no settled HTLC attempt";
        }
        if (
            settled.Any(h =>
                !h.TryGetProperty("route", out var route)
                || !route.TryGetProperty("hops", out var hops)
                || hops.ValueKind != JsonValueKind.Array
                || hops.GetArrayLength() == 0
            )
        )
        {
            return "a settled attempt is listed without its route's hops";
        }
        var hash = Text(payment, "payment_hash");
        var preimage = Text(payment, "payment_preimage");
        return
            preimage.Length == 64 && Convert.ToHexStringLower(SHA256.HashData(Convert.FromHexString(preimage))) == hash
            ? null
            : $"its preimage ({preimage}) is not its payment hash's ({hash})";
    }

    private static string Text(JsonElement element, string name) =>
        element.TryGetProperty(name, out var value) && value.ValueKind == JsonValueKind.String
            ? value.GetString()!
            : "";
}
