namespace Lightning.Bench.Docker;

public sealed class ImageUnavailableException(string message) : Exception(message);
