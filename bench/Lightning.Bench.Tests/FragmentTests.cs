using Lightning.Bench.Compose;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.NodeKinds.CoreLightning;
using Lightning.Bench.NodeKinds.Lnd;
using Lightning.Bench.Progress;

namespace Lightning.Bench.Tests;

/// <summary>docker-fragments/ as users may edit them.</summary>
[Trait("Category", "Unit")]
public class FragmentTests : IDisposable
{
    private readonly string directory = Directory.CreateTempSubdirectory("lnbench-fragments-").FullName;

    [Theory]
    [InlineData("    privileged: true\n", "privileged: true")]
    [InlineData("    cap_add: [SYS_ADMIN]\n", "cap_add: SYS_ADMIN")]
    [InlineData("    security_opt: [\"seccomp=unconfined\"]\n", "security_opt: seccomp=unconfined")]
    public void A_fragment_that_gives_containers_privileges_is_refused_unless_the_user_allows_it(
        string privilege,
        string named
    )
    {
        WriteFragments(cln => cln.Replace("    init: true\n", "    init: true\n" + privilege));

        var error = Assert.Throws<InvalidDataException>(() => NodeKindCatalog.Default.LoadFragments(directory));
        Assert.Contains(named, error.Message);
        Assert.Contains(CoreLightningKind.Fragment, error.Message);
        Assert.Contains("--allow-privileged-fragments", error.Message);

        var allowed = NodeKindCatalog.Default.LoadFragments(directory, allowPrivileged: true);
        var cln = allowed.For(CoreLightningKind.Fragment);
        Assert.True(cln.Privileged == true || cln.CapAdd is { Count: 1 } || cln.SecurityOpt is { Count: 1 });
    }

    [Fact]
    public void The_shipped_fragments_ask_for_no_privileges()
    {
        var fragments = NodeKindCatalog.Default.LoadFragments();
        Assert.Null(fragments.For(CoreLightningKind.Fragment).Privileged);
        Assert.Null(fragments.Bitcoind.CapAdd);
    }

    [Theory]
    [InlineData("      - --alias=cost 5$\n", "a lone '$'")]
    [InlineData(
        "      - --addr=${LNBENCH_TEST_SURELY_UNSET:?set the address}\n",
        "variable LNBENCH_TEST_SURELY_UNSET is required by the compose fragments: set the address"
    )]
    [InlineData("", "stop_grace_period \"soon\"")]
    public void A_fragment_the_engine_cannot_read_is_bad_input_before_any_container_unless_compose_reads_it(
        string argument,
        string message
    )
    {
        WriteFragments(cln =>
            argument.Length > 0
                ? cln.Replace("      - --network=regtest\n", "      - --network=regtest\n" + argument)
                : cln.Replace("stop_grace_period: 5s", "stop_grace_period: soon")
        );
        var fragments = NodeKindCatalog.Default.LoadFragments(directory);

        var error = Assert.Throws<InvalidDataException>(() => EngineComposeRunner.CheckFragments(fragments, _ => null));
        Assert.StartsWith($"compose fragment {CoreLightningKind.Fragment}: ", error.Message);
        Assert.Contains(message, error.Message);
        // From the command line: exit code 2 (bad input), before any engine is asked anything.
        Assert.Equal(
            HarnessExit.Usage,
            Program.Run(["AlicePaysBob", "--results", directory], NodeKindCatalog.Default, directory)
        );
    }

    [Fact]
    public void The_shipped_fragments_pass_the_engine_runners_check() =>
        EngineComposeRunner.CheckFragments(NodeKindCatalog.Default.LoadFragments(), _ => null);

    public void Dispose() => Directory.Delete(directory, recursive: true);

    /// <summary>The shipped fragments in <see cref="directory"/>, Core Lightning's edited.</summary>
    private void WriteFragments(Func<string, string> editCoreLightning)
    {
        File.Copy(
            Path.Combine(ComposeFragments.DefaultDirectory, ComposeFragments.BitcoindFile),
            Path.Combine(directory, ComposeFragments.BitcoindFile)
        );
        File.Copy(
            Path.Combine(ComposeFragments.DefaultDirectory, LndKind.Fragment),
            Path.Combine(directory, LndKind.Fragment)
        );
        var cln = File.ReadAllText(Path.Combine(ComposeFragments.DefaultDirectory, CoreLightningKind.Fragment));
        File.WriteAllText(Path.Combine(directory, CoreLightningKind.Fragment), editCoreLightning(cln));
    }
}
