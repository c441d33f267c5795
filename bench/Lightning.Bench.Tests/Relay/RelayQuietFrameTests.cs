using Lightning.Bench.Swarm.Relay;

namespace Lightning.Bench.Tests.Relay;

/// <summary>QuietRequest and Quiet frames: read back as written; a request the agent must not take on is malformed.</summary>
[Trait("Category", "Unit")]
public class RelayQuietFrameTests
{
    [Fact]
    public void A_quiet_request_and_its_answer_read_back_as_written_and_a_limit_beyond_ten_minutes_is_malformed()
    {
        var request = new QuietRequestMessage(
            7,
            TimeSpan.FromMilliseconds(10),
            0.1,
            TimeSpan.FromSeconds(1),
            TimeSpan.FromMilliseconds(1),
            2_500_000,
            [new CostTarget("alice", 4242), new CostTarget("bob", 4343)]
        );
        var read = QuietRequestMessage.Decode(Frame(request.Encode()));
        Assert.Equal(request.RequestId, read.RequestId);
        Assert.Equal(request.Quiet, read.Quiet);
        Assert.Equal(request.BusyShare, read.BusyShare, 6);
        Assert.Equal(request.Limit, read.Limit);
        Assert.Equal(request.Poll, read.Poll);
        Assert.Equal(request.IdleNsPerSecond, read.IdleNsPerSecond);
        Assert.Equal(request.Targets, read.Targets);

        var answer = QuietMessage.Decode(
            Frame(new QuietMessage(7, "", TimeSpan.FromMilliseconds(12.345), true).Encode())
        );
        Assert.Equal(new QuietMessage(7, "", TimeSpan.FromMicroseconds(12_345), true), answer);

        var tooLong = request with { Limit = TimeSpan.FromMinutes(11) };
        Assert.Equal(
            RelayProblem.Malformed,
            Assert.Throws<RelayProtocolException>(() => QuietRequestMessage.Decode(Frame(tooLong.Encode()))).Problem
        );
        var noPoll = request with { Poll = TimeSpan.Zero };
        Assert.Equal(
            RelayProblem.Malformed,
            Assert.Throws<RelayProtocolException>(() => QuietRequestMessage.Decode(Frame(noPoll.Encode()))).Problem
        );
    }

    private static RelayFrame Frame(byte[] bytes) =>
        RelayWire
            .ReadAsync(new MemoryStream(bytes), RelayWire.MaxFrameBytes, CancellationToken.None)
            .GetAwaiter()
            .GetResult()!
            .Value;
}
