using System.Reflection;
using Lightning.Bench.Options;
using Lightning.Bench.Progress;
using Lightning.Bench.Swarm;
using Lightning.Bench.Swarm.Relay;

namespace Lightning.Bench.Tests.Relay;

/// <summary>Agent mode's declarations drive its parser, its --help and its options table in docs/swarm.md.</summary>
[Trait("Category", "Unit")]
public sealed class AgentOptionTests : IDisposable
{
    private const string UpdateVariable = "LNBENCH_UPDATE_DOCS";

    private readonly string folder = Directory.CreateTempSubdirectory("lnb-agent-").FullName;

    public void Dispose() => Directory.Delete(folder, recursive: true);

    [Fact]
    public void The_agent_options_table_of_the_docs_is_the_one_the_declarations_make()
    {
        var root = typeof(AgentOptionTests)
            .Assembly.GetCustomAttributes<AssemblyMetadataAttribute>()
            .Single(a => a.Key == "RepositoryRoot")
            .Value!;
        var path = Path.Combine(root, AgentOptionCatalog.DocumentPath);
        var document = File.ReadAllText(path).ReplaceLineEndings("\n");
        var table = OptionsDocument.Table(AgentOptionCatalog.All);
        if (Environment.GetEnvironmentVariable(UpdateVariable) == "1")
        {
            Assert.False(
                Environment.GetEnvironmentVariable("CI") == "true",
                $"{UpdateVariable}=1 rewrites {AgentOptionCatalog.DocumentPath}: never set it in CI"
            );
            File.WriteAllText(
                path,
                OptionsDocument.WithTable(document, table, AgentOptionCatalog.Begin, AgentOptionCatalog.End)
            );
            return;
        }
        Assert.True(
            table == OptionsDocument.TableIn(document, AgentOptionCatalog.Begin, AgentOptionCatalog.End),
            $"the agent options table of {AgentOptionCatalog.DocumentPath} is not the one Relay/AgentOptionCatalog.cs declares: edit the declarations, then run "
                + $"{UpdateVariable}=1 dotnet test Lightning.Bench.sln -c Release --filter FullyQualifiedName~{nameof(AgentOptionTests)}"
        );
    }

    [Fact]
    public void The_agent_command_line_becomes_settings_and_each_mistake_names_its_option()
    {
        var token = Path.Combine(folder, "token");
        File.WriteAllText(token, "0123456789abcdef0123\n");
        var settings = AgentCommand.Settings(
            AgentOptionCatalog.Parse([
                "--listen",
                "0.0.0.0:9736",
                "--token-file",
                token,
                "--work-dir",
                "/lnb",
                "--proc-root=/host/proc",
                "--owner",
                "1000:1001",
                "--host-name",
                "h1",
            ])
        );
        Assert.Equal(
            ("0.0.0.0:9736", "/lnb", "/host/proc", (1000, 1001), "h1"),
            (
                settings.Listen.ToString(),
                settings.WorkDirectory,
                settings.ProcRoot,
                settings.Owner!.Value,
                settings.Host
            )
        );
        Assert.Equal("0123456789abcdef0123"u8.ToArray(), settings.Token);
        Assert.DoesNotContain("0123456789abcdef", settings.ToString());

        Assert.Equal(
            "agent needs --listen ADDR:PORT",
            Assert.Throws<UsageException>(() => AgentCommand.Settings(AgentOptionCatalog.Parse([]))).Message
        );
        Assert.StartsWith(
            "--listen 'nowhere' is not ADDR:PORT",
            Assert
                .Throws<UsageException>(() => AgentCommand.Settings(AgentOptionCatalog.Parse(["--listen", "nowhere"])))
                .Message
        );
        File.WriteAllText(token, "short");
        Assert.Contains(
            "needs at least 16",
            Assert
                .Throws<UsageException>(() =>
                    AgentCommand.Settings(
                        AgentOptionCatalog.Parse(["--listen", "127.0.0.1:1", "--token-file", token, "--work-dir", "/w"])
                    )
                )
                .Message
        );
        Assert.StartsWith(
            "unknown agent option '--bogus'",
            Assert.Throws<UsageException>(() => AgentOptionCatalog.Parse(["--bogus"])).Message
        );
        Assert.Equal(
            "--help takes no value",
            Assert.Throws<UsageException>(() => AgentOptionCatalog.Parse(["--help=yes"])).Message
        );
        Assert.All(AgentOptionCatalog.All, o => Assert.Contains($"  {o.Syntax}", AgentOptionCatalog.Help()));
    }

    [Fact]
    public void Agent_mode_is_its_own_command_and_bad_input_exits_2()
    {
        Assert.Equal(
            HarnessExit.Usage,
            Program.Run(["agent", "--listen", "nowhere"], NodeKinds.NodeKindCatalog.Default)
        );
        Assert.Equal(0, Program.Run(["agent", "--help"], NodeKinds.NodeKindCatalog.Default));
    }
}
