import { freePort } from './ports.js';

/**
 * `count` different TCP ports free on 127.0.0.1 right now. Asking `freePort` again and again is not
 * enough: the system may hand out a port it just released a second time.
 */
export async function distinctFreePorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freePort());
  return [...ports];
}
