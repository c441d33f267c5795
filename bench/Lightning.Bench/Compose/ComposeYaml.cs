using YamlDotNet.Serialization;
using YamlDotNet.Serialization.NamingConventions;

namespace Lightning.Bench.Compose;

/// <summary>YAML settings for compose files: snake_case property names, dictionary keys (service and variable names) as given.</summary>
internal static class ComposeYaml
{
    private static readonly ISerializer Serializer = new SerializerBuilder()
        .WithQuotingNecessaryStrings()
        .WithNamingConvention(UnderscoredNamingConvention.Instance)
        .ConfigureDefaultValuesHandling(DefaultValuesHandling.OmitNull | DefaultValuesHandling.OmitEmptyCollections)
        .DisableAliases()
        .Build();

    private static readonly IDeserializer Deserializer = new DeserializerBuilder()
        .WithNamingConvention(UnderscoredNamingConvention.Instance)
        .Build();

    public static string Serialize(ComposeFile file) => Serializer.Serialize(file);

    public static ComposeFile Deserialize(string yaml) =>
        Deserializer.Deserialize<ComposeFile>(yaml) ?? new ComposeFile();

    /// <summary>Compose interpolates $VAR everywhere in the file: a literal dollar must be written as $$.</summary>
    public static string Literal(string value) => value.Replace("$", "$$", StringComparison.Ordinal);
}
