using Lightning.Bench.Docker;

namespace Lightning.Bench.Swarm;

/// <summary>
/// Creates, through the manager's API, what <see cref="SwarmResources"/> declares: the run's overlay network and its
/// secrets, each with its labels (a sweep by the run's label removes them). A secret's value goes to the manager and
/// nowhere else.
/// </summary>
internal sealed class SwarmRunResources(DockerEngine engine)
{
    /// <summary>Creates one resource; <paramref name="secretValue"/> is required for a secret. Returns its id.</summary>
    public Task<string> CreateAsync(
        SwarmResource resource,
        byte[]? secretValue = null,
        CancellationToken ct = default
    ) =>
        resource.Kind switch
        {
            SwarmResource.NetworkKind => engine.CreateOverlayNetworkAsync(resource.Name, resource.Labels, ct),
            SwarmResource.SecretKind => engine.Swarm.CreateSecretAsync(
                resource.Name,
                resource.Labels,
                secretValue
                    ?? throw new ArgumentException(
                        $"secret {resource.Name} ({resource.Holds}) needs a value",
                        nameof(secretValue)
                    ),
                ct
            ),
            _ => throw new ArgumentException($"unknown swarm resource kind {resource.Kind}", nameof(resource)),
        };
}
