import { readFileSync } from 'node:fs';

/** The main thread's time over a window: busy (event-loop utilisation × wall time) and the CPU it used. */
export interface MainThreadTime {
  /** Time the event loop was not idle: CPU, and also time the thread was runnable but another thread had the core. */
  busyMs: number;
  /** CPU time of the main thread alone (user + system); null where neither Node nor the OS tells it. */
  cpuMs: number | null;
}

/**
 * The main thread's CPU time so far, in ms: process.threadCpuUsage where Node has it (≥ 23.9), else
 * Linux's /proc/self/task/<pid>/stat (the main thread's task id is the process id; utime and stime in
 * clock ticks of 10 ms, USER_HZ 100); null elsewhere. Call it on the main thread.
 */
export function mainThreadCpuMs(): number | null {
  const threadCpuUsage = (process as { threadCpuUsage?: () => NodeJS.CpuUsage }).threadCpuUsage;
  if (threadCpuUsage) {
    const usage = threadCpuUsage();
    return (usage.user + usage.system) / 1000;
  }
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    // Fields after the command's closing parenthesis start at field 3 (state): utime is field 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/**
 * Starts measuring the main thread; `stop()` says how busy it was and how much CPU it used since. On a
 * machine whose cores are shared (the load generator's thread, the service threads, other work), busy
 * time counts the moments the thread waited for a core; CPU time does not.
 */
export function startMainThreadMeter(): { stop(): MainThreadTime } {
  const loop = performance.eventLoopUtilization();
  const cpuAtStart = mainThreadCpuMs();
  return {
    stop() {
      const busyMs = performance.eventLoopUtilization(loop).active;
      const cpuNow = mainThreadCpuMs();
      return { busyMs, cpuMs: cpuAtStart === null || cpuNow === null ? null : cpuNow - cpuAtStart };
    },
  };
}

/** The time per unit of work (per token, per payment): both figures divided by `units`. */
export function perUnit(time: MainThreadTime, units: number): MainThreadTime {
  return { busyMs: time.busyMs / units, cpuMs: time.cpuMs === null ? null : time.cpuMs / units };
}
