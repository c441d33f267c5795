using System.Buffers;
using System.Text;
using Lightning.Bench.Tracing;
using Lightning.Bench.Tracing.Store;

namespace Lightning.Bench.Tests;

/// <summary>
/// The span store gives back every case's spans.jsonl byte for byte: real spans (SpanSamples/: three windows of three
/// cases of the default run 20261124-024902-7680, alice's and bob's, root spans, children with their parents, payment
/// jsonrpc spans with id tags) as columns, anything else verbatim; and it says what is wrong with a file that is not one.
/// </summary>
[Trait("Category", "Unit")]
public class SpanStoreTests
{
    private static readonly string Samples = Path.Combine(AppContext.BaseDirectory, "SpanSamples");

    public static IReadOnlyList<(string Folder, byte[] Spans)> SampleCases() =>
        Directory
            .GetDirectories(Samples)
            .Order(StringComparer.Ordinal)
            .Select(d => (Path.GetFileName(d), File.ReadAllBytes(Path.Combine(d, SpanJsonLines.FileName))))
            .ToList();

    [Theory]
    [InlineData(SpanBlockEncoder.MaxLines, "Brotli")]
    [InlineData(7, "Brotli")]
    [InlineData(1, "Deflate")]
    [InlineData(50, "Stored")]
    public void Real_spans_of_three_cases_come_back_byte_for_byte_every_line_as_columns(
        int blockLines,
        string codecName
    )
    {
        var codec = Enum.Parse<ColumnCodec>(codecName);
        var cases = SampleCases();
        Assert.Equal(3, cases.Count);

        var (store, contents) = Encode(cases, blockLines, codec);
        var decoded = Decode(store);

        Assert.Equal(cases.Select(c => c.Folder), decoded.Select(d => d.Case.Folder));
        Assert.All(decoded, d => Assert.Equal(StoredCaseFlags.Views, d.Case.Flags));
        for (var i = 0; i < cases.Count; i++)
        {
            Assert.True(
                cases[i].Spans.AsSpan().SequenceEqual(decoded[i].Spans),
                $"{cases[i].Folder} did not come back byte for byte"
            );
        }
        Assert.Equal(new StoreContents(3, 345, 0, 0), contents);
        if (codec == ColumnCodec.Brotli && blockLines == SpanBlockEncoder.MaxLines)
        {
            // Random span and trace ids are most of what is left: 24 bytes a root span.
            Assert.True(
                store.Length * 4 < cases.Sum(c => c.Spans.Length),
                $"{store.Length} bytes for {cases.Sum(c => c.Spans.Length)}"
            );
        }
    }

    [Fact]
    public void Malformed_and_foreign_lines_come_back_byte_for_byte_kept_verbatim()
    {
        var real = Encoding.UTF8.GetString(SampleCases()[0].Spans).Split('\n')[0];
        string[] payloads =
        [
            Encoding.UTF8.GetString(SpanPayloads.Truncated()),
            SpanPayloads.UnescapedQuote(),
            """[{"name":"jsonrpc","id":"0123456789abcdef","timestamp":1,"duration":2,"localEndpoint":{"serviceName":"lightningd"},"tags":{},"traceId":"0123456789abcdef0123456789abcdef"}]""",
            """[{"id":"0123456789abcdef","name":"jsonrpc","timestamp":1,"localEndpoint":{"serviceName":"lightningd"},"tags":{},"traceId":"0123456789abcdef0123456789abcdef"}]""",
            """[{"id":"0123456789ABCDEF","name":"jsonrpc","timestamp":1,"duration":2,"localEndpoint":{"serviceName":"lightningd"},"tags":{},"traceId":"0123456789abcdef0123456789abcdef"}]""",
            """[{"id":"0123456789abcdef","name":"jsonrpc","timestamp":1,"duration":2,"localEndpoint":{"serviceName":"lightningd"},"tags":{},"traceId":"0123456789abcdef0123456789abcdef"}] """,
            """[ {"id":"0123456789abcdef","name":"jsonrpc","timestamp":1,"duration":2,"localEndpoint":{"serviceName":"lightningd"},"tags":{},"traceId":"0123456789abcdef0123456789abcdef"}]""",
            """[{"id":"0123456789abcdef","name":"jsonrpc","timestamp":01,"duration":2,"localEndpoint":{"serviceName":"lightningd"},"tags":{},"traceId":"0123456789abcdef0123456789abcdef"}]""",
            """[{"id":"0123456789abcdef","name":"x","timestamp":1,"duration":2,"localEndpoint":{"serviceName":"l"},"tags":{},"traceId":"0123456789abcdef0123456789abcdef"},{"id":"1"}]""",
            "not json at all",
            "",
        ];
        // In the layout, though not what Core Lightning sends today: kept as columns, escapes and all.
        string[] columnar =
        [
            """[{"id":"0123456789abcdef","name":"a\"b\u00e9é","timestamp":-1,"duration":0,"localEndpoint":{"serviceName":"lightningd"},"parentId":"fedcba9876543210","tags":{"n":5, "o":{"p":[1]}},"traceId":"0123456789abcdef0123456789abcdef"}]""",
            """[{"id":"0123456789abcdef","name":"","timestamp":9223372036854775807,"duration":9223372036854775807,"localEndpoint":{"serviceName":""},"tags":{},"traceId":"ffffffffffffffffffffffffffffffff"}]""",
        ];
        string[] foreign =
        [
            "not json at all",
            "",
            """{"recv_us":1,"node":"alice","payload":"x"}""",
            """{"node": "alice","recv_us":1,"payload":"x"}""",
            """{"node":"\u0061lice","recv_us":1,"payload":"x"}""",
            """{"node":"alice","recv_us":1e3,"payload":"x"}""",
            """{"node":"alice","recv_us":1,"payload":"x","more":1}""",
            real + "\r",
        ];
        var lines = payloads
            .Select((p, i) => Line("alice", 1000 + i, Encoding.UTF8.GetBytes(p)))
            .Concat(columnar.Select((p, i) => Line("bob", -5 - i, Encoding.UTF8.GetBytes(p))))
            .Append(Line("alice", 7, SpanPayloads.InvalidUtf8()))
            .Select(l => Encoding.UTF8.GetString(l))
            .Concat(foreign)
            .Append(real)
            .ToList();
        var file = Encoding.UTF8.GetBytes(string.Join('\n', lines) + "\n" + real[..40]);

        var (store, contents) = Encode([("case", file)]);

        Assert.True(file.AsSpan().SequenceEqual(Decode(store).Single().Spans));
        Assert.Equal(new StoreContents(1, columnar.Length + 1, payloads.Length, foreign.Length + 1), contents);
    }

    [Fact]
    public void Empty_cases_and_a_case_cut_mid_line_come_back()
    {
        var real = SampleCases()[1].Spans;
        var cut = real.AsSpan(0, real.Length - 100).ToArray();
        (string, byte[])[] cases =
        [
            ("empty", []),
            ("one-newline", "\n"u8.ToArray()),
            ("no-newline", "abc"u8.ToArray()),
            ("cut", cut),
            ("empty-again", []),
        ];

        var (store, contents) = Encode(cases, blockLines: 10);
        var decoded = Decode(store);

        Assert.Equal(cases.Select(c => c.Item1), decoded.Select(d => d.Case.Folder));
        for (var i = 0; i < cases.Length; i++)
        {
            Assert.True(cases[i].Item2.AsSpan().SequenceEqual(decoded[i].Spans), cases[i].Item1);
        }
        Assert.Equal(5, contents.Cases);
        Assert.Equal(1 + 114, contents.Lines);
    }

    [Fact]
    public void A_file_that_is_not_a_store_a_newer_store_and_a_store_cut_short_are_refused_saying_so()
    {
        var (store, _) = Encode(SampleCases().Take(1).ToList());
        InvalidDataException Refused(byte[] bytes) => Assert.Throws<InvalidDataException>(() => Decode(bytes));

        Assert.Equal(
            "run.zip: spans.lnspans is not a span store (it does not start as spans.lnspans does)",
            Refused("{\"node\":\"alice\"}"u8.ToArray()).Message
        );
        Assert.Contains("is not a span store", Refused([]).Message);
        var newer = store.ToArray();
        newer[SpanStore.Magic.Length] = (byte)(SpanStore.Version + 1);
        Assert.Equal(
            "run.zip: spans.lnspans is span store format 2, newer than this harness reads (1): use a newer harness",
            Refused(newer).Message
        );
        Assert.Equal(
            "run.zip: spans.lnspans ends early: the span store is cut short (copy it again)",
            Refused(store[..(store.Length / 2)]).Message
        );
        Assert.Contains("bytes follow its end", Refused([.. store, 0]).Message);
    }

    [Fact]
    public void Every_cut_and_every_changed_byte_is_refused_or_changes_nothing()
    {
        // A small store of real and malformed lines over several blocks; no damage may come back as other lines.
        var lines = Encoding
            .UTF8.GetString(SampleCases()[2].Spans)
            .Split('\n')
            .Take(12)
            .Append(Encoding.UTF8.GetString(Line("alice", 1, SpanPayloads.Truncated())))
            .Append("garbage");
        var file = Encoding.UTF8.GetBytes(string.Join('\n', lines) + "\n");
        var (store, _) = Encode([("a", file), ("b", file[..200])], blockLines: 5);

        for (var length = 0; length < store.Length; length++)
        {
            Assert.Throws<InvalidDataException>(() => Decode(store[..length]));
        }
        for (var at = 0; at < store.Length; at++)
        {
            var damaged = store.ToArray();
            damaged[at] ^= 0x5a;
            try
            {
                var decoded = Decode(damaged);
                Assert.True(
                    decoded.Count == 2
                        && decoded[0].Case.Folder == "a"
                        && decoded[1].Case.Folder == "b"
                        && decoded[0].Spans.AsSpan().SequenceEqual(file)
                        && decoded[1].Spans.AsSpan().SequenceEqual(file.AsSpan(0, 200)),
                    $"a change at byte {at} decoded to other lines"
                );
            }
            catch (InvalidDataException e)
            {
                Assert.StartsWith("run.zip: spans.lnspans", e.Message);
            }
        }
    }

    /// <summary>A line as the harness writes it (SpanJsonLines).</summary>
    private static byte[] Line(string node, long received, ReadOnlySpan<byte> payload)
    {
        var buffer = new ArrayBufferWriter<byte>();
        using var json = SpanJsonLines.LineWriter(buffer);
        SpanJsonLines.WriteLine(json, Encoding.UTF8.GetBytes(node), received, payload);
        return buffer.WrittenSpan.ToArray();
    }

    private static (byte[] Store, StoreContents Contents) Encode(
        IReadOnlyList<(string Folder, byte[] Spans)> cases,
        int blockLines = SpanBlockEncoder.MaxLines,
        ColumnCodec codec = ColumnCodec.Brotli
    )
    {
        using var output = new MemoryStream();
        var writer = new SpanStoreWriter(output, codec, blockLines);
        foreach (var (folder, spans) in cases)
        {
            writer.AddCase(new StoredCase(folder, StoredCaseFlags.Views), new MemoryStream(spans));
        }
        var contents = writer.Finish();
        return (output.ToArray(), contents);
    }

    private static List<(StoredCase Case, byte[] Spans)> Decode(byte[] store)
    {
        var streams = new List<MemoryStream>();
        var cases = SpanStoreReader.Read(
            new MemoryStream(store),
            "run.zip: spans.lnspans",
            _ =>
            {
                var stream = new MemoryStream();
                streams.Add(stream);
                return stream;
            }
        );
        return cases.Zip(streams, (c, s) => (c, s.ToArray())).ToList();
    }
}
