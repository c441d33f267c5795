using Lightning.Bench.Tracing;

namespace Lightning.Bench.Reports;

/// <summary>Where one case's spans go while they are read; disposed when the case's spans are done.</summary>
internal interface ISpanWriter : IDisposable
{
    /// <param name="paymentId">The payment the span was joined to, or null.</param>
    void Write(Span span, long? paymentId);
}
