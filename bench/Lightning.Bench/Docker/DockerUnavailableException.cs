namespace Lightning.Bench.Docker;

public sealed class DockerUnavailableException(string message) : Exception(message);
