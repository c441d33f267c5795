using Lightning.Bench.Compose;

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
    public void A_fragment_that_gives_containers_privileges_is_refused_unless_the_user_allows_it(string privilege, string named)
    {
        File.Copy(Path.Combine(ComposeFragments.DefaultDirectory, ComposeFragments.BitcoindFile), Path.Combine(directory, ComposeFragments.BitcoindFile));
        var cln = File.ReadAllText(Path.Combine(ComposeFragments.DefaultDirectory, ComposeFragments.CoreLightningFile));
        File.WriteAllText(Path.Combine(directory, ComposeFragments.CoreLightningFile), cln.Replace("    init: true\n", "    init: true\n" + privilege));

        var error = Assert.Throws<InvalidDataException>(() => ComposeFragments.Load(directory));
        Assert.Contains(named, error.Message);
        Assert.Contains(ComposeFragments.CoreLightningFile, error.Message);
        Assert.Contains("--allow-privileged-fragments", error.Message);

        var allowed = ComposeFragments.Load(directory, allowPrivileged: true);
        Assert.True(allowed.CoreLightning.Privileged == true || allowed.CoreLightning.CapAdd is { Count: 1 } || allowed.CoreLightning.SecurityOpt is { Count: 1 });
    }

    [Fact]
    public void The_shipped_fragments_ask_for_no_privileges()
    {
        var fragments = ComposeFragments.Load();
        Assert.Null(fragments.CoreLightning.Privileged);
        Assert.Null(fragments.Bitcoind.CapAdd);
    }

    public void Dispose() => Directory.Delete(directory, recursive: true);
}
