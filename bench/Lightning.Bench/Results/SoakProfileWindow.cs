namespace Lightning.Bench.Results;

/// <summary>One profile window of a soak: when it started, the payments made before it and during it, each node's profile.</summary>
internal sealed record SoakProfileWindow(
    int Number,
    double StartSeconds,
    long PaymentsBefore,
    IReadOnlyList<ProfileRecord> Profiles
);
