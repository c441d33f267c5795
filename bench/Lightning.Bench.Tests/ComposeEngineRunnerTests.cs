using Lightning.Bench.Compose;
using Lightning.Bench.Docker;

namespace Lightning.Bench.Tests;

/// <summary>The compose model started through the Engine API: the parts that need no engine (against compose itself: <see cref="ComposeEngineRunnerDockerTests"/>).</summary>
[Trait("Category", "Unit")]
public class ComposeEngineRunnerTests
{
    private static readonly Dictionary<string, string> Env = new() { ["HOME_DIR"] = "/home/x", ["EMPTY"] = "" };

    private static string Interpolate(string value) => ComposeInterpolation.Apply(value, Env.GetValueOrDefault);

    [Theory]
    [InlineData("plain", "plain")]
    [InlineData("a$$b", "a$b")]
    [InlineData("$HOME_DIR/x", "/home/x/x")]
    [InlineData("${HOME_DIR}x", "/home/xx")]
    [InlineData("[$UNSET]", "[]")]
    [InlineData("${UNSET:-fallback}", "fallback")]
    [InlineData("${EMPTY:-fallback}", "fallback")]
    [InlineData("${EMPTY-fallback}", "")]
    [InlineData("${UNSET-fallback}", "fallback")]
    [InlineData("${HOME_DIR:+set}", "set")]
    [InlineData("${EMPTY:+set}", "")]
    [InlineData("${EMPTY+set}", "set")]
    [InlineData("$$HOME_DIR", "$HOME_DIR")]
    public void Variables_are_interpolated_as_compose_does(string value, string expected) =>
        Assert.Equal(expected, Interpolate(value));

    [Theory]
    [InlineData(
        "${UNSET:?give the data folder}",
        "variable UNSET is required by the compose fragments: give the data folder"
    )]
    [InlineData("${EMPTY:?}", "variable EMPTY is required")]
    [InlineData("cost: 5$", "a lone '$'")]
    [InlineData("${HOME_DIR", "without '}'")]
    [InlineData("${HOME_DIR%x}", "invalid interpolation")]
    [InlineData("${UNSET:-${HOME_DIR}}", "nested interpolation")]
    public void Bad_or_missing_variables_are_errors_that_say_which(string value, string message) =>
        Assert.Contains(message, Assert.Throws<FormatException>(() => Interpolate(value)).Message);

    [Fact]
    public void Literal_dollars_written_by_the_generator_come_back_unchanged() =>
        Assert.Equal("/tmp/a$b/$$", Interpolate(ComposeYaml.Literal("/tmp/a$b/$$")));

    [Fact]
    public void Services_start_in_depends_on_layers_and_cycles_or_unknown_services_are_refused()
    {
        var file = new ComposeFile
        {
            Services = new()
            {
                ["bob"] = new ComposeService { DependsOn = ["bitcoind"] },
                ["bitcoind"] = new ComposeService(),
                ["alice"] = new ComposeService { DependsOn = ["bitcoind"] },
                ["carol"] = new ComposeService { DependsOn = ["alice", "bob"] },
            },
        };
        var layers = EngineComposeRunner.StartOrder(file);
        Assert.Equal(
            [
                ["bitcoind"],
                ["alice", "bob"],
                ["carol"],
            ],
            layers.Select(l => l.ToArray()).ToArray()
        );

        file.Services["bitcoind"].DependsOn = ["carol"];
        Assert.Contains(
            "cycle",
            Assert.Throws<InvalidOperationException>(() => EngineComposeRunner.StartOrder(file)).Message
        );
        file.Services["bitcoind"].DependsOn = ["dave"];
        Assert.Contains(
            "depends on dave",
            Assert.Throws<InvalidOperationException>(() => EngineComposeRunner.StartOrder(file)).Message
        );
    }

    [Theory]
    [InlineData("5s", 5)]
    [InlineData("1m30s", 90)]
    [InlineData("1500ms", 1.5)]
    [InlineData("1h", 3600)]
    public void Stop_grace_periods_are_compose_durations(string text, double seconds) =>
        Assert.Equal(TimeSpan.FromSeconds(seconds), EngineComposeRunner.Duration("x", text));

    [Theory]
    [InlineData("1g", 1L << 30)]
    [InlineData("256m", 256L << 20)]
    [InlineData("512MB", 512L << 20)]
    [InlineData("64k", 64L << 10)]
    [InlineData("65536", 65536)]
    public void Shm_sizes_are_compose_byte_sizes(string text, long bytes) =>
        Assert.Equal(bytes, EngineComposeRunner.Bytes("x", text));

    [Fact]
    public void The_create_body_carries_every_key_a_fragment_can_set()
    {
        using var engine = new DockerEngine("unix:///nonexistent.sock");
        var runner = new EngineComposeRunner(engine, Env.GetValueOrDefault);
        var body = runner.CreateBody(
            "p",
            "/w/p/docker-compose.yml",
            "alice",
            new ComposeService
            {
                Image = "img:1",
                User = "1000:1000",
                Init = true,
                Entrypoint = ["lightningd"],
                Command = ["--alias=$$x", "--dir=$HOME_DIR"],
                Environment = new() { ["A"] = "${UNSET:-b}" },
                Labels = new() { ["lnbench.node"] = "alice" },
                Volumes = ["/w/p/alice:/lnb"],
                Ports = ["127.0.0.1::18443", "9735:9735/udp", "[::1]:8080:80"],
                StopGracePeriod = "1m",
                Privileged = true,
                CapAdd = ["SYS_ADMIN"],
                SecurityOpt = ["seccomp=unconfined"],
                ShmSize = "1g",
            }
        );
        Assert.Equal("img:1", body.Image);
        Assert.Equal("1000:1000", body.User);
        Assert.Equal(["--alias=$x", "--dir=/home/x"], body.Cmd);
        Assert.Equal(["A=b"], body.Env);
        Assert.Equal(TimeSpan.FromSeconds(60), body.StopTimeout);
        Assert.Equal("p", body.Labels["com.docker.compose.project"]);
        Assert.Equal("alice", body.Labels["com.docker.compose.service"]);
        Assert.Equal("alice", body.Labels["lnbench.node"]);
        var host = body.HostConfig!;
        Assert.Equal("p_default", host.NetworkMode);
        Assert.Equal(["/w/p/alice:/lnb:rw"], host.Binds);
        Assert.True(host.Init);
        Assert.True(host.Privileged);
        Assert.Equal(1L << 30, host.ShmSize);
        var bindings = host.PortBindings;
        Assert.Equal("127.0.0.1", bindings["18443/tcp"][0].HostIP);
        Assert.Equal("", bindings["18443/tcp"][0].HostPort);
        Assert.Equal("9735", bindings["9735/udp"][0].HostPort);
        Assert.Equal("::1", bindings["80/tcp"][0].HostIP);
        Assert.Equal(["18443/tcp", "9735/udp", "80/tcp"], body.ExposedPorts!.Keys);
        Assert.Equal(["alice"], body.NetworkingConfig!.EndpointsConfig["p_default"].Aliases);

        Assert.Contains(
            "not a bind mount",
            Assert
                .Throws<InvalidOperationException>(() =>
                    runner.CreateBody("p", "f", "bob", new ComposeService { Image = "i", Volumes = ["data:/lnb"] })
                )
                .Message
        );
        Assert.Contains(
            "port \"80-90\"",
            Assert
                .Throws<InvalidOperationException>(() =>
                    runner.CreateBody("p", "f", "bob", new ComposeService { Image = "i", Ports = ["80-90"] })
                )
                .Message
        );
    }
}
