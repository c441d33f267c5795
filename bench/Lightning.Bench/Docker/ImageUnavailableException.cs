namespace Lightning.Bench.Docker;

internal sealed class ImageUnavailableException(string message) : Exception(message);
