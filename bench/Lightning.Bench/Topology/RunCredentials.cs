using System.Security.Cryptography;
using System.Text;

namespace Lightning.Bench.Topology;

/// <summary>bitcoind RPC credentials made fresh for each topology; never written to logs or the kept compose file.</summary>
internal sealed record RunCredentials(string User, string Password)
{
    public static RunCredentials Generate() =>
        new(
            $"lnbench{RandomNumberGenerator.GetHexString(6, lowercase: true)}",
            RandomNumberGenerator.GetHexString(32, lowercase: true)
        );

    /// <summary>bitcoind's -rpcauth value (user:salt$hmac-sha256(salt, password)), so bitcoind never stores the password.</summary>
    public string RpcAuth(string? salt = null)
    {
        salt ??= RandomNumberGenerator.GetHexString(32, lowercase: true);
        var hash = HMACSHA256.HashData(Encoding.UTF8.GetBytes(salt), Encoding.UTF8.GetBytes(Password));
        return $"{User}:{salt}${Convert.ToHexStringLower(hash)}";
    }

    public override string ToString() => $"RunCredentials {{ User = {User}, Password = *** }}";
}
