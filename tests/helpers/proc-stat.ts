import fs from 'node:fs';

/**
 * The fields of /proc/PID/stat after the command name (which may hold spaces): index 0 is field 3
 * (the state), so field N is at N - 3.
 */
export function procStatFields(pid: number | string): string[] {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}
