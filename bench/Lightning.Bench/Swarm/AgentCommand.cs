using System.Globalization;
using System.Net;
using Lightning.Bench.Progress;
using Lightning.Bench.Swarm.Relay;

namespace Lightning.Bench.Swarm;

/// <summary>`Lightning.Bench agent …`: checks the options, reads the token, and runs a <see cref="RelayAgent"/> until stopped.</summary>
internal static class AgentCommand
{
    public static int Run(IReadOnlyList<string> args)
    {
        AgentSettings settings;
        try
        {
            var options = AgentOptionCatalog.Parse(args);
            if (options.Help)
            {
                Console.WriteLine(AgentOptionCatalog.Help());
                return 0;
            }
            settings = Settings(options);
        }
        catch (UsageException e)
        {
            return HarnessExit.Fail(HarnessExit.Usage, e.Message);
        }
        using var stop = new Processes.StopSignals();
        return RunAsync(settings, stop.Token).GetAwaiter().GetResult();
    }

    private static async Task<int> RunAsync(AgentSettings settings, CancellationToken ct)
    {
        await using var agent = RelayAgent.Start(settings);
        Console.WriteLine(
            $"lnbench agent on {agent.Host}: listening on {agent.Endpoint}, session {agent.Session}, work {settings.WorkDirectory}"
        );
        await agent.RunAsync(ct);
        var stats = agent.Stats;
        Console.WriteLine(
            $"lnbench agent: stopped; {stats.Accepted} connections, {stats.Refused} refused, {stats.FramesWritten} span frames written, "
                + $"bad input: {(stats.BadFrames.Count == 0 ? "none" : string.Join(", ", stats.BadFrames.Select(b => $"{b.Key} {b.Value}")))}"
        );
        return 0;
    }

    /// <summary>Checks the options into settings; each refusal names the option.</summary>
    public static AgentSettings Settings(AgentOptions options)
    {
        var listen = options.Listen ?? throw new UsageException("agent needs --listen ADDR:PORT");
        if (!IPEndPoint.TryParse(listen, out var endpoint))
        {
            throw new UsageException($"--listen '{listen}' is not ADDR:PORT (e.g. 0.0.0.0:9736)");
        }
        var tokenFile =
            options.TokenFile ?? throw new UsageException("agent needs --token-file PATH (the run's token)");
        var work =
            options.WorkDirectory
            ?? throw new UsageException("agent needs --work-dir DIR (the work volume shared with the nodes)");
        var token = ReadToken(tokenFile);
        (int, int)? owner = null;
        if (options.Owner is { } text)
        {
            var parts = text.Split(':');
            owner =
                parts.Length == 2
                && int.TryParse(parts[0], NumberStyles.None, CultureInfo.InvariantCulture, out var uid)
                && int.TryParse(parts[1], NumberStyles.None, CultureInfo.InvariantCulture, out var gid)
                    ? (uid, gid)
                    : throw new UsageException($"--owner '{text}' is not UID:GID (e.g. 1000:1000)");
        }
        var host =
            options.Host
            ?? (Environment.GetEnvironmentVariable(AgentStackGenerator.HostVariable) is { Length: > 0 } h ? h : null);
        PerfContainerSettings? perf = null;
        if (options.PerfImage is { } image)
        {
            var volume =
                options.WorkVolume
                ?? throw new UsageException(
                    "--perf-image needs --work-volume NAME (the volume mounted at --work-dir), which the helper containers mount too"
                );
            perf = new PerfContainerSettings(image, HarnessImage.Entrypoint, volume, work, options.Labels);
        }
        return new AgentSettings(
            endpoint,
            token,
            work,
            options.ProcRoot,
            owner,
            host,
            options.MaxQueuedSpans,
            PerfContainer: perf
        );
    }

    /// <summary>The run's token from its file (a swarm secret), trimmed, as bytes.</summary>
    public static byte[] ReadToken(string tokenFile)
    {
        string token;
        try
        {
            token = File.ReadAllText(tokenFile).Trim();
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            throw new UsageException($"--token-file {tokenFile}: {e.Message}");
        }
        if (token.Length < 16)
        {
            throw new UsageException(
                $"--token-file {tokenFile} holds {token.Length} characters: a token needs at least 16"
            );
        }
        return System.Text.Encoding.UTF8.GetBytes(token);
    }

    public const string AgentsCommand = "agents";

    public const string AgentsUsage =
        "usage: Lightning.Bench agents --service NAME --token-file PATH [--port 9736] [--expect N] [--timeout 60]";

    /// <summary>
    /// `Lightning.Bench agents …`, from a container on the run's overlay: finds the agents of a global service and
    /// says which host each is on (exit 0), or how many of how many answered and why not (exit 1).
    /// </summary>
    public static int RunAgents(IReadOnlyList<string> args)
    {
        string? service = null,
            tokenFile = null;
        var (port, expect, timeout) = (SwarmNames.AgentPort, 1, 60);
        try
        {
            for (var i = 0; i < args.Count; i++)
            {
                string Value() =>
                    i + 1 < args.Count
                        ? args[++i]
                        : throw new UsageException($"{args[i]} needs a value; {AgentsUsage}");
                int Number(string name, int min, int max) =>
                    int.TryParse(Value(), NumberStyles.None, CultureInfo.InvariantCulture, out var n)
                    && n >= min
                    && n <= max
                        ? n
                        : throw new UsageException($"{name} takes a whole number from {min} to {max}");
                switch (args[i])
                {
                    case "--service":
                        service = Value();
                        break;
                    case "--token-file":
                        tokenFile = Value();
                        break;
                    case "--port":
                        port = Number("--port", 1, 65535);
                        break;
                    case "--expect":
                        expect = Number("--expect", 1, 1000);
                        break;
                    case "--timeout":
                        timeout = Number("--timeout", 1, 3600);
                        break;
                    case "--help" or "-h":
                        Console.WriteLine(AgentsUsage);
                        return 0;
                    default:
                        throw new UsageException($"agents: unknown option '{args[i]}'; {AgentsUsage}");
                }
            }
            if (service is null || tokenFile is null)
            {
                throw new UsageException($"agents needs --service and --token-file; {AgentsUsage}");
            }
            var token = ReadToken(tokenFile);
            var agents = AgentDirectory
                .DiscoverAsync(service, port, token, expect, TimeSpan.FromSeconds(timeout))
                .GetAwaiter()
                .GetResult();
            foreach (var agent in agents)
            {
                Console.WriteLine($"host {agent.Host} at {agent.Endpoint}, session {agent.Session}");
            }
            return 0;
        }
        catch (UsageException e)
        {
            return HarnessExit.Fail(HarnessExit.Usage, e.Message);
        }
        catch (Exception e) when (e is TimeoutException or RelayRefusedException)
        {
            return HarnessExit.Fail(HarnessExit.Failure, e.Message);
        }
    }
}
