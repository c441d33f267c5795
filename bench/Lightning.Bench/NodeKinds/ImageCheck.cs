namespace Lightning.Bench.NodeKinds;

/// <summary>What a node kind says of an image before any container starts (see <see cref="INodeKind.CheckImageAsync"/>).</summary>
/// <param name="Refusal">Why the image cannot run as the build asks, in one line; null when it can.</param>
/// <param name="Notes">What it runs without (no spans, another payment call), one line each.</param>
internal sealed record ImageCheck(string? Refusal, IReadOnlyList<string> Notes)
{
    public static readonly ImageCheck Fine = new(null, []);

    /// <summary>
    /// Why a build's node <paramref name="options"/> cannot run: those whose names (before '=') the node's help, printed by
    /// <paramref name="help"/> in the image, does not list (all of them if it failed), in one line; null when it lists
    /// every one, or when there are none to check.
    /// </summary>
    /// <param name="node">The node program as the line names it ("its lnd (0.21.1-beta)").</param>
    public static async Task<string?> UnknownOptionsAsync(
        IReadOnlyList<string> options,
        string node,
        IReadOnlyList<string> help,
        Func<IReadOnlyList<string>, CancellationToken, Task<(int ExitCode, string Output)>> run,
        CancellationToken ct
    )
    {
        if (options.Count == 0)
        {
            return null;
        }
        var (exitCode, text) = await run(help, ct);
        var unknown = options
            .Select(o => o.Split('=', 2)[0])
            .Where(o => exitCode != 0 || !text.Contains(o, StringComparison.Ordinal))
            .Distinct()
            .ToList();
        return unknown.Count == 0
            ? null
            : $"{node} does not know {string.Join(", ", unknown)} (not in {string.Join(' ', help)}): drop the option or choose a build that has it";
    }
}
