using Docker.DotNet;

namespace Lightning.Bench.Docker;

/// <summary>The docker CLI's variables as <see cref="DockerConfig"/> reads them, from a given source (tests pass their own).</summary>
internal sealed class DockerCliVariables(Func<string, string?> variable) : IDockerCliSettings
{
    /// <summary>$DOCKER_CONFIG, else ~/.docker of $HOME (the library would ask the OS for the home folder instead).</summary>
    public string DockerConfig =>
        variable("DOCKER_CONFIG") is { Length: > 0 } config
            ? config
            : Path.Combine(
                variable("HOME") ?? Environment.GetFolderPath(Environment.SpecialFolder.UserProfile),
                ".docker"
            );

    public string? DockerHost => variable("DOCKER_HOST");

    public string? DockerTlsVerify => variable("DOCKER_TLS_VERIFY");

    public string? DockerContext => variable("DOCKER_CONTEXT");
}
