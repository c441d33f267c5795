using Lightning.Bench.Cleanup;
using Lightning.Bench.Compose;
using Lightning.Bench.Network;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Scenarios;
using Lightning.Bench.Swarm;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Tests;

[Trait("Category", "Unit")]
public class StackGeneratorTests
{
    private const string RunId = "20261124-120000-ab12";
    private const string Stack = "lnbench-20261124-120000-ab12-1";

    private static readonly ComposeFragments Fragments = NodeKindCatalog.Default.LoadFragments();

    private static readonly IReadOnlyDictionary<string, string> Labels = new Dictionary<string, string>
    {
        [RunLabels.Run] = RunId,
        [RunLabels.OwnerPid] = "42",
        [RunLabels.OwnerHost] = "manager",
    };

    private static StackSettings Settings(bool traces = true) =>
        new(RunId, Stack, "1000:1000", Labels, "host-2", traces)
        {
            NodeHosts = new Dictionary<string, string> { ["carol-1"] = "host-5" },
        };

    private static TopologySpec AlicePaysBobTopology() =>
        AlicePaysBob.TopologyFor(BuildSpec.FromImage("elementsproject/lightningd:v26.06.6"), "bitcoin/bitcoin:30.2");

    /// <summary>carol-1 on a host labelled lnbench.placement=far, the rest on the topology's host.</summary>
    private static TopologySpec SpreadTopology()
    {
        var topology = AlicePaysBobViaCarols.TopologyFor(
            BuildSpec.FromImage("elementsproject/lightningd:v26.06.6"),
            "bitcoin/bitcoin:30.2",
            1
        );
        return new TopologySpec(
            topology.BitcoindImage,
            topology.Nodes.Select(n => n.Name == "carol-1" ? n with { Placement = "far" } : n).ToList(),
            topology.Channels,
            topology.Flows
        );
    }

    [Fact]
    public void AlicePaysBob_matches_the_golden_stack_file()
    {
        var yaml = ComposeYaml.Serialize(StackGenerator.Generate(AlicePaysBobTopology(), Settings(), Fragments));
        Golden.AssertMatches("stack-alice-pays-bob.yml", yaml);
    }

    [Fact]
    public void A_node_the_topology_places_apart_matches_the_golden_stack_file()
    {
        var yaml = ComposeYaml.Serialize(StackGenerator.Generate(SpreadTopology(), Settings(), Fragments));
        Golden.AssertMatches("stack-alice-pays-bob-via-1-carols-spread.yml", yaml);
    }

    [Fact]
    public void The_agent_stack_matches_the_golden_file()
    {
        var settings = new AgentStackSettings(
            RunId,
            "lnbench-agent:dev",
            ["dotnet", "/lnbench/Lightning.Bench.dll"],
            "1000:1000",
            Labels
        );
        Golden.AssertMatches("stack-agents.yml", ComposeYaml.Serialize(AgentStackGenerator.Generate(settings)));
    }

    [Fact]
    public void Every_service_joins_the_run_network_is_labelled_pinned_to_its_host_and_never_restarted()
    {
        var file = StackGenerator.Generate(SpreadTopology(), Settings(), Fragments);

        Assert.Equal(StackGenerator.Version, file.Version);
        Assert.Equal(["bitcoind", "alice", "carol-1", "bob"], file.Services.Keys);
        foreach (var (name, service) in file.Services)
        {
            Assert.Null(service.NetworkMode);
            Assert.Null(service.DependsOn);
            Assert.Null(service.Ports);
            Assert.Equal([$"{SwarmNames.Alias(Stack, name)}"], service.Networks![StackGenerator.RunNetworkKey].Aliases);
            Assert.Equal(RunId, service.Labels![RunLabels.Run]);
            Assert.Equal(RunId, service.Deploy!.Labels![RunLabels.Run]);
            Assert.Equal("none", service.Deploy.RestartPolicy!.Condition);
            Assert.Equal(1, service.Deploy.Replicas);
            Assert.Equal([$"{StackGenerator.WorkVolumeKey}:/lnb"], service.Volumes);
            // A node placed apart goes to the host the run chose among those labelled (its agent binds its socket there first).
            Assert.Equal(
                name == "carol-1"
                    ? ["node.labels.lnbench.placement == far", "node.hostname == host-5"]
                    : ["node.hostname == host-2"],
                service.Deploy.Placement!.Constraints!
            );
        }
        Assert.True(file.Networks![StackGenerator.RunNetworkKey].External);
        Assert.Equal($"lnbench-{RunId}", file.Networks[StackGenerator.RunNetworkKey].Name);
        Assert.Equal(RunId, file.Volumes![StackGenerator.WorkVolumeKey].Labels![RunLabels.Run]);
        Assert.Equal($"lnbench-{RunId}-work", file.Volumes[StackGenerator.WorkVolumeKey].Name);
    }

    [Fact]
    public void Nodes_listen_on_the_overlay_and_reach_bitcoind_and_each_other_by_alias()
    {
        var file = StackGenerator.Generate(AlicePaysBobTopology(), Settings(), Fragments);
        var alice = file.Services["alice"].Command!;
        Assert.Contains("--addr=0.0.0.0:9735", alice);
        Assert.Contains("--addr=0.0.0.0:9735", file.Services["bob"].Command!);
        Assert.Contains($"--bitcoin-rpcconnect={Stack}-bitcoind", alice);
        Assert.Contains($"--lightning-dir=/lnb/{Stack}/alice", alice);
        Assert.Equal(new NodeKinds.PeerAddress($"{Stack}-bob", 9735), StackGenerator.PeerAddressOf(Stack, "bob"));
        Assert.Equal($"/lnb/{Stack}/alice/trace.sock", file.Services["alice"].Environment!["CLN_TRACE_SOCKET"]);
        Assert.Null(
            StackGenerator
                .Generate(AlicePaysBobTopology(), Settings(traces: false), Fragments)
                .Services["alice"]
                .Environment
        );
    }

    [Fact]
    public void Credentials_are_external_secrets_read_by_the_services_own_user_and_never_in_the_file()
    {
        var file = StackGenerator.Generate(AlicePaysBobTopology(), Settings(), Fragments);
        var yaml = ComposeYaml.Serialize(file);
        Assert.DoesNotContain("rpcauth", yaml);
        Assert.DoesNotContain("rpcpassword", yaml);
        Assert.Equal(3, file.Secrets!.Count);
        Assert.All(file.Secrets.Values, s => Assert.True(s.External));
        foreach (var (name, service) in file.Services)
        {
            var secret = Assert.Single(service.Secrets!);
            Assert.Equal(SwarmNames.ConfigSecret(Stack, name), secret.Source);
            Assert.Equal(("1000", "1000", 256), (secret.Uid, secret.Gid, secret.Mode));
            Assert.True(file.Secrets.ContainsKey(secret.Source!));
        }
        Assert.Contains($"-conf=/run/secrets/bitcoind.conf", file.Services["bitcoind"].Command!);
        Assert.Contains($"--conf=/run/secrets/alice.conf", file.Services["alice"].Command!);
    }

    [Fact]
    public void Every_network_and_secret_the_run_creates_carries_the_run_labels()
    {
        var resources = SwarmResources
            .ForRun(RunId, Labels)
            .Concat(SwarmResources.ForTopology(AlicePaysBobTopology(), Stack, Labels))
            .ToList();
        Assert.Equal(5, resources.Count);
        Assert.All(resources, r => Assert.Equal(RunId, r.Labels[RunLabels.Run]));
        Assert.All(resources, r => Assert.InRange(r.Name.Length, 1, 63));
        var secrets = StackGenerator
            .Generate(AlicePaysBobTopology(), Settings(), Fragments)
            .Secrets!.Keys.Append(SwarmNames.AgentTokenSecret(RunId))
            .Order();
        Assert.Equal(secrets, resources.Where(r => r.Kind == SwarmResource.SecretKind).Select(r => r.Name).Order());
    }

    [Fact]
    public void The_agent_runs_on_every_host_on_the_overlay_only_with_the_token_as_a_secret()
    {
        var file = AgentStackGenerator.Generate(
            new AgentStackSettings(RunId, "img", ["dotnet", "/x.dll"], null, Labels)
        );
        var agent = file.Services[SwarmNames.AgentService];
        Assert.Equal("global", agent.Deploy!.Mode);
        Assert.Null(agent.Ports);
        Assert.Contains($"{StackGenerator.WorkVolumeKey}:/lnb", agent.Volumes!);
        Assert.Equal(SwarmNames.AgentTokenSecret(RunId), Assert.Single(agent.Secrets!).Source);
        Assert.Equal(RunId, agent.Labels![RunLabels.Run]);
        Assert.Equal(RunId, agent.Deploy.Labels![RunLabels.Run]);
        Assert.DoesNotContain("--owner", agent.Command!);
        // A run that does not profile gives the agent no engine socket.
        Assert.DoesNotContain(agent.Volumes!, v => v.Contains("docker.sock", StringComparison.Ordinal));
        Assert.DoesNotContain("--perf-image", agent.Command!);
    }

    [Fact]
    public void A_profiling_runs_agent_makes_its_perf_helpers_through_its_hosts_engine_with_the_runs_image_volume_and_labels()
    {
        var file = AgentStackGenerator.Generate(
            new AgentStackSettings(RunId, "lnbench/harness:abc", ["dotnet", "/x.dll"], null, Labels, Profiles: true)
        );
        var agent = file.Services[SwarmNames.AgentService];
        var command = agent.Command!;
        Assert.Equal("lnbench/harness:abc", command[command.IndexOf("--perf-image") + 1]);
        Assert.Equal(SwarmNames.WorkVolume(RunId), command[command.IndexOf("--work-volume") + 1]);
        Assert.Contains($"{RunLabels.Run}={RunId}", command);
        Assert.Contains("/var/run/docker.sock:/var/run/docker.sock", agent.Volumes!);
        // The options it is given are the agent's own: they parse into helper-container settings.
        var tokenFile = Path.GetTempFileName();
        try
        {
            File.WriteAllText(tokenFile, new string('t', 32));
            var args = command
                .Select(a =>
                    a.Replace($"/run/secrets/{SwarmNames.AgentTokenTarget}", tokenFile, StringComparison.Ordinal)
                )
                .Skip(1)
                .ToList();
            var perf = Lightning
                .Bench.Swarm.AgentCommand.Settings(Lightning.Bench.Swarm.Relay.AgentOptionCatalog.Parse(args))
                .PerfContainer!;
            Assert.Equal("lnbench/harness:abc", perf.Image);
            Assert.Equal(SwarmNames.WorkVolume(RunId), perf.WorkVolume);
            Assert.Equal(SwarmNames.WorkMount, perf.WorkMount);
            Assert.Equal(RunId, perf.Labels[RunLabels.Run]);
        }
        finally
        {
            File.Delete(tokenFile);
        }
    }

    [Fact]
    public void Generation_leaves_the_fragments_and_the_single_host_file_as_they_were()
    {
        var before = ComposeYaml.Serialize(ComposeGenerator.Generate(AlicePaysBobTopology(), SingleHost(), Fragments));
        StackGenerator.Generate(SpreadTopology(), Settings(), Fragments);
        Assert.Equal(
            before,
            ComposeYaml.Serialize(ComposeGenerator.Generate(AlicePaysBobTopology(), SingleHost(), Fragments))
        );
        Assert.DoesNotContain("version:", before);
        Assert.DoesNotContain("deploy:", before);
    }

    [Fact]
    public void The_agents_go_to_every_host_the_run_uses_and_no_other()
    {
        string[] swarm = ["a", "b", "c", "d"];
        Assert.Null(AgentStackSettings.ForHosts(swarm, swarm));
        Assert.Equal(["node.hostname == c"], AgentStackSettings.ForHosts(["c"], swarm));
        // Swarm ANDs constraints: two hosts of four are the two others left out.
        Assert.Equal(["node.hostname != a", "node.hostname != d"], AgentStackSettings.ForHosts(["b", "c"], swarm));

        var file = AgentStackGenerator.Generate(
            new AgentStackSettings(
                RunId,
                "img",
                ["dotnet", "/x.dll"],
                null,
                Labels,
                Placement: AgentStackSettings.ForHosts(["b", "c"], swarm)
            )
        );
        Assert.Equal(
            ["node.hostname != a", "node.hostname != d"],
            file.Services[SwarmNames.AgentService].Deploy!.Placement!.Constraints!
        );
        Assert.Equal("global", file.Services[SwarmNames.AgentService].Deploy!.Mode);
    }

    [Fact]
    public void A_placement_that_is_not_a_label_value_is_refused_with_the_node_named()
    {
        var error = Assert.Throws<ArgumentException>(() =>
            new TopologySpec("btc", [new NodeSpec("alice", "cln", Placement: "Far Away")], [], [])
        );
        Assert.Contains("node 'alice' has placement 'Far Away'", error.Message);
    }

    private static ComposeRunSettings SingleHost() =>
        new("lnbench-golden-1", new RunLayout("/tmp/lnb/lnbench-golden-1"), "1000:1000", Labels, true);
}
