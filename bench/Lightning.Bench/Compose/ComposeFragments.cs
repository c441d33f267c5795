using YamlDotNet.Core;

namespace Lightning.Bench.Compose;

/// <summary>
/// The service templates in docker-fragments/: each file is a compose file with one service, whose static part
/// (entrypoint, base command line, init, grace period) is data; the generator adds what a run decides.
/// </summary>
public sealed record ComposeFragments(ComposeService Bitcoind, ComposeService CoreLightning)
{
    public const string BitcoindFile = "bitcoind.yml";
    public const string CoreLightningFile = "cln.yml";

    /// <summary>docker-fragments/ beside the harness assembly (the build copies it there).</summary>
    public static string DefaultDirectory => Path.Combine(AppContext.BaseDirectory, "docker-fragments");

    public static ComposeFragments Load(string? directory = null)
    {
        directory ??= DefaultDirectory;
        return new ComposeFragments(
            LoadService(Path.Combine(directory, BitcoindFile)),
            LoadService(Path.Combine(directory, CoreLightningFile)));
    }

    private static ComposeService LoadService(string path)
    {
        if (!File.Exists(path))
        {
            throw new FileNotFoundException($"compose fragment {path} is missing: rebuild the harness (the build copies docker-fragments/)", path);
        }
        ComposeFile file;
        try
        {
            file = ComposeYaml.Deserialize(File.ReadAllText(path));
        }
        catch (YamlException e)
        {
            throw new InvalidDataException($"compose fragment {path} is not valid: {e.Message} {e.InnerException?.Message}", e);
        }
        if (file.Services.Count != 1)
        {
            throw new InvalidDataException($"compose fragment {path} must define exactly one service, found {file.Services.Count}");
        }
        return file.Services.Values.Single();
    }
}
