using Lightning.Bench.Graph;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.NodeKinds.Capabilities;
using Lightning.Bench.Results;

namespace Lightning.Bench.Workloads.Routes;

/// <summary>What the routes workload asks: the seeded queries of the payer's share of the graph, and how to name a destination.</summary>
/// <param name="DestinationId">A destination's node id in the payer's store (hex).</param>
/// <param name="Name">A destination as results name it (payments.csv's payee).</param>
internal sealed record RouteQueries(
    IReadOnlyList<GraphQuery> Queries,
    Func<int, string> DestinationId,
    Func<int, string> Name
)
{
    /// <summary>The first query this case asks (the list wraps around): topology k starts where topology k − 1 ended.</summary>
    public int First { get; init; }
}

/// <summary>
/// Each operation is the next query of the seeded list (from the topology's first, the same for both builds of a pair):
/// its latency, the parts and fee of the routes found, or the node's reason none fits, each counted once.
/// </summary>
internal sealed class RoutesWorkload(WorkloadSetup setup, RouteQueries routes) : IWorkload
{
    private readonly string payer = setup.Flows[0].Payer;
    private int next = routes.First - 1;

    public Task PrepareAsync(int operations, CancellationToken ct = default) => Task.CompletedTask;

    public Task BeforeInvocationAsync(int operations, CancellationToken ct = default) => Task.CompletedTask;

    public Task RunAsync(int invocation, int operations, CancellationToken ct = default) =>
        Task.WhenAll(
            Enumerable
                .Range(0, operations)
                .Select(_ => routes.Queries[Interlocked.Increment(ref next) % routes.Queries.Count])
                .ToList()
                .Select(query => QueryAsync(invocation, query, ct))
        );

    private async Task QueryAsync(int invocation, GraphQuery query, CancellationToken ct)
    {
        var id = setup.Log.NextId();
        var amountMsat = query.AmountSat * 1000;
        var start = DateTimeOffset.UtcNow;
        void Record(
            OperationOutcome outcome,
            string? reason,
            RouteAnswer? answer,
            bool expected,
            bool lostConnection = false
        ) =>
            setup.Log.Record(
                new OperationRecord(
                    setup.Log.CaseKey,
                    invocation,
                    id,
                    payer,
                    routes.Name(query.Destination),
                    start,
                    start,
                    DateTimeOffset.UtcNow,
                    null,
                    outcome,
                    reason
                )
                {
                    AsExpected = expected,
                    Parts = answer?.Parts,
                    AmountMsat = amountMsat,
                    Destinations = query.Top ? RouteAmounts.Top : RouteAmounts.Sample,
                    FeeMsat = answer?.FeeMsat,
                },
                lostConnection
            );
        using var deadline = setup.Deadline($"{payer}: route query {id}", ct);
        try
        {
            var answer = await deadline.AnswerAsync(
                payer,
                "getroutes",
                t =>
                    setup
                        .Nodes[payer]
                        .Get<IRouteQueries>()
                        .GetRoutesAsync(
                            routes.DestinationId(query.Destination),
                            amountMsat,
                            amountMsat / RoutesKind.MaxFeeDivisor,
                            new PaymentTag(id),
                            t
                        )
            );
            Record(OperationOutcome.Succeeded, null, answer, expected: true);
        }
        catch (NodeCallException e) when (e.Failure == NodeCallFailure.Refused)
        {
            // The pathfinder's answer that no route fits: an outcome of the query, with its reason.
            Record(OperationOutcome.Failed, e.Message, null, expected: true);
        }
        catch (NodeCallException e)
        {
            Record(
                OperationOutcome.Failed,
                e.Message,
                null,
                expected: false,
                e.Failure == NodeCallFailure.ConnectionLost
            );
        }
        catch (OperationCanceledException)
        {
            Record(OperationOutcome.Failed, Payments.PaymentAttempt.CancelledReason, null, expected: false);
            throw;
        }
    }
}
