using Lightning.Bench.Compose;
using Lightning.Bench.Network;
using Lightning.Bench.Swarm.Relay;

namespace Lightning.Bench.Swarm;

/// <summary>
/// A pure function: the run's agent stack, one agent per host (mode: global). It lives for the whole run, while
/// topology stacks come and go: it binds a topology's trace sockets before the topology's stack is deployed (swarm
/// ignores depends_on, and a node looks its socket up when it starts). It shares the work volume with the nodes, as
/// Core Lightning's tracing doc has a collector share a volume with the node in Kubernetes; reads cgroups through the
/// host's /proc and /sys/fs/cgroup (read-only); listens on the overlay only (no published port).
/// </summary>
internal static class AgentStackGenerator
{
    /// <summary>Where the host's /proc is mounted in the agent: container pids reported by the manager are host pids.</summary>
    public const string HostProc = "/host/proc";

    /// <summary>Set by swarm to the agent's host name (a template: swarm expands it in environment values, not in commands).</summary>
    public const string HostVariable = AgentOptionCatalog.HostVariable;

    /// <summary>Each host's engine socket, mounted in the agents of a run that profiles.</summary>
    public const string EngineSocket = "/var/run/docker.sock";

    public static ComposeFile Generate(AgentStackSettings settings)
    {
        var token = SwarmNames.AgentTokenSecret(settings.RunId);
        var labels = new Dictionary<string, string>(settings.Labels)
        {
            [ComposeGenerator.NodeLabel] = SwarmNames.AgentService,
        };
        var command = new List<string>
        {
            "agent",
            "--listen",
            $"0.0.0.0:{SwarmNames.AgentPort}",
            "--token-file",
            $"/run/secrets/{SwarmNames.AgentTokenTarget}",
            "--work-dir",
            SwarmNames.WorkMount,
            "--proc-root",
            HostProc,
        };
        if (settings.Owner is { } owner)
        {
            command.AddRange(["--owner", owner]);
        }
        List<string> volumes =
        [
            $"{StackGenerator.WorkVolumeKey}:{SwarmNames.WorkMount}",
            $"/proc:{HostProc}:ro",
            "/sys/fs/cgroup:/sys/fs/cgroup:ro",
        ];
        if (settings.Profiles)
        {
            // perf must share the host's pid namespace, which a swarm service cannot: the agent makes a helper container
            // per perf through its host's engine (see Relay/ContainerPerfRunner.cs), labelled with the run's labels.
            command.AddRange(["--perf-image", settings.Image, "--work-volume", SwarmNames.WorkVolume(settings.RunId)]);
            foreach (var (key, value) in settings.Labels.OrderBy(l => l.Key, StringComparer.Ordinal))
            {
                command.AddRange(["--label", $"{key}={value}"]);
            }
            volumes.Add($"{EngineSocket}:{EngineSocket}");
        }
        var agent = new ComposeService
        {
            Image = settings.Image,
            // Root: it makes the node folders in the volume (owned by root when the engine creates it) and hands them to the nodes' user.
            User = "0:0",
            Init = true,
            Entrypoint = [.. settings.Entrypoint],
            Command = command,
            Environment = new() { [HostVariable] = "{{.Node.Hostname}}" },
            Labels = labels,
            Volumes = volumes,
            Networks = new()
            {
                [StackGenerator.RunNetworkKey] = new ComposeServiceNetwork
                {
                    Aliases = [SwarmNames.AgentStack(settings.RunId)],
                },
            },
            Secrets =
            [
                new ComposeServiceSecret
                {
                    Source = token,
                    Target = SwarmNames.AgentTokenTarget,
                    Uid = "0",
                    Gid = "0",
                    Mode = 256,
                },
            ],
            Deploy = new ComposeDeploy
            {
                Mode = "global",
                // A run on some hosts of a larger swarm (--swarm-host, a side-by-side share, its placed nodes' hosts) deploys its agents there only.
                Placement = settings.Placement is { Count: > 0 } constraints
                    ? new ComposePlacement { Constraints = [.. constraints] }
                    : null,
                // Found by tasks.SERVICE, the tasks' own addresses; no virtual IP (it needs the kernel's IPVS).
                EndpointMode = "dnsrr",
                Labels = new Dictionary<string, string>(labels),
                // Unlike a node, a restarted agent loses only what it held when it died, and the harness counts that
                // (a new session); three attempts, so a broken image does not loop.
                RestartPolicy = new ComposeRestartPolicy { Condition = "on-failure", MaxAttempts = 3 },
            },
            StopGracePeriod = "5s",
            // The datagram queue of a Unix socket is its network namespace's setting (10 by default): the agent's
            // sockets are made in its container's, where 10 drops the spans of concurrent payments (the host's, raised
            // by a single-host run, does not reach it).
            Sysctls = new()
            {
                ["net.unix.max_dgram_qlen"] = Tracing.DatagramQueueLimit.Wanted.ToString(
                    System.Globalization.CultureInfo.InvariantCulture
                ),
            },
        };
        return new ComposeFile
        {
            Version = StackGenerator.Version,
            Services = new() { [SwarmNames.AgentService] = agent },
            Networks = new()
            {
                [StackGenerator.RunNetworkKey] = new ComposeNetwork
                {
                    External = true,
                    Name = SwarmNames.Network(settings.RunId),
                },
            },
            Volumes = new()
            {
                [StackGenerator.WorkVolumeKey] = new ComposeVolume
                {
                    Name = SwarmNames.WorkVolume(settings.RunId),
                    Labels = new(settings.Labels),
                },
            },
            Secrets = new()
            {
                [token] = new ComposeSecret { External = true, Name = token },
            },
        };
    }
}
