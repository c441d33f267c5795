using System.Diagnostics;
using System.Text;
using Lightning.Bench.NodeKinds.CoreLightning;
using Lightning.Bench.Tracing;

namespace Lightning.Bench.TraceStress;

/// <summary>
/// Feeds the span parser random, truncated, oversized and adversarial datagrams (deep nesting, huge numbers, invalid
/// UTF-8, unescaped quotes) and reports what it made of them and the memory it took; a crash is a finding.
/// </summary>
public static class SpanFuzzer
{
    /// <summary>The spans are Core Lightning's: each parsed one is also named by its kind, as the span tables do.</summary>
    private static readonly CoreLightningTraceSource Source = new();

    private static readonly string[] Templates =
    [
        """[{"id":"0123456789abcdef","name":"jsonrpc","timestamp":1795229247272442,"duration":5600,"localEndpoint":{"serviceName":"lightningd"},"parentId":"fedcba9876543210","tags":{"id":"lnbench:xpay#42/cln:xpay#89/cln-xpay:injectpaymentonion#9", "error":"false"},"traceId":"0123456789abcdef0123456789abcdef"}]""",
        """[{"id":"0123456789abcdef","name":"db_exec_prepared","timestamp":1795229247272442,"duration":36,"localEndpoint":{"serviceName":"lightningd"},"tags":{"query":"UPDATE channels SET "x"=? WHERE id=?"},"traceId":"0123456789abcdef0123456789abcdef"}]""",
    ];

    public static int Run(long count, int seed)
    {
        var random = new Random(seed);
        var parsed = 0L;
        var problems = new Dictionary<string, long>();
        var clock = Stopwatch.StartNew();
        for (var i = 0L; i < count; i++)
        {
            var payload = Make(random, i);
            var span = SpanParser.Parse("fuzz", payload, out var problem);
            if (span is not null)
            {
                parsed++;
                _ = Source.OperationOf(span);
            }
            else
            {
                var key = problem is null ? "null without a reason" : problem.Split('(')[0].Trim();
                problems[key] = problems.GetValueOrDefault(key) + 1;
            }
        }
        Console.WriteLine(
            FormattableString.Invariant(
                $"fuzzed {count} datagrams in {clock.Elapsed.TotalSeconds:0.0} s: {parsed} parsed, {count - parsed} rejected; peak_rss_mb {PeakRss.Megabytes():0.0}"
            )
        );
        foreach (var (problem, n) in problems.OrderByDescending(p => p.Value))
        {
            Console.WriteLine($"  {n, 9} {problem}");
        }
        return problems.ContainsKey("null without a reason") ? 1 : 0;
    }

    private static byte[] Make(Random random, long i)
    {
        var template = Encoding.UTF8.GetBytes(Templates[i % Templates.Length]);
        switch (i % 8)
        {
            case 0: // random bytes, up to 8 KiB
                var bytes = new byte[random.Next(0, 8192)];
                random.NextBytes(bytes);
                return bytes;
            case 1: // cut anywhere, as the 2048-byte limit does
                return template[..random.Next(0, template.Length)];
            case 2: // flipped bytes
                var flipped = template.ToArray();
                for (var k = random.Next(1, 8); k > 0; k--)
                {
                    flipped[random.Next(flipped.Length)] = (byte)random.Next(256);
                }
                return flipped;
            case 3: // deep nesting
                var depth = random.Next(1, 100_000);
                return Encoding.UTF8.GetBytes(new string('[', depth) + new string(']', random.Next(0, depth)));
            case 4: // huge and odd numbers
                var number = random.Next(4) switch
                {
                    0 => "1e999",
                    1 => new string('9', random.Next(20, 5000)),
                    2 => "-0.5",
                    _ => "NaN",
                };
                return Encoding.UTF8.GetBytes(
                    Templates[0].Replace("1795229247272442", number, StringComparison.Ordinal)
                );
            case 5: // oversized tag value
                return Encoding.UTF8.GetBytes(
                    Templates[0]
                        .Replace(
                            "injectpaymentonion",
                            new string('x', random.Next(2048, 65536)),
                            StringComparison.Ordinal
                        )
                );
            case 6: // invalid UTF-8 inside a string
                var invalid = template.ToArray();
                invalid[random.Next(10, invalid.Length - 10)] = 0xC3;
                invalid[random.Next(10, invalid.Length - 10)] = 0xFF;
                return invalid;
            default: // valid, or valid with unescaped quotes (template 1)
                return template;
        }
    }
}
