namespace Lightning.Bench.Swarm.Relay;

/// <summary>
/// The harness's accounts of one node's stream: frames by sequence number within each agent session, and the agent's
/// latest counts. Closing a session (the agent restarted) keeps what it could count: frames the agent reported
/// relayed and that never arrived.
/// </summary>
internal sealed class RelayStreamBooks(string node)
{
    private long session;
    private long lastSequence;
    private long arrivedInSession;
    private RelayStreamCounters? counts;
    private long closedReceived;
    private long closedDropped;
    private long closedRelayed;
    private long closedLost;

    public string Node { get; } = node;

    public long Arrived { get; private set; }

    public long Duplicates { get; private set; }

    public int Sessions { get; private set; }

    public bool Final { get; private set; }

    /// <summary>Whether a frame with this sequence number is new (else a duplicate, counted and skipped).</summary>
    public bool Accept(long frameSession, long sequence)
    {
        Enter(frameSession);
        if (sequence <= lastSequence)
        {
            Duplicates++;
            return false;
        }
        lastSequence = sequence;
        arrivedInSession++;
        Arrived++;
        return true;
    }

    public void Count(long countsSession, RelayStreamCounters latest, bool final)
    {
        Enter(countsSession);
        if (counts is null || latest.Received >= counts.Received)
        {
            counts = latest;
        }
        Final |= final;
    }

    public RelayNodeStats Stats()
    {
        var relayed = Math.Max(counts?.Relayed ?? 0, arrivedInSession);
        var dropped = counts?.Dropped ?? 0;
        return new RelayNodeStats(
            Node,
            closedReceived + relayed + dropped,
            closedDropped + dropped,
            closedRelayed + relayed,
            Arrived,
            Duplicates,
            closedLost + (relayed - arrivedInSession),
            Sessions,
            Final
        );
    }

    private void Enter(long frameSession)
    {
        if (frameSession == session)
        {
            return;
        }
        if (session != 0)
        {
            var relayed = Math.Max(counts?.Relayed ?? 0, arrivedInSession);
            closedRelayed += relayed;
            closedDropped += counts?.Dropped ?? 0;
            closedReceived += relayed + (counts?.Dropped ?? 0);
            closedLost += relayed - arrivedInSession;
        }
        session = frameSession;
        Sessions++;
        lastSequence = 0;
        arrivedInSession = 0;
        counts = null;
        Final = false;
    }
}
