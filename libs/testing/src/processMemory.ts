import { readFileSync } from 'node:fs';

/** A process's memory as Linux reports it in /proc/<pid>/status, in bytes. */
export interface ProcessMemory {
  /** Resident set size now (VmRSS). */
  rss: number;
  /** Peak resident set size since start (VmHWM). */
  peak: number;
}

/** Reads a `Name:   123 kB` field of a /proc status text, in bytes; 0 when absent. */
export const statusFieldBytes = (statusText: string, field: string): number => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(statusText)?.[1] ?? 0) * 1024;

/** The memory of process `pid`; zeros once it is gone (or off Linux). */
export const processMemory = (pid: number): ProcessMemory => {
  try {
    const text = readFileSync(`/proc/${pid}/status`, 'utf8');
    return { rss: statusFieldBytes(text, 'VmRSS'), peak: statusFieldBytes(text, 'VmHWM') };
  } catch {
    return { rss: 0, peak: 0 };
  }
};
