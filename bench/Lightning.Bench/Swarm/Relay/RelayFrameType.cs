namespace Lightning.Bench.Swarm.Relay;

/// <summary>What a frame of the agent protocol carries (its first byte after the length). See docs/swarm.md.</summary>
internal enum RelayFrameType : byte
{
    /// <summary>Harness → agent, first frame: protocol version and the run's token.</summary>
    Hello = 0x01,

    /// <summary>Agent → harness: the token matched; the agent's host and session (a new one each time the agent starts).</summary>
    Welcome = 0x02,

    /// <summary>Agent → harness: why the connection is refused (a wrong token, another version); the agent then closes it.</summary>
    Refused = 0x03,

    /// <summary>Harness → agent, the only frame of its connection (version and token): answered by Welcome, then closed; it never replaces the span connection.</summary>
    Probe = 0x04,

    /// <summary>Harness → agent: bind the trace sockets of a topology's nodes (before its stack is deployed).</summary>
    Bind = 0x10,

    /// <summary>Agent → harness: each socket bound, or why not.</summary>
    Bound = 0x11,

    /// <summary>Harness → agent: drain and close a topology's sockets; the agent answers with its final counters.</summary>
    Unbind = 0x12,

    /// <summary>Agent → harness: one datagram of one node, with its sequence number in that node's stream and when it was received.</summary>
    Span = 0x20,

    /// <summary>Agent → harness: every stream's counts so far (each second), or a topology's final counts (after Unbind).</summary>
    Counters = 0x21,

    /// <summary>Harness → agent: read these nodes' cgroups (node → host pid of its container's first process).</summary>
    CostsRequest = 0x30,

    /// <summary>Agent → harness: the readings, or why a node could not be read.</summary>
    Costs = 0x31,

    /// <summary>Harness → agent: wait on the agent's host until the nodes are quiet (the timed settle before an invocation).</summary>
    QuietRequest = 0x32,

    /// <summary>Agent → harness: how long that wait took, and whether the nodes fell quiet.</summary>
    Quiet = 0x33,

    /// <summary>Harness → agent: start a switched-off perf record on each of a topology's nodes' cgroups; answered by ProfileState.</summary>
    ProfileStart = 0x40,

    /// <summary>Harness → agent: stop a topology's recordings; answered by ProfileChunk frames of folded stacks, per node.</summary>
    ProfileStop = 0x41,

    /// <summary>Agent → harness: part of a node's folded stacks; the node's last chunk carries its figures or its problem.</summary>
    ProfileChunk = 0x42,

    /// <summary>Harness → agent: switch a topology's recordings on or off; answered by ProfileState.</summary>
    ProfileSwitch = 0x43,

    /// <summary>Agent → harness: the answer to ProfileStart and ProfileSwitch, per node.</summary>
    ProfileState = 0x44,

    /// <summary>Harness → agent, the first frame of its own connection (with the token): make it a byte pipe to a node's RPC socket.</summary>
    RpcOpen = 0x50,

    /// <summary>Agent → harness: the pipe is open (every byte after this frame is the node's), or why not.</summary>
    RpcOpened = 0x51,

    /// <summary>Agent → harness: a known frame type this agent does not implement.</summary>
    Unsupported = 0x7E,
}
