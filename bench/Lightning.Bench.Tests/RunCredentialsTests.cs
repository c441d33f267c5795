using Lightning.Bench.Topology;

namespace Lightning.Bench.Tests;

[Trait("Category", "Unit")]
public class RunCredentialsTests
{
    [Fact]
    public void Rpcauth_is_what_bitcoin_cores_rpcauth_script_computes()
    {
        // Expected value from HMAC-SHA256(key=salt, msg=password), as share/rpcauth/rpcauth.py does.
        var credentials = new RunCredentials("lnbench", "secretpassword");
        Assert.Equal(
            "lnbench:00112233445566778899aabbccddeeff$33375ce7f4bb598570f8aaf6c9a7a383dbba5610c5bfbc7a076d90dbe26ee6fd",
            credentials.RpcAuth("00112233445566778899aabbccddeeff")
        );
    }

    [Fact]
    public void Every_run_gets_new_credentials_and_they_do_not_print()
    {
        var a = RunCredentials.Generate();
        var b = RunCredentials.Generate();
        Assert.NotEqual(a.Password, b.Password);
        Assert.True(a.Password.Length >= 32);
        Assert.DoesNotContain(a.Password, a.ToString());
    }
}
