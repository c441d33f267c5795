namespace Lightning.Bench.Tests.Instructions;

/// <summary>
/// A 183-byte static x86-64 Linux program, written here byte by byte so that its instruction count is known exactly:
/// it reads one byte from stdin at a time, and for each byte spins <see cref="Loops"/> times (dec ecx; jnz: two
/// instructions each) and writes the byte to stdout; at end of input it exits. One unit of work, from the return of
/// one read to the return of the next, is 2 · Loops + 14 instructions (natively under callgrind: 3 bytes give
/// 3 · 2,000,014 + 7 for the last read and the exit = 6,000,049).
/// </summary>
internal static class UnitWorkProgram
{
    public const int Loops = 1_000_000;

    public const long InstructionsPerUnit = 2L * Loops + 14;

    public static byte[] Bytes()
    {
        const ulong Base = 0x400000;
        var code = new List<byte>();
        var top = code.Count;
        code.AddRange([
            0x31,
            0xc0,
            0x31,
            0xff,
            0x48,
            0x8d,
            0x74,
            0x24,
            0xf8,
            0xba,
            1,
            0,
            0,
            0,
            0x0f,
            0x05,
            0x48,
            0x85,
            0xc0,
        ]); // read(0, rsp-8, 1); test rax
        var jumpToExit = code.Count;
        code.AddRange([0x7e, 0]); // jle exit
        code.Add(0xb9);
        code.AddRange(BitConverter.GetBytes(Loops)); // mov ecx, Loops
        code.AddRange([0xff, 0xc9, 0x75, 0xfc]); // dec ecx; jnz back
        code.AddRange([0xb8, 1, 0, 0, 0, 0xbf, 1, 0, 0, 0, 0x48, 0x8d, 0x74, 0x24, 0xf8, 0xba, 1, 0, 0, 0, 0x0f, 0x05]); // write(1, rsp-8, 1)
        var jumpToTop = code.Count;
        code.AddRange([0xeb, (byte)(top - (jumpToTop + 2))]); // jmp top
        var exit = code.Count;
        code.AddRange([0xb8, 60, 0, 0, 0, 0x31, 0xff, 0x0f, 0x05]); // exit(0)
        code[jumpToExit + 1] = (byte)(exit - (jumpToExit + 2));

        const int headers = 64 + 56;
        var size = (ulong)(headers + code.Count);
        using var elf = new MemoryStream();
        using var w = new BinaryWriter(elf);
        w.Write([0x7f, (byte)'E', (byte)'L', (byte)'F', 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]); // ELF64, little-endian
        w.Write((ushort)2); // executable
        w.Write((ushort)0x3e); // x86-64
        w.Write(1u);
        w.Write(Base + headers); // entry
        w.Write(64UL); // program headers
        w.Write(0UL); // no section headers
        w.Write(0u);
        w.Write((ushort)64);
        w.Write((ushort)56);
        w.Write((ushort)1);
        w.Write((ushort)0);
        w.Write((ushort)0);
        w.Write((ushort)0);
        w.Write(1u); // PT_LOAD
        w.Write(5u); // read + execute
        w.Write(0UL);
        w.Write(Base);
        w.Write(Base);
        w.Write(size);
        w.Write(size);
        w.Write(0x1000UL);
        w.Write(code.ToArray());
        w.Flush();
        return elf.ToArray();
    }
}
