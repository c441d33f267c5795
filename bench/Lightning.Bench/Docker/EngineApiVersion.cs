using Docker.DotNet.Models;
using Version = System.Version;

namespace Lightning.Bench.Docker;

/// <summary>
/// The API version spoken with an engine, agreed as Docker's own clients do: the newest both know (the engine's
/// ApiVersion from the unversioned GET /version, capped at ours), never below the engine's MinAPIVersion nor our oldest.
/// Docker.DotNet speaks only the version it is built with, so the agreement is ours.
/// </summary>
internal static class EngineApiVersion
{
    /// <summary>The newest API version the harness speaks (Docker Engine 29); it asks for less when the engine is older.</summary>
    public static readonly Version Newest = new(1, 52);

    /// <summary>The oldest API version it was tested with (Docker Engine 20.10); an engine that offers less is refused.</summary>
    public static readonly Version Oldest = new(1, 41);

    /// <summary>The version to speak with this engine; throws <see cref="DockerUnavailableException"/> saying why there is none.</summary>
    public static Version Agree(VersionResponse engine, string host)
    {
        var engineVersion = engine.Version is { Length: > 0 } v ? v : "unknown";
        var newest = Parse(engine.APIVersion) ?? Oldest;
        var oldest = Parse(engine.MinAPIVersion) ?? newest;
        var agreed = newest < Newest ? newest : Newest;
        if (agreed < oldest)
        {
            throw new DockerUnavailableException(
                $"the Docker engine at {host} (Docker {engineVersion}) needs API {oldest} or newer; this harness speaks up to {Newest}: update Lightning.Bench"
            );
        }
        if (agreed < Oldest)
        {
            throw new DockerUnavailableException(
                $"the Docker engine at {host} (Docker {engineVersion}) speaks API up to {newest}; this harness needs {Oldest} or newer (Docker 20.10+): update Docker"
            );
        }
        return agreed;
    }

    private static Version? Parse(string? text) =>
        Version.TryParse(text, out var parsed) ? new Version(parsed.Major, parsed.Minor) : null;
}
