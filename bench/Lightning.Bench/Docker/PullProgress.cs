using System.Net;
using Docker.DotNet.Models;

namespace Lightning.Bench.Docker;

/// <summary>
/// Reads a pull's progress messages as the library streams them, one at a time: each one is progress
/// (<paramref name="onProgress"/> restarts the idle clock), and the first error inside the stream (the engine answered
/// 200 before it failed; its "errorDetail") ends the pull.
/// </summary>
internal sealed class PullProgress(string image, Action onProgress) : IProgress<JSONMessage>
{
    public void Report(JSONMessage value)
    {
        onProgress();
        if (value.Error is { } error)
        {
            // Thrown on the library's reading loop, so the pull stops at this line.
            throw new DockerApiException($"pull {image}", HttpStatusCode.OK, error.Message ?? $"error {error.Code}");
        }
    }
}
