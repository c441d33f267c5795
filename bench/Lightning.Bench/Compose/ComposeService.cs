using YamlDotNet.Core;
using YamlDotNet.Serialization;

namespace Lightning.Bench.Compose;

/// <summary>A compose service. Fragments deserialize into it, so a misspelt key in a fragment is an error, not a silent no-op.</summary>
internal sealed class ComposeService
{
    public string? Image { get; set; }

    /// <summary>Quoted: YAML 1.1 parsers (compose v1) read 0:0 as a base-60 number.</summary>
    [YamlMember(ScalarStyle = ScalarStyle.DoubleQuoted)]
    public string? User { get; set; }

    public bool? Init { get; set; }

    public List<string>? Entrypoint { get; set; }

    public List<string>? Command { get; set; }

    public Dictionary<string, string>? Environment { get; set; }

    public Dictionary<string, string>? Labels { get; set; }

    public List<string>? Volumes { get; set; }

    [YamlMember(ScalarStyle = ScalarStyle.DoubleQuoted)]
    public List<string>? Ports { get; set; }

    public List<string>? DependsOn { get; set; }

    /// <summary>"service:NAME": share that service's network namespace (set by the generator for nodes; fragments may not).</summary>
    public string? NetworkMode { get; set; }

    /// <summary>Swarm stack files: the networks the service joins, with its aliases there (stacks drop network_mode).</summary>
    public Dictionary<string, ComposeServiceNetwork>? Networks { get; set; }

    /// <summary>Swarm stack files: the secrets mounted under /run/secrets/.</summary>
    public List<ComposeServiceSecret>? Secrets { get; set; }

    /// <summary>Swarm stack files: mode, placement, restart policy and service labels.</summary>
    public ComposeDeploy? Deploy { get; set; }

    public string? StopGracePeriod { get; set; }

    public bool? Privileged { get; set; }

    public List<string>? CapAdd { get; set; }

    /// <summary>Kernel settings of the container's own namespaces (the agent's: its trace sockets' datagram queue).</summary>
    public Dictionary<string, string>? Sysctls { get; set; }

    public List<string>? SecurityOpt { get; set; }

    /// <summary>The size of the container's /dev/shm, as compose writes it ("1g", "256m"; the engine's default is 64 MB).</summary>
    public string? ShmSize { get; set; }

    public ComposeService Clone() =>
        new()
        {
            Image = Image,
            User = User,
            Init = Init,
            Entrypoint = Entrypoint?.ToList(),
            Command = Command?.ToList(),
            Environment = Environment is null ? null : new Dictionary<string, string>(Environment),
            Labels = Labels is null ? null : new Dictionary<string, string>(Labels),
            Volumes = Volumes?.ToList(),
            Ports = Ports?.ToList(),
            DependsOn = DependsOn?.ToList(),
            NetworkMode = NetworkMode,
            Networks = Networks?.ToDictionary(
                n => n.Key,
                n => new ComposeServiceNetwork { Aliases = n.Value.Aliases?.ToList() }
            ),
            Secrets = Secrets
                ?.Select(s => new ComposeServiceSecret
                {
                    Source = s.Source,
                    Target = s.Target,
                    Uid = s.Uid,
                    Gid = s.Gid,
                    Mode = s.Mode,
                })
                .ToList(),
            Deploy = Deploy is null
                ? null
                : new ComposeDeploy
                {
                    Mode = Deploy.Mode,
                    Replicas = Deploy.Replicas,
                    EndpointMode = Deploy.EndpointMode,
                    Labels = Deploy.Labels is null ? null : new Dictionary<string, string>(Deploy.Labels),
                    RestartPolicy = Deploy.RestartPolicy is null
                        ? null
                        : new ComposeRestartPolicy
                        {
                            Condition = Deploy.RestartPolicy.Condition,
                            MaxAttempts = Deploy.RestartPolicy.MaxAttempts,
                        },
                    Placement = Deploy.Placement is null
                        ? null
                        : new ComposePlacement { Constraints = Deploy.Placement.Constraints?.ToList() },
                },
            StopGracePeriod = StopGracePeriod,
            Privileged = Privileged,
            CapAdd = CapAdd?.ToList(),
            Sysctls = Sysctls is null ? null : new Dictionary<string, string>(Sysctls),
            SecurityOpt = SecurityOpt?.ToList(),
            ShmSize = ShmSize,
        };
}
