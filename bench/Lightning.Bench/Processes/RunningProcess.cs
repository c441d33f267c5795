using System.ComponentModel;
using System.Diagnostics;
using System.Text;

namespace Lightning.Bench.Processes;

/// <summary>
/// A tool that runs alongside the harness (such as `perf record`) until told to stop: started with arguments as a list,
/// its standard error kept (its last 64 KB) for error messages; disposing kills it if it still runs.
/// </summary>
internal sealed class RunningProcess : IRunningProcess
{
    private const int KeptErrorChars = 64 * 1024;
    private readonly Process process;
    private readonly StringBuilder stderr = new();

    private RunningProcess(Process process) => this.process = process;

    public static RunningProcess Start(string fileName, IReadOnlyList<string> arguments)
    {
        var startInfo = ProcessRunner.StartInfo(fileName, arguments);
        var process = new Process { StartInfo = startInfo };
        var running = new RunningProcess(process);
        process.OutputDataReceived += (_, _) => { };
        process.ErrorDataReceived += (_, e) => running.KeepError(e.Data);
        try
        {
            process.Start();
        }
        catch (Win32Exception e)
        {
            process.Dispose();
            throw new ToolNotFoundException(fileName, e.Message);
        }
        process.StandardInput.Close();
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        return running;
    }

    public bool HasExited => process.HasExited;

    public int ExitCode => process.ExitCode;

    /// <summary>What it wrote to standard error so far.</summary>
    public string StandardError
    {
        get
        {
            lock (stderr)
            {
                return stderr.ToString();
            }
        }
    }

    /// <summary>Its last non-empty lines of standard error, for one-line messages.</summary>
    public string Tail(int lines = 3) =>
        string.Join(
            " | ",
            StandardError
                .Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
                .TakeLast(lines)
        );

    /// <summary>Sends SIGINT (what Ctrl+C would), which tools such as perf take as "finish and write your file".</summary>
    public void Interrupt()
    {
        if (!process.HasExited)
        {
            _ = ProcessSignal.Send(process.Id, ProcessSignal.Interrupt);
        }
    }

    /// <summary>Waits until it exits; false when it did not within <paramref name="timeout"/>.</summary>
    public async Task<bool> WaitForExitAsync(TimeSpan timeout, CancellationToken ct = default)
    {
        using var limit = CancellationTokenSource.CreateLinkedTokenSource(ct);
        limit.CancelAfter(timeout);
        try
        {
            await process.WaitForExitAsync(limit.Token);
        }
        catch (OperationCanceledException) when (!ct.IsCancellationRequested)
        {
            return false;
        }
        // Drains the redirected streams.
        process.WaitForExit();
        return true;
    }

    public async ValueTask DisposeAsync()
    {
        try
        {
            if (!process.HasExited)
            {
                process.Kill(entireProcessTree: true);
                await process.WaitForExitAsync();
            }
        }
        catch (InvalidOperationException)
        {
            // It was never started or has gone already.
        }
        process.Dispose();
    }

    private void KeepError(string? line)
    {
        if (line is null)
        {
            return;
        }
        lock (stderr)
        {
            stderr.AppendLine(line);
            if (stderr.Length > KeptErrorChars)
            {
                stderr.Remove(0, stderr.Length - KeptErrorChars);
            }
        }
    }
}
