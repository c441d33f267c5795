namespace Lightning.Bench.Tracing.Store;

/// <summary>
/// The fields of one span in Core Lightning's payload layout (<see cref="ClnSpanPayload"/>). Strings are ranges of the
/// payload they were read from, as written there (escapes kept), so writing them back gives the same bytes.
/// </summary>
internal readonly record struct ClnSpanFields(
    ulong Id,
    Range Name,
    long Timestamp,
    long Duration,
    Range Service,
    ulong? ParentId,
    Range Tags,
    ulong TraceHigh,
    ulong TraceLow
);
