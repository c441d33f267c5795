using Lightning.Bench.Docker;
using Lightning.Bench.Processes;

namespace Lightning.Bench.Compose;

/// <summary>Runs `docker compose` (v2) or, where only that exists, `docker-compose` (v1) with argument lists.</summary>
internal sealed class ComposeCli : IComposeRunner
{
    private static readonly TimeSpan DefaultTimeout = TimeSpan.FromMinutes(5);
    private readonly string fileName;
    private readonly IReadOnlyList<string> prefix;
    private readonly IReadOnlyDictionary<string, string?> environment;

    private ComposeCli(string fileName, IReadOnlyList<string> prefix, string version, DockerEndpoint endpoint)
    {
        this.fileName = fileName;
        this.prefix = prefix;
        environment = endpoint.Environment;
        Version = version;
    }

    /// <summary>e.g. "docker compose 2.29.1" or "docker-compose 1.29.2".</summary>
    public string Version { get; }

    /// <summary>Compose v2, the Docker CLI plugin.</summary>
    public static readonly (string File, string[] Prefix) V2 = ("docker", ["compose"]);

    /// <summary>Compose v1, the Python program.</summary>
    public static readonly (string File, string[] Prefix) V1 = ("docker-compose", []);

    /// <summary>The compose commands tried, in order: the v2 plugin, then v1.</summary>
    public static readonly IReadOnlyList<(string File, string[] Prefix)> Candidates = [V2, V1];

    /// <summary>Picks one compose instead of the first found: "v1" or "v2" (to run or test against a given one).</summary>
    public const string ChoiceVariable = "LNBENCH_COMPOSE";

    /// <summary>The commands to try for a choice ("v1", "v2", or none: v2, then v1).</summary>
    public static IReadOnlyList<(string File, string[] Prefix)> CandidatesFor(string? choice) =>
        choice switch
        {
            null or "" => Candidates,
            "v2" => [V2],
            "v1" => [V1],
            _ => throw new DockerUnavailableException(
                "give v2 (docker compose) or v1 (docker-compose), or leave it unset for the first found"
            ),
        };

    /// <summary>
    /// Finds compose (the one <see cref="ChoiceVariable"/> names, else the first found) and points it at
    /// <paramref name="endpoint"/>, the engine the harness's API client uses.
    /// </summary>
    public static async Task<ComposeCli> DetectAsync(DockerEndpoint endpoint, CancellationToken ct = default)
    {
        var choice = Environment.GetEnvironmentVariable(ChoiceVariable);
        try
        {
            return await DetectAsync(endpoint, CandidatesFor(choice), ct);
        }
        catch (DockerUnavailableException e) when (!string.IsNullOrEmpty(choice))
        {
            throw new DockerUnavailableException($"{ChoiceVariable}={choice}: {e.Message}");
        }
    }

    public static async Task<ComposeCli> DetectAsync(
        DockerEndpoint endpoint,
        IReadOnlyList<(string File, string[] Prefix)> candidates,
        CancellationToken ct = default
    )
    {
        foreach (var (file, prefix) in candidates)
        {
            try
            {
                var result = await ProcessRunner.RunAsync(
                    file,
                    [.. prefix, "version", "--short"],
                    TimeSpan.FromSeconds(30),
                    endpoint.Environment,
                    ct: ct
                );
                if (result.Succeeded && result.StandardOutput.Trim().Length > 0)
                {
                    return new ComposeCli(
                        file,
                        prefix,
                        $"{string.Join(' ', [file, .. prefix])} {result.StandardOutput.Trim()}",
                        endpoint
                    );
                }
            }
            catch (ToolNotFoundException) { }
        }
        throw new DockerUnavailableException(
            candidates.Count > 1
                ? "neither 'docker compose' (v2) nor 'docker-compose' (v1) was found: install the Docker Compose plugin (or Debian's docker-compose package)"
                : $"'{string.Join(' ', [candidates[0].File, .. candidates[0].Prefix])}' was not found or did not answer 'version --short'"
        );
    }

    /// <summary>compose up on the written file (the model is what the file holds); throws with compose's last lines on failure.</summary>
    public async Task UpAsync(string project, string file, ComposeFile model, CancellationToken ct = default)
    {
        var up = await UpAsync(project, file, ct);
        if (!up.Succeeded)
        {
            throw new InvalidOperationException($"{Version} could not start the topology: {up.Tail(5)}");
        }
    }

    async Task IComposeRunner.DownAsync(string project, string file, CancellationToken ct)
    {
        var down = await DownAsync(project, file, ct);
        if (!down.Succeeded)
        {
            throw new InvalidOperationException($"{Version} down failed: {down.Tail()}");
        }
    }

    public Task<ProcessResult> UpAsync(string project, string file, CancellationToken ct = default) =>
        RunAsync(project, file, ["up", "--detach", "--no-build"], ct);

    public Task<ProcessResult> DownAsync(string project, string file, CancellationToken ct = default) =>
        RunAsync(project, file, ["down", "--volumes", "--remove-orphans", "--timeout", "5"], ct);

    public Task<ProcessResult> ConfigAsync(string project, string file, CancellationToken ct = default) =>
        RunAsync(project, file, ["config", "--quiet"], ct);

    private Task<ProcessResult> RunAsync(
        string project,
        string file,
        IReadOnlyList<string> arguments,
        CancellationToken ct
    ) =>
        ProcessRunner.RunAsync(
            fileName,
            [.. prefix, "--project-name", project, "--file", file, .. arguments],
            DefaultTimeout,
            environment,
            ct: ct
        );
}
