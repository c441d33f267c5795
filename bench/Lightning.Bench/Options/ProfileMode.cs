namespace Lightning.Bench.Options;

/// <summary>Whether a run samples the nodes' stacks, and what it does when the machine cannot.</summary>
internal enum ProfileMode
{
    Off,

    /// <summary>--profile: a machine that cannot profile stops the run before any container starts.</summary>
    Required,

    /// <summary>--profile-if-available: such a machine runs on without profiles, and says so.</summary>
    IfAvailable,
}
