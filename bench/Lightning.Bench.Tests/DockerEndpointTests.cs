using System.Security.Cryptography;
using System.Text;
using Lightning.Bench.Docker;

namespace Lightning.Bench.Tests;

/// <summary>Which engine a run talks to: DOCKER_HOST, else the docker context, else the local socket, as the docker CLI decides.</summary>
[Trait("Category", "Unit")]
public class DockerEndpointTests : IDisposable
{
    private readonly string config = Directory.CreateTempSubdirectory("lnbench-docker-config-").FullName;

    private Func<string, string?> Environment(params (string Name, string Value)[] variables)
    {
        var all = variables.ToDictionary(v => v.Name, v => v.Value);
        all.TryAdd("DOCKER_CONFIG", config);
        return name => all.GetValueOrDefault(name);
    }

    private void Context(string name, string host)
    {
        var meta = Path.Combine(
            config,
            "contexts",
            "meta",
            Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes(name)))
        );
        Directory.CreateDirectory(meta);
        File.WriteAllText(
            Path.Combine(meta, "meta.json"),
            System.Text.Json.JsonSerializer.Serialize(
                new
                {
                    Name = name,
                    Metadata = new { },
                    Endpoints = new { docker = new { Host = host, SkipTLSVerify = false } },
                }
            )
        );
    }

    [Fact]
    public void Without_anything_it_is_the_local_socket()
    {
        var endpoint = DockerEndpoint.Resolve(Environment());
        Assert.Equal("unix:///var/run/docker.sock", endpoint.Host);
        Assert.True(endpoint.IsLocal);
    }

    [Fact]
    public void The_active_context_of_the_config_names_the_engine_and_compose_gets_the_same_host()
    {
        Context("rootless", "unix:///run/user/1000/docker.sock");
        File.WriteAllText(Path.Combine(config, "config.json"), """{"auths":{},"currentContext":"rootless"}""");

        var endpoint = DockerEndpoint.Resolve(Environment());

        Assert.Equal("unix:///run/user/1000/docker.sock", endpoint.Host);
        Assert.Equal("docker context 'rootless'", endpoint.Source);
        Assert.Equal("unix:///run/user/1000/docker.sock", endpoint.Environment["DOCKER_HOST"]);
        Assert.Null(endpoint.Environment["DOCKER_CONTEXT"]);
    }

    [Fact]
    public void Docker_context_beats_the_config_and_docker_host_beats_both()
    {
        Context("a", "tcp://10.0.0.1:2375");
        Context("b", "tcp://10.0.0.2:2375");
        File.WriteAllText(Path.Combine(config, "config.json"), """{"currentContext":"a"}""");

        Assert.Equal("tcp://10.0.0.2:2375", DockerEndpoint.Resolve(Environment(("DOCKER_CONTEXT", "b"))).Host);
        var fromHost = DockerEndpoint.Resolve(
            Environment(("DOCKER_CONTEXT", "b"), ("DOCKER_HOST", "unix:///tmp/d.sock"))
        );
        Assert.Equal("unix:///tmp/d.sock", fromHost.Host);
        Assert.Equal("DOCKER_HOST", fromHost.Source);
        Assert.False(DockerEndpoint.Resolve(Environment(("DOCKER_CONTEXT", "a"))).IsLocal);
    }

    [Fact]
    public void An_unknown_context_or_an_unsupported_host_gets_one_line_that_says_what_to_do()
    {
        var unknown = Assert.Throws<DockerUnavailableException>(() =>
            DockerEndpoint.Resolve(Environment(("DOCKER_CONTEXT", "nope")))
        );
        Assert.Contains("docker context 'nope' is not defined", unknown.Message);
        Assert.Contains("docker context use", unknown.Message);

        var ssh = Assert.Throws<DockerUnavailableException>(() =>
            DockerEndpoint.Resolve(Environment(("DOCKER_HOST", "ssh://me@box")))
        );
        Assert.Contains("use unix:///path/to/docker.sock or tcp://host:port", ssh.Message);

        var tls = Assert.Throws<DockerUnavailableException>(() =>
            DockerEndpoint.Resolve(Environment(("DOCKER_HOST", "tcp://box:2376"), ("DOCKER_TLS_VERIFY", "1")))
        );
        Assert.Contains("needs TLS", tls.Message);
    }

    public void Dispose() => Directory.Delete(config, recursive: true);
}
