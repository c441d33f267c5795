namespace Lightning.Bench.Docker;

internal sealed class DockerUnavailableException(string message) : Exception(message);
