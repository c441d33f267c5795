using System.Globalization;
using Docker.DotNet.Models;

namespace Lightning.Bench.Docker;

/// <summary>What the harness reads of an inspected container.</summary>
/// <param name="HostPorts">Container port ("18443/tcp") → the host port it is published on.</param>
internal sealed record ContainerDetails(
    string Id,
    string Name,
    bool Running,
    long ExitCode,
    string Status,
    IReadOnlyDictionary<string, string> Labels,
    IReadOnlyDictionary<string, int> HostPorts,
    int Pid = 0
)
{
    public static ContainerDetails From(ContainerInspectResponse container)
    {
        var ports = new Dictionary<string, int>();
        foreach (
            var (port, bindings) in container.NetworkSettings?.Ports ?? new Dictionary<string, IList<PortBinding>>()
        )
        {
            if (bindings is { Count: > 0 })
            {
                ports[port] = int.Parse(bindings[0].HostPort, CultureInfo.InvariantCulture);
            }
        }
        var state = container.State;
        return new ContainerDetails(
            container.ID,
            container.Name.TrimStart('/'),
            state?.Running ?? false,
            state?.ExitCode ?? 0,
            state?.Status ?? "",
            new Dictionary<string, string>(container.Config?.Labels ?? new Dictionary<string, string>()),
            ports,
            (int)(state?.Pid ?? 0)
        );
    }
}
