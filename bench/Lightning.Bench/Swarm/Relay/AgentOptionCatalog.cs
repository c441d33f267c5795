using Lightning.Bench.Options;
using Lightning.Bench.Progress;
using static Lightning.Bench.Options.OptionValues;
using AgentOption = Lightning.Bench.Options.OptionDeclaration<Lightning.Bench.Swarm.Relay.AgentOptions>;

namespace Lightning.Bench.Swarm.Relay;

/// <summary>Agent mode's options, declared once: its parser, its --help and its table in docs/swarm.md are made from this list.</summary>
internal static class AgentOptionCatalog
{
    public const string Command = "agent";
    public const string DocumentPath = "docs/swarm.md";
    public const string Begin = "<!-- agent-options:begin -->";
    public const string End = "<!-- agent-options:end -->";

    public static IReadOnlyList<AgentOption> All { get; } =
    [
        new(
            "--listen",
            "ADDR:PORT",
            (o, a) => o with { Listen = NonEmpty(a.Name, a.Value()) },
            "where the harness connects (on a swarm: 0.0.0.0:9736 inside the overlay)",
            new(
                "",
                "where the harness connects (on a swarm `0.0.0.0:9736`, inside the run's overlay network, never published)"
            )
        ),
        new(
            "--token-file",
            "PATH",
            (o, a) => o with { TokenFile = NonEmpty(a.Name, a.Value()) },
            "the run's token (a swarm secret); a harness that shows another is refused",
            new(
                "",
                "the file holding the run's token (on a swarm, the secret mounted at `/run/secrets/lnbench-agent-token`); a harness that shows another is refused"
            )
        ),
        new(
            "--work-dir",
            "DIR",
            (o, a) => o with { WorkDirectory = NonEmpty(a.Name, a.Value()) },
            "the shared work volume: node folders DIR/TOPOLOGY/NODE, trace sockets in them",
            new(
                "",
                "the work volume it shares with the nodes: their folders `DIR/TOPOLOGY/NODE` and the trace sockets it binds in them"
            )
        ),
        new(
            "--proc-root",
            "DIR",
            (o, a) => o with { ProcRoot = NonEmpty(a.Name, a.Value()) },
            "where the host's /proc is (default /proc; in a container, the host's mounted)",
            new(
                "`/proc`",
                "where the host's `/proc` is (the agent service mounts it at `/host/proc`): node cgroups are found from host pids"
            )
        ),
        new(
            "--owner",
            "UID:GID",
            (o, a) => o with { Owner = NonEmpty(a.Name, a.Value()) },
            "hand the node folders and sockets it makes to the nodes' user",
            new("", "the nodes' user: the node folders and sockets it makes are handed to it")
        ),
        new(
            "--host-name",
            "NAME",
            (o, a) => o with { Host = NonEmpty(a.Name, a.Value()) },
            $"its host's name, told to the harness (default ${HostVariable}, else the machine name)",
            new($"`${HostVariable}`, else the machine name", "its host's name, told to the harness")
        ),
        new(
            "--max-queued-spans",
            "N",
            (o, a) => o with { MaxQueuedSpans = Int(a.Name, a.Value(), 1, 10_000_000) },
            $"span frames held while the harness is away (default {AgentSettings.DefaultMaxQueuedSpans}); more are dropped, counted",
            new(
                $"`{AgentSettings.DefaultMaxQueuedSpans}`",
                "span frames held for the harness while it is away; more are dropped and counted"
            )
        ),
        new(
            "--perf-image",
            "IMAGE",
            (o, a) => o with { PerfImage = NonEmpty(a.Name, a.Value()) },
            "record profiles with the perf in IMAGE (the harness image), in a helper container per perf\nthat shares the host's pid namespace (needs the host's engine socket and --work-volume)",
            new(
                "",
                "record profiles with the perf in `IMAGE` (the harness image made with `--profile`), each perf in a helper container that shares the host's pid namespace, made through the host's engine (`/var/run/docker.sock`, mounted by the agent service of a profiling run); without it, the agent runs `perf` itself"
            )
        ),
        new(
            "--work-volume",
            "NAME",
            (o, a) => o with { WorkVolume = NonEmpty(a.Name, a.Value()) },
            "the work volume's name on this host, mounted in the helper containers at --work-dir",
            new(
                "",
                "the name of the work volume mounted at `--work-dir`: the helper containers mount it at the same path"
            )
        ),
        new(
            "--label",
            "KEY=VALUE",
            (o, a) => o with { Labels = WithLabel(o.Labels, a.Name, a.Value()) },
            "a label for the helper containers (the run's; repeat it)",
            new("", "a label given to every helper container (the run's labels, so its sweep finds them); repeat it")
        ),
        new("--help", null, (o, _) => o with { Help = true }, "this text", new("", "print these options")),
    ];

    private static Dictionary<string, string> WithLabel(
        IReadOnlyDictionary<string, string> labels,
        string name,
        string text
    )
    {
        var at = text.IndexOf('=', StringComparison.Ordinal);
        if (at <= 0)
        {
            throw new UsageException($"{name} '{text}' is not KEY=VALUE");
        }
        return new Dictionary<string, string>(labels) { [text[..at]] = text[(at + 1)..] };
    }

    /// <summary>The agent's host name when --host is not given: a swarm sets it in each agent (a template it expands).</summary>
    public const string HostVariable = "LNBENCH_AGENT_HOST";

    public static AgentOption? Find(string name) => All.FirstOrDefault(o => o.Answers(name));

    public static AgentOptions Parse(IReadOnlyList<string> args)
    {
        var options = new AgentOptions();
        var arguments = new OptionArguments(args);
        while (arguments.MoveNext(out var arg))
        {
            arguments.BeginOption(arg);
            var option =
                Find(arguments.Name)
                ?? throw new UsageException(
                    $"unknown agent option '{arguments.Name}': run `Lightning.Bench agent --help`"
                );
            if (option.IsSwitch && arguments.HasInlineValue)
            {
                throw new UsageException($"{arguments.Name} takes no value");
            }
            options = option.Apply(options, arguments);
        }
        return options;
    }

    public static string Help()
    {
        var lines = new System.Text.StringBuilder();
        foreach (var option in All)
        {
            Usage.AppendEntry(lines, option.Syntax, option.Help);
        }
        return $"""
            Lightning.Bench agent: relay a host's trace sockets and cgroup readings to the harness over TCP (see docs/swarm.md).

            Usage: Lightning.Bench agent --listen ADDR:PORT --token-file PATH --work-dir DIR [options]

            {lines.ToString().TrimEnd('\n')}
            """;
    }
}
