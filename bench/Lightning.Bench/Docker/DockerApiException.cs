using System.Net;

namespace Lightning.Bench.Docker;

internal sealed class DockerApiException(string operation, HttpStatusCode status, string body)
    : Exception($"Docker engine refused to {operation}: {(int)status} {body.Trim()}")
{
    public HttpStatusCode Status { get; } = status;
}
