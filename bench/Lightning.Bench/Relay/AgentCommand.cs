using System.Globalization;
using System.Net;
using Lightning.Bench.Options;

namespace Lightning.Bench.Relay;

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
            return Program.Fail(Program.ExitUsage, e.Message);
        }
        using var stop = new CancellationTokenSource();
        Console.CancelKeyPress += (_, e) =>
        {
            e.Cancel = true;
            stop.Cancel();
        };
        using var terminate = System.Runtime.InteropServices.PosixSignalRegistration.Create(System.Runtime.InteropServices.PosixSignal.SIGTERM, c =>
        {
            c.Cancel = true;
            stop.Cancel();
        });
        return RunAsync(settings, stop.Token).GetAwaiter().GetResult();
    }

    private static async Task<int> RunAsync(AgentSettings settings, CancellationToken ct)
    {
        await using var agent = RelayAgent.Start(settings);
        Console.WriteLine($"lnbench agent on {agent.Host}: listening on {agent.Endpoint}, session {agent.Session}, work {settings.WorkDirectory}");
        await agent.RunAsync(ct);
        var stats = agent.Stats;
        Console.WriteLine($"lnbench agent: stopped; {stats.Accepted} connections, {stats.Refused} refused, {stats.FramesWritten} span frames written, "
            + $"bad input: {(stats.BadFrames.Count == 0 ? "none" : string.Join(", ", stats.BadFrames.Select(b => $"{b.Key} {b.Value}")))}");
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
        var tokenFile = options.TokenFile ?? throw new UsageException("agent needs --token-file PATH (the run's token)");
        var work = options.WorkDirectory ?? throw new UsageException("agent needs --work-dir DIR (the work volume shared with the nodes)");
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
            throw new UsageException($"--token-file {tokenFile} holds {token.Length} characters: a token needs at least 16");
        }
        (int, int)? owner = null;
        if (options.Owner is { } text)
        {
            var parts = text.Split(':');
            owner = parts.Length == 2 && int.TryParse(parts[0], NumberStyles.None, CultureInfo.InvariantCulture, out var uid)
                && int.TryParse(parts[1], NumberStyles.None, CultureInfo.InvariantCulture, out var gid)
                ? (uid, gid) : throw new UsageException($"--owner '{text}' is not UID:GID (e.g. 1000:1000)");
        }
        var host = options.Host ?? (Environment.GetEnvironmentVariable(Swarm.AgentStackGenerator.HostVariable) is { Length: > 0 } h ? h : null);
        return new AgentSettings(endpoint, System.Text.Encoding.UTF8.GetBytes(token), work, options.ProcRoot, owner, host, options.MaxQueuedSpans);
    }
}
