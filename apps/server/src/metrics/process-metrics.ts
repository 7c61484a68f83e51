import { readdir } from 'node:fs/promises';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Counter, Gauge, type Registry } from 'prom-client';

/**
 * The process's own figures under the usual Prometheus names: CPU, memory, event loop delay,
 * open files and handles, read at each scrape. Not prom-client's `collectDefaultMetrics`: its
 * garbage-collection observer made every collection dearer, about 7% of a list request's CPU
 * (docs/benchmarks.md § Metrics on and off). Answers what stops the delay monitor.
 */
export function registerProcessMetrics(registry: Registry): () => void {
  const registers = [registry];
  const delay = monitorEventLoopDelay({ resolution: 20 });
  delay.enable();

  // Each group is read in its first metric's collect: prom-client collects in the order of registration.
  let cpu = process.cpuUsage();
  let spent = { user: 0, system: 0 };
  new Counter({
    name: 'process_cpu_user_seconds_total',
    help: 'User CPU time spent, in seconds',
    registers,
    collect() {
      const now = process.cpuUsage();
      spent = { user: now.user - cpu.user, system: now.system - cpu.system };
      cpu = now;
      this.inc(spent.user / 1e6);
    },
  });
  new Counter({
    name: 'process_cpu_system_seconds_total',
    help: 'System CPU time spent, in seconds',
    registers,
    collect() {
      this.inc(spent.system / 1e6);
    },
  });
  new Counter({
    name: 'process_cpu_seconds_total',
    help: 'User and system CPU time spent, in seconds',
    registers,
    collect() {
      this.inc((spent.user + spent.system) / 1e6);
    },
  });
  new Gauge({
    name: 'process_start_time_seconds',
    help: 'When the process started, in seconds since the Unix epoch',
    registers,
  }).set(Math.round(Date.now() / 1000 - process.uptime()));
  let memory = process.memoryUsage();
  new Gauge({
    name: 'process_resident_memory_bytes',
    help: 'Resident memory size in bytes',
    registers,
    collect() {
      memory = process.memoryUsage();
      this.set(memory.rss);
    },
  });
  new Gauge({
    name: 'nodejs_heap_size_used_bytes',
    help: 'V8 heap in use, in bytes',
    registers,
    collect() {
      this.set(memory.heapUsed);
    },
  });
  new Gauge({
    name: 'nodejs_heap_size_total_bytes',
    help: 'V8 heap size, in bytes',
    registers,
    collect() {
      this.set(memory.heapTotal);
    },
  });
  new Gauge({
    name: 'nodejs_external_memory_bytes',
    help: 'Memory of C++ objects bound to JavaScript (buffers included), in bytes',
    registers,
    collect() {
      this.set(memory.external);
    },
  });
  const lag = new Gauge({
    name: 'nodejs_eventloop_lag_seconds',
    help: 'Event loop delay since the last scrape, in seconds, by quantile (0.5, 0.99) and max',
    labelNames: ['quantile'] as const,
    registers,
    collect() {
      lag.set({ quantile: '0.5' }, delay.percentile(50) / 1e9);
      lag.set({ quantile: '0.99' }, delay.percentile(99) / 1e9);
      lag.set({ quantile: 'max' }, delay.max / 1e9);
      delay.reset();
    },
  });
  new Gauge({
    name: 'nodejs_active_resources_total',
    help: 'Handles and requests keeping the event loop alive (sockets, timers, files)',
    registers,
    collect() {
      this.set(process.getActiveResourcesInfo().length);
    },
  });
  new Gauge({
    name: 'process_open_fds',
    help: 'Open file descriptors (Linux)',
    registers,
    async collect() {
      const fds = await readdir('/proc/self/fd').catch(() => undefined);
      if (fds) this.set(fds.length);
    },
  });
  return () => delay.disable();
}
