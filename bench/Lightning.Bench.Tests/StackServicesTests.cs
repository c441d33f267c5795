using Lightning.Bench.Cleanup;
using Lightning.Bench.Compose;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Scenarios;
using Lightning.Bench.Swarm;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Tests;

/// <summary>The services a stack file becomes through the Engine API (what `docker stack deploy` would create).</summary>
[Trait("Category", "Unit")]
public class StackServicesTests
{
    private const string RunId = "20261124-120000-ab12";
    private const string Stack = "lnbench-20261124-120000-ab12-1";

    private static readonly IReadOnlyDictionary<string, string> Labels = new Dictionary<string, string>
    {
        [RunLabels.Run] = RunId,
        [RunLabels.OwnerPid] = "42",
        [RunLabels.OwnerHost] = "manager",
    };

    private static ComposeFile AlicePaysBobStack() =>
        StackGenerator.Generate(
            AlicePaysBob.TopologyFor(
                BuildSpec.FromImage("elementsproject/lightningd:v26.06.6"),
                "bitcoin/bitcoin:30.2"
            ),
            new StackSettings(RunId, Stack, "1000:1000", Labels, "host-2", TraceSockets: true),
            NodeKindCatalog.Default.LoadFragments()
        );

    private static Dictionary<string, string> SecretIds(ComposeFile file) =>
        file.Secrets!.Values.ToDictionary(s => s.Name!, s => $"id-{s.Name}");

    [Fact]
    public void Each_service_is_named_and_labelled_as_docker_stack_deploy_names_it_pinned_to_the_checked_image_and_never_restarted()
    {
        var file = AlicePaysBobStack();
        var images = new Dictionary<string, string>
        {
            ["elementsproject/lightningd:v26.06.6"] = "sha256:aaaa",
            ["bitcoin/bitcoin:30.2"] = "sha256:bbbb",
        };

        var specs = StackServices.For(Stack, file, SecretIds(file), images);

        Assert.Equal([$"{Stack}_alice", $"{Stack}_bitcoind", $"{Stack}_bob"], specs.Select(s => s.Name));
        foreach (var spec in specs)
        {
            var service = spec.Name![(Stack.Length + 1)..];
            var container = spec.TaskTemplate!.ContainerSpec!;
            Assert.Equal(Stack, spec.Labels![StackServices.NamespaceLabel]);
            Assert.Equal(Stack, container.Labels![StackServices.NamespaceLabel]);
            Assert.Equal(RunId, spec.Labels![RunLabels.Run]);
            Assert.Equal(RunId, container.Labels![RunLabels.Run]);
            Assert.Equal(service == "bitcoind" ? "sha256:bbbb" : "sha256:aaaa", container.Image);
            Assert.Equal(
                service == "bitcoind" ? "bitcoin/bitcoin:30.2" : "elementsproject/lightningd:v26.06.6",
                spec.Labels![StackServices.ImageLabel]
            );
            Assert.Equal(1UL, spec.Mode!.Replicated!.Replicas);
            Assert.Equal("none", spec.TaskTemplate.RestartPolicy!.Condition);
            Assert.Equal(["node.hostname == host-2"], spec.TaskTemplate.Placement!.Constraints);
            Assert.Equal("1000:1000", container.User);
            Assert.Equal(file.Services[service].Command, container.Args);

            var network = Assert.Single(spec.TaskTemplate.Networks!);
            Assert.Equal($"lnbench-{RunId}", network.Target);
            Assert.Equal([SwarmNames.Alias(Stack, service)], network.Aliases);

            var mount = Assert.Single(container.Mounts!);
            Assert.Equal(("volume", $"lnbench-{RunId}-work", "/lnb"), (mount.Type, mount.Source, mount.Target));
            Assert.Equal(RunId, mount.VolumeOptions!.Labels![RunLabels.Run]);

            var secret = Assert.Single(container.Secrets!);
            Assert.Equal(SwarmNames.ConfigSecret(Stack, service), secret.SecretName);
            Assert.Equal($"id-{SwarmNames.ConfigSecret(Stack, service)}", secret.SecretID);
            Assert.Equal(
                ($"{service}.conf", "1000", "1000", 256u),
                (secret.File!.Name, secret.File.UID, secret.File.GID, secret.File.Mode)
            );
        }
    }

    [Fact]
    public void The_agent_stack_is_one_global_service_with_its_bind_mounts_read_only_and_restarts_on_failure()
    {
        var file = AgentStackGenerator.Generate(
            new AgentStackSettings(
                RunId,
                "lnbench-agent:dev",
                ["dotnet", "/lnbench/Lightning.Bench.dll"],
                "1000:1000",
                Labels
            )
        );

        var spec = Assert.Single(StackServices.For(SwarmNames.AgentStack(RunId), file, SecretIds(file)));

        Assert.NotNull(spec.Mode!.Global);
        Assert.Null(spec.Mode.Replicated);
        Assert.Equal(
            ("on-failure", 3UL),
            (spec.TaskTemplate!.RestartPolicy!.Condition, spec.TaskTemplate.RestartPolicy!.MaxAttempts)
        );
        var container = spec.TaskTemplate!.ContainerSpec!;
        Assert.Equal("lnbench-agent:dev", container.Image);
        Assert.Equal(["dotnet", "/lnbench/Lightning.Bench.dll"], container.Command);
        Assert.Equal("agent", container.Args![0]);
        Assert.Contains("LNBENCH_AGENT_HOST={{.Node.Hostname}}", container.Env!);
        Assert.Equal(TimeSpan.FromSeconds(5), container.StopGracePeriod);
        Assert.True(container.Init);
        Assert.Contains(
            container.Mounts!,
            m => (m.Type, m.Source, m.Target, m.ReadOnly) == ("bind", "/proc", "/host/proc", true)
        );
        Assert.Contains(container.Mounts!, m => (m.Type, m.Source, m.ReadOnly) == ("bind", "/sys/fs/cgroup", true));
    }

    [Fact]
    public void What_a_stack_cannot_carry_or_a_secret_the_run_did_not_create_is_refused_naming_the_service()
    {
        var file = AlicePaysBobStack();
        var secrets = SecretIds(file);
        secrets.Remove(SwarmNames.ConfigSecret(Stack, "bob"));
        var missing = Assert.Throws<InvalidOperationException>(() => StackServices.For(Stack, file, secrets));
        Assert.Contains($"service bob: secret {SwarmNames.ConfigSecret(Stack, "bob")} does not exist", missing.Message);

        file.Services["alice"].Ports = ["127.0.0.1::9835"];
        var ports = Assert.Throws<InvalidOperationException>(() => StackServices.For(Stack, file, SecretIds(file)));
        Assert.Contains("service alice: a stack publishes no ports", ports.Message);
    }
}
