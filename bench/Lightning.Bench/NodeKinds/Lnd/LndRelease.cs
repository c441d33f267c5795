using System.Globalization;
using System.Text.RegularExpressions;

namespace Lightning.Bench.NodeKinds.Lnd;

/// <summary>
/// An LND release as its lnd answers --version ("lnd version 0.19.3-beta commit=v0.19.3-beta"), and what the harness
/// does differently for it: the API differences between v0.18 and v0.21 that touch the calls it makes, each said in the
/// run's notes (the console and the manifest), never silently. A release outside that span is refused in one line.
/// </summary>
internal sealed partial record LndRelease(int Major, int Minor, int Patch) : IComparable<LndRelease>
{
    /// <summary>The oldest and newest minor releases whose differences are known here.</summary>
    public static readonly LndRelease Oldest = new(0, 18, 0);
    public static readonly LndRelease Newest = new(0, 21, 0);

    public static LndRelease? Parse(string version) =>
        VersionPattern().Match(version) is { Success: true } m
            ? new LndRelease(Int(m.Groups[1]), Int(m.Groups[2]), Int(m.Groups[3]))
            : null;

    /// <summary>Why the harness does not run this release, in one line; null when it does.</summary>
    public string? Refusal() =>
        this < Oldest || Minor > Newest.Minor || Major != 0
            ? $"LND v{this} is not a release the harness knows (v{Oldest} to v{Newest.Major}.{Newest.Minor}.x, whose API differences it handles): give an image of one of those"
            : null;

    /// <summary>
    /// Why this release stops at start against the Bitcoin Core that answered <c>bitcoind -version</c> with
    /// <paramref name="bitcoindVersion"/> ("Bitcoin Core daemon version v31.0.0"), in one line; null when it runs, or
    /// when the version cannot be read (the node's own start then says why).
    /// </summary>
    public string? RefuseBitcoind(string bitcoindVersion)
    {
        if (CoreVersionPattern().Match(bitcoindVersion) is not { Success: true } m)
        {
            return null;
        }
        var core = Int(m.Groups[1]);
        if (core >= 31 && this < new LndRelease(0, 21, 0))
        {
            return $"LND v{this} stops at start against Bitcoin Core {core} (it reads taproot's activation where Core 31 no longer lists it: \"node backend does not support taproot\"; fixed in v0.21): give it a Bitcoin Core 30 image (--bitcoind-image bitcoin/bitcoin:30.2)";
        }
        if (core >= 28 && this < new LndRelease(0, 18, 4))
        {
            return $"LND v{this} cannot read Bitcoin Core {core}'s warnings (fixed in v0.18.4): its wallet does not unlock against Bitcoin Core 28 or later; give it a Bitcoin Core 27 image with --bitcoind-image";
        }
        return null;
    }

    /// <summary>What differs for this release from the harness's point of view, one line each.</summary>
    public IEnumerable<string> Differences()
    {
        yield return this < new LndRelease(0, 20, 0)
            ? $"LND v{this} does not look for peers on regtest; the harness passes --nobootstrap all the same (from v0.20 it must)"
            : $"LND v{this} would look for peers on regtest (from v0.20): the harness passes --nobootstrap";
        if (this < new LndRelease(0, 19, 0))
        {
            yield return $"LND v{this}'s SendPaymentV2 refuses a payment without timeout_seconds (before v0.19); the harness gives every payment {LndNode.PaymentTimeoutSeconds} s, on every release";
        }
        if (this < new LndRelease(0, 18, 4))
        {
            yield return $"LND v{this} cannot read Bitcoin Core 28's warnings (fixed in v0.18.4): against Bitcoin Core 28 or later its wallet does not unlock; give it an older bitcoind image";
        }
        if (this >= new LndRelease(0, 20, 0))
        {
            yield return $"LND v{this} pays only invoices with a payment address (from v0.20): every invoice of the harness's nodes has one";
        }
        yield return this >= new LndRelease(0, 21, 0)
            ? $"LND v{this}: invoices' final CLTV delta at least 24 and HTLCs refused within 19 blocks of expiry (from v0.21; 18 and 13 before); the harness's invoices take LND's default"
            : $"LND v{this}: invoices' final CLTV delta at least 18 (24 from v0.21); the harness's invoices take LND's default";
    }

    public int CompareTo(LndRelease? other) =>
        other is null ? 1 : (Major, Minor, Patch).CompareTo((other.Major, other.Minor, other.Patch));

    public static bool operator <(LndRelease a, LndRelease b) => a.CompareTo(b) < 0;

    public static bool operator >(LndRelease a, LndRelease b) => a.CompareTo(b) > 0;

    public static bool operator <=(LndRelease a, LndRelease b) => a.CompareTo(b) <= 0;

    public static bool operator >=(LndRelease a, LndRelease b) => a.CompareTo(b) >= 0;

    public override string ToString() => $"{Major}.{Minor}.{Patch}";

    private static int Int(Group g) => int.Parse(g.Value, CultureInfo.InvariantCulture);

    [GeneratedRegex(@"(\d+)\.(\d+)\.(\d+)")]
    private static partial Regex VersionPattern();

    [GeneratedRegex(@"\bv(\d+)\.(\d+)")]
    private static partial Regex CoreVersionPattern();
}
