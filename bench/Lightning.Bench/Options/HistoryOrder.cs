namespace Lightning.Bench.Options;

/// <summary>How --publish orders the runs of a chart: as they ran, or by the build's node version (a history of releases).</summary>
public enum HistoryOrder
{
    /// <summary>Runs in the order they started; each point labelled with its date.</summary>
    Date,

    /// <summary>Runs by the version their build's node reported (v24.05 before v24.08.2 before v25.02), then by date; each point labelled with its version.</summary>
    Version,
}
