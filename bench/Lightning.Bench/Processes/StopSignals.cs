using System.Runtime.InteropServices;

namespace Lightning.Bench.Processes;

/// <summary>A long-running command's stop: Ctrl+C or SIGTERM cancels <see cref="Token"/> (the process does not die of them), until disposed.</summary>
internal sealed class StopSignals : IDisposable
{
    /// <summary>
    /// The signals a run stops on, keeping what it measured: Ctrl+C, SIGTERM (kill, a service manager), SIGHUP (its
    /// terminal closed) and SIGQUIT (Ctrl+\).
    /// </summary>
    public static IReadOnlyList<PosixSignal> Stopping { get; } =
    [PosixSignal.SIGINT, PosixSignal.SIGTERM, PosixSignal.SIGHUP, PosixSignal.SIGQUIT];

    private readonly CancellationTokenSource stop = new();
    private readonly PosixSignalRegistration terminate;
    private readonly ConsoleCancelEventHandler interrupt;

    public StopSignals()
    {
        interrupt = (_, e) =>
        {
            e.Cancel = true;
            stop.Cancel();
        };
        Console.CancelKeyPress += interrupt;
        terminate = PosixSignalRegistration.Create(
            PosixSignal.SIGTERM,
            c =>
            {
                c.Cancel = true;
                stop.Cancel();
            }
        );
    }

    public CancellationToken Token => stop.Token;

    public void Dispose()
    {
        Console.CancelKeyPress -= interrupt;
        terminate.Dispose();
        stop.Dispose();
    }
}
