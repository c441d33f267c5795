using System.Net;
using System.Net.Sockets;

namespace Lightning.Bench.Swarm.Relay;

/// <summary>
/// Finds the run's agents from inside the overlay: swarm's DNS answers `tasks.SERVICE` with the address of every task
/// of the agents' global service (one per host), and each is probed (token, then Welcome with its host) on a
/// connection of its own, so a probe never takes the place of the harness's span connection.
/// </summary>
internal static class AgentDirectory
{
    private static readonly TimeSpan Poll = TimeSpan.FromMilliseconds(500);

    /// <summary>Asks one agent who it is; a refusal is <see cref="RelayRefusedException"/>.</summary>
    public static async Task<WelcomeMessage> ProbeAsync(
        EndPoint agent,
        byte[] token,
        TimeSpan timeout,
        CancellationToken ct = default
    )
    {
        using var limit = CancellationTokenSource.CreateLinkedTokenSource(ct);
        limit.CancelAfter(timeout);
        using var connection = await Dial.ConnectAsync(agent, limit.Token);
        await using var stream = new NetworkStream(connection, ownsSocket: false);
        await stream.WriteAsync(
            new HelloMessage(HelloMessage.CurrentVersion, token).Encode(RelayFrameType.Probe),
            limit.Token
        );
        return await RelayWire.ReadAsync(stream, RelayWire.MaxHelloBytes, limit.Token) switch
        {
            { Type: RelayFrameType.Welcome } welcome => WelcomeMessage.Decode(welcome),
            { Type: RelayFrameType.Refused } refused => throw new RelayRefusedException(
                agent.ToString()!,
                RefusedMessage.Decode(refused).Reason
            ),
            var other => throw new RelayProtocolException(
                RelayProblem.Unexpected,
                $"the agent at {agent} answered a probe with {other?.Type.ToString() ?? "the end of the connection"}"
            ),
        };
    }

    /// <summary>
    /// The agents of <paramref name="service"/> (its `tasks.` name resolved again until <paramref name="expect"/> of
    /// them answer, or <paramref name="timeout"/>), one per host; the error names the hosts found and how to look.
    /// </summary>
    /// <param name="gate">The run's gate (<see cref="OverlayGate"/>) when the caller is not on the overlay itself (the harness on the manager's host).</param>
    public static async Task<IReadOnlyList<AgentAddress>> DiscoverAsync(
        string service,
        int port,
        byte[] token,
        int expect,
        TimeSpan timeout,
        CancellationToken ct = default,
        string? gate = null
    )
    {
        var found = new Dictionary<IPAddress, AgentAddress>();
        var problems = new Dictionary<IPAddress, string>();
        var clock = System.Diagnostics.Stopwatch.StartNew();
        string? dns = null;
        while (true)
        {
            IPAddress[] addresses;
            try
            {
                addresses = gate is null
                    ? await Dns.GetHostAddressesAsync($"tasks.{service}", ct)
                    : await OverlayGate.ResolveAsync(gate, $"tasks.{service}", ct);
                dns = null;
            }
            catch (SocketException e)
            {
                addresses = [];
                dns =
                    $"tasks.{service} does not resolve ({e.SocketErrorCode}): is this on the run's overlay network, and is the service deployed?";
            }
            foreach (var address in addresses.Where(a => !found.ContainsKey(a)))
            {
                EndPoint endpoint = gate is null
                    ? new IPEndPoint(address, port)
                    : new OverlayEndPoint(gate, address.ToString(), port);
                try
                {
                    var welcome = await ProbeAsync(endpoint, token, TimeSpan.FromSeconds(5), ct);
                    found[address] = new AgentAddress(welcome.Host, endpoint, welcome.Session);
                    problems.Remove(address);
                }
                catch (Exception e)
                    when (e is SocketException or IOException or OperationCanceledException or RelayProtocolException
                        && !ct.IsCancellationRequested
                    )
                {
                    problems[address] = e.Message;
                }
            }
            if (found.Count >= expect)
            {
                return found.Values.OrderBy(a => a.Host, StringComparer.Ordinal).ToList();
            }
            if (clock.Elapsed >= timeout)
            {
                var hosts =
                    found.Count == 0
                        ? "none"
                        : string.Join(
                            ", ",
                            found.Values.Select(a => $"{a.Host} ({a.Endpoint})").Order(StringComparer.Ordinal)
                        );
                var why =
                    dns
                    ?? (
                        problems.Count == 0
                            ? ""
                            : $"; not answering: {string.Join("; ", problems.Select(p => $"{p.Key}: {p.Value}"))}"
                    );
                throw new TimeoutException(
                    $"{found.Count} of {expect} agents of {service} answered within {timeout.TotalSeconds:0} s (found: {hosts}){(dns is null ? why : $"; {why}")}; "
                        + $"see `docker service ps {service}` for the hosts without one"
                );
            }
            await Task.Delay(Poll, ct);
        }
    }
}
