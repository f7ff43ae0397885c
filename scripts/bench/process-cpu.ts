import { readFileSync } from "node:fs";

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/**
 * CPU seconds a process has used so far (user + system, from /proc): a server's own cost,
 * which other processes on a shared machine disturb far less than its throughput.
 */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // Fields 14 and 15 of stat(5) (utime, stime), counted from the state (field 3) here.
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}
