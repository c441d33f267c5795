using Lightning.Bench.Cleanup;
using Lightning.Bench.Docker;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Options;
using Lightning.Bench.Progress;
using Lightning.Bench.Results;

namespace Lightning.Bench.Run;

/// <summary>
/// Before any topology: the run's needs matched against its kinds' offers (<see cref="CapabilityCheck"/>), options the
/// harness owns refused, then every image present (pulled if needed) with the programs the harness starts, each read
/// for its versions and judged by its kind for every build that runs it. Bad input stops here in one line.
/// </summary>
internal sealed class ImageChecks(
    DockerEngine engine,
    HarnessOptions options,
    NodeKindCatalog kinds,
    RunProgress progress,
    string runId,
    IReadOnlyList<string> workloads
)
{
    private readonly IReadOnlyList<CapabilityCheck.Need> needs = CapabilityCheck.Of(options, workloads);

    /// <summary>Every image checked; records ids, digests, versions and what each build's kind said of it.</summary>
    public async Task<IReadOnlyList<ImageRecord>> RunAsync()
    {
        RefuseBeforeImages();
        var provisioner = new ImageProvisioner(engine, progress, RunLabels.For(runId));
        var records = new List<ImageRecord>();
        foreach (var (image, imageOption, programs) in Wanted())
        {
            var (details, versions) = await provisioner.EnsureAsync(image, imageOption, programs, options.Pull);
            progress.Info($"{image}: {string.Join("; ", versions.Select(v => $"{v.Key} {v.Value}"))}");
            var notes = await JudgeAsync(image, versions);
            var kindOfImage = options
                .Builds.SelectMany(b => b.Images)
                .Where(i => i.Image == image)
                .Select(i => i.Kind)
                .FirstOrDefault();
            records.Add(
                new ImageRecord(image, details.Id, details.RepoDigests, versions) { Kind = kindOfImage, Notes = notes }
            );
        }
        RefuseBitcoindRelease(records);
        await CheckBitcoindOptionsAsync();
        return records;
    }

    /// <summary>A build whose node release stops at start against the run's bitcoind (its kind says why), in one line.</summary>
    private void RefuseBitcoindRelease(IReadOnlyList<ImageRecord> records)
    {
        // An image checked twice (a build's and bitcoind's, as small test images are) has a record for each use.
        var versions = records
            .GroupBy(r => r.Name)
            .ToDictionary(
                g => g.Key,
                g =>
                    (IReadOnlyDictionary<string, string>)
                        g.SelectMany(r => r.Versions).DistinctBy(v => v.Key).ToDictionary()
            );
        if (versions.GetValueOrDefault(options.BitcoindImage)?.GetValueOrDefault("bitcoind") is not { } bitcoind)
        {
            return;
        }
        var refusal = (
            from build in options.Builds
            from image in build.Images.Distinct()
            where versions.ContainsKey(image.Image)
            let why = kinds.Get(image.Kind).RefuseBitcoind(versions[image.Image], bitcoind)
            where why is not null
            select $"build {build.Name} ({image.Image}) beside --bitcoind-image {options.BitcoindImage} ({bitcoind}): {why}"
        ).FirstOrDefault();
        if (refusal is not null)
        {
            throw new UsageException(refusal);
        }
    }

    /// <summary>Bad input refused before any image is looked at: a need a build's kind does not offer, options the harness owns.</summary>
    private void RefuseBeforeImages()
    {
        if (CapabilityCheck.Refusal(options, kinds, needs) is { } refusal)
        {
            throw new UsageException(refusal);
        }
        var owned =
            from build in options.Builds
            from image in build.Images
            from option in build.NodeOptions
            let why = kinds.Get(image.Kind).RefuseOption(option)
            where why is not null
            select $"--node-option {build.Name}:{option}: {why}; drop it";
        if (owned.FirstOrDefault() is { } line)
        {
            throw new UsageException(line);
        }
    }

    /// <summary>The images to check, each with the option that named it and the programs whose versions it records.</summary>
    private IEnumerable<(string Image, string Option, IReadOnlyDictionary<string, string> Programs)> Wanted()
    {
        var option = options.BuildList.Count > 0 ? "--build" : "--cln-image";
        return options
            .Builds.SelectMany(b => b.Images)
            .Distinct()
            .Select(i => (i.Image, option, kinds.Get(i.Kind).VersionProbes))
            .Append(
                (
                    options.BitcoindImage,
                    "--bitcoind-image",
                    new Dictionary<string, string> { ["bitcoind"] = "-version" }
                )
            )
            .Concat(
                options.UsesPostgres
                    ?
                    [
                        (
                            options.PostgresImage,
                            "--postgres-image",
                            new Dictionary<string, string> { ["postgres"] = "--version" }
                        ),
                    ]
                    : []
            );
    }

    /// <summary>
    /// What the image's node kind says of it for each build that runs it: a release too old, a need it lacks or an
    /// option its node does not know stops the run now; what it will run without is said once (and returned).
    /// </summary>
    private async Task<IReadOnlyList<string>> JudgeAsync(string image, IReadOnlyDictionary<string, string> versions)
    {
        var notes = new List<string>();
        foreach (var build in options.Builds.Where(b => b.Images.Any(i => i.Image == image)))
        {
            var kind = kinds.Get(build.Images.First(i => i.Image == image).Kind);
            var check = await kind.CheckImageAsync(
                versions,
                build.NodeOptions,
                (command, ct) => RunProgramAsync(image, command, ct)
            );
            if (check.Refusal is { } refusal)
            {
                throw new UsageException($"build {build.Name} ({image}): {refusal}");
            }
            if (CapabilityCheck.RefuseRelease(build, image, kind, versions, needs) is { } lacks)
            {
                throw new UsageException(lacks);
            }
            foreach (var note in check.Notes.Distinct())
            {
                progress.Info($"build {build.Name} ({image}): {note}");
                notes.Add(note);
            }
        }
        return notes.Distinct().ToList();
    }

    /// <summary>A program of the image run to its end; all of what it prints (lightningd's option list runs to 367 lines).</summary>
    private async Task<(int ExitCode, string Output)> RunProgramAsync(
        string image,
        IReadOnlyList<string> command,
        CancellationToken ct
    )
    {
        var (exitCode, output) = await engine.RunToCompletionAsync(
            image,
            [command[0]],
            command.Skip(1).ToList(),
            RunLabels.For(runId),
            TimeSpan.FromSeconds(60),
            ct,
            outputLines: 100_000
        );
        return ((int)exitCode, output);
    }

    /// <summary>What the run's node kinds need of bitcoind (LND: ZMQ), checked in its image's -help before any topology: one line if missing.</summary>
    private async Task CheckBitcoindOptionsAsync()
    {
        var wanted = options
            .Builds.SelectMany(b => b.Images)
            .Select(i => kinds.Get(i.Kind))
            .Distinct()
            .SelectMany(k => k.BitcoindOptions.Select(o => (Kind: k.Name, Option: o.Split('=', 2)[0])))
            .ToList();
        if (wanted.Count == 0)
        {
            return;
        }
        var (_, help) = await engine.RunToCompletionAsync(
            options.BitcoindImage,
            ["bitcoind"],
            ["-help"],
            RunLabels.For(runId),
            TimeSpan.FromSeconds(60),
            outputLines: 100_000
        );
        if (
            wanted.FirstOrDefault(n => !help.Contains(n.Option, StringComparison.Ordinal)) is
            { Option: not null } missing
        )
        {
            throw new UsageException(
                $"--bitcoind-image {options.BitcoindImage}: its bitcoind has no {missing.Option} (built without it), which {missing.Kind} nodes need: "
                    + "choose a bitcoind image built with ZMQ (bitcoin/bitcoin's images have it)"
            );
        }
    }
}
