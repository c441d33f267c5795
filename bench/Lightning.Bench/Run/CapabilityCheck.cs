using Lightning.Bench.NodeKinds;
using Lightning.Bench.NodeKinds.Capabilities;
using Lightning.Bench.Options;
using Lightning.Bench.Topology;
using Lightning.Bench.Workloads;

namespace Lightning.Bench.Run;

/// <summary>
/// What a run needs of its nodes, matched against what each build's kind offers, in one place: the workloads' needs and
/// the options' (--swarm, --instructions, --db postgres, --graph, --history). A need a kind does not offer is refused in
/// one line that names the need, the capability and the kind, before any image is looked at; a need one release of the
/// kind lacks, once the image's versions are read (<see cref="RefuseRelease"/>). Nothing here names a kind or a workload.
/// </summary>
internal static class CapabilityCheck
{
    /// <summary>One need: the capability, what asked for it (as the user wrote it), and the build it holds for (null: every build).</summary>
    public sealed record Need(Capability Capability, string Because, string? Build = null);

    /// <summary>Every need of the run: each workload's, then each option's.</summary>
    public static IReadOnlyList<Need> Of(HarnessOptions options, IReadOnlyList<string> workloads)
    {
        var needs = workloads
            .Select(WorkloadCatalog.Get)
            .SelectMany(w => w.Needs.Select(c => new Need(c, $"--workload {w.Name}")))
            .ToList();
        if (options.Swarm)
        {
            needs.Add(new(KnownCapabilities.Swarm, "--swarm"));
        }
        if (options.Instructions)
        {
            needs.Add(new(KnownCapabilities.Instructions, "--instructions"));
        }
        if (options.GraphPath is not null)
        {
            needs.Add(new(KnownCapabilities.Graph, "--graph"));
            needs.Add(new(KnownCapabilities.GraphChannels, "--graph"));
        }
        if (options.GivesHistory)
        {
            // Written into each build's database where it keeps it: its own files, or the topology's PostgreSQL server.
            needs.AddRange(
                options.Builds.Select(b => new Need(
                    b.Database == Databases.Postgres
                        ? KnownCapabilities.HistoryOnPostgres(options.HistoryOf)
                        : KnownCapabilities.HistoryOf(options.HistoryOf),
                    b.Database == Databases.Postgres ? $"--history with --db {b.Name}:postgres" : "--history",
                    b.Name
                ))
            );
            needs.Add(new(KnownCapabilities.HistoryListing, "--history"));
        }
        needs.AddRange(
            options
                .Builds.Where(b => b.Database == Databases.Postgres)
                .Select(b => new Need(KnownCapabilities.Postgres, $"--db {b.Name}:postgres", b.Name))
        );
        return needs;
    }

    /// <summary>The first need a build's kind does not offer, as one line; null when every kind offers every need.</summary>
    public static string? Refusal(HarnessOptions options, NodeKindCatalog kinds, IReadOnlyList<Need> needs) =>
        (
            from build in options.Builds
            from image in build.Images
            let kind = kinds.Get(image.Kind)
            from need in needs
            where (need.Build is null || need.Build == build.Name) && !kind.Offers.Contains(need.Capability)
            select $"{need.Because} needs {need.Capability.Means} ({need.Capability.Name}): build {build.Name} ({image.Image}) is {kind.Name}, "
                + $"whose nodes do not offer it; drop {need.Because} or the build"
        ).FirstOrDefault();

    /// <summary>Why one release of a build's kind lacks a need its kind offers (read from its image's versions), as one line; or null.</summary>
    public static string? RefuseRelease(
        BuildSpec build,
        string image,
        INodeKind kind,
        IReadOnlyDictionary<string, string> versions,
        IReadOnlyList<Need> needs
    ) =>
        needs
            .Where(n => n.Build is null || n.Build == build.Name)
            .Select(n =>
                kind.Lacks(n.Capability, versions) is { } why
                    ? $"{n.Because}: build {build.Name} ({image}): {why}"
                    : null
            )
            .FirstOrDefault(line => line is not null);
}
