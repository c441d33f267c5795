namespace Lightning.Bench.Compose;

/// <summary>A secret mounted in a service's containers at /run/secrets/TARGET, readable only by the service's user.</summary>
internal sealed class ComposeServiceSecret
{
    public string? Source { get; set; }

    public string? Target { get; set; }

    /// <summary>The owner: the service's own uid (secrets belong to root otherwise).</summary>
    public string? Uid { get; set; }

    public string? Gid { get; set; }

    /// <summary>Permission bits, written in decimal (256 is 0400: the owner reads, nobody else).</summary>
    public int? Mode { get; set; }
}
