using Docker.DotNet.Models;

namespace Lightning.Bench.Docker;

/// <summary>
/// One task of a service: the node it was placed on, its state and what the swarm said about it (message, error), and
/// once it has one its container (id, host pid, exit code), which lives in that node's engine.
/// </summary>
internal sealed record SwarmTask(
    string Id,
    string ServiceId,
    string NodeId,
    string State,
    string DesiredState,
    string Message,
    string? Error,
    string? ContainerId,
    long Pid,
    long ExitCode,
    DateTime? Timestamp
)
{
    public bool IsRunning => State == "running";

    /// <summary>A state a task does not leave (it will not run again: swarm makes a new task instead).</summary>
    public bool HasEnded => State is "complete" or "shutdown" or "failed" or "rejected" or "orphaned" or "remove";

    /// <summary>"running", "failed (task: non-zero exit (3))", "pending (no suitable node …)": for messages.</summary>
    public string Describe() =>
        Error is { Length: > 0 } error ? $"{State} ({error})"
        : Message is { Length: > 0 } message && !string.Equals(message, State, StringComparison.OrdinalIgnoreCase)
            ? $"{State} ({message})"
        : State;

    public static SwarmTask From(TaskResponse task) =>
        new(
            task.ID,
            task.ServiceID ?? "",
            task.NodeID ?? "",
            Lower(task.Status?.State),
            Lower(task.DesiredState),
            task.Status?.Message ?? "",
            string.IsNullOrEmpty(task.Status?.Err) ? null : task.Status.Err,
            string.IsNullOrEmpty(task.Status?.ContainerStatus?.ContainerID)
                ? null
                : task.Status.ContainerStatus.ContainerID,
            task.Status?.ContainerStatus?.PID ?? 0,
            task.Status?.ContainerStatus?.ExitCode ?? 0,
            task.Status?.Timestamp
        );

    private static string Lower(TaskState? state) => state?.ToString().ToLowerInvariant() ?? "unknown";
}
