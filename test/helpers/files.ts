// Temporary folders of the tests.
import { rmSync } from 'node:fs';

/**
 * Removes a test's temporary folder. A session's shell may still be writing its exit file
 * into it while the tmux server dies (a test that pressed `q` and ended: the CI run of stop 30
 * failed on `ENOTEMPTY` in `afterAll`), so a file that appears during the removal is retried
 * (`maxRetries`, as `rm -rf` would lose the race too), and a folder that still cannot be removed
 * is left in the temporary folder with a warning: cleaning up never fails a test.
 */
export function removeTree(path: string): void {
  try {
    rmSync(path, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
  } catch (e) {
    console.warn(`could not remove ${path}: ${(e as Error).message}`);
  }
}
