using System.Runtime.InteropServices;
using Lightning.Bench.Cases;
using Lightning.Bench.Processes;
using Lightning.Bench.Progress;
using Lightning.Bench.Swarm;

namespace Lightning.Bench.Run;

/// <summary>
/// Ctrl+C, SIGTERM, SIGHUP (the terminal closed: an SSH connection dropped, a tmux session killed) or SIGQUIT, from the
/// moment it is made until disposed: the run is cancelled, its one shutdown runs on a thread of its own (teardown,
/// partial results kept and marked, the page and summary of what finished), said in one line in console.log, and the
/// harness exits 130. A second signal while stopping forces the exit: the files being written are removed (a final
/// file is whole or absent) and the signal ends the process as it would have without the harness; what is left of the
/// run's topologies the next run sweeps. A side-by-side share (<see cref="Lifeline"/> set) stops the same way when its
/// standard input ends: the run that started it is gone, killed with kill -9 perhaps, and no signal will come.
/// </summary>
internal sealed class RunInterrupt : IDisposable
{
    private readonly RunShutdown shutdown;
    private readonly BenchmarkOutput output;
    private readonly RunProgress progress;
    private readonly IReadOnlyList<PosixSignalRegistration> registrations;

    // Running, Interrupted (the shutdown's thread ends the process) or Ending (the main thread returns its own code).
    private int state = Running;
    private const int Running = 0;
    private const int Interrupted = 1;
    private const int Ending = 2;

    /// <summary>The environment variable a side-by-side run sets on its shares (<see cref="SideBySideRun.Lifeline"/>).</summary>
    public const string Lifeline = SideBySideRun.Lifeline;

    public RunInterrupt(RunShutdown shutdown, BenchmarkOutput output, RunProgress progress)
    {
        this.shutdown = shutdown;
        this.output = output;
        this.progress = progress;
        registrations = StopSignals.Stopping.Select(s => PosixSignalRegistration.Create(s, Interrupt)).ToList();
        if (Environment.GetEnvironmentVariable(Lifeline) == "stdin")
        {
            new Thread(WatchLifeline) { IsBackground = true, Name = "lnbench lifeline" }.Start();
        }
    }

    /// <summary>Reads standard input to its end (the starting run holds it open and sends nothing), then stops the run.</summary>
    private void WatchLifeline()
    {
        try
        {
            using var input = Console.OpenStandardInput();
            var buffer = new byte[256];
            while (input.Read(buffer, 0, buffer.Length) > 0) { }
        }
        catch (IOException)
        {
            // Ended either way.
        }
        if (Interlocked.CompareExchange(ref state, Interrupted, Running) == Running)
        {
            Stop(
                "standard input ended",
                "the side-by-side run that started this share is gone (its standard input ended)"
            );
        }
    }

    private void Interrupt(PosixSignalContext context)
    {
        var signal = context.Signal.ToString();
        if (Interlocked.CompareExchange(ref state, Interrupted, Running) == Running)
        {
            context.Cancel = true;
            var why = Describe(context.Signal);
            // Not on the signal's thread: SIGHUP's handler runs on the thread pool, and the teardown takes seconds.
            new Thread(() => Stop(signal, why)) { Name = "lnbench shutdown" }.Start();
        }
        else if (Volatile.Read(ref state) == Interrupted)
        {
            ForceExit(signal);
            // Not cancelled: the runtime ends the process by the signal, as without a handler.
            context.Cancel = false;
        }
        else
        {
            // The main thread is returning the run's own exit code.
            context.Cancel = true;
        }
    }

    /// <summary>The signal's name and what sends it, for the line that says the run stops.</summary>
    private static string Describe(PosixSignal signal) =>
        signal switch
        {
            PosixSignal.SIGINT => "SIGINT (Ctrl+C)",
            PosixSignal.SIGHUP => "SIGHUP (the terminal closed or the session ended)",
            PosixSignal.SIGQUIT => "SIGQUIT (Ctrl+\\)",
            _ => signal.ToString(),
        };

    /// <summary>A stop that was already under way, asked again: the files being written go, then the process.</summary>
    private void ForceExit(string signal)
    {
        // On a thread of its own, waited for a moment only: a console that does not take its line must not keep the process alive.
        var last = new Thread(() =>
        {
            var removed = AtomicFile.RemoveUnfinished();
            progress.Info(
                $"{signal} again: exiting now, before the teardown ends{(removed > 0 ? $" ({removed} unfinished file(s) removed)" : "")}; "
                    + "the next run removes what is left of this one"
            );
        })
        {
            IsBackground = true,
            Name = "lnbench forced exit",
        };
        last.Start();
        last.Join(TimeSpan.FromSeconds(2));
    }

    /// <summary>The run's stop, once its caller moved the state to Interrupted.</summary>
    /// <param name="reason">What stopped the run, as its summary and manifest keep it ("SIGHUP").</param>
    /// <param name="why">The same in words, for the line that says the run stops.</param>
    private void Stop(string reason, string why)
    {
        // The display's last frame stays; the teardown's lines print under it.
        progress.StopDisplay();
        progress.Info(
            shutdown.Started
                ? $"{why}: the run is ending, finishing its results (a second signal exits at once)"
                : $"{why}: stopping, tearing the topology down and keeping what was measured (a second signal exits at once)"
        );
        // BenchmarkDotNet's thread is inside a case and would run the next ones: it is silenced and left behind,
        // and this thread tears down (it never disposes what that thread still holds, such as the run's cancellation).
        output.Mute();
        shutdown.Run?.Cancel(reason);
        try
        {
            shutdown.RunAsync(partial: true, interruptedBy: reason).GetAwaiter().GetResult();
        }
        catch (Exception e)
        {
            Console.Error.WriteLine($"lnbench: error: teardown after {why} failed: {e.Message}");
        }
        // What the left-behind thread had under way is not whole and never will be.
        AtomicFile.RemoveUnfinished();
        if (HarnessExit.InterruptedNote is { } note)
        {
            Console.Error.WriteLine($"lnbench: error: {note}");
        }
        Environment.Exit(HarnessExit.Interrupted);
    }

    /// <summary>
    /// The main thread's last word: after a signal the shutdown's thread exits with 130 once the teardown is done.
    /// Returning (or throwing the cancellation) from the main thread too would end the process from two threads at once,
    /// which can abort it or leave it hanging in exit; so this waits for that thread's exit instead.
    /// </summary>
    public async Task EndAsync()
    {
        if (Interlocked.CompareExchange(ref state, Ending, Running) == Interrupted)
        {
            await Task.Delay(Timeout.Infinite);
        }
    }

    public void Dispose()
    {
        foreach (var registration in registrations)
        {
            registration.Dispose();
        }
    }
}
