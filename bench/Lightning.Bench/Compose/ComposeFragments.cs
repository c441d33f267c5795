using YamlDotNet.Core;

namespace Lightning.Bench.Compose;

/// <summary>
/// The service templates in docker-fragments/: each file is a compose file with one service, whose static part
/// (entrypoint, base command line, init, grace period) is data; the generator adds what a run decides.
/// </summary>
internal sealed record ComposeFragments(IReadOnlyDictionary<string, ComposeService> Services)
{
    public const string BitcoindFile = "bitcoind.yml";

    /// <summary>The PostgreSQL server of a topology whose nodes are on --db postgres.</summary>
    public const string PostgresFile = "postgres.yml";

    /// <summary>docker-fragments/ beside the harness assembly (the build copies it there).</summary>
    public static string DefaultDirectory => Path.Combine(AppContext.BaseDirectory, "docker-fragments");

    public ComposeService Bitcoind => For(BitcoindFile);

    /// <summary>The service of one fragment file (a node kind names its own).</summary>
    public ComposeService For(string file) =>
        Services.TryGetValue(file, out var service)
            ? service
            : throw new InvalidOperationException($"compose fragment {file} was not loaded");

    /// <param name="files">The fragments to load besides bitcoind's: one per node kind the run may use (the caller knows
    /// the kinds: NodeKindCatalog.LoadFragments loads a catalog's).</param>
    /// <param name="allowPrivileged">Whether a fragment may give its containers privileges (privileged, cap_add,
    /// security_opt): refused unless the user asked, since a node container has no need of them and they reach the host.</param>
    public static ComposeFragments Load(string? directory, bool allowPrivileged, IEnumerable<string> files)
    {
        directory ??= DefaultDirectory;
        return new ComposeFragments(
            new[] { BitcoindFile }
                .Concat(files)
                .Distinct()
                .ToDictionary(f => f, f => LoadService(Path.Combine(directory, f), allowPrivileged))
        );
    }

    private static ComposeService LoadService(string path, bool allowPrivileged)
    {
        if (!File.Exists(path))
        {
            throw new FileNotFoundException(
                $"compose fragment {path} is missing: rebuild the harness (the build copies docker-fragments/)",
                path
            );
        }
        ComposeFile file;
        try
        {
            file = ComposeYaml.Deserialize(File.ReadAllText(path));
        }
        catch (YamlException e)
        {
            throw new InvalidDataException(
                $"compose fragment {path} is not valid: {e.Message} {e.InnerException?.Message}",
                e
            );
        }
        if (file.Services.Count != 1)
        {
            throw new InvalidDataException(
                $"compose fragment {path} must define exactly one service, found {file.Services.Count}"
            );
        }
        var service = file.Services.Values.Single();
        if (service.Networks is not null || service.Secrets is not null || service.Deploy is not null)
        {
            throw new InvalidDataException(
                $"compose fragment {path}: networks, secrets and deploy are set by the harness (swarm stack files); remove them"
            );
        }
        var privileges = new List<string>();
        if (service.Privileged == true)
        {
            privileges.Add("privileged: true");
        }
        if (service.CapAdd is { Count: > 0 })
        {
            privileges.Add($"cap_add: {string.Join(", ", service.CapAdd)}");
        }
        if (service.SecurityOpt is { Count: > 0 })
        {
            privileges.Add($"security_opt: {string.Join(", ", service.SecurityOpt)}");
        }
        if (privileges.Count > 0 && !allowPrivileged)
        {
            throw new InvalidDataException(
                $"compose fragment {path} gives its containers privileges ({string.Join("; ", privileges)}): remove them, or pass --allow-privileged-fragments if you mean it"
            );
        }
        return service;
    }
}
