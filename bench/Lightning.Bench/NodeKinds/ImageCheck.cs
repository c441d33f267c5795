namespace Lightning.Bench.NodeKinds;

/// <summary>What a node kind says of an image before any container starts (see <see cref="INodeKind.CheckImageAsync"/>).</summary>
/// <param name="Refusal">Why the image cannot run as the build asks, in one line; null when it can.</param>
/// <param name="Notes">What it runs without (no spans, another payment call), one line each.</param>
internal sealed record ImageCheck(string? Refusal, IReadOnlyList<string> Notes)
{
    public static readonly ImageCheck Fine = new(null, []);
}
