using System.Text;

namespace Lightning.Bench.Tracing.Store;

/// <summary>Reads a span store (<see cref="SpanStore"/>) from a stream, from its start to its end, and writes back each case's spans.jsonl.</summary>
internal static class SpanStoreReader
{
    /// <summary>
    /// Decodes every case; <paramref name="open"/> gives where a case's spans.jsonl goes (null: check it, write it nowhere).
    /// Each case's bytes are checked against the hash the store keeps of them. Returns the cases, in the store's order.
    /// Throws <see cref="InvalidDataException"/> naming <paramref name="name"/> for anything that is not a whole store.
    /// </summary>
    public static IReadOnlyList<StoredCase> Read(Stream store, string name, Func<StoredCase, Stream?> open)
    {
        try
        {
            return ReadCases(new BufferedStream(store, 1 << 16), name, open);
        }
        catch (EndOfStreamException)
        {
            throw new InvalidDataException($"{name} ends early: the span store is cut short (copy it again)");
        }
        catch (ArgumentException)
        {
            // A node's name that is not UTF-8: only a damaged store has one (the writer took it from a JSON string).
            throw new InvalidDataException($"{name}: the span store is damaged: a line does not write back");
        }
        catch (InvalidDataException e) when (!e.Message.StartsWith(name, StringComparison.Ordinal))
        {
            throw new InvalidDataException($"{name}: {e.Message}", e);
        }
    }

    private static IReadOnlyList<StoredCase> ReadCases(Stream input, string name, Func<StoredCase, Stream?> open)
    {
        var magic = new byte[SpanStore.Magic.Length];
        if (
            input.ReadAtLeast(magic, magic.Length, throwOnEndOfStream: false) < magic.Length
            || !magic.AsSpan().SequenceEqual(SpanStore.Magic)
        )
        {
            throw new InvalidDataException(
                $"{name} is not a span store (it does not start as {SpanStore.FileName} does)"
            );
        }
        var version = ReadVarint(input);
        if (version > SpanStore.Version)
        {
            throw new InvalidDataException(
                $"{name} is span store format {version}, newer than this harness reads ({SpanStore.Version}): use a newer harness"
            );
        }
        var cases = new List<StoredCase>();
        var decoder = new SpanBlockDecoder();
        while (true)
        {
            var record = ReadByte(input);
            if (record == SpanStore.EndRecord)
            {
                if (input.ReadByte() >= 0)
                {
                    throw new InvalidDataException("the span store is damaged: bytes follow its end");
                }
                return cases;
            }
            if (record != SpanStore.CaseRecord)
            {
                throw new InvalidDataException($"the span store is damaged: record {record} where a case should start");
            }
            var stored = new StoredCase(Encoding.UTF8.GetString(ReadText(input)), (StoredCaseFlags)ReadVarint(input));
            cases.Add(stored);
            var target = open(stored);
            try
            {
                ReadCase(input, stored, decoder, target);
            }
            finally
            {
                target?.Dispose();
            }
        }
    }

    private static void ReadCase(Stream input, StoredCase stored, SpanBlockDecoder decoder, Stream? target)
    {
        using var hash = SpanStore.CaseHash(stored);
        long lines = 0;
        void Write(ReadOnlySpan<byte> bytes)
        {
            hash.AppendData(bytes);
            target?.Write(bytes);
        }
        while (true)
        {
            var record = ReadByte(input);
            if (record == SpanStore.BlockRecord)
            {
                var blockLines = (int)ReadLength(input, SpanBlockEncoder.MaxLines);
                var columnCount = (int)ReadLength(input, 64);
                if (columnCount != Enum.GetValues<SpanColumn>().Length)
                {
                    throw new InvalidDataException(
                        $"the span store is damaged: a block of {columnCount} columns (format {SpanStore.Version} has {Enum.GetValues<SpanColumn>().Length})"
                    );
                }
                var columns = new byte[columnCount][];
                for (var c = 0; c < columnCount; c++)
                {
                    var codec = (ColumnCodec)ReadByte(input);
                    var rawLength = (int)ReadLength(input, ColumnCompression.MaxColumnBytes);
                    var storedBytes = new byte[ReadLength(input, ColumnCompression.MaxColumnBytes)];
                    input.ReadExactly(storedBytes);
                    columns[c] = ColumnCompression.Decompress(codec, storedBytes, rawLength, (SpanColumn)c);
                }
                decoder.Decode(columns, blockLines, Write);
                lines += blockLines;
                continue;
            }
            if (record != SpanStore.CaseEndRecord)
            {
                throw new InvalidDataException(
                    $"the span store is damaged: record {record} inside case {stored.Folder}"
                );
            }
            var expectedLines = ReadVarint(input);
            Write(ReadText(input));
            var expectedHash = new byte[32];
            input.ReadExactly(expectedHash);
            if ((ulong)lines != expectedLines || !hash.GetHashAndReset().AsSpan().SequenceEqual(expectedHash))
            {
                throw new InvalidDataException(
                    $"the span store is damaged: case {stored.Folder} does not decode to the bytes it was made from"
                );
            }
            return;
        }
    }

    private static byte ReadByte(Stream input) =>
        input.ReadByte() is >= 0 and var b ? (byte)b : throw new EndOfStreamException();

    private static ulong ReadVarint(Stream input)
    {
        ulong value = 0;
        for (var shift = 0; shift < 64; shift += 7)
        {
            var b = ReadByte(input);
            value |= (ulong)(b & 0x7f) << shift;
            if (b < 0x80)
            {
                return value;
            }
        }
        throw new InvalidDataException("the span store is damaged: a number longer than 64 bits");
    }

    private static ulong ReadLength(Stream input, int limit) =>
        ReadVarint(input) is var value && value <= (ulong)limit
            ? value
            : throw new InvalidDataException(
                $"the span store is damaged: a length of {value} where at most {limit} fit"
            );

    private static byte[] ReadText(Stream input)
    {
        var text = new byte[ReadLength(input, ColumnCompression.MaxColumnBytes)];
        input.ReadExactly(text);
        return text;
    }
}
