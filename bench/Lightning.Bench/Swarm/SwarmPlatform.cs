using System.Net;
using System.Security.Cryptography;
using Docker.DotNet.Models;
using Lightning.Bench.Cleanup;
using Lightning.Bench.Docker;
using Lightning.Bench.Network;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Processes;
using Lightning.Bench.Progress;
using Lightning.Bench.Swarm.Relay;
using Lightning.Bench.Waiting;

namespace Lightning.Bench.Swarm;

/// <summary>
/// What a `--swarm` run holds for its whole length: the swarm's run (<see cref="SwarmRun"/>: checks, network, token,
/// stacks), the agents (one per host, each with the harness's connection to it), and the gate
/// (<see cref="OverlayGate"/>) through which the harness, on the manager's host, reaches the overlay. Disposing it
/// closes the connections, removes the gate and then the swarm's run (stacks, agents, secrets, network, work volumes).
/// </summary>
internal sealed class SwarmPlatform : ITopologyPlatform
{
    /// <summary>How long the agents may take to answer once deployed (a host pulls nothing: images are checked first).</summary>
    public static readonly TimeSpan AgentsTimeout = TimeSpan.FromSeconds(120);

    private readonly DockerEngine engine;
    private readonly NodeKindCatalog kinds;
    private readonly RunProgress progress;
    private readonly string gateFolder;
    private readonly Dictionary<string, (EndPoint Endpoint, RelayClient Client)> agents = new(StringComparer.Ordinal);
    private string? gateContainer;

    private SwarmPlatform(
        DockerEngine engine,
        NodeKindCatalog kinds,
        RunProgress progress,
        SwarmRun run,
        byte[] token,
        string gateFolder
    )
    {
        this.engine = engine;
        this.kinds = kinds;
        this.progress = progress;
        Run = run;
        Token = token;
        this.gateFolder = gateFolder;
    }

    public const string PlatformName = "swarm";

    public string Name => PlatformName;

    /// <summary>No: a chain seed is a folder of this host, and a topology's bitcoind may run on another.</summary>
    public bool SeedsChain => false;

    public SwarmRun Run { get; }

    /// <summary>The run's agent token (a swarm secret for the agents; the harness shows it on every connection).</summary>
    public byte[] Token { get; }

    /// <summary>The gate's socket on this host.</summary>
    public string Gate => Path.Combine(gateFolder, OverlayGate.SocketName);

    /// <summary>The hosts with an agent, by name.</summary>
    public IReadOnlyList<string> Hosts => agents.Keys.Order(StringComparer.Ordinal).ToList();

    /// <summary>Where a topology goes on this run's swarm (see <see cref="SwarmManager.Place"/>).</summary>
    public SwarmPlacement PlacementOf(Topology.TopologySpec topology, int replicate)
    {
        var (host, nodeHosts) = Run.Manager.Place(topology, replicate);
        return new SwarmPlacement(this, host) { NodeHosts = nodeHosts };
    }

    /// <summary>A topology as a stack on its host (see <see cref="PlacementOf"/>).</summary>
    public ITopologyHost Place(Topology.TopologySpec topology, NetworkOptions options, int replicate) =>
        new SwarmTopologyLauncher(topology, options, PlacementOf(topology, replicate), kinds, engine, progress);

    /// <summary>The agent on <paramref name="host"/>: where it listens (through the gate) and the harness's connection to it.</summary>
    public (EndPoint Endpoint, RelayClient Client) AgentOn(string host) =>
        agents.TryGetValue(host, out var agent)
            ? agent
            : throw new InvalidOperationException($"no agent answered on host {host}");

    /// <summary>
    /// Checks the swarm and the images (the harness image made here and checked with them), creates the run's network
    /// and token, deploys the agents, starts the gate and connects to every agent. A failure removes what was made.
    /// </summary>
    /// <param name="onlyHost">--swarm-host: the one host of the swarm the run uses, or null for all.</param>
    /// <param name="perf">This host's perf, carried in the harness image for the agents to record profiles with, or null when the run does not profile.</param>
    /// <param name="placements">The values of --place NODE=VALUE (see <see cref="SwarmManager.Placing"/>).</param>
    public static async Task<SwarmPlatform> StartAsync(
        DockerEngine engine,
        NodeKindCatalog kinds,
        string runId,
        IReadOnlyList<string> images,
        string workRoot,
        RunProgress progress,
        CancellationToken ct = default,
        string? perf = null,
        string? onlyHost = null,
        IEnumerable<string>? placements = null
    )
    {
        string harness;
        using (
            progress.Begin($"making the harness image for the swarm's agents{(perf is null ? "" : $", with {perf}")}")
        )
        {
            harness = await HarnessImage.EnsureAsync(engine, progress.Info, ct, perf);
        }
        // Text: the agent reads its token file as a line.
        var token = System.Text.Encoding.ASCII.GetBytes(Convert.ToHexStringLower(RandomNumberGenerator.GetBytes(32)));
        var labels = RunLabels.For(runId);
        SwarmRun run;
        using (progress.Begin($"checking the swarm and that every host has the {images.Count + 1} images"))
        {
            run = await SwarmRun.StartAsync(
                engine,
                runId,
                labels,
                [.. images, harness],
                token,
                ct,
                onlyHost: onlyHost,
                placements: placements
            );
        }
        var folder = Path.Combine(workRoot, SwarmNames.Gate(runId));
        PrivateFiles.CreateDirectory(folder);
        NodeFolderSweeper.Claim(folder);
        var platform = new SwarmPlatform(engine, kinds, progress, run, token, folder);
        try
        {
            using (progress.Begin($"deploying an agent on each of the run's {run.Manager.Hosts.Count} hosts"))
            {
                await run.DeployAgentsAsync(harness, HostUser.ContainerUser, ct, profiles: perf is not null);
            }
            using (progress.Begin("starting the run's gate into its overlay network"))
            {
                await platform.StartGateAsync(harness, runId, labels, ct);
            }
            using (progress.Begin("connecting to the agents"))
            {
                var found = await AgentDirectory.DiscoverAsync(
                    StackServices.ServiceName(SwarmNames.AgentStack(runId), SwarmNames.AgentService),
                    SwarmNames.AgentPort,
                    token,
                    run.Manager.Hosts.Count,
                    AgentsTimeout,
                    ct,
                    platform.Gate
                );
                foreach (var agent in found)
                {
                    var client = RelayClient.Start(agent.Endpoint, token);
                    platform.agents[agent.Host] = (agent.Endpoint, client);
                    await client.ConnectedAsync(TimeSpan.FromSeconds(30), ct);
                }
            }
            progress.Info(
                $"swarm: {platform.agents.Count} host(s) with an agent: {string.Join(", ", platform.Hosts)}"
                    + string.Concat(
                        run.Manager.Placements.Select(p =>
                            $"; nodes placed by {StackGenerator.PlacementLabel}={p.Key} go to {string.Join(", ", p.Value)}"
                        )
                    )
            );
        }
        catch
        {
            await platform.DisposeAsync();
            throw;
        }
        return platform;
    }

    /// <summary>The gate: a container of the harness image on the overlay, its socket in a folder of this host only the harness's user enters.</summary>
    private async Task StartGateAsync(
        string image,
        string runId,
        IReadOnlyDictionary<string, string> labels,
        CancellationToken ct
    )
    {
        var id = await engine.CreateContainerAsync(
            SwarmNames.Gate(runId),
            new CreateContainerParameters
            {
                Image = Run.ImageIds.GetValueOrDefault(image, image),
                Entrypoint = [.. HarnessImage.Entrypoint],
                Cmd = [OverlayGate.Command, "--socket", $"/gate/{OverlayGate.SocketName}"],
                User = HostUser.ContainerUser ?? "",
                Labels = new Dictionary<string, string>(labels),
                HostConfig = new HostConfig
                {
                    NetworkMode = SwarmNames.Network(runId),
                    Binds = [$"{gateFolder}:/gate"],
                    Init = true,
                },
            },
            ct
        );
        gateContainer = id;
        await engine.StartContainerAsync(id, ct);
        await Wait.UntilAsync(
            "the gate's socket",
            async c =>
            {
                if (!File.Exists(Gate))
                {
                    var details = await engine.InspectContainerAsync(id, c);
                    if (details is { Running: false })
                    {
                        throw new IOException(
                            $"the run's gate exited: {(await engine.GetLogsAsync(id, 20, c)).Trim()}"
                        );
                    }
                    return WaitState.NotYet($"{Gate} does not exist yet");
                }
                return WaitState.Met();
            },
            TimeSpan.FromSeconds(60),
            ct
        );
    }

    public async ValueTask DisposeAsync()
    {
        foreach (var (_, client) in agents.Values)
        {
            try
            {
                await client.DisposeAsync();
            }
            catch (Exception e) when (e is not OutOfMemoryException)
            {
                // The agents go with the run below.
            }
        }
        agents.Clear();
        if (gateContainer is not null)
        {
            try
            {
                using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(20));
                await engine.RemoveContainerAsync(gateContainer, timeout.Token);
            }
            catch (Exception e) when (e is not OutOfMemoryException)
            {
                // The run's sweep by label takes it.
            }
        }
        try
        {
            await Run.DisposeAsync();
        }
        finally
        {
            try
            {
                Directory.Delete(gateFolder, recursive: true);
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                // The next run's sweep of stale folders takes it.
            }
        }
    }
}
