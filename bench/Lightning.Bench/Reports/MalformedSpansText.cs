namespace Lightning.Bench.Reports;

/// <summary>cases/CASE/malformed-spans.txt: the first payloads of a case that were not valid spans, with the reason.</summary>
internal sealed class MalformedSpansText : ICaseOutput
{
    public const string FileName = "malformed-spans.txt";

    public IReadOnlyList<string> Files => [$"cases/CASE/{FileName}"];

    public void Write(CaseOutputContext context)
    {
        if (context.Spans is { MalformedSamples.Count: > 0 } spans)
        {
            File.WriteAllLines(
                Path.Combine(spans.CaseDirectory, FileName),
                spans.MalformedSamples.Select(m => $"{m.Node}\t{m.ReceivedUnixMicros}\t{m.Problem}\t{m.Raw}")
            );
        }
    }
}
