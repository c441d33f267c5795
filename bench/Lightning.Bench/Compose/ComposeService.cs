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

    public string? StopGracePeriod { get; set; }

    public bool? Privileged { get; set; }

    public List<string>? CapAdd { get; set; }

    public List<string>? SecurityOpt { get; set; }

    public ComposeService Clone() => new()
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
        StopGracePeriod = StopGracePeriod,
        Privileged = Privileged,
        CapAdd = CapAdd?.ToList(),
        SecurityOpt = SecurityOpt?.ToList(),
    };
}
