using Lightning.Bench.Docker;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Options;
using Lightning.Bench.Progress;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Run;

/// <summary>
/// The node kind of every --build image that did not name one, recognised before any container starts: from what the
/// image runs when told nothing (its entrypoint and command name a kind's node program, as lightninglabs/lnd's `lnd`
/// does), else by which kind's node program answers its version flag in the image. An image with none is bad input.
/// </summary>
internal static class KindRecognition
{
    public static async Task<HarnessOptions> RecogniseAsync(
        HarnessOptions options,
        NodeKindCatalog kinds,
        ImageProvisioner images,
        RunProgress progress,
        CancellationToken ct = default
    )
    {
        if (options.BuildList.All(b => b.KindKnown && b.NodesToRecognise.Count == 0))
        {
            return options;
        }
        var recognised = new Dictionary<string, string>();
        async Task<string> KindOf(string image)
        {
            if (!recognised.TryGetValue(image, out var kind))
            {
                recognised[image] = kind = await RecogniseAsync(image, kinds, images, options.Pull, ct);
                progress.Info(
                    $"{image}: recognised as {kind} (name it with --build NAME={kind}=IMAGE to skip the look)"
                );
            }
            return kind;
        }
        var builds = new List<BuildSpec>();
        foreach (var build in options.BuildList)
        {
            var kind = build.KindKnown ? build.Kind : await KindOf(build.Image);
            var nodeKinds = new Dictionary<string, string>(build.NodeKinds);
            foreach (var node in build.NodesToRecognise)
            {
                nodeKinds[node] = await KindOf(build.NodeImages[node]);
            }
            builds.Add(build with { Kind = kind, KindKnown = true, NodeKinds = nodeKinds });
        }
        return options with { BuildList = builds };
    }

    private static async Task<string> RecogniseAsync(
        string image,
        NodeKindCatalog kinds,
        ImageProvisioner images,
        bool pull,
        CancellationToken ct
    )
    {
        var details = await images.EnsurePresentAsync(image, "--build", pull, ct);
        var programs = kinds.All.Select(k => (Kind: k.Name, Program: k.VersionProbes.First())).ToList();
        // What it runs when told nothing: lnd, or lightningd (directly or by path).
        if (
            programs.FirstOrDefault(p => details.Command.Any(word => Path.GetFileName(word) == p.Program.Key)) is
            { Kind: not null } named
        )
        {
            return named.Kind;
        }
        foreach (var (kind, (program, flag)) in programs)
        {
            if (await images.RunsAsync(image, program, flag, ct))
            {
                return kind;
            }
        }
        throw new UsageException(
            $"image '{image}' has none of {string.Join(", ", programs.Select(p => p.Program.Key))} on PATH, so it is no node kind the harness runs ({string.Join(", ", programs.Select(p => p.Kind))}): choose a Lightning node's image"
        );
    }
}
