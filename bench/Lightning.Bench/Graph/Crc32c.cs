namespace Lightning.Bench.Graph;

/// <summary>CRC-32C (Castagnoli), as ccan's crc32c(start, buf, len) computes it: the gossip store's record checksum.</summary>
internal static class Crc32c
{
    private static readonly uint[] Table = MakeTable();

    public static uint Compute(uint start, ReadOnlySpan<byte> data)
    {
        var crc = ~start;
        foreach (var b in data)
        {
            crc = Table[(crc ^ b) & 0xff] ^ (crc >> 8);
        }
        return ~crc;
    }

    private static uint[] MakeTable()
    {
        var table = new uint[256];
        for (uint i = 0; i < 256; i++)
        {
            var c = i;
            for (var k = 0; k < 8; k++)
            {
                c = (c & 1) != 0 ? 0x82F63B78u ^ (c >> 1) : c >> 1;
            }
            table[i] = c;
        }
        return table;
    }
}
