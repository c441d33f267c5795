namespace Lightning.Bench.Swarm.Relay;

/// <summary>Harness → agent: switch a topology's recordings on (an invocation to sample begins) or off (it ended).</summary>
internal sealed record ProfileSwitchMessage(int RequestId, string Topology, bool On)
{
    public byte[] Encode() =>
        new FrameBodyWriter()
            .I32(RequestId)
            .String(Topology)
            .U8(On ? (byte)1 : (byte)0)
            .Frame(RelayFrameType.ProfileSwitch);

    public static ProfileSwitchMessage Decode(RelayFrame frame)
    {
        var reader = new FrameBodyReader(frame);
        var (id, topology, on) = (reader.I32(), reader.String(), reader.U8());
        reader.End();
        return on <= 1
            ? new ProfileSwitchMessage(id, topology, on == 1)
            : throw new RelayProtocolException(RelayProblem.Malformed, $"ProfileSwitch frame: on/off byte {on}");
    }
}
