using Lightning.Bench.NodeKinds.CoreLightning;
using Lightning.Bench.Tracing;

namespace Lightning.Bench.Tests;

/// <summary>--trace-check compares Core Lightning's own trace file with what reached the socket, span by span.</summary>
[Trait("Category", "Unit")]
public class TraceCheckTests
{
    private static string Line(string id, long timestamp, long duration) =>
        $"span_emit {id} [{{\"id\":\"{id}\",\"name\":\"db_exec\",\"timestamp\":{timestamp},\"duration\":{duration},\"localEndpoint\":{{\"serviceName\":\"lightningd\"}},\"tags\":{{}},\"traceId\":\"00\"}}]";

    [Fact]
    public void Spans_emitted_while_collecting_are_matched_by_id_and_teardown_spans_are_left_out()
    {
        string[] lines =
        [
            Line("00000000000000a1", 1_000, 10), // arrived
            Line("00000000000000a2", 2_000, 10), // lost
            "some other line the file may hold",
            Line("00000000000000a3", 4_995, 5), // ends exactly at the stop: counted, arrived
            Line("00000000000000a4", 4_999, 2), // ends after the stop (teardown): not counted
        ];
        var (emitted, arrived) = new CoreLightningTraceSource().CountEmitted(
            lines,
            stoppedUnixMicros: 5_000,
            new HashSet<string> { "00000000000000a1", "00000000000000a3", "00000000000000a4" }
        );
        Assert.Equal(3, emitted);
        Assert.Equal(2, arrived);
        Assert.Equal(1, new TraceNodeStats("alice", 3, 0, 0, 0, 0, emitted, arrived).Lost);
    }

    [Fact]
    public void A_payload_cut_at_2048_bytes_still_yields_its_id()
    {
        var cut = Line("00000000000000b7", 1, 1)["span_emit 00000000000000b7 ".Length..][..40];
        Assert.Equal("00000000000000b7", SpanParser.IdOf(cut));
        Assert.Null(SpanParser.IdOf("garbage"));
    }
}
