using System.Runtime.InteropServices;
using Lightning.Bench.Cases;
using Lightning.Bench.Progress;
using Lightning.Bench.Swarm;

namespace Lightning.Bench.Run;

/// <summary>
/// Ctrl+C or SIGTERM, from the moment it is made until disposed: the run is cancelled, its one shutdown runs on the
/// signal's thread, and the harness exits 130. A second signal while stopping is ignored. A side-by-side share
/// (<see cref="Lifeline"/> set) stops the same way when its standard input ends: the run that started it is gone,
/// killed with kill -9 perhaps, and no signal will come.
/// </summary>
internal sealed class RunInterrupt : IDisposable
{
    private readonly RunShutdown shutdown;
    private readonly BenchmarkOutput output;
    private readonly RunProgress progress;
    private readonly PosixSignalRegistration sigint;
    private readonly PosixSignalRegistration sigterm;
    // Running, Interrupted (the signal's handler ends the process) or Ending (the main thread returns its own code).
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
        sigint = PosixSignalRegistration.Create(PosixSignal.SIGINT, Interrupt);
        sigterm = PosixSignalRegistration.Create(PosixSignal.SIGTERM, Interrupt);
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
            while (input.Read(buffer, 0, buffer.Length) > 0)
            {
            }
        }
        catch (IOException)
        {
            // Ended either way.
        }
        Stop("the side-by-side run that started this share is gone (its standard input ended)");
    }

    private void Interrupt(PosixSignalContext context)
    {
        context.Cancel = true;
        Stop(context.Signal.ToString());
    }

    private void Stop(string why)
    {
        if (Interlocked.CompareExchange(ref state, Interrupted, Running) != Running)
        {
            return;
        }
        // The display's last frame stays; the teardown's lines print under it.
        progress.StopDisplay();
        progress.Info($"{why}: stopping, tearing the topology down");
        // BenchmarkDotNet's thread is inside a case and would run the next ones: it is silenced and left behind,
        // and this thread tears down (it never disposes what that thread still holds, such as the run's cancellation).
        output.Mute();
        shutdown.Run?.Cancel();
        try
        {
            shutdown.RunAsync(partial: true, byInterrupt: true).GetAwaiter().GetResult();
        }
        catch (Exception e)
        {
            Console.Error.WriteLine($"lnbench: error: teardown after {why} failed: {e.Message}");
        }
        Environment.Exit(HarnessExit.Interrupted);
    }

    /// <summary>
    /// The main thread's last word: after a signal the handler exits with 130 once the teardown is done. Returning (or
    /// throwing the cancellation) from the main thread too would end the process from two threads at once, which can
    /// abort it or leave it hanging in exit; so this waits for the handler's exit instead.
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
        sigint.Dispose();
        sigterm.Dispose();
    }
}
