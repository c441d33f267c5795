namespace Lightning.Bench.Swarm;

/// <summary>The swarm cannot run this: the engine is no manager, a host lacks an image, a stack did not come up. One line that says what to do.</summary>
internal sealed class SwarmUnavailableException(string message) : Exception(message);
