namespace Lightning.Bench.Swarm.Relay;

/// <summary>
/// The first frame of a connection that becomes a byte pipe to a node's JSON-RPC socket,
/// WORK/TOPOLOGY/NODE/NETWORK/lightning-rpc on the agent's host. It carries the token itself (a pipe never sees Hello),
/// so an RPC connection neither replaces nor waits for the harness's span connection.
/// </summary>
internal sealed record RpcOpenMessage(int Version, byte[] Token, string Topology, string Node, string Network)
{
    public byte[] Encode() =>
        new FrameBodyWriter()
            .U16(Version)
            .U16(Token.Length)
            .Bytes(Token)
            .String(Topology)
            .String(Node)
            .String(Network)
            .Frame(RelayFrameType.RpcOpen);

    public static RpcOpenMessage Decode(RelayFrame frame)
    {
        var reader = new FrameBodyReader(frame);
        var version = reader.U16();
        var token = reader.Bytes(reader.U16());
        var message = new RpcOpenMessage(version, token, reader.String(), reader.String(), reader.String());
        reader.End();
        return message;
    }

    public override string ToString() =>
        $"RpcOpen {{ Version = {Version}, Token = ***, Topology = {Topology}, Node = {Node}, Network = {Network} }}";
}
