namespace Lightning.Bench.Swarm.Relay;

/// <summary>The agent's answer to RpcOpen: empty problem, and every byte after this frame is the node's; otherwise why not (then it closes).</summary>
internal sealed record RpcOpenedMessage(string Problem)
{
    public byte[] Encode() => new FrameBodyWriter().String(Problem).Frame(RelayFrameType.RpcOpened);

    public static RpcOpenedMessage Decode(RelayFrame frame)
    {
        var reader = new FrameBodyReader(frame);
        var message = new RpcOpenedMessage(reader.String());
        reader.End();
        return message;
    }
}
